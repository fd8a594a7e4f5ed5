package delivery

import (
	"sync"
	"time"
)

// runDeadline is an exec run's end: its timeout, lengthened by each retry
// wait the client announces (Claude Code's api_retry: the run waits for
// the model's service, not for itself), never past the timeout plus
// RetryMax: the announcement is the agent's word (it can print any line).
type runDeadline struct {
	mu     sync.Mutex
	timer  *time.Timer
	at     time.Time // when the run is ended
	hard   time.Time // the latest at may reach
	until  time.Time // the end of the last announced wait
	capped bool      // a wait was cut at hard
}

func newRunDeadline(start time.Time, timeout, retryMax time.Duration, end func()) *runDeadline {
	d := &runDeadline{at: start.Add(timeout), hard: start.Add(timeout + max(retryMax, 0))}
	d.timer = time.AfterFunc(timeout, end)
	return d
}

// retry lengthens the run by an announced wait, read at now.
func (d *runDeadline) retry(now time.Time, wait time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if wait <= 0 {
		return
	}
	until := now.Add(wait)
	at := d.at.Add(wait)
	if at.After(d.hard) {
		at, d.capped = d.hard, true
	}
	if until.After(at) {
		until = at
	}
	d.until = until
	if at.After(d.at) {
		d.at = at
		d.timer.Reset(at.Sub(now))
	}
}

// waiting is the end of the announced wait in force at now (zero: none),
// and whether a wait was cut.
func (d *runDeadline) waiting(now time.Time) (time.Time, bool) {
	if d == nil {
		return time.Time{}, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !now.Before(d.until) {
		return time.Time{}, d.capped
	}
	return d.until, d.capped
}

func (d *runDeadline) stop() { d.timer.Stop() }
