package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The page shows the agent's words as status does: a bidirectional override
// in a theme's title, and C0 and C1 controls, are written out as escapes,
// visibly, in a real Chromium against a real `watchdog run`.
func TestE2EPageEscapesBidiAndControls(t *testing.T) {
	ctx, problems := browser(t)
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: luna\npulse: {interval: 200ms}\nthresholds: {inactivity_warning: 1m, inactivity_error: 2m, introspection: 30m}\nschedule: {every: 0s}\nhttp: {listen: %q}\n", addr))
	_, stderr := startRun(t, cfg)
	waitUntil(t, "a state file", 10*time.Second, func() bool { return readState(t, ws) != nil })
	id := time.Now().Format("20060102150405")
	records := filepath.Join(ws.Root, "artifacts", "theme_histories")
	if err := os.MkdirAll(records, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(records, id+"_start_x.md"), []byte("# Theme start: abc\u202etxt.md \u009b31m\x1b[2J\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent="luna"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("load page: %v\n%s", err, stderr)
	}
	// The watchdog made the controls spaces (OneLine); the override is
	// the page's to show.
	want := `abc\u202etxt.md  31m [2J`
	var got string
	defer func() { t.Logf("theme fact: %q", got) }()
	waitUntil(t, "the theme's title on the card", 10*time.Second, func() bool {
		got = evalIn[string](t, ctx, `(document.querySelector('[data-agent="luna"] dd[data-fact="theme"]') || {}).textContent || ""`)
		return len(got) >= len(want) && got[:len(want)] == want
	})
	// Words that reach the page as they are (a fleet peer's name, an alert
	// line) go through the same escaping.
	if got := evalIn[string](t, ctx, `shown("a\u009bb\x1bc\u2066d\te")`); got != `a\x9bb\x1bc\u2066d`+"\te" {
		t.Errorf("shown = %q", got)
	}
	if p := problems(); len(p) > 0 {
		t.Fatalf("the page logged problems: %v", p)
	}
}
