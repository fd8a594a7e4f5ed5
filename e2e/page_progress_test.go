package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// An agent that answers every wakeup and changes nothing, seen on the page
// in a real browser: no_progress warns on its card, the card's last work
// says nothing changed and how many answers in a row, and the day strip's
// slot names each answered wakeup's work.
func TestE2EPageShowsNoProgress(t *testing.T) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo")
	}
	ctx, _ := browser(t)
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: sol\npulse: {interval: 500ms}\nthresholds: {inactivity_warning: 1h, inactivity_error: 2h, introspection: 2h}\n"+
		"schedule: {every: 2s}\nagent: {delivery: exec, command: [%q, \"Done: I reviewed the plan; all is on track.\"], timeout: 10s}\nprogress: {after: 2}\nhttp: {listen: %q}\n", echo, addr))
	_, stderr := startRun(t, cfg)
	waitUntil(t, "a state file", 10*time.Second, func() bool { return readState(t, ws) != nil })
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent="sol"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("load page: %v\n%s", err, stderr)
	}
	waitUntil(t, "no_progress on the card", 30*time.Second, func() bool {
		return evalIn[bool](t, ctx, `!!document.querySelector('[data-agent="sol"] li[data-check="no_progress"][data-level="warning"]')`)
	})
	work := evalIn[string](t, ctx, `(document.querySelector('[data-agent="sol"] dd[data-fact="last work"]') || {}).textContent || ""`)
	if !strings.HasPrefix(work, "nothing changed · ") || !strings.Contains(work, "in a row changed nothing") {
		t.Fatalf("last work %q", work)
	}
	// The field's numbers under the strip: today's answers that changed
	// nothing, of all answered.
	waitUntil(t, "the field's numbers under the strip", 70*time.Second, func() bool {
		n := evalIn[string](t, ctx, `document.querySelector('[data-agent="sol"] .numbers').textContent`)
		return strings.HasPrefix(n, "today: 0.0 unrecovered stalls per 24h · ") && strings.Contains(n, " answers changed nothing\n7 days: ")
	})
	waitUntil(t, "the field's numbers in /metrics", 70*time.Second, func() bool {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return regexp.MustCompile(`(?m)^watchdog_field_nothing_changed\{agent="sol",span="7d"\} [1-9]`).Match(b) &&
			strings.Contains(string(b), `watchdog_wakeups_work_total{agent="sol",changed="false"}`)
	})
	waitUntil(t, "the work on the strip's present slot", 10*time.Second, func() bool {
		return strings.Contains(evalIn[string](t, ctx, `document.querySelectorAll('[data-agent="sol"] .strip .slot')[95].title`), "work (schedule): nothing changed")
	})
}
