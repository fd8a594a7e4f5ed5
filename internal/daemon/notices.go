package daemon

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/wakeup"
)

// heldNotice is an event's notice (strict deep work expired, a declaration
// renamed invalid) kept after its check went back to ok, until a delivered
// wakeup carried it or the agent acted since: an activity log or a
// checkpoint (whose tool replies carry the current notices) or a new
// declaration. Without it a notice that lasts one
// pulse would never reach an agent woken every 30 minutes.
type heldNotice struct {
	text   string    // the tagged paragraph
	raised time.Time // the pulse that first saw it
}

// holdNotices folds in a pulse: event notices are held, and those the
// agent has acted on since are let go. Call with a.mu held.
func (a *agent) holdNotices(now time.Time, snap scan.Snapshot, res checks.Result) {
	for _, f := range res.Findings {
		if !checks.Event(f.Check) || f.Level == checks.OK || f.Notice == "" {
			continue
		}
		text := tagged(f)
		if h, ok := a.held[f.Check]; !ok || h.text != text {
			a.held[f.Check] = heldNotice{text: text, raised: now}
		}
	}
	act := lastAct(snap)
	for check, h := range a.held {
		if act.After(h.raised) {
			delete(a.held, check)
		}
	}
}

// lastAct is when the agent last acted in a way that answers an event
// notice: its newest activity log, checkpoint (the tools' replies carry the
// notices) or declaration.
func lastAct(snap scan.Snapshot) time.Time {
	var t time.Time
	if p := snap.NewestProof(); p != nil {
		t = p.ModTime
	}
	for _, d := range snap.ActiveDeepWork {
		if d.ModTime.After(t) {
			t = d.ModTime
		}
	}
	return t
}

// tagged is a finding's notice paragraph, tagged with its level and check
// so the graded advice of heartbeat-notices.md applies.
func tagged(f checks.Finding) string {
	return "[" + f.Level.String() + "] " + f.Check + ": " + f.Notice
}

// notices are the paragraphs every heartbeat carries: what the agent is
// owed, the recovery notice, what each non-ok check tells the agent, and
// the held event notices. Call with a.mu held.
func (a *agent) notices() []string {
	paras, _ := a.noticesCarried(a.gate.owed())
	return paras
}

// noticesCarried is notices with owed, what the machine says the wakeup
// carries (it lets go of it once the wakeup is delivered), and the held
// notices among them, so a delivery that succeeds can let them go. Call
// with a.mu held.
func (a *agent) noticesCarried(owed wakeup.Owed) ([]string, map[string]time.Time) {
	var out []string
	carried := map[string]time.Time{}
	rec := a.gate.recovery()
	switch {
	case owed.GiveUp != nil:
		o := owed.GiveUp
		out = append(out, "[warning] recovery: "+owedNotice(o, recoveryLogAfter(o, a.snap.RecentLogs), a.paused != nil, a.loc, a.cfg.Language))
	case rec.Active && rec.Told != nil && !recoveryLogged(rec, a.snap.RecentLogs):
		// The attempt that came back with the give-up's notice: that
		// notice stands for it, as the agent was told it.
		o := rec.Told
		out = append(out, "[warning] recovery: "+owedNotice(o, recoveryLogAfter(o, a.snap.RecentLogs), a.paused != nil, a.loc, a.cfg.Language))
	}
	if n := owed.Quiet; n != nil && !clock.Or(a.clock).Now().Before(n.Until) {
		// Told once the hold is over, in the wakeup after it: read
		// earlier (the status), "held until, then tried once more" spoke
		// of the future in the past tense beside "no wakeup comes until".
		out = append(out, "[info] service: "+serviceNotice(n, a.loc, a.cfg.Language))
	}
	// While the give-up is still owed, its notice is the one recovery
	// notice: it already asks for the recovery log before anything else,
	// and "tried 2 times" beside "attempt 1 of 2" told two stories.
	block := rec.Active && rec.Attempt > 0 && owed.GiveUp == nil && rec.Told == nil && !recoveryLogged(rec, a.snap.RecentLogs)
	if block {
		// Tagged like the checks' notices, so the graded advice applies
		// and a recovery log's reply can leave it out. Once the recovery
		// log is written, the other notices say what is left.
		f, _ := a.result.Finding(rec.Check)
		notice := recoveryNotice
		switch {
		case f.Cut != "":
			notice = cutRecoveryNotice(f.Cut) // the watchdog ended the run: no stall
		case a.holdsEscapeLocked(clock.Or(a.clock).Now()):
			notice = busyRecoveryNotice // busy, unrecorded, and not interrupted
		}
		out = append(out, "[error] recovery: "+notice(rec, a.cfg.Recovery.MaxAttempts, a.cfg.Language, f.Fact))
	}
	current := map[string]bool{}
	for _, f := range a.result.Findings {
		if a.paused != nil && (f.Check == checks.Inactivity || f.Check == checks.Introspection) {
			continue // not judged while paused, as the status says; owed again after
		}
		if f.Level != checks.OK && f.Notice != "" {
			if block && f.Brief != "" {
				f.Notice = f.Brief // recovery's steps are the block's: said once
			}
			out = append(out, tagged(f))
			current[f.Check] = true
		}
	}
	for _, check := range checks.Names {
		h, ok := a.held[check]
		if !ok {
			continue
		}
		carried[check] = h.raised
		if !current[check] {
			out = append(out, h.text)
		}
	}
	return out, carried
}

// carried lets go of the held notices a delivered wakeup carried (unless
// a newer one of the same check arrived meanwhile). Call with a.mu held.
func (a *agent) carried(notices map[string]time.Time) {
	for check, raised := range notices {
		if h, ok := a.held[check]; ok && h.raised.Equal(raised) {
			delete(a.held, check)
		}
	}
}
