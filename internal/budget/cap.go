package budget

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// DailyCapFile is where the daily cap's counter is kept, workspace-relative.
const DailyCapFile = workspace.StatsDir + "/daily_cap.json"

// BreakerFile is where the circuit breaker's state is kept, workspace-relative.
const BreakerFile = workspace.StatsDir + "/circuit_breaker.json"

// ErrCorrupt reports a state file that could not be parsed; the value returned
// with it starts fresh and is usable.
var ErrCorrupt = errors.New("corrupt state file")

// dayLayout is the format of CapState.Day; it sorts like the dates it names.
const dayLayout = "2006-01-02"

// CapState is the daily cap's counter for one local day. It is also the
// persisted form in stats/daily_cap.json.
type CapState struct {
	// Day is the local calendar date counted, "2006-01-02".
	Day string `json:"day"`
	// Used is the number of wakeups let through that day.
	Used int `json:"used"`
	// Limit is the cap (0 = unlimited).
	Limit int `json:"limit"`
	// Dropped is the number of wakeups refused that day for being over the cap.
	Dropped int `json:"dropped"`
}

// DailyCap is the per-agent wakeup budget for one local day, shared by the
// schedule and idle chambers, persisted in stats/daily_cap.json when it has a
// limit. It is safe for concurrent use.
type DailyCap struct {
	ws    *workspace.Workspace
	limit int
	loc   *time.Location

	mu sync.Mutex
	st CapState
	// spent is set when the file was unreadable: the agent can write it, so
	// a bad file must never grant a fresh day's budget. The day it is first
	// used counts as spent.
	spent bool
}

// OpenDailyCap loads the counter of ws with the given limit (0 = unlimited)
// and location (nil = Local). Opening never writes. A missing file starts a
// fresh count; an unreadable or corrupt one counts the day it is first used
// as spent (the agent can write the file, and a bad file must never grant a
// fresh budget) and is reported as an error wrapping ErrCorrupt alongside
// the usable *DailyCap.
// Any other read error is returned with a nil *DailyCap.
func OpenDailyCap(ws *workspace.Workspace, limit int, loc *time.Location) (*DailyCap, error) {
	if limit < 0 {
		return nil, fmt.Errorf("open daily cap: limit %d is negative (0 = unlimited)", limit)
	}
	if loc == nil {
		loc = time.Local
	}
	c := &DailyCap{ws: ws, limit: limit, loc: loc}
	err := readJSON(ws, DailyCapFile, &c.st)
	if errors.Is(err, ErrCorrupt) {
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("open daily cap: %w", err)
	}
	if _, perr := time.Parse(dayLayout, c.st.Day); c.st.Day != "" && perr != nil {
		day := c.st.Day
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %s: day %q: %w", DailyCapFile, day, ErrCorrupt)
	}
	if c.st.Used < 0 || c.st.Dropped < 0 {
		c.st, c.spent = CapState{}, limit > 0
		return c, fmt.Errorf("open daily cap: %s: negative count: %w", DailyCapFile, ErrCorrupt)
	}
	return c, nil
}

// Take asks for one wakeup at now. ok is false when the day's budget is spent:
// the wakeup is dropped and counted. alert is true only for the first drop of
// the local day (also across restarts), so the caller alerts once per day. With
// a limit the new count is persisted atomically; err reports only a failed
// write, the decision stands (see the package caveats). Unlimited (limit 0),
// the count is kept in memory only: nothing is ever refused, so no count needs
// to survive a restart, and a wakeup costs no write.
func (c *DailyCap) Take(now time.Time) (ok bool, alert bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st, c.spent = c.at(now), false
	if c.limit == 0 {
		c.st.Used++
		return true, false, nil
	}
	if c.st.Used < c.limit {
		c.st.Used++
		ok = true
	} else {
		alert = c.st.Dropped == 0
		c.st.Dropped++
	}
	if werr := writeJSON(c.ws, DailyCapFile, c.st); werr != nil {
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
	return t.In(loc).Format(dayLayout)
}

// readJSON decodes the workspace file rel into v. A missing file leaves v
// untouched and returns nil; a file that does not parse wraps ErrCorrupt.
func readJSON(ws *workspace.Workspace, rel string, v any) error {
	abs, err := ws.Resolve(rel)
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	b, err := workspace.ReadAgentFile(abs, workspace.MaxSmallFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w: %v", rel, ErrCorrupt, err)
	}
	return nil
}

// writeJSON atomically replaces the workspace file rel with v as indented JSON.
func writeJSON(ws *workspace.Workspace, rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	return ws.WriteFile(rel, append(b, '\n'))
}

// Adopt takes over the count of old, the cap of the same workspace before
// a config reload: the day's use goes on (an unlimited cap keeps its count
// in memory only), under this cap's limit.
func (c *DailyCap) Adopt(old *DailyCap) {
	old.mu.Lock()
	st, spent := old.st, old.spent
	old.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st, c.spent = st, spent && c.limit > 0
}
