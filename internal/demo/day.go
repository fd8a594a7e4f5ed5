package demo

import (
	"context"
	"fmt"
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
	case strings.Contains(text, "RECOVERY (attempt"):
		return a.recover(ctx, text)
	case a.mem.Stalled:
		// A wakeup while the stalled run still hangs: the watchdog coalesces
		// those, so this is a late one; nothing to add.
		return "Nothing to add.", nil
	case introspectionDue(text) && a.mem.Step > stepStartTheme:
		if err := a.log(ctx, "introspection", "The notice says an introspection is due: I have been heads-down on tides without stepping back.",
			"Next: keep the notes shorter, and declare deep work before long stretches."); err != nil {
			return "", err
		}
		a.mem.Introspected = true
		return "Wrote the introspection the notice asked for.", nil
	}
	switch a.mem.Step {
	case stepStartTheme:
		out, err := a.call(ctx, "start_theme", map[string]any{
			"theme_name": "Why are there two tides a day?", "theme_directory_part": "tides",
			"reason": "A question from the themebox of an imaginary operator.",
		})
		if err != nil {
			return "", err
		}
		a.mem.ThemeID, _ = out["theme_start_id"].(string)
		a.mem.ThemePart, _ = out["theme_directory_part"].(string)
		if err := a.log(ctx, "observation", "Read about the Moon's pull on the near and the far side of the Earth."); err != nil {
			return "", err
		}
		return a.next("Started the tides theme and logged a first observation.")
	case stepThink:
		if err := a.log(ctx, "thinking", "Two bulges, one under the Moon and one opposite: the Earth turns under both."); err != nil {
			return "", err
		}
		if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": "sketching the two bulges"}); err != nil {
			return "", err
		}
		return a.next("Thought it through; checkpointed the sketch.")
	case stepFlexible:
		if _, err := a.call(ctx, "start_deep_work", map[string]any{"mode": "flexible",
			"activity_description": "drawing a diagram of the tidal bulges"}); err != nil {
			return "", err
		}
		for _, c := range []string{"outlining the Earth and Moon", "adding the far-side bulge"} {
			if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": c}); err != nil {
				return "", err
			}
		}
		return a.next("In flexible deep work on the diagram; checkpoints keep the watchdog informed.")
	case stepCreate:
		if err := a.log(ctx, "creation", "Finished the diagram: artifacts/…/tides/diagram.md."); err != nil {
			return "", err
		}
		return a.next("The diagram is done; the log ended the flexible deep work.")
	case stepStrict:
		if !a.mem.Introspected {
			// Busy, and forgetting to introspect until the notice says so.
			if _, err := a.call(ctx, "checkpoint", map[string]any{"current_activity": "polishing the diagram's labels"}); err != nil {
				return "", err
			}
			return "Still polishing the diagram.", nil
		}
		out, err := a.call(ctx, "start_deep_work", map[string]any{"mode": "strict",
			"activity_description": "checking the diagram against real tide tables", "planned_duration_minutes": 1})
		if err != nil {
			return "", err
		}
		if d, ok := out["deadline"].(string); ok {
			a.mem.StrictUntil, _ = time.Parse(time.RFC3339, d)
		}
		return a.next("Heads-down for a minute of strict deep work.")
	case stepAfterStrict:
		if time.Now().Before(a.mem.StrictUntil) {
			return "Still in strict deep work until " + a.mem.StrictUntil.Local().Format("15:04:05") + "; nothing to log yet.", nil
		}
		if err := a.log(ctx, "creation", "Compared with the tide tables: the diagram holds, with a note on spring tides."); err != nil {
			return "", err
		}
		return a.next("Strict deep work over; logged the result.")
	case stepStall:
		return a.stall(ctx)
	case stepEndTheme:
		if _, err := a.call(ctx, "end_theme", map[string]any{"theme_start_id": a.mem.ThemeID, "theme_directory_part": a.mem.ThemePart,
			"reason": "The question is answered.", "achievements": []string{"a diagram of the two tidal bulges"}}); err != nil {
			return "", err
		}
		return a.next("Ended the tides theme.")
	case stepIdle1, stepIdle2:
		a.mem.Step++
		return Idle, nil
	default:
		a.mem.Done = true
		return Idle, nil
	}
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
	a.opts.Narrate("stall", "the agent hangs mid-run, writing nothing (a stuck agent)")
	deadline := time.Now().Add(a.opts.StallMax)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			a.opts.Narrate("stall", "the watchdog ends the stuck run (SIGTERM) before it wakes the agent again")
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
	if err := a.log(ctx, "recovery", "The watchdog woke me: I had stalled mid-run.", "Next: finish the tides theme."); err != nil {
		return "", err
	}
	if introspectionDue(text) {
		if err := a.log(ctx, "introspection", "Stalling cost time; I will checkpoint before anything long."); err != nil {
			return "", err
		}
	}
	if a.mem.Stalled {
		a.mem.Stalled, a.mem.Recovered = false, true
		a.mem.Step = stepEndTheme
	}
	return "Back after the recovery notice; logged what happened.", nil
}
