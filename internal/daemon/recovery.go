package daemon

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// step is what the pulse must do after a recovery decision.
type step int

const (
	stepNone      step = iota
	stepAttempt        // interrupt, save chat, send the recovery notice
	stepRecovered      // all checks ok again: alert ok
	stepGaveUp         // attempts exhausted: alert gave_up, stop waking
)

// healthy means no check is at warning or above: "all checks ok" for
// recovery (infos such as pending feedback do not hold recovery open).
func healthy(res checks.Result) bool { return res.Worst() < checks.Warning }

// recoverableError returns the first error finding that starts recovery.
func recoverableError(res checks.Result) (checks.Finding, bool) {
	for _, f := range res.Findings {
		if f.Level == checks.Error && checks.Recoverable(f.Check) {
			return f, true
		}
	}
	return checks.Finding{}, false
}

// nextRecovery decides the recovery step for one pulse. It is pure.
func nextRecovery(r state.Recovery, res checks.Result, cfg config.Recovery, now time.Time) (state.Recovery, step) {
	switch {
	case r.GaveUp:
		if healthy(res) {
			return state.Recovery{}, stepRecovered
		}
		return r, stepNone
	case !r.Active:
		f, ok := recoverableError(res)
		if !ok {
			return r, stepNone
		}
		t := now
		return state.Recovery{Active: true, Attempt: 1, Check: f.Check, Reason: f.Message, StartedAt: &t, AttemptAt: &t}, stepAttempt
	case healthy(res):
		return state.Recovery{}, stepRecovered
	}
	r.WaitedCycles++
	if r.WaitedCycles < cfg.MaxWaitCycles {
		return r, stepNone
	}
	if r.Attempt >= cfg.MaxAttempts {
		r.Active, r.GaveUp = false, true
		return r, stepGaveUp
	}
	r.Attempt++
	r.WaitedCycles = 0
	t := now
	r.AttemptAt = &t
	if f, ok := recoverableError(res); ok {
		r.Check, r.Reason = f.Check, f.Message
	}
	return r, stepAttempt
}

// recoveryLogged reports whether a recovery log was written since the
// current attempt began (logs newest first, as the scan keeps them): the
// notice has been answered, and repeating "write a recovery log" would ask
// for a second one. A state written before attempt_at existed counts from
// the start of recovery.
func recoveryLogged(r state.Recovery, logs []workspace.Proof) bool {
	since := r.AttemptAt
	if since == nil {
		since = r.StartedAt
	}
	if since == nil {
		return false
	}
	for _, l := range logs {
		if !l.ModTime.After(*since) {
			break
		}
		if l.Type == workspace.Recovery {
			return true
		}
	}
	return false
}

// recoveryNotice is the recovery paragraph for the next heartbeat prompt,
// in language l. The reason is the check's message (an alert line) in
// English, the check's own reason in Japanese.
func recoveryNotice(r state.Recovery, maxAttempts int, l lang.Lang) string {
	return ja.F(l, `RECOVERY (attempt %d of %d): the watchdog detected a problem: %s
Reset before anything else. Do this now:
1. Stop what you were doing; do not repeat the last action.
2. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
3. Write an activity log with create_activity_log, activity_type "recovery", saying what happened and what you will do next.
4. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`, r.Attempt, maxAttempts, recoveryReason(r, l))
}

// recoveryReason is why recovery started, in language l: the alert line in
// English; in Japanese the check's reason, since the alert line is for
// machines and would put English inside the notice.
func recoveryReason(r state.Recovery, l lang.Lang) string {
	if l != lang.Japanese {
		return r.Reason
	}
	if why, ok := jaRecoveryReasons[r.Check]; ok {
		return why
	}
	return "`" + r.Check + "` のチェックがエラーになりました"
}
