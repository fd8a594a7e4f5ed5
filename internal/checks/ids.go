package checks

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// proofTimes returns the newest proof and its ID's time, if it is judged:
// it exists, its ID reads, and it is not older than the baseline.
func (e *eval) proofTimes() (*workspace.Proof, time.Time, bool) {
	p := e.snap.NewestProof()
	if p == nil || e.beforeBaseline(p.ModTime) {
		return nil, time.Time{}, false
	}
	t, err := p.ID.Time(e.cfg.Loc)
	if err != nil {
		return nil, time.Time{}, false
	}
	return p, t, true
}

func (e *eval) futureID() Finding {
	f := Finding{Check: FutureID, Message: "no proof named with a future ID"}
	p, idt, ok := e.proofTimes()
	if !ok || !idt.After(e.now) {
		return f
	}
	f.Level, f.ProofID, f.Elapsed = Error, p.ID, idt.Sub(e.now)
	f.Message = fmt.Sprintf("newest proof %s is named with ID %s, %s in the future", p.Path, p.ID, humanize.Duration(f.Elapsed))
	f.Fact = e.notice("your newest proof %s is named with heartbeat ID %s, %s in the future (future_id)", p.Path, p.ID, humanize.Span(f.Elapsed))
	f.Notice = e.notice("Your newest proof %s is named with heartbeat ID %s, which is later than now. Never invent an ID: "+
		"let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.", p.Path, p.ID)
	return f
}

func (e *eval) staleID() Finding {
	f := Finding{Check: StaleID, Message: "newest proof uses a current ID"}
	p, idt, ok := e.proofTimes()
	if !ok {
		return f
	}
	t := e.cfg.Thresholds
	age := p.ModTime.Sub(idt)
	f.ProofID, f.Elapsed = p.ID, age
	if e.now.Sub(p.ModTime) > t.InactivityError.D() {
		f.Message = fmt.Sprintf("newest proof %s is not new; not judged", p.Path)
		return f
	}
	if e.strict != nil {
		f.Message = fmt.Sprintf("newest proof %s written %s after its ID; paused by strict deep work %s", p.Path, humanize.Duration(age), e.strict.ID)
		return f
	}
	switch {
	case age > t.InactivityError.D():
		f.Level = Error
	case age > t.InactivityWarning.D():
		f.Level = Warning
	default:
		f.Message = fmt.Sprintf("newest proof %s written %s after its ID", p.Path, humanize.Duration(age))
		return f
	}
	f.Message = fmt.Sprintf("newest proof %s was written %s after its ID %s (warning after %s, error after %s): an old ID reused", p.Path, humanize.Duration(age), p.ID,
		humanize.Duration(t.InactivityWarning.D()), humanize.Duration(t.InactivityError.D()))
	f.Fact = e.notice("your newest proof %s was written %s after its heartbeat ID %s: an old ID reused (stale_id; warning after %s, error after %s)", p.Path, humanize.Span(age), p.ID,
		humanize.Span(t.InactivityWarning.D()), humanize.Span(t.InactivityError.D()))
	f.Notice = e.notice("Your newest proof %s is named with heartbeat ID %s, %s older than when it was written: an old ID was reused. "+
		"You never need an ID: let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.", p.Path, p.ID, humanize.Span(age))
	return f
}
