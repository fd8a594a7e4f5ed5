package daemon

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/state"
)

// writeHealth follows the watchdog's own writes. A full disk (the agent can
// fill it) must not be silent: the first failed write is an error alert,
// /healthz fails while it lasts, each kind of write is logged once per spell
// (a pulse a second would otherwise print lines forever), and the first
// pulse whose writes all succeed ends it with an ok alert.
type writeHealth struct {
	failedSinceSettle bool            // a write failed since the last pulse's end
	logged            map[string]bool // kinds of write logged this spell
	atStart           int64           // WriteFailures when the spell began
}

// wrote notes the outcome of one of the watchdog's writes: what it wrote,
// and err from writing it. It must not be called with a.mu held.
func (a *agent) wrote(now time.Time, what string, err error) {
	if err == nil {
		return
	}
	a.mu.Lock()
	w := &a.writes
	w.failedSinceSettle = true
	first := a.pulse.WritesFailing == nil
	if first {
		a.pulse.WritesFailing = &state.WriteOutage{Since: now, What: what, Error: err.Error()}
		w.logged, w.atStart = map[string]bool{}, a.pulse.WriteFailures
	}
	a.pulse.WriteFailures++
	logIt := !w.logged[what]
	w.logged[what] = true
	id := a.id
	a.mu.Unlock()
	if logIt {
		a.log.Error().Err(err).Str("write", what).Msg("write failed; until writes succeed again, further failures of it are counted in /metrics, not logged")
	}
	if first { // set above before emitting: the alert's own writes may fail too
		why := fmt.Sprintf(" (%v): is the disk full?", err)
		if nf := (*notAFile)(nil); errors.As(err, &nf) {
			why = ": " + err.Error() + "."
		}
		a.emit(now, id, checks.Error, "writes", fmt.Sprintf("the watchdog cannot write its %s%s Until writes succeed, heartbeat IDs, state and records are not kept and /healthz fails", what, why), 0)
	}
}

// wroteIn is wrote for the workspace's file rel: a write that failed
// because something that is no file stands at its path (a folder, which no
// write replaces: the agent can put one there) says so, and what to do,
// rather than guess at a full disk.
func (a *agent) wroteIn(now time.Time, what, rel string, err error) {
	if err != nil {
		if fi, lerr := os.Lstat(a.ws.Path(rel)); lerr == nil && fi.IsDir() {
			err = &notAFile{rel: rel, err: err}
		}
	}
	a.wrote(now, what, err)
}

// notAFile is a write that failed on a folder at the file's path.
type notAFile struct {
	rel string
	err error
}

func (e *notAFile) Error() string {
	return fmt.Sprintf("%s is a folder, not a file: remove it (%v)", e.rel, e.err)
}

func (e *notAFile) Unwrap() error { return e.err }

// settleWrites ends a spell of failing writes at the end of a pulse when no
// write failed since the last pulse's end.
func (a *agent) settleWrites(now time.Time) {
	a.mu.Lock()
	o, clean := a.pulse.WritesFailing, !a.writes.failedSinceSettle
	a.writes.failedSinceSettle = false
	if o == nil || !clean {
		a.mu.Unlock()
		return
	}
	a.pulse.WritesFailing = nil
	n, id := a.pulse.WriteFailures-a.writes.atStart, a.id
	a.mu.Unlock()
	took := now.Sub(o.Since).Round(time.Second)
	a.log.Info().Int64("failed", n).Dur("for", took).Msg("writes succeed again")
	a.emit(now, id, checks.OK, "writes", fmt.Sprintf("writes succeed again after %s (%d failed writes since %s failed)", took, n, o.What), 0)
}

// byName indexes agents by name.
func byName(agents []*agent) map[string]*agent {
	m := make(map[string]*agent, len(agents))
	for _, a := range agents {
		m[a.name] = a
	}
	return m
}

// alertsFileFailed is a failed write of the alerts file, counted against
// the agent the alert was about (an alert of the fleet or the watchdog
// itself is only logged). The "writes" alert's own line failing starts no
// spell: a spell's start and end would otherwise restart each other.
func (d *Daemon) alertsFileFailed(al alert.Alert, err error) {
	m, _ := d.named.Load().(map[string]*agent)
	a := m[al.Agent]
	if a == nil {
		return
	}
	if al.Check == "writes" {
		a.mu.Lock()
		a.pulse.WriteFailures++
		a.mu.Unlock()
		return
	}
	a.wrote(al.Time, "alerts file", err)
}
