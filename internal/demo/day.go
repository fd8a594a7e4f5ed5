package demo

import (
	"context"

	"fmt"
	"github.com/ai-heart/ai-heart/internal/lang"
	"strings"
	"time"
)

// The day's steps, one per wakeup, in order. Notices in the prompt come
// first: a recovery notice is answered before anything else, and a due
// introspection the first time the agent "remembers".
const (
	stepStartTheme = iota
	stepThink
	stepFlexible
	stepCreate
	stepStrict
	stepAfterStrict
	stepStall
	stepEndTheme
	stepIdle1
	stepIdle2
	stepDone
)

// Idle is the reply of an agent with nothing to do: a ghost wakeup.
const Idle = "[IDLE]"

// day plays the wakeup the prompt asks for and returns the final reply.
func (a *agent) day(ctx context.Context, text string) (string, error) {
	switch {
	case strings.Contains(text, "RECOVERY (attempt"), strings.Contains(text, "回復通知（"):
		return a.recover(ctx, text)
	case a.mem.Stalled:
		// A wakeup while the stalled run still hangs: the watchdog coalesces
		// those, so this is a late one; nothing to add.
		return "Nothing to add.", nil
	case introspectionDue(text) && a.mem.Step > stepStartTheme:
		if err := a.log(ctx, "introspection", a.say("The notice says an introspection is due: I have been heads-down on tides without stepping back.", "内省の時期だと通知が言っています。潮の研究に没頭して、振り返っていませんでした。"),
			a.say("Next: keep the notes shorter, and declare deep work before long stretches.", "次は、メモを短くし、長い作業の前には深い作業を宣言します。")); err != nil {
			return "", err
		}
		a.mem.Introspected = true
		return a.say("Wrote the introspection the notice asked for.", "通知が求めた内省を書きました。"), nil
	}
	switch a.mem.Step {
	case stepStartTheme:
		out, err := a.call(ctx, "start_theme", map[string]any{
			"theme_name": a.say("Why are there two tides a day?", "潮の満ち引きはなぜ一日に二回あるのか"), "theme_directory_part": "tides",
			"reason": a.say("A question from the themebox of an imaginary operator.", "架空の運用者が themebox に残した問いです。"),
		})
		if err != nil {
			return "", err
		}
		a.mem.ThemeID, _ = out["theme_start_id"].(string)
		a.mem.ThemePart, _ = out["theme_directory_part"].(string)
		if err := a.log(ctx, "observation", a.say("Read about the Moon's pull on the near and the far side of the Earth.", "地球の月に近い側と遠い側にかかる月の引力について読みました。")); err != nil {
			return "", err
		}
		return a.next(a.say("Started the tides theme and logged a first observation.", "潮のテーマを始め、最初の観測を記録しました。"))
	case stepThink:
		if err := a.log(ctx, "thinking", a.say("Two bulges, one under the Moon and one opposite: the Earth turns under both.", "膨らみは二つ、月の真下とその反対側にあり、地球はその下で自転しています。")); err != nil {
			return "", err
		}
		if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": a.say("sketching the two bulges", "二つの膨らみを図にしている")}); err != nil {
			return "", err
		}
		if err := a.work("notes.md", a.say("# Tides\n\nTwo bulges: one under the Moon, one opposite.\n", "# 潮\n\n膨らみは二つ：月の真下と、その反対側。\n")); err != nil {
			return "", err
		}
		return a.next(a.say("Thought it through; checkpointed the sketch.", "考えをまとめ、図の途中でチェックポイントを書きました。"))
	case stepFlexible:
		if _, err := a.call(ctx, "start_deep_work", map[string]any{"mode": "flexible",
			"activity_description": a.say("drawing a diagram of the tidal bulges", "潮汐による膨らみの図を描く")}); err != nil {
			return "", err
		}
		for _, c := range []string{a.say("outlining the Earth and Moon", "地球と月の輪郭を描いている"), a.say("adding the far-side bulge", "反対側の膨らみを描き足している")} {
			if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": c}); err != nil {
				return "", err
			}
		}
		if err := a.work("diagram.md", "    (  Moon  )\n\n  <(  Earth  )>\n"); err != nil {
			return "", err
		}
		return a.next(a.say("In flexible deep work on the diagram; checkpoints keep the watchdog informed.", "図の flexible な深い作業中です。チェックポイントで watchdog に様子を伝えています。"))
	case stepCreate:
		if err := a.work("diagram.md", "    (  Moon  )\n\n  <(  Earth  )>   "+a.say("two bulges, the Earth turning under them", "二つの膨らみ、その下で回る地球")+"\n"); err != nil {
			return "", err
		}
		if err := a.log(ctx, "creation", a.say("Finished the diagram: artifacts/…/tides/diagram.md.", "図を仕上げました：artifacts/…/tides/diagram.md。")); err != nil {
			return "", err
		}
		return a.next(a.say("The diagram is done; the log ended the flexible deep work.", "図ができました。このログで flexible な深い作業が終わりました。"))
	case stepStrict:
		if !a.mem.Introspected {
			// Busy, and forgetting to introspect until the notice says so.
			if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": a.say("polishing the diagram's labels", "図のラベルを整えている")}); err != nil {
				return "", err
			}
			a.mem.Polished++
			labels := a.say("- near-side bulge\n- far-side bulge\n", "- 月の側の膨らみ\n- 反対側の膨らみ\n")
			for i := 1; i < a.mem.Polished; i++ {
				labels += a.say(fmt.Sprintf("- label %d, clearer\n", i), fmt.Sprintf("- ラベル%d（読みやすく）\n", i))
			}
			if err := a.work("labels.md", labels); err != nil {
				return "", err
			}
			return a.say("Still polishing the diagram.", "まだ図を整えています。"), nil
		}
		out, err := a.call(ctx, "start_deep_work", map[string]any{"mode": "strict",
			"activity_description": a.say("checking the diagram against real tide tables", "図を実際の潮汐表と照らし合わせる"), "planned_duration_minutes": 1})
		if err != nil {
			return "", err
		}
		if d, ok := out["deadline"].(string); ok {
			a.mem.StrictUntil, _ = time.Parse(time.RFC3339, d)
		}
		return a.next(a.say("Heads-down for a minute of strict deep work.", "1分間の strict な深い作業に集中します。"))
	case stepAfterStrict:
		if time.Now().Before(a.mem.StrictUntil) {
			return a.say("Still in strict deep work until "+a.mem.StrictUntil.Local().Format("15:04:05")+"; nothing to log yet.", a.mem.StrictUntil.Local().Format("15:04:05")+"まで strict な深い作業中です。まだ記録することはありません。"), nil
		}
		if err := a.work("spring-tides.md", a.say("Spring tides: Sun and Moon in line, the bulges add up.\n", "大潮：太陽と月が並ぶと、膨らみが重なります。\n")); err != nil {
			return "", err
		}
		if err := a.log(ctx, "creation", a.say("Compared with the tide tables: the diagram holds, with a note on spring tides.", "潮汐表と照らし合わせました。図は正しく、大潮についての注を加えました。")); err != nil {
			return "", err
		}
		return a.next(a.say("Strict deep work over; logged the result.", "strict な深い作業を終え、結果を記録しました。"))
	case stepStall:
		return a.stall(ctx)
	case stepEndTheme:
		if _, err := a.call(ctx, "end_theme", map[string]any{"theme_start_id": a.mem.ThemeID, "theme_directory_part": a.mem.ThemePart,
			"reason": a.say("The question is answered.", "問いに答えが出ました。"), "achievements": []string{a.say("a diagram of the two tidal bulges", "潮汐による二つの膨らみの図")}}); err != nil {
			return "", err
		}
		return a.next(a.say("Ended the tides theme.", "潮のテーマを終えました。"))
	case stepIdle1, stepIdle2:
		a.mem.Step++
		return Idle, nil
	default:
		a.mem.Done = true
		return Idle, nil
	}
}

// say is the agent's own words in the workspace's language.
// work writes one of the theme's work files, as an agent does besides its
// logs: what the watchdog's no_progress sees change.
func (a *agent) work(name, text string) error {
	rel := "artifacts/" + a.mem.ThemeID + "_" + a.mem.ThemePart + "/" + name
	if err := a.ws.WriteFile(rel, []byte(text)); err != nil {
		return err
	}
	a.opts.Narrate("work", a.say("wrote ", "書いた：")+rel)
	return nil
}

func (a *agent) say(en, ja string) string {
	if a.opts.Lang == lang.Japanese {
		return ja
	}
	return en
}

func (a *agent) next(reply string) (string, error) {
	a.mem.Step++
	return reply, nil
}

func (a *agent) log(ctx context.Context, kind string, content ...string) error {
	_, err := a.call(ctx, "create_activity_log", map[string]any{"activity_type": kind, "activity_content": content,
		"theme_start_id": a.mem.ThemeID, "theme_directory_part": a.mem.ThemePart})
	return err
}

// introspectionDue is true when the prompt carries the introspection
// check's warning; the agent "forgets" at info and remembers at warning.
func introspectionDue(text string) bool {
	return strings.Contains(text, "[warning] introspection:") || strings.Contains(text, "[error] introspection:")
}

// stall is the run that hangs with no proof, as a stuck agent does. The
// watchdog's recovery ends it (SIGTERM) before it wakes the agent again; it
// also ends by itself at StallMax, or if a recovery run came anyway.
func (a *agent) stall(ctx context.Context) (string, error) {
	a.mem.Stalled = true
	if err := writeMemory(a.ws, a.mem); err != nil {
		return "", err
	}
	a.opts.Narrate("stall", a.say("the agent hangs mid-run, writing nothing (a stuck agent)", "エージェントが実行の途中で固まり、何も書きません（行き詰まったエージェント）"))
	deadline := time.Now().Add(a.opts.StallMax)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			a.opts.Narrate("stall", a.say("the watchdog ends the stuck run (SIGTERM) before it wakes the agent again", "watchdog が固まった実行を終わらせ（SIGTERM）、それからエージェントを起こし直します"))
			return "", ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if m, err := ReadMemory(a.ws); err == nil && m.Recovered {
			a.mem = m
			return "(the stalled run ends quietly)", nil
		}
	}
	a.mem.Stalled = false
	return "", fmt.Errorf("stalled for %s and no recovery came", a.opts.StallMax)
}

// recover answers a recovery notice as GEMINI.md asks: a recovery log, and
// the introspection if a notice says it is due.
func (a *agent) recover(ctx context.Context, text string) (string, error) {
	if err := a.log(ctx, "recovery", a.say("The watchdog woke me: I had stalled mid-run.", "watchdog に起こされました。実行の途中で固まっていました。"), a.say("Next: finish the tides theme.", "次は潮のテーマを仕上げます。")); err != nil {
		return "", err
	}
	if introspectionDue(text) {
		if err := a.log(ctx, "introspection", a.say("Stalling cost time; I will checkpoint before anything long.", "固まったことで時間を失いました。長い作業の前にはチェックポイントを書きます。")); err != nil {
			return "", err
		}
	}
	if a.mem.Stalled {
		a.mem.Stalled, a.mem.Recovered = false, true
		a.mem.Step = stepEndTheme
	}
	return a.say("Back after the recovery notice; logged what happened.", "回復通知を受けて戻り、何が起きたかを記録しました。"), nil
}
