package daemon

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// srcResume is the one wakeup after a usage limit's reset that the client
// should have continued from by itself and did not.
const srcResume = "limit_reset"

// Claude Code continues a session by itself when a claude.ai usage limit
// resets (autoContinueAtUsageLimit, on by default since 2.1.234; absent
// from 2.1.197), in its terminal UI. Users report it does not always fire.
// So where it would, the watchdog does not wake the agent at the reset as
// well: it holds the wakeups until the reset plus rate_limit.resume_margin,
// and a turn that starts in that time ends the hold with no wakeup of its
// own; with none, it alerts and wakes the agent once. Never two resumes
// for one reset.

// autoContinueSince is the first Claude Code version that continues by
// itself at a reset.
var autoContinueSince = [3]int{2, 1, 234}

// resumeMemory is the client's own resume awaited. Under agent.mu.
type resumeMemory struct {
	// clientVersion is the client's version, as its status line said it.
	clientVersion string
	// resumeAt is the reset after which the client should continue by
	// itself (zero: none awaited).
	resumeAt time.Time
	// resumed: a turn started after it; the deferred part of readHooks
	// ends the hold.
	resumed bool
}

// clientResumes reports whether the client will continue by itself at a
// reset: the setting on, a terminal the watchdog does not drive run by
// run, a Claude Code that has the feature. Called with a.mu held.
func (a *agent) clientResumes() bool {
	return a.cfg.RateLimit.ClientResumes && a.deliver.Method() == config.DeliveryTmux && versionAtLeast(a.clientVersion, autoContinueSince)
}

// versionAtLeast reports v ("2.1.337") at least min; false for no version.
func versionAtLeast(v string, min [3]int) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return false
		}
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}

// heardResume notes a turn of the client after the awaited reset (a
// margin before it, for clocks that disagree; never before the hold
// began). Called with a.mu held.
func (a *agent) heardResume(e hook.Event) {
	if a.resumeAt.IsZero() {
		return
	}
	switch e.Kind {
	case hook.TurnStart, hook.Tool, hook.TurnEnd:
	default:
		return
	}
	if !e.Time.Before(a.resumeAt.Add(-a.cfg.RateLimit.ResumeMargin.D())) && e.Time.After(a.limitSince) {
		a.resumed = true
	}
}

// resumeDone ends the hold of a reset the client continued from by
// itself, with no wakeup of the watchdog's.
func (a *agent) resumeDone(now time.Time, id workspace.ID) {
	a.mu.Lock()
	if !a.resumed || a.resumeAt.IsZero() {
		a.resumed = false
		a.mu.Unlock()
		return
	}
	at := a.resumeAt
	a.resumeAt, a.resumed, a.limitHeld = time.Time{}, false, time.Time{}
	a.mu.Unlock()
	a.gate.endLimitHold()
	a.emit(now, id, checks.OK, "service", fmt.Sprintf("the rate limit reset at %s and the client continued by itself: wakeups go on as scheduled", limitWhen(at, now, a.loc)), 0)
}

// resumeMissed is limitResumes for a reset the client should have
// continued from: none came within the margin, so the watchdog wakes the
// agent once. It reports whether it handled the hold's end.
func (a *agent) resumeMissed(now time.Time, id workspace.ID) bool {
	a.mu.Lock()
	at := a.resumeAt
	if at.IsZero() || now.Before(a.limitHeld) {
		a.mu.Unlock()
		return !at.IsZero()
	}
	a.resumeAt, a.limitHeld = time.Time{}, time.Time{}
	a.mu.Unlock()
	margin := a.cfg.RateLimit.ResumeMargin.D()
	a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the rate limit reset at %s and the client did not continue by itself within %s (rate_limit.resume_margin; its autoContinueAtUsageLimit may be off): the watchdog wakes the agent once",
		limitWhen(at, now, a.loc), humanize.Duration(margin)), 0)
	a.bg.Go(func() {
		a.wake(srcResume, ja.F(a.cfg.Language, "The usage limit reset at %s and your session did not continue by itself: go on with the work you were doing.", limitWhen(at, now, a.loc)))
	})
	return true
}
