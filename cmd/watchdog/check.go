package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runCheck is `watchdog check [-c FILE]`: one scan now, findings printed for
// a person; exit 0 ok (infos included), 1 warning, 2 error. It changes
// nothing: renames the daemon would make are listed, not made. The baseline
// is the running daemon's start time, if one is running.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	load := configFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog check: %v\n", err)
		return 2
	}
	now := timeNow()
	worst := checks.OK
	for _, ac := range cfg.AgentConfigs() {
		ws, err := workspace.New(ac.Workspace, cfg.Location())
		if err != nil {
			fmt.Fprintf(stderr, "watchdog check: %v\n", err)
			return 2
		}
		var baseline time.Time
		note := "no watchdog running: no baseline"
		if st, err := state.Load(ac.StateDir()); err == nil {
			switch live, why := st.Live(ac.StateDir(), now); {
			case live:
				baseline = st.StartedAt
				note = "baseline: running watchdog started " + st.StartedAt.Format(time.RFC3339)
			case st.Running(now):
				note = "no watchdog running (" + why + "): no baseline"
			}
		}
		sc := scan.NewScanner(ws)
		snap, err := sc.Scan()
		sc.Close()
		if err != nil {
			fmt.Fprintf(stderr, "watchdog check: %s: %v\n", ac.DisplayName(), err)
			return 2
		}
		res, _ := checks.Evaluate(now, snap, checks.Config{Thresholds: ac.Thresholds, Restrictions: ac.Restrictions, Baseline: baseline, Loc: cfg.Location(),
			HooksOff: daemon.HooksOff(ws.Root, ac.Agent.Client)}, checks.State{})
		fmt.Fprintf(stdout, "%s (%s) — %s\n", ac.DisplayName(), ws.Root, note)
		for _, f := range res.Findings {
			fmt.Fprintf(stdout, "  %-8s %-20s %s\n", f.Level, f.Check, f.Message)
		}
		for _, a := range res.Actions {
			fmt.Fprintf(stdout, "  would %s: %s %s\n", a.Kind, a.Rel, a.NewRel)
		}
		if w := res.Worst(); w > worst {
			worst = w
		}
	}
	switch worst {
	case checks.Error:
		return 2
	case checks.Warning:
		return 1
	}
	return 0
}
