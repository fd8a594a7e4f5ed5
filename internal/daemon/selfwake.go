package daemon

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/selfwake"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// srcSelfWake is the wakeup the watchdog delivers in place of the
// client's own scheduled wakeup that did not fire.
const srcSelfWake = "self_wakeup"

// selfWakeMemory is what the client said will wake its session by itself
// (Claude Code's Stop: background_tasks, session_crons). Under agent.mu.
type selfWakeMemory struct {
	parked selfwake.Parked
	// parkedSaid: this report's cap (idle.parked_max) was alerted.
	parkedSaid bool
	// retryEnd is the end of the latest retry wait the exec run in flight
	// announced (zero: none this run).
	retryEnd time.Time
}

// retryWaiter is a deliverer whose run can announce a retry wait (exec).
type retryWaiter interface {
	RetryUntil(now time.Time) (time.Time, bool)
}

// retryUntil is the end of the retry wait the exec run in flight
// announced, kept once its wait is over (inactivity counts from it).
// Called with a.mu held.
func (a *agent) retryUntil(now time.Time) time.Time {
	if w, ok := a.deliver.(retryWaiter); ok {
		if until, _ := w.RetryUntil(now); until.After(a.retryEnd) {
			a.retryEnd = until
		}
	}
	return a.retryEnd
}

// selfWakeCfg is the bound on the client's word. Called with a.mu held
// or without: the config does not change under a running agent.
func (a *agent) selfWakeCfg() selfwake.Config {
	return selfwake.Config{Margin: a.cfg.Idle.SelfWakeupMargin.D(), MaxHold: a.cfg.Idle.ParkedMax.D()}
}

// parkedBy folds in what one hook event says of the session's own
// wakeups: a turn's end reports them, a turn's start (the cron fired, or
// anything else woke it) ends them. The session's end ends its background
// work, not the wait for its crons: they die with it and never fire (a
// session-only cron), so the watchdog delivers the one due. An exec
// run's report is not read: the run's end is its answer. It reports a
// model switch the client made by itself (its fallback). Called with
// a.mu held.
func (a *agent) parkedBy(e hook.Event, exec bool) (autoSwitch bool) {
	switch e.Kind {
	case hook.TurnEnd:
		a.parked, a.parkedSaid = selfwake.Parked{}, false
		if !exec && a.cfg.Idle.ParkedMax > 0 && e.Time.After(a.started) { // a report from before the start is stale
			a.parked = selfwake.Read(e.Time, e.Tasks, e.Crons, a.loc)
		}
	case hook.TurnStart, hook.Tool:
		a.parked, a.parkedSaid = selfwake.Parked{}, false
	case hook.SessionEnd:
		a.parked.Tasks = 0
	case hook.ModelSwitch:
		return e.Detail == "auto"
	}
	return false
}

// selfWakeups judges, each pulse, the session's own wakeups: one that has
// not fired by its time plus idle.self_wakeup_margin is alerted and
// delivered in its place, once (the report is then spent); a report that
// asked to be believed past idle.parked_max is said once. And a model
// the client switched to by itself is said.
func (a *agent) selfWakeups(now time.Time, id workspace.ID, switched []hook.Event) {
	for _, e := range switched {
		_, priced := a.cfg.Prices[e.Model]
		how := "its turns are priced by the model each request names, and " + e.Model + " is in prices"
		if !priced {
			how = "its turns are priced by the model each request names, and " + e.Model + " is not in prices: their cost is unknown unless the client prices them"
		}
		a.emit(now, id, checks.Info, "model", fmt.Sprintf("the client switched the session's model by itself (its fallback) to %s: %s", e.Model, how), 0)
	}
	a.mu.Lock()
	p := a.parked
	v := selfwake.Judge(p, now, a.selfWakeCfg())
	if v.Missed {
		a.parked = selfwake.Parked{} // delivered once; the next turn's end reports anew
	}
	capped := v.Capped && !a.parkedSaid
	if v.Capped {
		a.parkedSaid = true
	}
	a.mu.Unlock()
	switch {
	case v.Missed:
		a.emit(now, id, checks.Warning, "self_wakeup", fmt.Sprintf("the client's own scheduled wakeup %s (cron %q) was due at %s and has not fired by %s (idle.self_wakeup_margin): the watchdog wakes the agent in its place",
			p.Cron.ID, p.Cron.Schedule, clockTime(p.Next, a.loc), clockTime(p.Next.Add(a.cfg.Idle.SelfWakeupMargin.D()), a.loc)), 0)
		a.wake(srcSelfWake, ja.F(a.cfg.Language, "Your own scheduled wakeup (%s) was due at %s and did not fire: the watchdog wakes you in its place. Do what you had scheduled, then go on as usual.",
			p.Cron.Schedule, limitWhen(p.Next, now, a.loc)))
	case capped:
		a.emit(now, id, checks.Info, "self_wakeup", fmt.Sprintf("the client said at %s that the session is parked (%d background tasks, next own wakeup %s): not believed past idle.parked_max (%s), so idle wakeups go on",
			limitWhen(p.At, now, a.loc), p.Tasks, nextWord(p, now, a.loc), humanize.Duration(a.cfg.Idle.ParkedMax.D())), 0)
	}
}

// clockTime is t to the second, in loc.
func clockTime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2006-01-02 15:04:05")
}

// nextWord is a parked report's next own wakeup, for an alert.
func nextWord(p selfwake.Parked, now time.Time, loc *time.Location) string {
	if p.Next.IsZero() {
		return "none"
	}
	return limitWhen(p.Next, now, loc)
}

// runSaid alerts what an exec run's client said of its own session
// (Claude Code's stream-json): a turn loop it ended for its own reason
// (result.terminal_reason other than completed: max_turns,
// budget_exhausted, blocking_limit, ...) names the run's fate; writes it
// lost for a full disk are an error, whatever the run's end; a run that
// ended waiting for a person (requires_action) is said.
func (a *agent) runSaid(now time.Time, id workspace.ID, res delivery.Result, err error) {
	if res.RetryCapped {
		a.emit(now, id, checks.Warning, "run_end", fmt.Sprintf("the client announced retry waits past agent.retry_wait_max (%s): the run was not given longer, nor inactivity held off longer", humanize.Duration(a.cfg.Agent.RetryWaitMax.D())), 0)
	}
	if res.WritesLost != "" {
		a.emit(now, id, checks.Error, "client_disk", fmt.Sprintf("the client could not save its writes (%s): the disk is full or over quota; free space, or its transcripts and settings go on being lost", res.WritesLost), 0)
	}
	switch {
	case res.Ended != "" && res.Ended != "completed":
		how := "the run ended"
		if err != nil {
			how = "the run failed"
		}
		a.emit(now, id, checks.Warning, "run_end", fmt.Sprintf("%s by the client's own reason: terminal_reason %s", how, res.Ended), 0)
	case res.State == "requires_action" && err != nil:
		a.emit(now, id, checks.Warning, "run_end", "the run ended while the client waited for a person (session state requires_action): an unattended run cannot answer a prompt", 0)
	}
}
