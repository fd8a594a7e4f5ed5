package state

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
)

// Why no wakeup reaches the agent, in the order Blocking looks for them:
// the pause a person set, then what refuses every wakeup whatever recovery
// does (the budget, the cap, the breaker, the service hold: a give-up under
// them would end and still wake nobody), then a give-up, then active hours.
const (
	BlockedPaused  = "paused"               // `watchdog pause`
	BlockedGaveUp  = "gave_up"              // recovery gave up
	BlockedBudget  = "budget_spent"         // the daily (or fleet) budget
	BlockedCap     = "daily_cap"            // the daily cap of wakeups
	BlockedBreaker = "breaker_open"         // the circuit breaker's cooldown
	BlockedService = "held_service"         // the model's service asked for a rest
	BlockedHours   = "outside_active_hours" // schedule and idle wait for active hours
)

// blockedWords are the reasons in a word or two, for a badge or a column.
var blockedWords = map[string]string{
	BlockedPaused: "paused", BlockedGaveUp: "gave up", BlockedBudget: "budget spent", BlockedCap: "daily cap reached",
	BlockedBreaker: "breaker open", BlockedService: "held by the service", BlockedHours: "outside active hours",
}

// Blocked says why the wakeup the schedule, idle or recovery would send
// now is dropped or held: no next wakeup is announced while it lasts.
type Blocked struct {
	// Why is one of the Blocked* constants.
	Why string `json:"why"`
	// Reason says it in a sentence, with what lifts it.
	Reason string `json:"reason"`
	// Until is when it lifts by itself; absent when a person or the
	// agent's health lifts it.
	Until *time.Time `json:"until,omitempty"`
	// Detail names what holds it, for the word: "5-hour limit, 100 %
	// used".
	Detail string `json:"detail,omitempty"`
}

// Word is the reason in a word or two ("budget spent").
func (b Blocked) Word() string {
	if w, ok := blockedWords[b.Why]; ok {
		return w
	}
	return b.Why
}

// Blocking is why no wakeup can reach the agent at now, from the state a
// pulse wrote, or nil when one can. It is pure: the state and now decide,
// and loc draws the local day of the cap and the budget (nil = Local).
// What ends by now (a pause's until, the breaker's cooldown, a service
// hold, the day a cap or a budget was spent) blocks nothing.
func Blocking(s State, now time.Time, loc *time.Location) *Blocked {
	if loc == nil {
		loc = time.Local
	}
	today := now.In(loc).Format(time.DateOnly)
	y, m, d := now.In(loc).Date()
	midnight := time.Date(y, m, d+1, 0, 0, 0, 0, loc)
	at := func(t time.Time) *time.Time { return &t }
	sc := s.Chambers.Schedule
	switch {
	case s.Pause.Active(now):
		b := &Blocked{Why: BlockedPaused, Reason: "paused until `watchdog resume`: no wakeups, no inactivity or introspection alerts"}
		if !s.Pause.Until.IsZero() {
			b.Reason, b.Until = "paused: no wakeups, no inactivity or introspection alerts until the pause ends", at(s.Pause.Until)
		}
		if s.Pause.Reason != "" {
			b.Reason += " (" + s.Pause.Reason + ")"
		}
		return b
	case s.Cost != nil && s.Cost.Budget != nil && s.Cost.Budget.Spent && s.Cost.Today.To == today:
		return &Blocked{Why: BlockedBudget, Reason: "daily budget spent (" + s.Cost.Budget.Reason + "): no wakeups from any source until local midnight; recovery only alerts", Until: at(midnight)}
	case s.DailyCap.Limit > 0 && s.DailyCap.Used >= s.DailyCap.Limit && s.DailyCap.Day == today:
		return &Blocked{Why: BlockedCap, Reason: fmt.Sprintf("daily cap of %d wakeups reached: no wakeups until local midnight; recovery only alerts", s.DailyCap.Limit), Until: at(midnight)}
	case s.Breaker.State == budget.Open && s.Breaker.OpenUntil.After(now):
		return &Blocked{Why: BlockedBreaker, Reason: fmt.Sprintf("circuit breaker open after %d delivery failures: wakeups are skipped until its cooldown ends, then one probe goes", s.Breaker.Failures), Until: at(s.Breaker.OpenUntil)}
	case sc.HeldUntil != nil && sc.HeldUntil.After(now):
		why, then := "the model's service asked for a rest", ""
		switch {
		case sc.HeldLimit || strings.Contains(sc.HeldFor, "limit"):
			why, then = "the client's rate limit is used up ("+sc.HeldFor+")", " (`watchdog resume` ends it)"
		case s.Client != nil && s.Client.Failure != "":
			why += " (" + s.Client.Failure + ")"
		}
		return &Blocked{Why: BlockedService, Reason: why + ": wakeups are held until then" + then + ", and one wakeup probes it", Until: at(*sc.HeldUntil), Detail: sc.HeldFor}
	case s.Recovery.GaveUp:
		why := "recovery gave up"
		if s.Recovery.Reason != "" {
			why += " (" + s.Recovery.Reason + ")"
		}
		return &Blocked{Why: BlockedGaveUp, Reason: why + ": the agent is not woken until no check that starts recovery is at error, `watchdog resume`, or the time set in recovery.resume_after", Until: s.Recovery.ResumeBy}
	case sc.OutsideActiveHours:
		return &Blocked{Why: BlockedHours, Reason: "outside active hours: schedule and idle wakeups wait for them (recovery and urgent feedback still go)"}
	}
	return nil
}
