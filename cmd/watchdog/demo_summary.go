package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
)

// fate is a number of wakeups and what became of them, in words.
type fate struct {
	n        int64
	en, ja   string
	subsetEN string // the ghosts among the delivered, in words ("" = none)
	subsetJA string
}

// wakeupFates splits the admitted wakeups by fate so that the parts add up
// to the whole: ghosts are delivered runs that answered only [IDLE] (said
// inside the delivered), and what has no fate yet was still running when
// the demo ended. Wakeups that came due while one ran (coalesced) or were
// not sent (paused, gave up, outside active hours) were never admitted:
// they follow, apart.
func wakeupFates(c state.Counters) (admitted []fate, apart []fate) {
	d := fate{n: c.Delivered, en: "delivered", ja: "届けた起動"}
	if c.Ghosts > 0 {
		d.subsetEN = fmt.Sprintf(" (%d of them ghosts: [IDLE], nothing to do)", c.Ghosts)
		d.subsetJA = fmt.Sprintf("（うち%d回はゴースト：[IDLE] だけの応答）", c.Ghosts)
	}
	admitted = []fate{d,
		{n: c.DeliveryFailures, en: "failed", ja: "失敗した起動"},
		{n: c.TakenOver, en: "taken over by recovery or feedback", ja: "回復か緊急のフィードバックに引き継いだ起動"},
		{n: c.ToolCapped, en: "ended at the tool-call cap", ja: "ツール呼び出しの上限で終えた起動"},
		{n: c.TokenCapped, en: "ended at the token cap", ja: "トークンの上限で終えた起動"},
		{n: c.Dropped, en: "over the daily cap", ja: "1日の上限を超えた起動"},
		{n: c.DroppedBudget, en: "over the budget", ja: "予算を超えた起動"},
		{n: c.Skipped, en: "skipped by the open breaker", ja: "開いたブレーカーで見送った起動"},
		{n: c.HeldService, en: "held for the model's service", ja: "モデルのサービス側の制限で保留した起動"},
	}
	sum := int64(0)
	for _, f := range admitted {
		sum += f.n
	}
	admitted = append(admitted, fate{n: c.Wakeups - sum, en: "still running when the demo ended", ja: "デモの終わりにまだ実行中だった起動"})
	apart = []fate{
		{n: c.Coalesced, en: "came due while one was running and joined it", ja: "実行中に重なったため一つにまとめました"},
		{n: c.Paused, en: "not sent: paused", ja: "一時停止中のため送りませんでした"},
		{n: c.GaveUp, en: "not sent: recovery gave up", ja: "回復を断念したため送りませんでした"},
		{n: c.OutsideActiveHours, en: "held outside active hours", ja: "活動時間外のため保留しました"},
	}
	return admitted, apart
}

// summaryLine is the demo's first summary line: the wakeups as a sum, then
// the rest of the day's counts.
func summaryLine(l lang.Lang, c state.Counters, recoveries int) string {
	admitted, apart := wakeupFates(c)
	var parts, more []string
	for _, f := range admitted {
		if f.n <= 0 {
			continue
		}
		if l == lang.Japanese {
			parts = append(parts, fmt.Sprintf("%s%d回%s", f.ja, f.n, f.subsetJA))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s%s", f.n, f.en, f.subsetEN))
		}
	}
	for _, f := range apart {
		if f.n <= 0 {
			continue
		}
		if l == lang.Japanese {
			more = append(more, fmt.Sprintf("ほかに%d回は、%s", f.n, f.ja))
		} else {
			more = append(more, fmt.Sprintf("%d more %s", f.n, f.en))
		}
	}
	if l == lang.Japanese {
		// One sentence a count, no parentheses inside parentheses: the
		// whole, then its parts, then what was never admitted.
		s := fmt.Sprintf("まとめ：起動%d回。%s", c.Wakeups, strings.Join(parts, "、"))
		if len(more) > 0 {
			s += "。" + strings.Join(more, "。")
		}
		return s + fmt.Sprintf("。警報%d件、回復%d回、パルス%d回。", c.Alerts, recoveries, c.Pulses)
	}
	s := fmt.Sprintf("Summary: %s: %s", plural(c.Wakeups, "wakeup"), strings.Join(parts, ", "))
	if len(more) > 0 {
		s += "; " + strings.Join(more, "; ")
	}
	return s + fmt.Sprintf(". %s, %s, %d pulses.", plural(c.Alerts, "alert"), plural(int64(recoveries), "recovery"), c.Pulses)
}

// startOver clears the state an earlier version's demo kept in this folder
// (the ledgers, the breaker, the day strip), which the watchdog now keeps
// in its state folder and would name as old state to migrate. The folder
// is a demo's (newDemo refuses any other).
func startOver(root string) error {
	for _, f := range []string{cost.File, budget.DailyCapFile, budget.BreakerFile, day.Dir} {
		if err := os.RemoveAll(filepath.Join(root, "stats", f)); err != nil {
			return err
		}
	}
	return nil
}

// watchdogCommand is how the person who ran the demo can run this same
// watchdog: bin/watchdog when that is it (make run), watchdog when the
// PATH finds it, else its full path.
func watchdogCommand() string {
	self, err := os.Executable()
	if err != nil {
		return "watchdog"
	}
	self, _ = filepath.EvalSymlinks(self)
	same := func(p string) bool {
		abs, err := filepath.Abs(p)
		if err != nil {
			return false
		}
		abs, _ = filepath.EvalSymlinks(abs)
		return abs == self
	}
	if same(filepath.Join("bin", "watchdog")) {
		return "bin/watchdog"
	}
	if p, err := exec.LookPath("watchdog"); err == nil && same(p) {
		return "watchdog"
	}
	return self
}
