package budget

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

// Breaker states, as BreakerState.State reports them.
const (
	// Closed: wakeups go through; consecutive failures are counted.
	Closed = "closed"
	// Open: wakeups are skipped until the cooldown is over.
	Open = "open"
	// HalfOpen: the cooldown is over; one probe wakeup may go (or is out).
	HalfOpen = "half_open"
)

// BreakerState is what the circuit breaker shows at a given time.
type BreakerState struct {
	// State is Closed, Open or HalfOpen.
	State string `json:"state"`
	// Failures is the count of consecutive delivery failures.
	Failures int `json:"failures"`
	// Cooldown is the current wait between opening and the probe (0 when
	// closed); it doubles after each failed probe up to max_cooldown.
	Cooldown time.Duration `json:"-"`
	// OpenUntil is when the cooldown ends (zero when closed).
	OpenUntil time.Time `json:"open_until,omitzero"`
	// CooldownLeft is how much of the cooldown remains at the time asked.
	CooldownLeft time.Duration `json:"-"`
	// Skipped counts the wakeups skipped because the breaker was open, since
	// it last closed.
	Skipped int `json:"skipped"`
	// ProbeOut is true while the single half-open probe has not been recorded.
	ProbeOut bool `json:"probe_out,omitempty"`
}

// MarshalJSON writes the durations as Go duration strings ("15m0s").
func (s BreakerState) MarshalJSON() ([]byte, error) {
	type plain BreakerState // drops the methods, so no recursion
	return json.Marshal(struct {
		plain
		Cooldown     config.Duration `json:"cooldown"`
		CooldownLeft config.Duration `json:"cooldown_left"`
	}{plain(s), config.Duration(s.Cooldown), config.Duration(s.CooldownLeft)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *BreakerState) UnmarshalJSON(b []byte) error {
	type plain BreakerState
	var v struct {
		plain
		Cooldown     config.Duration `json:"cooldown"`
		CooldownLeft config.Duration `json:"cooldown_left"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = BreakerState(v.plain)
	s.Cooldown, s.CooldownLeft = v.Cooldown.D(), v.CooldownLeft.D()
	return nil
}

// Breaker is the circuit breaker of one agent's wakeups, persisted in the
// state folder's circuit_breaker.json so it survives a restart. It is safe for
// concurrent use.
//
// Closed, it lets every wakeup through and counts consecutive failures; at
// cfg.Failures of them it opens for cfg.Cooldown. Open, it skips wakeups
// until the cooldown is over, then lets exactly one probe through. A
// successful probe closes it; a failed one reopens it with double the
// cooldown, at most cfg.MaxCooldown. Any success closes it.
type Breaker struct {
	path string
	cfg  config.CircuitBreaker

	mu sync.Mutex
	// st holds State Closed or Open (HalfOpen is derived from the time) and
	// ProbeOut; its CooldownLeft is unused.
	st BreakerState
	// saved is st as last persisted (or read), so Record writes only when
	// something changed; zero after a corrupt file, so the next Record
	// replaces it.
	saved BreakerState
}

// OpenBreaker loads the breaker kept in the state folder dir. Opening never
// writes. A missing file is a closed breaker; a corrupt one also starts
// closed and is reported as an error wrapping statefile.ErrCorrupt alongside
// the usable *Breaker. A probe that was
// out when the process stopped is forgotten, so the next Allow may probe
// again. A persisted cooldown longer than cfg.MaxCooldown is cut to it.
func OpenBreaker(dir string, cfg config.CircuitBreaker) (*Breaker, error) {
	switch {
	case cfg.Failures < 1:
		return nil, fmt.Errorf("open breaker: failures must be at least 1, got %d", cfg.Failures)
	case cfg.Cooldown <= 0:
		return nil, fmt.Errorf("open breaker: cooldown must be positive, got %s", cfg.Cooldown.D())
	case cfg.MaxCooldown < cfg.Cooldown:
		return nil, fmt.Errorf("open breaker: max_cooldown %s is shorter than cooldown %s", cfg.MaxCooldown.D(), cfg.Cooldown.D())
	}
	b := &Breaker{path: filepath.Join(dir, BreakerFile), cfg: cfg, st: BreakerState{State: Closed}}
	if _, err := statefile.Read(b.path, &b.st); err != nil {
		b.st = BreakerState{State: Closed}
		return b, fmt.Errorf("open breaker: %w", err)
	}
	b.st.ProbeOut = false
	b.st.CooldownLeft = 0
	switch b.st.State {
	case Closed:
		b.st.Cooldown, b.st.OpenUntil = 0, time.Time{}
	case Open, HalfOpen:
		b.st.State = Open
		if b.st.Cooldown <= 0 || b.st.OpenUntil.IsZero() {
			b.st = BreakerState{State: Closed}
			return b, fmt.Errorf("open breaker: %s: open without a cooldown: %w", b.path, statefile.ErrCorrupt)
		}
		if max := b.cfg.MaxCooldown.D(); b.st.Cooldown > max {
			b.st.OpenUntil = b.st.OpenUntil.Add(max - b.st.Cooldown)
			b.st.Cooldown = max
		}
	default:
		state := b.st.State
		b.st = BreakerState{State: Closed}
		return b, fmt.Errorf("open breaker: %s: state %q: %w", b.path, state, statefile.ErrCorrupt)
	}
	b.saved = b.st
	return b, nil
}

// Allow says whether a wakeup may be delivered at now. Closed: ok. Open with
// the cooldown not over: not ok, and the skip is counted. Cooldown over: ok
// with probe true for the first caller, and not ok (a counted skip) for the
// others until that probe is recorded. Allow does not write: the skip count
// is persisted with the next Record.
//
// A wall clock stepping back never makes the wait longer than the cooldown.
func (b *Breaker) Allow(now time.Time) (ok bool, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st.State == Closed {
		return true, false
	}
	if limit := now.Add(b.st.Cooldown); b.st.OpenUntil.After(limit) {
		b.st.OpenUntil = limit
	}
	if now.Before(b.st.OpenUntil) || b.st.ProbeOut {
		b.st.Skipped++
		return false, false
	}
	b.st.ProbeOut = true
	return true, true
}

// Record reports how a delivered wakeup went at now and persists the result
// when the state (skips counted by Allow included) differs from the one last
// persisted: a success while closed with no failures writes nothing.
// changed is true when the state as State reports it changed: closed to
// open, half-open back to open, or open/half-open to closed (a caller alerts
// on it).
// A success closes the breaker and resets failures and cooldown. A failure
// while closed counts, and the cfg.Failures-th consecutive one opens the
// breaker for cfg.Cooldown. A failure after the cooldown is over (the probe,
// or a wakeup that raced it) reopens it with double the cooldown, at most
// cfg.MaxCooldown. A failure of a wakeup that started before the breaker
// opened only counts. err reports only a failed write; the state stands.
func (b *Breaker) Record(now time.Time, success bool) (changed bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	before := b.state(now).State
	switch {
	case success:
		b.st = BreakerState{State: Closed}
	case b.st.State == Closed:
		b.st.Failures++
		if b.st.Failures >= b.cfg.Failures {
			b.open(now, b.cfg.Cooldown.D())
		}
	case b.st.ProbeOut || !now.Before(b.st.OpenUntil):
		b.st.Failures++
		b.open(now, min(2*b.st.Cooldown, b.cfg.MaxCooldown.D()))
	default:
		b.st.Failures++
	}
	if !b.st.equal(b.saved) {
		if werr := statefile.Write(b.path, b.st); werr != nil {
			err = fmt.Errorf("save breaker: %w", werr)
		} else {
			b.saved = b.st
		}
	}
	return b.state(now).State != before, err
}

// equal reports whether s and o are the same state; OpenUntil is compared as
// an instant.
func (s BreakerState) equal(o BreakerState) bool {
	if !s.OpenUntil.Equal(o.OpenUntil) {
		return false
	}
	s.OpenUntil, o.OpenUntil = time.Time{}, time.Time{}
	return s == o
}

// open (re)opens the breaker at now for cooldown. Called with b.mu held.
func (b *Breaker) open(now time.Time, cooldown time.Duration) {
	b.st.State = Open
	b.st.Cooldown = cooldown
	b.st.OpenUntil = now.Add(cooldown).Round(0)
	b.st.ProbeOut = false
}

// State returns the breaker as of now, without changing it: an open breaker
// whose cooldown is over reads as HalfOpen.
func (b *Breaker) State(now time.Time) BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state(now)
}

// state is State with b.mu held.
func (b *Breaker) state(now time.Time) BreakerState {
	st := b.st
	if st.State == Open {
		if left := st.OpenUntil.Sub(now); left > 0 {
			st.CooldownLeft = min(left, st.Cooldown)
		} else {
			st.State = HalfOpen
		}
	}
	return st
}

// Adopt takes over the state of old, the breaker of the same workspace
// before a config reload: what it recorded since this one read the file
// (a run that ended while the reload waited) is not lost.
func (b *Breaker) Adopt(old *Breaker) {
	old.mu.Lock()
	st, saved := old.st, old.saved
	old.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st, b.saved = st, saved
}
