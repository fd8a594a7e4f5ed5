package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// browser starts Debian's chromium headless with a fresh profile, or skips.
func browser(t testing.TB) (context.Context, func() []string) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium)")
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1000, 640))
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	var mu sync.Mutex
	var problems []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value))
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, fmt.Sprintf("exception: %s at %s:%d", e.ExceptionDetails.Text, e.ExceptionDetails.URL, e.ExceptionDetails.LineNumber))
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ctx, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), problems...) }
}

func evalIn[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// The status page in a real Chromium against a real `watchdog run`: it draws
// the agent's card, follows each pulse live, shows a check going to error
// within one pulse, and fades the card when the daemon stops.
func TestE2EStatusPageInChromium(t *testing.T) {
	ctx, problems := browser(t)
	addr := freeAddr(t)
	const pulse = 500 * time.Millisecond
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: luna\npulse: {interval: 500ms}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}\nschedule: {every: 0s}\nhttp: {listen: %q}\n", addr))
	cmd, stderr := startRun(t, cfg)
	waitUntil(t, "a state file", 10*time.Second, func() bool { return readState(t, ws) != nil })

	start := time.Now()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent="luna"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("load page: %v\n%s", err, stderr)
	}
	t.Logf("first load to a drawn card: %s", time.Since(start).Round(time.Millisecond))
	if name := evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] .name').textContent`); name != "luna" {
		t.Fatalf("card name %q", name)
	}
	id := func() string {
		return evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] dd[data-fact="heartbeat"]').textContent`)
	}
	first := id()
	if len(first) != 14 {
		t.Fatalf("card heartbeat ID %q", first)
	}
	waitUntil(t, "the ID on the card to change with a pulse", 4*pulse, func() bool { return id() != first })

	// Inactivity goes to error 4s after start with no proof. The card must
	// show it within one pulse of the state file saying so, with no reload.
	var fileAt, pageAt time.Time
	waitUntil(t, "inactivity error in the state file and on the card", 10*time.Second, func() bool {
		now := time.Now()
		if fileAt.IsZero() {
			if st := readState(t, ws); st != nil {
				if c, _ := st["checks"].(map[string]any)["inactivity"].(map[string]any); c != nil && c["level"] == "error" {
					fileAt = now
				}
			}
		}
		if pageAt.IsZero() && evalIn[bool](t, ctx, `!!document.querySelector('[data-agent="luna"] li[data-check="inactivity"][data-level="error"]')`) {
			pageAt = now
		}
		return !fileAt.IsZero() && !pageAt.IsZero()
	})
	if lag := pageAt.Sub(fileAt); lag > pulse {
		t.Fatalf("the error reached the card %s after the state file, more than one pulse", lag)
	}
	t.Logf("error on the card %s after the state file", pageAt.Sub(fileAt).Round(time.Millisecond))
	// The strip follows at once, not at its minute's refresh: the error's
	// mark is on the present slot, its line in the alerts below.
	waitUntil(t, "the error on the strip", 5*time.Second, func() bool {
		return evalIn[bool](t, ctx, `(() => { const s = document.querySelectorAll('[data-agent="luna"] .strip .slot'); return s.length === 96 && s[95].classList.contains("w-error") && !!document.querySelector('[data-agent="luna"] .history li.error[data-check="inactivity"]'); })()`)
	})
	if evalIn[bool](t, ctx, `document.querySelector('[data-agent="luna"]').classList.contains("stale")`) {
		t.Fatal("card faded while the daemon runs")
	}
	// What the agent is on: a log written now names its theme and its
	// first line on the card, and opens whole as text.
	started := time.Now() // a time of another day would carry its date
	themeID, since := started.Format("200601021504")+"00", started.Format("15:04")
	theme := filepath.Join(ws.Root, "artifacts", themeID+"_tides", "histories")
	if err := os.MkdirAll(theme, 0o755); err != nil {
		t.Fatal(err)
	}
	logID := time.Now().Format("20060102150405")
	if err := os.WriteFile(filepath.Join(theme, logID+".md"), []byte("# Activity log: "+logID+"\n\n## Activity type\nthinking\n\n## Activity content\n- Two bulges, one under the Moon <b>and</b> one opposite.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the theme and the log's line on the card", 10*time.Second, func() bool {
		return evalIn[string](t, ctx, `(document.querySelector('[data-agent="luna"] dd[data-fact="last log"]') || {}).textContent || ""`) == "thinking — Two bulges, one under the Moon <b>and</b> one opposite. open"
	})
	if th := evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] dd[data-fact="theme"]').textContent`); th != "tides (since "+since+")" {
		t.Fatalf("theme %q", th)
	}
	// The theme records say it better: its name while started, and that it
	// ended once it has (the log's folder alone would still say tides).
	records := filepath.Join(ws.Root, "artifacts", "theme_histories")
	themeFact := func() string {
		return evalIn[string](t, ctx, `(document.querySelector('[data-agent="luna"] dd[data-fact="theme"]') || {}).textContent || ""`)
	}
	if err := os.MkdirAll(records, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(records, themeID+"_start_tides.md"), []byte("# Theme start: Why two tides a day?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the theme's name", 10*time.Second, func() bool { return themeFact() == "Why two tides a day? (since "+since+")" })
	if err := os.WriteFile(filepath.Join(records, time.Now().Format("20060102150405")+"_end_tides.md"), []byte("# Theme end: "+themeID+"_tides\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the theme's end", 10*time.Second, func() bool { return themeFact() == "none (tides ended)" })
	href := evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] dd[data-fact="last log"] a').href`)
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || !strings.Contains(string(body), "Two bulges") {
		t.Fatalf("the log's link: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	for _, bad := range []string{"stats/watchdog.lock", "artifacts/../stats/watchdog_state.json", "artifacts/x/histories/../../../etc/passwd.md"} {
		r, err := http.Get("http://" + addr + "/api/v1/agents/luna/log?path=" + url.QueryEscape(bad))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != 400 && r.StatusCode != 403 && r.StatusCode != 404 {
			t.Fatalf("log path %q: %d, want it refused", bad, r.StatusCode)
		}
	}

	// A time of another day says its date; today's does not.
	if got := evalIn[string](t, ctx, `clock(new Date(Date.now() - 86400e3).toISOString(), {}) + " / " + clock(new Date().toISOString(), {})`); !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d / \d\d:\d\d$`).MatchString(got) {
		t.Errorf("clock of yesterday / now: %q", got)
	}
	// A pause in words, and no wakeup announced while it lasts.
	if got := evalIn[string](t, ctx, `pauseLine({until: new Date(Date.now() + 2*3600e3 + 30e3).toISOString(), by: "ops", reason: "model migration"}, {})`); !regexp.MustCompile(`^until (\d{4}-\d\d-\d\d )?\d\d:\d\d \(in 2\.0h\) · by ops · model migration$`).MatchString(got) {
		t.Errorf("pause line %q", got)
	}
	// A declaration in words: its start (its ID), time left, the activity.
	for lang, want := range map[string]string{"en": "strict since 14:02, 12m left: drawing the bulges", "ja": "strict（14:02:07 から、残り12分）：drawing the bulges"} {
		got := evalIn[string](t, ctx, `deepWorkLine({id: "20261125140207", mode: "strict", activity: "drawing the bulges", deadline: new Date(Date.now() + 12*60e3 + 20e3).toISOString()}, {language: "`+lang+`"})`)
		if got != want {
			t.Errorf("deep work line (%s) %q, want %q", lang, got, want)
		}
	}

	// A Japanese card says why no wakeup comes, the breaker's state and the
	// daily cap in Japanese (the state's reason is English, for machines);
	// an English one as the state says them.
	for js, want := range map[string]string{
		`blockedReason({why: "daily_cap", reason: "daily cap of 5 wakeups reached: no wakeups until local midnight; recovery only alerts"}, {language: "ja"})`: "1日の起動の上限に達しました。深夜0時までエージェントを起こしません（回復は警報のみ）",
		`blockedReason({why: "paused", reason: "paused: no wakeups"}, {language: "ja"})`:                                                                       "一時停止中です。一時停止が終わるまでエージェントを起こさず、無活動・内省の警報も出しません",
		`breakerWord("closed", {language: "ja"})`:                          "正常（closed）",
		`capLine({used: 17}, {language: "ja"})`:                            "17回（上限なし）",
		`blockedReason({why: "paused", reason: "paused: no wakeups"}, {})`: "paused: no wakeups",
		`breakerWord("closed", {})`:                                        "closed",
		`capLine({used: 17}, {})`:                                          "17 (no limit)",
		`capLine({used: 3, limit: 10}, {})`:                                "3 of 10",
	} {
		if got := evalIn[string](t, ctx, js); got != want {
			t.Errorf("%s = %q, want %q", js, got, want)
		}
	}

	// The last 24 hours, from the days the daemon keeps: 96 quarter hours
	// ending with the present one, working (no schedule: always working),
	// said in words.
	waitUntil(t, "the day strip", 5*time.Second, func() bool {
		return evalIn[int](t, ctx, `document.querySelectorAll('[data-agent="luna"] .strip .slot').length`) == 96
	})
	if title := evalIn[string](t, ctx, `document.querySelectorAll('[data-agent="luna"] .strip .slot')[95].title`); !strings.Contains(title, "working") {
		t.Fatalf("the strip's last slot is not the present, working (title %q)", title)
	}
	// It crosses midnight: its first slot, 23h45m ago, is yesterday's
	// (unless now is past 23:45) and says so.
	if n := time.Now(); n.Hour() < 23 || n.Minute() < 45 {
		if title := evalIn[string](t, ctx, `document.querySelectorAll('[data-agent="luna"] .strip .slot')[0].title`); !strings.HasPrefix(title, "yesterday ") {
			t.Errorf("the strip's first slot says %q, want it to start with yesterday", title)
		}
	}
	today := evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] .daynav .date').textContent`)
	if today != "last 24 hours" {
		t.Errorf("the strip is labelled %q, want last 24 hours", today)
	}
	// The day before (7 days are kept) has no marks: an empty strip; the
	// way back is the last 24 hours again.
	evalIn[bool](t, ctx, `(document.querySelector('[data-agent="luna"] .daynav .prev').click(), true)`)
	waitUntil(t, "the day before", 5*time.Second, func() bool {
		d := evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] .daynav .date').textContent`)
		return d != today && d != "" && evalIn[int](t, ctx, `document.querySelectorAll('[data-agent="luna"] .strip .m-working').length`) == 0
	})
	evalIn[bool](t, ctx, `(document.querySelector('[data-agent="luna"] .daynav .next').click(), true)`)
	waitUntil(t, "the last 24 hours again", 5*time.Second, func() bool {
		return evalIn[string](t, ctx, `document.querySelector('[data-agent="luna"] .daynav .date').textContent`) == today &&
			evalIn[int](t, ctx, `document.querySelectorAll('[data-agent="luna"] .strip .m-working').length`) > 0
	})
	// The day's alerts, filtered by level: the inactivity warning is gone
	// from the error filter, the error stays (loaded with the strip, at the
	// page's first load: the warning at least was raised by then).
	evalIn[bool](t, ctx, `(() => { const c = document.querySelector('[data-agent="luna"]'); loadStrip(c.querySelector('.strip'), 'luna', false); return true; })()`)
	waitUntil(t, "the last 24 hours' alerts", 5*time.Second, func() bool {
		return evalIn[int](t, ctx, `document.querySelectorAll('[data-agent="luna"] .history li[data-check="inactivity"]').length`) >= 2
	})
	n := evalIn[int](t, ctx, `(() => { const h = document.querySelector('[data-agent="luna"] .history'); const s = h.querySelector('.f-level'); s.value = 'error'; s.dispatchEvent(new Event('change')); return h.querySelectorAll('li').length; })()`)
	if levels := evalIn[string](t, ctx, `[...document.querySelectorAll('[data-agent="luna"] .history li')].map((l) => l.className).join(",")`); n < 1 || strings.Contains(levels, "warning") {
		t.Fatalf("the error filter shows %d alerts: %s", n, levels)
	}

	shot, err := chromedp.Run(c, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	testutil.SaveScreenshot(t, "status-page.png", shot)

	// Stop the daemon: the stream ends and the card fades.
	cmd.Signal(syscall.SIGTERM)
	cmd.Wait()
	waitUntil(t, "the card to fade", 5*time.Second, func() bool {
		return evalIn[bool](t, ctx, `document.querySelector('[data-agent="luna"]').classList.contains("stale")`)
	})
	// A reconnect attempt to a stopped server is reported by Chromium itself
	// (net::ERR_CONNECTION_REFUSED), not by the page; only the page's own
	// errors count.
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}
