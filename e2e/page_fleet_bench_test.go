package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkPageFleetLoad measures, in a real Chromium, the page's load to
// its first full picture for 75 and 1,000 agents, and the time to apply a
// burst of one update per agent (a whole fleet pulsing at once) with the
// longest task the page ran meanwhile (a frame it could not answer input
// in; Chromium reports tasks over 50 ms, so 0 is none), and the longest task
// while one update per agent arrives over 2 s. Run: go test ./e2e -run '^$' -bench PageFleetLoad -benchtime 5x.
func BenchmarkPageFleetLoad(b *testing.B) {
	for _, n := range []int{75, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx, problems := browser(b)
			var load, burst, longest, steady float64
			for i := 0; i < b.N; i++ {
				now := time.Now()
				srv, drawn := openFleet(b, ctx, fleetStates(n, now))
				load += drawn
				evalIn[bool](b, ctx, `(() => {
					window.longest = 0;
					new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longest = Math.max(window.longest, e.duration); }).observe({ type: "longtask" });
					return true;
				})()`)
				// Every agent starts working: one update each, at once.
				start := time.Now()
				for j := range n {
					srv.Publish(fleetAgent(j, n, "working", now))
				}
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((done) => {
					const f = () => document.querySelectorAll('#grid .tile[data-state="working"]').length === `+fmt.Sprint(n)+` ? done(true) : requestAnimationFrame(f);
					f();
				})`, chromedp.EvalAwaitPromise)); err != nil {
					b.Fatal(err)
				}
				burst += float64(time.Since(start).Microseconds()) / 1000
				longest = max(longest, evalIn[float64](b, ctx, `window.longest`))

				// Steady: each agent back to waiting, 2 s for the whole fleet,
				// 5 times the rate of 1,000 agents pulsing every 10 s.
				evalIn[bool](b, ctx, `(window.longest = 0, true)`)
				tick := time.NewTicker(2 * time.Second / time.Duration(n))
				for j := range n {
					<-tick.C
					srv.Publish(fleetAgent(j, n, "waiting", now))
				}
				tick.Stop()
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((done) => {
					const f = () => document.querySelectorAll('#grid .tile[data-state="waiting"]').length === `+fmt.Sprint(n)+` ? done(true) : requestAnimationFrame(f);
					f();
				})`, chromedp.EvalAwaitPromise)); err != nil {
					b.Fatal(err)
				}
				steady = max(steady, evalIn[float64](b, ctx, `window.longest`))
			}
			b.ReportMetric(load/float64(b.N), "load-to-drawn-ms")
			b.ReportMetric(burst/float64(b.N), "burst-applied-ms")
			b.ReportMetric(longest, "burst-longest-task-ms")
			b.ReportMetric(steady, "steady-longest-task-ms")
			b.ReportMetric(0, "ns/op")
			for _, p := range problems() {
				b.Errorf("browser: %s", p)
			}
		})
	}
}
