package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// briefTable is `watchdog status --brief`: one line per agent, for a config
// of many: its state in a word, the strip, what is not ok, today's cost.
type briefTable struct {
	tw   *tabwriter.Writer
	date string
	now  time.Time
}

func newBriefTable(w io.Writer, date string, now time.Time) *briefTable {
	b := &briefTable{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), date: date, now: now}
	fmt.Fprintf(b.tw, "AGENT\tSTATE\t%s\tCHECKS\tCOST TODAY\n", strings.ToUpper(stripLabel(date)))
	return b
}

// row adds one agent; st is meaningful only when err is nil.
func (b *briefTable) row(name string, ws *workspace.Workspace, dir string, st state.State, err error, live bool) {
	strip := strings.Repeat(" ", stripSlots)
	if slots, serr := dayStrip(dir, ws.Loc, b.date, b.now); serr == nil {
		strip = day.Text(slots)
	}
	if err != nil {
		fmt.Fprintf(b.tw, "%s\tNEVER RAN\t|%s|\t-\t-\n", name, strip)
		return
	}
	fmt.Fprintf(b.tw, "%s\t%s\t|%s|\t%s\t%s\n", name, briefState(st, live, b.now, ws.Loc), strip, notOKChecks(st), briefCost(st))
}

// Flush writes the table and the strip's legend.
func (b *briefTable) Flush(w io.Writer) {
	b.tw.Flush()
	fmt.Fprintf(w, "\n%s: %s\n", stripLabel(b.date), day.Legend)
}

// briefState is the agent's state in a word, in capitals when it needs a
// person: not running, waiting for you, gave up.
// A blocked agent says why no wakeup comes (budget spent until 00:00),
// never "waiting" for one that would be dropped.
func briefState(st state.State, live bool, now time.Time, loc *time.Location) string {
	blocked := state.Blocking(st, now, loc)
	switch mode := day.ModeOf(st); {
	case !live:
		return "NOT RUNNING"
	case st.Recovery.GaveUp:
		return "GAVE UP"
	case mode == day.WaitingForYou:
		return "WAITING FOR YOU"
	case blocked != nil && blocked.Why == state.BlockedHours:
		return "outside hours"
	case blocked != nil:
		return blockedWord(*blocked, now)
	default:
		return mode
	}
}

// notOKChecks lists the checks not ok, "all ok" when none.
func notOKChecks(st state.State) string {
	levels := make(map[string]string, len(st.Checks))
	for name, c := range st.Checks {
		levels[name] = c.Level
	}
	if bad := notOK(levels); bad != "" {
		return bad
	}
	return "all ok"
}

// briefCost is today's runs and what they used.
func briefCost(st state.State) string {
	if st.Cost == nil {
		return "-"
	}
	all := st.Cost.Today.By.Sum("")
	if all.Runs == 0 {
		return "no runs"
	}
	return countOf(all.Runs, "run") + ": " + cellCost(all)
}
