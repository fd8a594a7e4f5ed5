package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/user"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
)

// runPause is `watchdog pause`: it writes the pause file of each chosen
// agent, in its folder under state_dir (out of the agent's reach). The running daemon sees it within one pulse; it holds across
// restarts until `watchdog resume` or its --until.
func runPause(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pause", flag.ContinueOnError)
	load := configFlag(fs)
	name := fs.String("agent", "", "the `NAME` of the agent to pause (default: every agent of the config)")
	dur := fs.Duration("for", 0, "pause for this `DURATION`, e.g. 2h")
	untilS := fs.String("until", "", "pause until `TIME`, in the config's timezone, e.g. 2026-11-23T09:00")
	reason := fs.String("reason", "", "why, in a `TEXT` shown in status and on the page")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog pause: %v\n", err)
		return 2
	}
	now := time.Now()
	p := pause.Pause{Since: now, Reason: *reason, By: "the local user"}
	if u, err := user.Current(); err == nil {
		p.By = u.Username
	}
	switch {
	case *dur != 0 && *untilS != "":
		fmt.Fprintln(stderr, "watchdog pause: give --for or --until, not both")
		return 2
	case *dur < 0:
		fmt.Fprintln(stderr, "watchdog pause: --for must be positive")
		return 2
	case *dur > 0:
		p.Until = now.Add(*dur)
	case *untilS != "":
		if p.Until, err = parseUntil(*untilS, cfg.Location()); err != nil {
			fmt.Fprintf(stderr, "watchdog pause: %v\n", err)
			return 2
		}
	}
	return eachAgent(cfg, *name, "pause", stdout, stderr, func(file, _ string) (string, error) {
		if err := pause.Set(file, p); err != nil {
			return "", err
		}
		if p.Until.IsZero() {
			return "paused until `watchdog resume`", nil
		}
		return "paused until " + p.UntilText(cfg.Location()), nil
	})
}

// runResume is `watchdog resume`: it removes the pause file and ends a
// recovery that gave up.
func runResume(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	load := configFlag(fs)
	name := fs.String("agent", "", "the `NAME` of the agent to resume (default: every agent of the config)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog resume: %v\n", err)
		return 2
	}
	return eachAgent(cfg, *name, "resume", stdout, stderr, func(file, stateDir string) (string, error) {
		p, err := pause.Read(file)
		if err != nil {
			return "", err
		}
		if err := pause.Resume(file, time.Now()); err != nil {
			return "", err
		}
		return resumeSays(p != nil, stateDir), nil
	})
}

// resumeSays is what `watchdog resume` did, from the pause it found and
// the agent's last state: a give-up it ends is said as such, never "was not
// paused" alone, and so is a rate limit's hold or spreading.
func resumeSays(wasPaused bool, stateDir string) string {
	gaveUp, why, limit := false, "", ""
	if st, err := state.Load(stateDir); err == nil {
		gaveUp, why = st.Recovery.GaveUp, st.Recovery.Reason
		limit = limitEnds(st.Chambers.Schedule)
	}
	back := "recovery had given up"
	if why != "" {
		back += " (" + why + ")"
	}
	back += ": waking comes back within one pulse, and the first wakeup tells the agent what happened"
	var says string
	switch {
	case wasPaused && gaveUp:
		says = "resumed; " + back
	case wasPaused:
		says = "resumed; the watchdog picks it up within one pulse"
	case gaveUp:
		says = "was not paused, but " + back
	case limit != "":
		says = "was not paused"
	default:
		return "was not paused, and recovery had not given up: nothing to resume"
	}
	if limit != "" {
		says += "; " + limit
	}
	return says
}

// limitEnds says which rate limit's hold or spreading a resume ends; ""
// when none is in force.
func limitEnds(sc state.ScheduleChamber) string {
	var what []string
	if sc.HeldLimit && sc.HeldUntil != nil {
		what = append(what, "the rate limit's hold ("+sc.HeldFor+")")
	}
	if sp := sc.Spread; sp != nil {
		what = append(what, "the spreading of the schedule ("+sp.Why+")")
	}
	if len(what) == 0 {
		return ""
	}
	return strings.Join(what, " and ") + " ends within one pulse, and the client's report of that limit is not believed again before its reset"
}

// eachAgent runs f on the named agent's pause file and state directory, or
// on every agent's.
func eachAgent(cfg *config.Config, name, verb string, stdout, stderr io.Writer, f func(pauseFile, stateDir string) (string, error)) int {
	found := false
	for _, a := range cfg.AgentConfigs() {
		if name != "" && a.DisplayName() != name {
			continue
		}
		found = true
		msg, err := f(a.PauseFile(), a.StateDir())
		if err == nil {
			fmt.Fprintf(stdout, "%s: %s\n", a.DisplayName(), msg)
			continue
		}
		fmt.Fprintf(stderr, "watchdog %s: %s: %v\n", verb, a.DisplayName(), err)
		return 1
	}
	if !found {
		fmt.Fprintf(stderr, "watchdog %s: no agent named %q in the config\n", verb, name)
		return 2
	}
	return 0
}

// parseUntil reads a local time (minutes or seconds) or an RFC 3339 time.
func parseUntil(s string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--until %q: want a time like 2026-11-23T09:00", s)
}
