package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/fleet"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// BenchmarkFleetViewPage measures the fleet view the way an operator meets
// it: 1,000 agents published by 10 watchdogs' own publishers (the code a
// watchdog runs) through a real Mosquitto, the real `watchdog fleet`
// serving the page, and a real Chromium drawing it. It reports the page's
// load to its first full picture, then a steady round at the rate
// (every agent changes state once over 10 s, 100 states a second): the
// longest task the page ran meanwhile (Chromium reports tasks over 50 ms; 0
// is none), how long after the last publish every tile showed its new
// state, and the view's CPU over the round.
// Run: go test ./e2e -run '^$' -bench FleetViewPage -benchtime 3x.
func BenchmarkFleetViewPage(b *testing.B) {
	const procs, per = 10, 100
	n := procs * per
	round := envDuration(b, "AIHEART_BENCH_ROUND", 10*time.Second)
	broker := testutil.Mosquitto(b, nil)
	m := config.MQTT{Broker: broker.URL, TopicPrefix: "heart", KeepAlive: config.Duration(30 * time.Second)}
	pubs := make([]*fleet.Publisher, procs)
	for p := range pubs {
		mp := m
		mp.ClientID = fmt.Sprintf("bench-%02d", p)
		pub, err := fleet.NewPublisher(context.Background(), mp, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(pub.Close)
		pubs[p] = pub
	}
	view := freeAddr(b)
	fv := exec.Command(filepath.Join(binDir, "watchdog"), "fleet", "--mqtt", broker.URL, "--http", view, "--log-format", "json")
	testutil.Start(b, fv)
	now := time.Now()
	publish := func(i int, kind string) { pubs[i/per].State(fleetAgent(i, n, kind, now)) }
	for i := range n {
		publish(i, fleetKinds[i%len(fleetKinds)])
	}
	waitUntil(b, fmt.Sprintf("all %d agents in the view", n), 60*time.Second, func() bool { return len(statusOf(view)) == n })

	ctx, problems := browser(b)
	var load, lag, longest, cpu float64
	for r := 0; r < b.N; r++ {
		load += loadGrid(b, ctx, "http://"+view+"/", n)
		c, cancel := context.WithTimeout(ctx, 60*time.Second)
		evalIn[bool](b, ctx, `(() => {
			window.longest = 0;
			new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longest = Math.max(window.longest, e.duration); }).observe({ type: "longtask" });
			return true;
		})()`)
		// One round: every agent goes working (odd rounds: waiting), one
		// state every round/n, spread over the publishers as pulses are.
		kind := []string{"working", "waiting"}[r%2]
		cpu0 := cpuOf(b, fv.Process.Pid)
		start := time.Now()
		tick := time.NewTicker(round / time.Duration(n))
		for i := range n {
			<-tick.C
			publish(i, kind)
		}
		tick.Stop()
		sent := time.Now()
		if _, err := chromedp.Run(c, chromedp.Evaluate[bool](`new Promise((done) => {
			const f = () => document.querySelectorAll('#grid .tile[data-state="`+kind+`"]').length === `+fmt.Sprint(n)+` ? done(true) : requestAnimationFrame(f);
			f();
		})`, chromedp.EvalAwaitPromise)); err != nil {
			b.Fatalf("not every tile turned %s: %v", kind, err)
		}
		lag += float64(time.Since(sent).Microseconds()) / 1000
		cpu += 100 * (cpuOf(b, fv.Process.Pid) - cpu0).Seconds() / time.Since(start).Seconds()
		longest = max(longest, evalIn[float64](b, ctx, `window.longest`))
		cancel()
	}
	b.ReportMetric(load/float64(b.N), "load-to-drawn-ms")
	b.ReportMetric(longest, "round-longest-task-ms")
	b.ReportMetric(lag/float64(b.N), "last-publish-to-drawn-ms")
	b.ReportMetric(cpu/float64(b.N), "view-cpu-%")
	b.ReportMetric(0, "ns/op")
	b.Logf("fleet view RSS %s (peak %s) with %d agents", procField(b, fv.Process.Pid, "VmRSS"), procField(b, fv.Process.Pid, "VmHWM"), n)
	for _, p := range problems() {
		b.Errorf("browser: %s", p)
	}
}
