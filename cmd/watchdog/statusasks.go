package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
)

// asksRows are status's rows of the questions a person may answer from
// afar: each one waiting, the last answers (when, what, through which
// channel and credential), and today's time waiting for a person.
func asksRows(now time.Time, a *state.Asks, row func(k, v string)) {
	if a == nil {
		return
	}
	for _, q := range a.Pending {
		row("ASKS YOU", fmt.Sprintf("%s %s %s, waiting %s (until %s, then the client's own dialog): watchdog answer %s allow|deny",
			q.ID, q.Tool, clipLine(q.Input, 120), ago(now, q.Since), q.Hold.Local().Format("15:04:05"), q.ID))
	}
	var ans []string
	for i := len(a.Recent) - 1; i >= 0 && len(ans) < 3; i-- {
		ans = append(ans, answerWords(a.Recent[i]))
	}
	if len(ans) > 0 {
		row("answers", strings.Join(ans, "; "))
	}
	if a.Today > 0 {
		row("waited for you", fmt.Sprintf("%s today, %s", (time.Duration(a.WaitedToday)*time.Second).String(), countOf(int64(a.Today), "question")))
	}
}

// answerWords says one answer: "14:05 allow Bash (page, the page's token)
// after 3m0s".
func answerWords(r state.Answer) string {
	at := r.Time.Local().Format("15:04")
	by := r.Via
	if r.By != "" {
		by += ", " + r.By
	}
	switch r.Outcome {
	case "delivered":
		return fmt.Sprintf("%s %s %s %s (%s) after %s", at, r.ID, r.Decision, r.Tool, by, time.Duration(r.Waited)*time.Second)
	case "gone":
		return fmt.Sprintf("%s %s %s %s came too late (%s)", at, r.ID, r.Decision, r.Tool, by)
	case "withdrawn":
		return fmt.Sprintf("%s %s %s: no answer from afar (%s)", at, r.ID, r.Tool, r.Why)
	case "told":
		return fmt.Sprintf("%s words for the agent (%s)", at, by)
	}
	return fmt.Sprintf("%s %s an answer refused (%s): %s", at, r.ID, by, r.Why)
}
