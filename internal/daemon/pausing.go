package daemon

import (
	"os"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// readPause reads the pause file, which is the operator's and lives outside
// the workspace. While paused the baseline follows the clock, so on resume
// nothing from the pause is held against the agent, as after a restart; a
// pause whose until has passed is removed. Pausing and resuming are alerts,
// so the operator hears of both; a file that cannot be read holds nothing
// off, and says so once.
func (a *agent) readPause(b *beat) {
	a.noteLegacyPause(b)
	file := a.cfg.PauseFile() // hashes the workspace's path: once a pulse
	// Only a give-up and a rate limit's hold or spread wait for the
	// operator's resume: no read a pulse otherwise.
	if a.gate.recovery().GaveUp || a.limitsInForce() {
		b.resumedAt = pause.ResumedAt(file)
	}
	a.noteStateDir(b)
	p, err := pause.Read(file)
	why := ""
	if err != nil {
		why = err.Error()
	}
	if why != a.pauseErr {
		a.pauseErr = why
		if why != "" {
			a.emit(b.now, b.id, checks.Warning, "pause", "the pause file cannot be read, so the agent is not paused ("+why+"); `watchdog pause` or `watchdog resume` writes it anew", 0)
		}
	}
	if p != nil && !p.Active(b.now) {
		if err := pause.Clear(file); err != nil {
			b.log.Warn().Err(err).Msg("end of pause")
		}
		p = nil
	}
	a.mu.Lock()
	was := a.paused
	a.paused, b.paused = p, p != nil
	if b.paused {
		a.baseline = b.now // recovery starts afresh with the agent (the machine's Beat)
	}
	a.mu.Unlock()
	switch {
	case p != nil && was == nil:
		a.emit(b.now, b.id, checks.Warning, "pause", pausedMessage(p, a.loc), 0)
	case p == nil && was != nil:
		a.emit(b.now, b.id, checks.OK, "pause", "resumed: wakeups and alerts are back", 0)
	}
}

// pausedMessage says what a pause holds off, until when and why.
func pausedMessage(p *pause.Pause, loc *time.Location) string {
	msg := "paused until `watchdog resume`"
	if !p.Until.IsZero() {
		msg = "paused until " + p.UntilText(loc)
	}
	msg += ": no wakeups, no inactivity or introspection alerts"
	if p.By != "" {
		msg += "; by " + termsafe.Line(p.By)
	}
	if p.Reason != "" {
		msg += "; reason: " + termsafe.Line(p.Reason)
	}
	return msg
}

// noteLegacyPause tells the operator, once, that a stats/pause.json in the
// workspace (where the pause used to live, and where the agent can write)
// is no longer read.
func (a *agent) noteLegacyPause(b *beat) {
	if a.legacySeen {
		return
	}
	if _, err := os.Lstat(a.ws.Path(pause.LegacyFile)); err != nil {
		return
	}
	a.legacySeen = true
	a.emit(b.now, b.id, checks.Warning, "pause", pause.LegacyFile+" in the workspace is ignored: the agent can write there, so the pause now lives in "+a.cfg.PauseFile()+"; pause again with `watchdog pause` and delete the old file", 0)
}
