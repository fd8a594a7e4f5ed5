package main

import (
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
)

// The demo narrated in Japanese (`watchdog demo --lang ja`), so a Japanese
// newcomer follows the loop in their own language. The alert lines stay
// English: they are what machines read, in both languages.

// t is the narration's words in the demo's language.
func (d *demoRun) t(en, ja string) string {
	if d.lang == lang.Japanese {
		return ja
	}
	return en
}

var sourceNamesJa = map[string]string{"schedule": "定期の起動", "idle": "アイドル時の起動", "recovery": "回復の起動", "feedback": "緊急のフィードバックによる起動"}

// hJa spells a config duration in Japanese: 4秒, 5分, 1時間.
func hJa(d config.Duration) string { return humanize.DurationIn(lang.Japanese, d.D()) }

func (d *demoRun) headerJa(addr string) {
	def := config.Defaults()
	th, dth := d.cfg.Thresholds, def.Thresholds
	d.say.Printf("ai-heart デモ：台本どおりに動くエージェントの一日を watchdog が見守ります（約2分。Ctrl-C で止まります）\n\n")
	d.say.Printf("  状況ページ     http://%s/\n", addr)
	d.say.Printf("  ワークスペース %s（終わった後も残ります）\n", d.dir)
	d.say.Printf("  エージェント   組み込みの台本。`gemini -p` のように exec で起こされ、本物の mcp-heart を stdio で呼びます\n")
	d.say.Printf("  縮めた時間     パルス %s（既定 %s）・起動の間隔 %s（%s）・無活動の警告 %s／エラー %s（%s／%s）\n",
		hJa(d.cfg.Pulse.Interval), hJa(def.Pulse.Interval), hJa(d.cfg.Schedule.Every), hJa(def.Schedule.Every),
		hJa(th.InactivityWarning), hJa(th.InactivityError), hJa(dth.InactivityWarning), hJa(dth.InactivityError))
	d.say.Printf("                 内省は作業時間で%sごと（%s）\n", hJa(th.Introspection), hJa(dth.Introspection))
	d.say.Printf("  （alert と recovery の行は、機械が読む英語のままです）\n\n")
}

func (d *demoRun) summaryJa(c state.Counters, rec int, cs *cost.Summary) {
	d.say.Printf("\n%s\n", summaryLine(lang.Japanese, c, rec))
	if cs != nil {
		all, g := cs.Today.By.Sum(""), cs.Today.By.Sum(cost.Ghost)
		d.say.Printf("1日のコスト：実行%d回で%s。うちゴースト%d回で%s。パルスは$0。（台本のエージェントはモデルを呼ばないので、バイト数÷4をトークンとし、例として100万トークンあたり$3／$15で計算しています。）\n",
			all.Runs, cellCostJa(all), g.Runs, cellCostJa(g))
	}
	d.say.Printf("デモのワークスペースは %s です。エージェントのログは artifacts/ に、watchdog が公開した状態は stats/watchdog_state.json にあります（watchdog 自身の状態のフォルダはデモとともに消えました）。\n", d.dir)
	wd := watchdogCommand()
	d.say.Printf("本物のエージェントを見守るには：`%s init --lang ja ai-works`、次に `%s run`（README の「Setting up a workspace」）。\n", wd, wd)
}

// cellCostJa is cellCost in Japanese.
func cellCostJa(c cost.Cell) string { return cellCostIn(costJA, c) }
