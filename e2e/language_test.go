package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// inLanguages runs a scenario once for a workspace made with each
// language, all in parallel with the other scenarios.
func inLanguages(t *testing.T, scenario func(*testing.T, lang.Lang)) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	t.Parallel()
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) { scenario(t, l) })
	}
}

// japanese reports whether s holds kana (Han alone could be a path).
func japanese(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana) })
}

// TestE2EJapaneseWorkspace: a workspace made with `init --lang ja` and run
// with `language: ja` speaks Japanese to the agent everywhere it reads
// (docs, tool descriptions, replies, the heartbeat's notices, its activity
// logs), while what machines read stays English: alert lines, check names,
// JSON fields, the "Heartbeat:" line.
func TestE2EJapaneseWorkspace(t *testing.T) {
	w, theme := themed(t, lang.Japanese)
	for _, doc := range []string{"GEMINI.md", "ai-docs/deep-work.md", "ai-docs/heartbeat-notices.md"} {
		if b, err := os.ReadFile(w.ws.Path(doc)); err != nil || !japanese(string(b)) {
			t.Errorf("%s is not Japanese (err %v)", doc, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := w.mcp.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if !japanese(tool.Description) {
			t.Errorf("tool %s description is not Japanese: %q", tool.Name, tool.Description)
		}
	}
	res := w.call("checkpoint", map[string]any{"current_activity": "潮の満ち引きを調べている"})
	if st := structured(t, res); !japanese(text(res)) || st["path"] == nil {
		t.Errorf("checkpoint reply = %q / %v, want Japanese words and English fields", text(res), st)
	}
	p := w.log(theme, "thinking")
	b, err := os.ReadFile(w.ws.Path(p))
	if err != nil || !strings.Contains(string(b), "## 活動種別\n思考\n") {
		t.Errorf("activity log %s = %q (err %v), want Japanese headings", p, b, err)
	}
	if got := workspace.ParseActivityLog(b).Type; got != workspace.Thinking {
		t.Errorf("the log reads back as %q, want thinking", got)
	}

	w.mark()
	a := w.expect("inactivity", "warning", 8*time.Second)
	if japanese(a.Message) || !strings.Contains(a.Message, "no activity log or checkpoint") {
		t.Errorf("alert line %q: want the English message", a.Message)
	}
	// The alert line is written before the pulse publishes its state, which
	// the tool reads: the notice reaches the tool within that pulse.
	w.eventually("the Japanese notice in get_heartbeat_elapsed_time", 4*time.Second, func() bool {
		_, notice, ok := strings.Cut(text(w.call("get_heartbeat_elapsed_time", nil)), "[warning] inactivity: ")
		return ok && japanese(notice)
	})
	w.expect("recovery", "warning", 8*time.Second)
	w.eventually("the Japanese recovery notice in the prompt", 4*time.Second, func() bool {
		b, _ := os.ReadFile(w.ws.Path(workspace.PromptFile))
		_, notice, ok := strings.Cut(string(b), "[error] inactivity: ")
		return strings.HasPrefix(string(b), "Heartbeat: ") && strings.Contains(string(b), "回復通知") && ok && japanese(notice)
	})
	w.log(theme, "introspection")
	w.expect("inactivity", "ok", 4*time.Second)
}

// TestE2EStatusPageInJapanese: an agent with language ja gets its card's
// labels in Japanese; check names and levels stay English.
func TestE2EStatusPageInJapanese(t *testing.T) {
	ctx, problems := browser(t)
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: tsuki\nlanguage: ja\npulse: {interval: 500ms}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}\nschedule: {every: 0s}\nhttp: {listen: %q}\n", addr))
	startRun(t, cfg)
	waitUntil(t, "a state file", 10*time.Second, func() bool { return readState(t, ws) != nil })
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent="tsuki"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("load page: %v", err)
	}
	waitUntil(t, "the inactivity check on the card", 10*time.Second, func() bool {
		return evalIn[bool](t, ctx, `!!document.querySelector('[data-agent="tsuki"] li[data-check="inactivity"]')`)
	})
	labels := evalIn[string](t, ctx, `[...document.querySelectorAll('[data-agent="tsuki"] dt')].map((d) => d.textContent).join(" ")`)
	if !strings.Contains(labels, "ハートビートID") || !strings.Contains(labels, "深い作業") {
		t.Errorf("card labels %q, want Japanese", labels)
	}
	if check := evalIn[string](t, ctx, `document.querySelector('[data-agent="tsuki"] li[data-check="inactivity"]').textContent`); !strings.HasPrefix(check, "inactivity: ") {
		t.Errorf("check line %q, want the English check name and level", check)
	}
	if l := evalIn[string](t, ctx, `document.documentElement.lang`); l != "ja" {
		t.Errorf("page lang = %q, want ja for a fleet whose agents all speak Japanese", l)
	}
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}
