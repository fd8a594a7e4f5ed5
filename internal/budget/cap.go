package budget

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/statefile"
)

// DailyCapFile is the daily cap's counter, in the agent's state folder.
const DailyCapFile = "daily_cap.json"

// BreakerFile is the circuit breaker's state, in the agent's state folder.
const BreakerFile = "circuit_breaker.json"

// CapState is the daily cap's counter for one local day. It is also the
// persisted form in the state folder's daily_cap.json.
type CapState struct {
	// Day is the local calendar date counted, "2006-01-02" (time.DateOnly,
	// which sorts like the dates it names).
	Day string `json:"day"`
	// Used is the number of wakeups let through that day.
	Used int `json:"used"`
	// Limit is the cap (0 = unlimited).
	Limit int `json:"limit"`
	// Dropped is the number of wakeups refused that day for being over the cap.
	Dropped int `json:"dropped"`
}

// DailyCap is the per-agent wakeup budget for one local day, shared by the
// schedule and idle chambers, persisted in the state folder's daily_cap.json
// (with a limit or without). It is safe for concurrent use.
type DailyCap struct {
	path  string
	limit int
	loc   *time.Location

	mu sync.Mutex
	st CapState
	// spent is set when the file was unreadable: a bad file must never
	// grant a fresh day's budget. The day it is first used counts as spent.
	spent bool
}

// OpenDailyCap loads the counter kept in the state folder dir with the given
// limit (0 = unlimited) and location (nil = Local). Opening never writes. A
// missing file starts a fresh count; an unreadable or corrupt one counts the
// day it is first used as spent (a bad file must never grant a fresh budget)
// and is reported as an error wrapping statefile.ErrCorrupt alongside the
// usable *DailyCap.
func OpenDailyCap(dir string, limit int, loc *time.Location) (*DailyCap, error) {
	if limit < 0 {
		return nil, fmt.Errorf("open daily cap: limit %d is negative (0 = unlimited)", limit)
	}
	if loc == nil {
		loc = time.Local
	}
	c := &DailyCap{path: filepath.Join(dir, DailyCapFile), limit: limit, loc: loc}
	if _, err := statefile.ReadKept(c.path, &c.st); err != nil {
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %w", err)
	}
	if _, perr := time.Parse(time.DateOnly, c.st.Day); c.st.Day != "" && perr != nil {
		day := c.st.Day
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %s: day %q: %w", c.path, day, statefile.ErrCorrupt)
	}
	if c.st.Used < 0 || c.st.Dropped < 0 {
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %s: negative count: %w", c.path, statefile.ErrCorrupt)
	}
	return c, nil
}

// Take asks for one wakeup at now. ok is false when the day's budget is spent:
// the wakeup is dropped and counted. alert is true only for the first drop of
// the local day (also across restarts), so the caller alerts once per day. With
// a limit the new count is persisted atomically; err reports only a failed
// write, the decision stands (see the package caveats). Unlimited (limit 0),
// the count is kept too, so the day's count survives a restart as the
// day's cost does (status would otherwise say "1 used" beside "200 runs").
func (c *DailyCap) Take(now time.Time) (ok bool, alert bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st, c.spent = c.at(now), false
	if c.limit == 0 || c.st.Used < c.limit {
		c.st.Used++
		ok = true
	} else {
		alert = c.st.Dropped == 0
		c.st.Dropped++
	}
	if werr := statefile.WriteKept(c.path, c.st); werr != nil {
		err = fmt.Errorf("save daily cap: %w", werr)
	}
	return ok, alert, err
}

// State returns the counter for the local day of now without changing or
// writing anything: a new day reads as nothing used yet.
func (c *DailyCap) State(now time.Time) CapState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at(now)
}

// at is the counter as of now: the current limit, and a fresh count when now's
// local day is later than the one counted. Called with c.mu held.
func (c *DailyCap) at(now time.Time) CapState {
	st := c.st
	st.Limit = c.limit
	if c.spent {
		return CapState{Day: Day(now, c.loc), Used: c.limit, Limit: c.limit}
	}
	if day := Day(now, c.loc); day > st.Day {
		st = CapState{Day: day, Limit: c.limit}
	}
	return st
}

// Day is the local calendar date of t in loc, as "2006-01-02". Comparing two
// such strings compares the dates.
func Day(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.Local
	}
	return t.In(loc).Format(time.DateOnly)
}

// Adopt takes over the count of old, the cap of the same workspace before
// a config reload: the day's use goes on (an unlimited cap keeps its count
// in memory only), under this cap's limit. The count in memory is the one
// that holds; what the new cap read from its file is dropped.
func (c *DailyCap) Adopt(old *DailyCap) {
	old.mu.Lock()
	st, spent := old.st, old.spent
	old.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st, c.spent = st, spent && c.limit > 0
}
