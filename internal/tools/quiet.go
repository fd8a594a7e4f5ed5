package tools

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
)

// QuietStatus is why no wakeup comes now, as the watchdog published it at
// its last pulse (chambers.schedule.blocked).
type QuietStatus struct {
	Why   string `json:"why"`             // paused, gave_up, budget_spent, daily_cap, breaker_open, held_service (the model's own rate limit or overload) or outside_active_hours
	Until string `json:"until,omitempty"` // RFC 3339 time it lifts by itself; absent when a person, or your next activity log, lifts it
}

// HooksStatus is whether the client's hooks reach the watchdog: the rules
// that depend on them (the turn's end answers a wakeup; tool calls count as
// proof) hold only while they do.
type HooksStatus struct {
	Heard           bool   `json:"heard"`                      // whether the watchdog has heard from your client's hooks since it started
	LastHeard       string `json:"last_heard,omitempty"`       // RFC 3339 time of the newest hook event
	WatchdogStarted string `json:"watchdog_started,omitempty"` // RFC 3339 time the watchdog started (hooks are counted from then)
	// exec: each wakeup is a run, answered by its successful end, hooks
	// or not.
	exec bool
}

// quiet is why no wakeup comes at now, from the state the watchdog wrote:
// nil when one can come, or when what blocked it has lifted by now.
func (s standing) quiet(now time.Time) *QuietStatus {
	if !s.live {
		return nil
	}
	b := s.st.Chambers.Schedule.Blocked
	if b == nil || (b.Until != nil && !b.Until.After(now)) {
		return nil
	}
	q := &QuietStatus{Why: b.Why}
	if b.Until != nil {
		q.Until = b.Until.In(now.Location()).Format(time.RFC3339)
	}
	return q
}

// hooks is what the watchdog has heard from the client's hooks; nil where
// no watchdog runs (nothing can be said).
func (s standing) hooks(loc *time.Location) *HooksStatus {
	if !s.live {
		return nil
	}
	h := &HooksStatus{exec: s.st.Delivery == config.DeliveryExec}
	if !s.st.StartedAt.IsZero() {
		h.WatchdogStarted = s.st.StartedAt.In(loc).Format(time.RFC3339)
	}
	if c := s.st.Client; c != nil {
		h.Heard = true
		if !c.LastEvent.IsZero() {
			h.LastHeard = c.LastEvent.In(loc).Format(time.RFC3339)
		}
	}
	return h
}

// quietText says, in the agent's words, why no wakeup comes and what ends
// it. rec names the check that made recovery give up ("" when unknown).
func quietText(l lang.Lang, q *QuietStatus, rec string) string {
	until := clockIn(q.Until)
	switch q.Why {
	case state.BlockedPaused:
		if q.Until != "" {
			return fmt.Sprintf(tr(l, "No wakeup comes until %s: the operator paused the watchdog. Inactivity and introspection are not judged meanwhile."), until)
		}
		return tr(l, "No wakeup comes until the operator resumes the watchdog: it is paused. Inactivity and introspection are not judged meanwhile.")
	case state.BlockedGaveUp:
		what := tr(l, "a check that starts recovery")
		if rec != "" {
			what = checkWord(l, rec)
		}
		if q.Until != "" {
			return fmt.Sprintf(tr(l, "No wakeup comes now: recovery gave up after its attempts, held by %s, and the watchdog stopped waking you. Waking comes back as soon as that check is back to ok, when the operator resumes the watchdog, or at %s; if the operator pauses the watchdog meanwhile, waking comes back only when that pause ends. Write an activity log of type recovery now: it answers the check, and wakeups come again."), what, until)
		}
		return fmt.Sprintf(tr(l, "No wakeup comes now: recovery gave up after its attempts, held by %s, and the watchdog stopped waking you. Waking comes back as soon as that check is back to ok, or when the operator resumes the watchdog; if the operator pauses the watchdog meanwhile, waking comes back only when that pause ends. Write an activity log of type recovery now: it answers the check, and wakeups come again."), what)
	case state.BlockedBudget:
		return fmt.Sprintf(tr(l, "No wakeup comes until %s (local midnight): today's budget of tokens or cost for wakeups is spent."), until)
	case state.BlockedCap:
		return fmt.Sprintf(tr(l, "No wakeup comes until %s (local midnight): today's daily cap of wakeups is reached."), until)
	case state.BlockedBreaker:
		return fmt.Sprintf(tr(l, "No wakeup comes until %s: the last wakeups could not be delivered, so the watchdog rests, then tries one."), until)
	case state.BlockedService:
		return fmt.Sprintf(tr(l, "No wakeup comes until %s: the model's own service asked for a rest (its rate limit or an overload). This is not about your tools: report_tool_usage's limits are another thing."), until)
	case state.BlockedHours:
		return tr(l, "No scheduled or idle wakeup comes now: it is outside the active hours. They come again when the active hours begin; urgent feedback and recovery still come.")
	}
	return fmt.Sprintf(tr(l, "No wakeup comes now (%s)."), q.Why)
}

// hooksText says whether the rules that depend on the client's hooks hold.
func hooksText(l lang.Lang, h *HooksStatus) string {
	if h.Heard {
		if t, err := time.Parse(time.RFC3339, h.LastHeard); err == nil {
			return fmt.Sprintf(tr(l, "Your client's hooks are wired: the watchdog last heard from them at %s. Your tool calls count as proof, and the end of your turn answers a wakeup."), clockOf(t))
		}
		return tr(l, "Your client's hooks are wired. Your tool calls count as proof, and the end of your turn answers a wakeup.")
	}
	switch {
	case h.exec && h.WatchdogStarted != "":
		return fmt.Sprintf(tr(l, "The watchdog has not heard from your client's hooks since it started at %s: until it does, only logs and checkpoints count as proof. A run's successful end answers its wakeup."), clockIn(h.WatchdogStarted))
	case h.exec:
		return tr(l, "The watchdog has not heard from your client's hooks: until it does, only logs and checkpoints count as proof. A run's successful end answers its wakeup.")
	case h.WatchdogStarted != "":
		return fmt.Sprintf(tr(l, "The watchdog has not heard from your client's hooks since it started at %s: until it does, only an activity log answers a wakeup, and only logs and checkpoints count as proof."), clockIn(h.WatchdogStarted))
	}
	return tr(l, "The watchdog has not heard from your client's hooks: until it does, only an activity log answers a wakeup, and only logs and checkpoints count as proof.")
}

// standingNotices reports whether any notice is at warning or error: then
// a waiting agent is not told that nothing is due.
func standingNotices(notices []string) bool {
	for _, n := range notices {
		if strings.HasPrefix(n, "[warning]") || strings.HasPrefix(n, "[error]") {
			return true
		}
	}
	return false
}

// checkWord is a check's name in a sentence of language l (see checks.Name).
func checkWord(l lang.Lang, check string) string { return checks.Name(check).In(l) }
