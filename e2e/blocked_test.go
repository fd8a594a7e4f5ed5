package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// spendingRun is an exec agent's argv (printf, no shell) whose one run
// reports, as Claude Code's stream-json does, 1,200 tokens of a model the
// config does not price.
func spendingRun(t testing.TB) string {
	t.Helper()
	printf, err := exec.LookPath("printf")
	if err != nil {
		t.Skip("no printf binary")
	}
	line := `{"type":"result","result":"did things","usage":{"input_tokens":600,"output_tokens":600},"modelUsage":{"claude-opus-4-8[1m]":{"inputTokens":600,"outputTokens":600}}}\n`
	return fmt.Sprintf("agent: {delivery: exec, command: [%q, %q], output: stream-json, timeout: 10s}\n", printf, line)
}

// A spent budget is in sight everywhere: the first run spends the day's
// 1,000 tokens; then the page's badge, `status`, `status --brief` and
// `status --json` say "budget spent" with the reason, and none of them
// announces the next wakeup, which would be dropped.
func TestE2EBlockedByTheBudgetIsInSight(t *testing.T) {
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: vega\npulse: {interval: 300ms}\nschedule: {every: 1s}\nbudget: {daily_tokens: 1000}\nhttp: {listen: %q}\n", addr)+spendingRun(t))
	_, stderr := startRun(t, cfg)
	waitUntil(t, "a wakeup dropped by the budget", 20*time.Second, func() bool { return counterOf(readState(t, ws), "dropped_budget") > 0 })
	wd := filepath.Join(binDir, "watchdog")

	out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	var next, blocked string
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "next wakeup:"); ok {
			next = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "BLOCKED:"); ok {
			blocked = strings.TrimSpace(v)
		}
	}
	if next != "none: budget spent until 00:00" || !strings.Contains(blocked, "daily budget spent (1200 of 1000 tokens used today)") {
		t.Fatalf("status: next wakeup %q, blocked %q:\n%s", next, blocked, out)
	}
	// The model the config does not price is named, with the line to add.
	if want := `price unknown for claude-opus-4-8[1m]: add prices: {"claude-opus-4-8[1m]": {input: …, output: …}} to the config`; !strings.Contains(string(out), want) {
		t.Fatalf("status lacks %q:\n%s", want, out)
	}

	out, err = exec.Command(wd, "status", "-c", cfg, "--brief").CombinedOutput()
	if err != nil {
		t.Fatalf("status --brief: %v\n%s", err, out)
	}
	var line string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "vega ") {
			line = l
		}
	}
	if !strings.Contains(line, " budget spent until 00:00 ") || strings.Contains(line, "waiting") {
		t.Fatalf("status --brief's line %q, want the budget and no waiting:\n%s", line, out)
	}

	js, err := exec.Command(wd, "status", "-c", cfg, "--json").Output()
	if err != nil {
		t.Fatalf("status --json: %v\n%s", err, js)
	}
	var agents []struct {
		Blocked *struct{ Why, Reason, Until string }
		State   struct {
			Chambers struct {
				Schedule map[string]any
			}
		}
	}
	if err := json.Unmarshal(js, &agents); err != nil || len(agents) != 1 {
		t.Fatalf("status --json: %v\n%s", err, js)
	}
	a := agents[0]
	if a.Blocked == nil || a.Blocked.Why != "budget_spent" || !strings.Contains(a.Blocked.Reason, "1200 of 1000 tokens") || a.Blocked.Until == "" {
		t.Fatalf("status --json's blocked %+v:\n%s", a.Blocked, js)
	}
	if _, ok := a.State.Chambers.Schedule["next_wakeup"]; ok {
		t.Fatalf("status --json announces a next wakeup while the budget is spent:\n%s", js)
	}
	// The state file itself, which the page and mcp-heart read, says so too.
	sc, _ := readState(t, ws)["chambers"].(map[string]any)["schedule"].(map[string]any)
	if b, _ := sc["blocked"].(map[string]any); b["why"] != "budget_spent" || sc["next_wakeup"] != nil {
		t.Fatalf("state file's schedule chamber %v", sc)
	}

	ctx, problems := browser(t)
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent="vega"] dd[data-fact="next wakeup"]`)); err != nil {
		t.Fatalf("load page: %v\n%s", err, stderr)
	}
	badge := evalIn[string](t, ctx, `document.querySelector('[data-agent="vega"] .badge').textContent`)
	nextFact := evalIn[string](t, ctx, `document.querySelector('[data-agent="vega"] dd[data-fact="next wakeup"]').textContent`)
	why := evalIn[string](t, ctx, `(document.querySelector('[data-agent="vega"] dd[data-fact="blocked"]') || {}).textContent || ""`)
	still := evalIn[bool](t, ctx, `(() => { const c = document.querySelector('[data-agent="vega"]').classList; return c.contains("blocked") && c.contains("still") && !c.contains("healthy"); })()`)
	if p := evalIn[string](t, ctx, `(document.querySelector('[data-agent="vega"] dd[data-fact="prices"]') || {}).textContent || ""`); !strings.HasPrefix(p, `price unknown for claude-opus-4-8[1m]: add prices: {"claude-opus-4-8[1m]": {input: …, output: …}}`) {
		t.Errorf("page's prices fact %q", p)
	}
	if badge != "budget spent until 00:00" || nextFact != "none · budget spent until 00:00" || !strings.Contains(why, "1200 of 1000 tokens") || !still {
		t.Fatalf("page: badge %q, next wakeup %q, blocked %q, still %v", badge, nextFact, why, still)
	}
	if p := problems(); len(p) > 0 {
		t.Fatalf("page console: %v", p)
	}
}
