package cost

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

// File is the ledger, in the agent's state folder.
const File = "cost.json"

// KeepDays is how many local days the ledger keeps (the totals keep all).
const KeepDays = 32

// Outcomes of a measured wakeup.
const (
	Worked = "worked" // the run ended well and said something
	Ghost  = "ghost"  // the run ended well and said only the idle token
	Failed = "failed" // the run failed, timed out or was ended by a takeover
	Capped = "capped" // the run was ended by a per-wakeup cap (tool calls, tokens)
)

var knownOutcome = map[string]bool{Worked: true, Ghost: true, Failed: true, Capped: true}

// maxSources bounds the sources a ledger may hold (schedule, extra, idle,
// recovery, feedback, and room to grow): the state file and the fleet's
// pulse carry it.
const maxSources = 16

// Cell sums the runs of one source and outcome (or any grouping of them).
type Cell struct {
	Runs int64 `json:"runs"`
	// Unknown runs reported no usage: their tokens are not in Tokens.
	Unknown int64  `json:"unknown,omitempty"`
	Tokens  Tokens `json:"tokens"`
	// USD is the cost of the priced runs.
	USD float64 `json:"usd"`
	// Unpriced runs reported tokens but no price is known for them.
	Unpriced int64 `json:"unpriced,omitempty"`
	// Telemetry counts the runs whose usage the client's telemetry
	// reported; the others' came from the run's output or the turn's
	// transcript (one source per run: Run.Source).
	Telemetry int64 `json:"telemetry,omitempty"`
}

// Add returns c plus d. Its sums stop at the largest count or amount
// instead of wrapping: a ledger file may hold anything the agent wrote in it
// that is not negative, and must never turn into a credit.
func (c Cell) Add(d Cell) Cell {
	return Cell{Runs: addCount(c.Runs, d.Runs), Unknown: addCount(c.Unknown, d.Unknown), Tokens: c.Tokens.Add(d.Tokens),
		USD: addUSD(c.USD, d.USD), Unpriced: addCount(c.Unpriced, d.Unpriced), Telemetry: addCount(c.Telemetry, d.Telemetry)}
}

func (c Cell) bad() bool {
	t := c.Tokens
	return c.Runs < 0 || c.Unknown < 0 || c.Unpriced < 0 || c.Telemetry < 0 || t.Input < 0 || t.Output < 0 || t.CacheRead < 0 || t.CacheWrite < 0 ||
		c.USD < 0 || math.IsNaN(c.USD) || math.IsInf(c.USD, 0)
}

// Split is source -> outcome -> cell.
type Split map[string]map[string]Cell

// Sum adds the cells of outcome ("" = every outcome) across sources.
func (s Split) Sum(outcome string) Cell {
	var c Cell
	for _, byOut := range s {
		for o, v := range byOut {
			if outcome == "" || o == outcome {
				c = c.Add(v)
			}
		}
	}
	return c
}

func (s Split) add(source, outcome string, c Cell) {
	if s[source] == nil {
		s[source] = map[string]Cell{}
	}
	s[source][outcome] = s[source][outcome].Add(c)
}

// Day is one local day of an agent's wakeups.
type Day struct {
	By Split `json:"by"`
	// Corrupt is set when the ledger was unreadable that day: the day
	// counts as spent for the daily budget.
	Corrupt bool `json:"corrupt,omitempty"`
	// Warned is set once the warn_at notice went out that day.
	Warned bool `json:"warned,omitempty"`
	// SpentAlerted is set once the "budget spent" alert went out that day.
	SpentAlerted bool `json:"spent_alerted,omitempty"`
	// UnpricedModels are the models of that day's runs no price covered,
	// sorted, at most maxUnpriced: what to add to the config's prices.
	UnpricedModels []string `json:"unpriced_models,omitempty"`
}

// maxUnpriced bounds the unpriced models a day keeps (the names come from
// the agent's client's output).
const maxUnpriced = 8

// noteUnpriced adds models to the day's unpriced ones.
func (d *Day) noteUnpriced(models []string) {
	for _, m := range models {
		if len(d.UnpricedModels) >= maxUnpriced {
			return
		}
		if !slices.Contains(d.UnpricedModels, m) {
			d.UnpricedModels = append(d.UnpricedModels, m)
			slices.Sort(d.UnpricedModels)
		}
	}
}

// book is the file's content.
type book struct {
	Days map[string]*Day `json:"days"`
	// Totals are every run since the ledger began, by source: the counters
	// /metrics shows, kept across restarts.
	Totals map[string]Cell `json:"totals"`
}

// Ledger is one agent's cost ledger, persisted atomically in its state
// folder's cost.json on every change. It is safe for concurrent use.
type Ledger struct {
	path string
	loc  *time.Location

	mu sync.Mutex
	b  book
}

// Open loads the ledger kept in the state folder dir; loc (nil = Local)
// draws its days. Opening never writes. A missing file starts empty. One
// that cannot be read or holds what the watchdog never writes starts empty
// with the local day of now marked spent (a bad file never hands back a
// budget), and is returned with an error wrapping statefile.ErrCorrupt
// alongside the usable *Ledger.
func Open(dir string, loc *time.Location, now time.Time) (*Ledger, error) {
	if loc == nil {
		loc = time.Local
	}
	l := &Ledger{path: filepath.Join(dir, File), loc: loc}
	if err := l.read(); err != nil {
		l.b = book{Days: map[string]*Day{dayOf(now, loc): {By: Split{}, Corrupt: true}}, Totals: map[string]Cell{}}
		return l, fmt.Errorf("open cost ledger: %w", err)
	}
	return l, nil
}

func (l *Ledger) read() error {
	l.b = book{Days: map[string]*Day{}, Totals: map[string]Cell{}}
	var b book
	if found, err := statefile.ReadKept(l.path, &b); !found || err != nil {
		return err
	}
	for day, d := range b.Days {
		if _, perr := time.Parse(time.DateOnly, day); perr != nil || d == nil {
			return fmt.Errorf("read %s: day %q: %w", l.path, day, statefile.ErrCorrupt)
		}
		if d.By == nil {
			d.By = Split{}
		}
		d.UnpricedModels = d.UnpricedModels[:min(len(d.UnpricedModels), maxUnpriced)] // names the agent's client gave: shown, never trusted
		if len(d.By) > maxSources {
			return fmt.Errorf("read %s: day %s: %d sources: %w", l.path, day, len(d.By), statefile.ErrCorrupt)
		}
		for _, byOut := range d.By {
			for o, c := range byOut {
				if !knownOutcome[o] {
					return fmt.Errorf("read %s: day %s: outcome %q: %w", l.path, day, o, statefile.ErrCorrupt)
				}
				if c.bad() {
					return fmt.Errorf("read %s: day %s: a negative or impossible count: %w", l.path, day, statefile.ErrCorrupt)
				}
			}
		}
	}
	if len(b.Days) > KeepDays+1 || len(b.Totals) > maxSources {
		return fmt.Errorf("read %s: more days or sources than the watchdog writes: %w", l.path, statefile.ErrCorrupt)
	}
	for _, c := range b.Totals {
		if c.bad() {
			return fmt.Errorf("read %s: totals: a negative or impossible count: %w", l.path, statefile.ErrCorrupt)
		}
	}
	if b.Days == nil {
		b.Days = map[string]*Day{}
	}
	if b.Totals == nil {
		b.Totals = map[string]Cell{}
	}
	l.b = b
	return nil
}

// Run is one wakeup's measure, as its transcript line shows it.
type Run struct {
	// Usage is nil when the client reported none ("unknown", never 0).
	Usage *Usage `json:"usage"`
	// USD is nil when the price is unknown.
	USD *float64 `json:"cost_usd"`
	// Unpriced names the models no price covers (the config's prices
	// table is keyed by them).
	Unpriced []string `json:"unpriced_models,omitempty"`
	// Source says where the usage came from: the run's output (stream),
	// the turn's transcript, or the client's telemetry; "" when none.
	Source string `json:"usage_source,omitempty"`
}

// Where a run's usage came from (Run.Source).
const (
	FromStream     = "stream"
	FromTranscript = "transcript"
	FromTelemetry  = "telemetry"
)

// Measure prices a run's usage (nil: unknown) with prices.
func Measure(u *Usage, prices map[string]config.Price) Run {
	r := Run{Usage: u.Clone()}
	if usd, ok := Price(u, prices); ok {
		r.USD = &usd
	} else {
		r.Unpriced = Unpriced(u, prices)
	}
	return r
}

// Record books one run of source with outcome at now (r as Vet made it):
// into its local day and the totals, and persists the ledger. The run is booked even when the write
// fails (the error says so).
func (l *Ledger) Record(now time.Time, source, outcome string, r Run) error {
	c := Cell{Runs: 1}
	switch {
	case r.Usage == nil:
		c.Unknown = 1
	default:
		c.Tokens = r.Usage.Tokens
		if r.USD != nil {
			c.USD = *r.USD
		} else {
			c.Unpriced = 1
		}
	}
	if c.bad() { // what the ledger would refuse to load is never booked (Vet says why)
		c = Cell{Runs: 1, Unknown: 1}
	}
	if c.Unknown == 0 && r.Source == FromTelemetry {
		c.Telemetry = 1
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.day(now)
	d.By.add(source, outcome, c)
	d.noteUnpriced(r.Unpriced)
	l.b.Totals[source] = l.b.Totals[source].Add(c)
	return l.save(now)
}

// Mark sets a day's flag through f (warned, spent alerted) and persists it.
// It reports what f returned: whether anything changed.
func (l *Ledger) Mark(now time.Time, f func(*Day) bool) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !f(l.day(now)) {
		return false, nil
	}
	return true, l.save(now)
}

// day returns now's local day, created if missing. Called with l.mu held.
func (l *Ledger) day(now time.Time) *Day {
	key := dayOf(now, l.loc)
	d := l.b.Days[key]
	if d == nil {
		d = &Day{By: Split{}}
		l.b.Days[key] = d
	}
	return d
}

// save drops days older than KeepDays and writes the file. Called with l.mu held.
func (l *Ledger) save(now time.Time) error {
	oldest := dayOf(shiftDays(now, l.loc, -(KeepDays-1)), l.loc)
	for k := range l.b.Days {
		if k < oldest {
			delete(l.b.Days, k)
		}
	}
	if err := statefile.WriteKept(l.path, l.b); err != nil {
		return fmt.Errorf("save cost ledger: %w", err)
	}
	return nil
}

// Period sums a span of local days.
type Period struct {
	From string `json:"from"` // first local day, "2006-01-02"
	To   string `json:"to"`   // last local day
	By   Split  `json:"by"`
}

// Summary is what the state file, status and /metrics show.
type Summary struct {
	Today     Period `json:"today"`
	Yesterday Period `json:"yesterday"`
	// Last7Days is today and the six days before it.
	Last7Days Period `json:"last_7_days"`
	// Totals are every run since the ledger began, by source.
	Totals map[string]Cell `json:"totals"`
	// TodayCorrupt is set when the ledger was unreadable today (the day
	// counts as spent).
	TodayCorrupt bool `json:"today_corrupt,omitempty"`
	// Budget is the daily budget as of now (set by the daemon).
	Budget *BudgetState `json:"budget,omitempty"`
	// UnpricedModels are the last 7 days' models no price covered: the
	// keys to add to the config's prices.
	UnpricedModels []string `json:"unpriced_models,omitempty"`
}
