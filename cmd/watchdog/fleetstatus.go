package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/fleet"
)

// Retained states arrive right after the subscription; the table is drawn
// once none has come for settleQuiet (at most settleMax after it).
const (
	settleQuiet = 300 * time.Millisecond
	settleMax   = 3 * time.Second
)

// fleetStatus is `watchdog status --mqtt URL`: every agent on the broker as
// a table. Exit 0 when all are online, 1 when one is not or none is seen.
func fleetStatus(ctx context.Context, load func() (*config.Config, string, error), broker string, stdout, stderr io.Writer) int {
	_, m, err := fleetConfig(load, broker)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog status: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	v := fleet.NewView(fleet.ViewOptions{Topics: fleet.Topics{Prefix: m.TopicPrefix}})
	sub, err := fleet.Subscribe(ctx, m, v, zerolog.Nop())
	if err != nil {
		fmt.Fprintf(stderr, "watchdog status: %v\n", err)
		return 2
	}
	defer func() { cancel(); <-sub.Done() }()
	select {
	case <-sub.Subscribed():
	case <-time.After(10 * time.Second):
		why := sub.LastError()
		if why == "" {
			why = "no answer"
		}
		fmt.Fprintf(stderr, "watchdog status: cannot follow %s: %s\n", m.Broker, why)
		return 2
	case <-ctx.Done():
		return 2
	}
	settle(v)
	v.Sweep()
	return printFleet(stdout, v.Members(), time.Now())
}

// settle waits until the retained messages have stopped coming.
func settle(v *fleet.View) {
	deadline := time.Now().Add(settleMax)
	last, _ := v.Received()
	quietSince := time.Now()
	for time.Now().Before(deadline) && time.Since(quietSince) < settleQuiet {
		time.Sleep(20 * time.Millisecond)
		if n, _ := v.Received(); n != last {
			last, quietSince = n, time.Now()
		}
	}
}

func printFleet(w io.Writer, ms []fleet.Member, now time.Time) int {
	if len(ms) == 0 {
		fmt.Fprintln(w, "no agent has published on this broker")
		return 1
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tHOST\tPRESENCE\tLAST SEEN\tWORST\tHEARTBEAT\tBREAKER\tCAP\tNEXT WAKEUP")
	code := 0
	for _, m := range ms {
		presence := "online"
		if !m.Online {
			presence, code = "OFFLINE", 1
		}
		switch {
		case m.Pause != nil && !m.Pause.Until.IsZero():
			presence += ", paused until " + m.Pause.Until.Local().Format("15:04")
		case m.Paused:
			presence += ", paused"
		}
		capUse := fmt.Sprintf("%d", m.Cap.Used)
		if m.Cap.Limit > 0 {
			capUse += fmt.Sprintf("/%d", m.Cap.Limit)
		}
		next := "-"
		if m.NextWakeup != nil {
			next = "in " + roundAgo(m.NextWakeup.Sub(now))
		}
		worst := m.Worst
		if bad := notOK(m.Checks); bad != "" {
			worst += " (" + bad + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s ago\t%s\t%s\t%s\t%s\t%s\n", m.Agent, m.Host, presence, roundAgo(now.Sub(m.LastSeen)),
			worst, m.HeartbeatID, m.Breaker, capUse, next)
	}
	tw.Flush()
	for _, m := range ms {
		if !m.Online && m.Reason != "" {
			fmt.Fprintf(w, "%s: %s\n", m.Agent, m.Reason)
		}
	}
	return code
}

func notOK(checks map[string]string) string {
	var out []string
	for name, l := range checks {
		if l != "ok" {
			out = append(out, name+"="+l)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

func roundAgo(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return d.Round(time.Minute).String()
	}
	return d.Round(time.Hour).String()
}
