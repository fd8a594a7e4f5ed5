package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runStatus is `watchdog status [-c FILE]`: what a person wants at a glance,
// per agent, from the state file the pulse writes.
func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	load := configFlag(fs)
	broker := fs.String("mqtt", "", "show every agent on the broker at `URL` (tcp://host:1883) instead of this config's")
	asJSON := fs.Bool("json", false, "print every agent as JSON, for scripts (fields: docs/watchdog.md, docs/state-file.md)")
	date := fs.String("day", "", "draw the strip of `DATE` (YYYY-MM-DD, one of the 7 days kept) instead of the last 24 hours")
	brief := fs.Bool("brief", false, "one line per agent: its state, the strip, the checks not ok, today's cost")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *broker != "" {
		return fleetStatus(ctx, load, *broker, stdout, stderr)
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog status: %v\n", err)
		return 2
	}
	now := timeNow()
	if *date != "" {
		if err := checkDay(*date, cfg.Location(), now); err != nil {
			fmt.Fprintf(stderr, "watchdog status: %v\n", err)
			return 2
		}
	}
	if *brief && *asJSON {
		fmt.Fprintln(stderr, "watchdog status: --brief and --json: choose one")
		return 2
	}
	code := 0
	var out []statusJSON
	var table *briefTable
	if *brief {
		table = newBriefTable(stdout, *date, now)
	}
	for i, ac := range cfg.AgentConfigs() {
		if i > 0 && !*asJSON && !*brief {
			fmt.Fprintln(stdout)
		}
		ws, err := workspace.New(ac.Workspace, cfg.Location())
		if err != nil {
			fmt.Fprintf(stderr, "watchdog status: %v\n", err)
			return 2
		}
		dir := ac.StateDir() // the watchdog's own state, out of the agent's reach
		st, err := state.Load(dir)
		if *brief {
			live := false
			if err == nil {
				live, _ = st.Live(dir, now)
			}
			if !live {
				code = 1
			}
			table.row(ac.DisplayName(), ws, dir, st, err, live)
			continue
		}
		if *asJSON {
			out = append(out, agentJSON(ac.DisplayName(), ws, dir, st, err, *date, now))
			if err != nil || !out[len(out)-1].Running {
				code = 1
			}
			continue
		}
		if err != nil {
			fmt.Fprintf(stdout, "%s (%s)\n  watchdog: never ran here (no %s)\n", ac.DisplayName(), ws.Root, filepath.Join(dir, state.File))
			if !errors.Is(err, os.ErrNotExist) {
				fmt.Fprintf(stdout, "  error: %v\n", err)
			}
			code = 1
			continue
		}
		live, why := st.Live(dir, now)
		if !live {
			code = 1
		}
		printStatus(stdout, ws, dir, st, *date, now, live, why)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "watchdog status: %v\n", err)
			return 1
		}
		return code
	}
	if *brief {
		table.Flush(stdout)
		return code
	}
	fmt.Fprintf(stdout, "\n%s: %s\n", stripLabel(*date), day.Legend)
	return code
}

func printStatus(w io.Writer, ws *workspace.Workspace, dir string, st state.State, date string, now time.Time, live bool, why string) {
	run := fmt.Sprintf("running (pid %d, since %s)", st.PID, st.StartedAt.Local().Format("2006-01-02 15:04:05"))
	switch {
	case !st.Running(now):
		run = fmt.Sprintf("NOT RUNNING (last pulse %s ago)", ago(now, st.PulseAt))
	case !live:
		run = "NOT RUNNING (" + why + ")"
	}
	fmt.Fprintf(w, "%s (%s)\n", st.Agent, ws.Root)
	row := func(k, v string) { fmt.Fprintf(w, "  %-18s %s\n", k+":", v) }
	row("watchdog", run)
	row("heartbeat ID", string(st.HeartbeatID))
	row("theme", themeRow(st.Theme))
	row("last proof", proof(now, st.LastProof))
	row("last introspection", proof(now, st.LastIntro))
	row("work", workRow(now, st.Work, st.LastIntro))
	row("client", clientRow(now, st.Client))
	asksRows(now, st.Asks, row)
	if why := st.Chambers.Pulse.HooksUnread; why != "" {
		row("hooks", "NOT HEARD: the hooks' spool cannot be read ("+why+")")
	}
	if slots, err := dayStrip(dir, ws.Loc, date, now); err == nil {
		row(stripLabel(date), "|"+day.Text(slots)+"| "+stripSpan(slots, date, now))
	}
	if p := st.Pause; p != nil {
		v := "until `watchdog resume`"
		if !p.Until.IsZero() {
			v = "until " + p.Until.Local().Format("2006-01-02 15:04")
		}
		if p.By != "" {
			v += " by " + p.By
		}
		if p.Reason != "" {
			v += " (" + p.Reason + ")"
		}
		row("PAUSED", v+": no wakeups; inactivity and introspection quiet")
	}
	if len(st.DeepWork) == 0 {
		row("deep work", "none")
	}
	for _, d := range st.DeepWork {
		v := fmt.Sprintf("%s %s: %s", d.Mode, d.ID, d.Activity)
		if d.Deadline != nil {
			v += fmt.Sprintf(" (deadline %s, %s left)", d.Deadline.Local().Format("15:04:05"), left(now, *d.Deadline))
		}
		row("deep work", v)
	}
	row("checks", notOKChecks(st))
	if c := st.Checks[checks.ToolRefused]; c.Level != "" && c.Level != "ok" {
		row("refused calls", c.Message)
	}
	if c := st.Checks[checks.HooksOff]; c.Level != "" && c.Level != "ok" {
		row("HOOKS OFF", c.Message)
	}
	r := st.Recovery
	switch {
	case r.GaveUp:
		v := "GAVE UP: wakeups stopped (" + r.Reason + ") until fixed or `watchdog resume`"
		if r.ResumeBy != nil {
			v += ", at the latest " + r.ResumeBy.Local().Format("15:04:05")
		}
		row("recovery", v)
	case r.Active && r.Held != "":
		row("recovery", "waiting: no wakeup can go ("+(state.Blocked{Why: r.Held}).Word()+"), so no attempt is made or counted ("+r.Reason+")")
	case r.Active && r.Asking:
		row("recovery", "waiting: the agent is asking a person; nothing is typed until it is answered ("+r.Reason+")")
	case r.Active:
		row("recovery", fmt.Sprintf("attempt %d, waited %d pulses: %s", r.Attempt, r.WaitedCycles, r.Reason))
	default:
		row("recovery", "none")
	}
	sc := st.Chambers.Schedule
	next := "none scheduled"
	if sc.NextWakeup != nil {
		next = fmt.Sprintf("%s (%s, in %s)", sc.NextWakeup.Local().Format("15:04:05"), sc.NextSource, left(now, *sc.NextWakeup))
	}
	blocked := state.Blocking(st, now, ws.Loc)
	switch {
	case !live:
		next = "none: no watchdog runs"
	case blocked != nil:
		next = "none: " + blockedWord(*blocked, now)
		row("BLOCKED", blocked.Reason)
	}
	row("next wakeup", next)
	if sp := sc.Spread; sp != nil && live {
		row("spread", fmt.Sprintf("the schedule's wakeups are spread until %s (%s), at most %s apart (rate_limit.spread_max); `watchdog resume` ends it",
			sp.Until.Local().Format("2006-01-02 15:04"), sp.Why, humanize.Duration(sp.MaxGap.D())))
	}
	if sc.InFlight && sc.InFlightSince != nil {
		row("in flight", fmt.Sprintf("%s wakeup since %s ago", sc.InFlightSource, ago(now, *sc.InFlightSince)))
	}
	if st.Chambers.Idle.After > 0 {
		v := "after " + humanize.Duration(st.Chambers.Idle.After.D())
		if st.Chambers.Idle.Idle {
			v += ", agent is idle"
		} else if st.Chambers.Idle.WakeAt != nil {
			v += ", idle wakeup in " + left(now, *st.Chambers.Idle.WakeAt)
		}
		row("idle", v)
	}
	limit := "unlimited"
	if st.DailyCap.Limit > 0 {
		limit = fmt.Sprint(st.DailyCap.Limit)
	}
	capRow := fmt.Sprintf("%d of %s used on %s", st.DailyCap.Used, limit, st.DailyCap.Day)
	if st.DailyCap.Limit > 0 && st.DailyCap.Used >= st.DailyCap.Limit {
		capRow += "; spent: no wakeups until midnight, recovery only alerts and watches"
	}
	row("daily cap", capRow)
	b := st.Breaker
	br := b.State
	if b.State != "closed" {
		br += fmt.Sprintf(" (%d failures, cooldown %s, %s left)", b.Failures, humanize.Duration(b.Cooldown), humanize.Duration(b.CooldownLeft))
	}
	row("circuit breaker", br)
	costRows(row, st.Cost)
	c := st.Counters
	row("counts", fmt.Sprintf("pulses %d, wakeups %d, delivered %d, failed %d, taken over %d, ghosts %d, dropped %d, dropped by the budget %d, tool capped %d, token capped %d, every call refused %d, skipped %d, held by the service %d, skipped after gave_up %d, coalesced %d, outside active hours %d",
		c.Pulses, c.Wakeups, c.Delivered, c.DeliveryFailures, c.TakenOver, c.Ghosts, c.Dropped, c.DroppedBudget, c.ToolCapped, c.TokenCapped, c.ToolRefused, c.Skipped, c.HeldService, c.GaveUp, c.Coalesced, c.OutsideActiveHours))
	if p := st.Progress; p != nil {
		w := fmt.Sprintf("%d answered wakeups in a row changed nothing (no_progress warns at %d) in %s", p.Unchanged, p.After, strings.Join(p.Watched, ", "))
		if n := len(p.Recent); n > 0 {
			r := p.Recent[n-1]
			w += fmt.Sprintf("; last, at %s: %d files, %d commits", r.Time.Local().Format("15:04"), r.Files, r.Commits)
			if r.Said != "" {
				w += fmt.Sprintf("; said %q", r.Said)
			}
		}
		row("progress", w)
	}
	if c.TelemetryUnmatched+c.TelemetryRefused+c.TelemetryUnkeyed > 0 {
		row("telemetry apart", fmt.Sprintf("not charged: %d usage reports of no run of this agent's, %d implausible, %d posts without its key",
			c.TelemetryUnmatched, c.TelemetryRefused, c.TelemetryUnkeyed))
	}
}

// blockedWord is why no wakeup comes in a word, with when it lifts by
// itself: "budget spent until 00:00".
func blockedWord(b state.Blocked, now time.Time) string {
	w := b.Word()
	if b.Until != nil {
		w += " until " + b.Until.Local().Format("15:04")
		if b.Until.Sub(now) >= 24*time.Hour {
			w = b.Word() + " until " + b.Until.Local().Format("2006-01-02 15:04")
		}
	}
	if b.Detail != "" {
		w += " (" + b.Detail + ")"
	}
	return w
}

func proof(now time.Time, p *workspace.Proof) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%s ago)", p.Path, ago(now, p.ModTime))
}

func ago(now, t time.Time) string { return humanize.Duration(now.Sub(t)) }

func left(now, t time.Time) string {
	d := t.Sub(now)
	if d < 0 {
		return "0s"
	}
	return humanize.Duration(d)
}

// workRow says whether the agent is working on a wakeup or waiting for the
// next one (waiting is healthy), and the working time introspection is owed
// on, since the last introspection (intro) or, before the first, in all.
func workRow(now time.Time, w state.Work, intro *workspace.Proof) string {
	d := w.WorkedSinceIntrospection.D()
	var worked string
	switch {
	case intro == nil && d > 0:
		worked = humanize.Duration(d) + " worked, no introspection yet"
	case intro == nil:
		worked = "no introspection yet"
	case d > 0:
		worked = humanize.Duration(d) + " worked since the last introspection"
	default:
		worked = "no work since the last introspection"
	}
	switch w.Mode {
	case state.WorkWorking:
		since := "a wakeup"
		if w.Since != nil {
			since = "the wakeup " + ago(now, *w.Since) + " ago"
		}
		return "working on " + since + " (answered by an activity log, the end of the turn where hooks are wired, or the end of an exec run); " + worked
	case state.WorkWaiting:
		return "waiting for the next wakeup (healthy); " + worked
	}
	return "always working (no schedule, no idle chamber)"
}

// clientRow says what the client's hooks show: in a turn since when, and
// how busy; waiting; or waiting for a person.
func clientRow(now time.Time, c *state.Client) string {
	if c == nil {
		return "no hook event yet (the client's hooks are wired by `watchdog init --client NAME`)"
	}
	var v string
	switch c.Mode {
	case state.ClientInTurn:
		v = "in a turn"
		if c.Since != nil {
			v += " since " + c.Since.Local().Format("15:04")
		}
	case state.ClientWaitingForYou:
		v = "WAITING FOR YOU"
		if c.Since != nil {
			v += " since " + c.Since.Local().Format("15:04")
		}
		if c.Asking != "" {
			v += " (" + c.Asking + ")"
		}
	default:
		v = "waiting"
	}
	switch {
	case c.LastToolAt != nil && c.Running:
		v += fmt.Sprintf("; running %s for %s; %s in 5m", c.LastTool, ago(now, *c.LastToolAt), countOf(int64(c.ToolCalls), "tool call"))
	case c.LastToolAt != nil:
		v += fmt.Sprintf("; %s in 5m, last %s %s ago", countOf(int64(c.ToolCalls), "tool call"), c.LastTool, ago(now, *c.LastToolAt))
	}
	if c.Repeats > 1 {
		v += fmt.Sprintf("; %s repeated %d times", c.LoopTools, c.Repeats)
	}
	if c.Failure != "" {
		v += "; the model's service failed: " + c.Failure
	}
	return v
}

// themeRow is the theme in status's words: its name and folder, or that it
// ended.
func themeRow(t *state.Theme) string {
	switch {
	case t == nil:
		return "none yet"
	case t.Ended:
		return "none (" + t.Dir + " ended)"
	case t.Name != "" && t.Name != t.Dir:
		return t.Name + " (artifacts/" + string(t.StartID) + "_" + t.Dir + ")"
	}
	return "artifacts/" + string(t.StartID) + "_" + t.Dir
}
