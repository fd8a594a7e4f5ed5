package clients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The same from the page, in a real Chromium: interactive Claude Code
// waits on a Bash call, the page shows a card with the call and Allow /
// Deny, and Allow (with the page's token) runs it; Deny with words refuses
// the next, and the model reads them. Without the token nothing is
// answered. The agent's card takes words for it (a feedback item).
func TestClaudeCodeAnsweredFromThePage(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium)")
	}
	w := newHookedWorld(t, "claude-code")
	s := &script{Final: "Done with the commands.", Calls: []call{
		{Builtin: "Bash", Args: map[string]any{"command": "touch allowed-by-page.txt", "description": "touch"}},
		{Builtin: "Bash", Args: map[string]any{"command": "touch denied-by-page.txt", "description": "touch"}},
	}}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("page-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeLoopback(t)
	w.more = fmt.Sprintf("http: {listen: %q, token_file: %q}\n", addr, tokenFile)
	w.asked = true
	tmux, pane := w.claudeInTmux(s)
	w.runTmux(tmux, 5*time.Second)

	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(420, 900)) // a phone's width
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	eval := func(js string) string {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		v, err := chromedp.Run(c, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("evaluate %s: %v", js, err)
		}
		return v
	}
	until := func(what, js string, timeout time.Duration) {
		t.Helper()
		deadline := time.Now().Add(timeout)
		for eval(js) != "yes" {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s\nthe pane:\n%s", what, pane())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	card := func(what string) string {
		return fmt.Sprintf(`[...document.querySelectorAll(".askcard")].find(c => c.querySelector(".q-input").textContent.includes(%q) && !c.dataset.done)`, what)
	}
	// The first run starts the browser, and ending its context would end
	// it: that context lives as long as the test.
	first, cancelFirst := context.WithTimeout(ctx, 10*time.Minute)
	t.Cleanup(cancelFirst)
	if err := chromedp.Do(first, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(".card")); err != nil {
		t.Fatalf("open the page: %v", err)
	}

	// 1. The card shows the call; Allow without the token answers nothing.
	until("a card for the pending Bash call", `(`+card("allowed-by-page")+`) ? "yes" : ""`, 90*time.Second)
	title, input := eval(card("allowed-by-page")+`.querySelector(".q-title").textContent`), eval(card("allowed-by-page")+`.querySelector(".q-input").textContent`)
	if !strings.Contains(title, "asks to run Bash") || !strings.Contains(input, `"command": "touch allowed-by-page.txt"`) {
		t.Fatalf("the card reads %q / %q", title, input)
	}
	eval(card("allowed-by-page") + `.querySelector(".allow").click(), ""`)
	until("the refusal without the token", card("allowed-by-page")+`.querySelector(".q-result").textContent.includes("token") ? "yes" : ""`, 10*time.Second)
	if w.exists("allowed-by-page.txt") {
		t.Fatal("answered without the token")
	}

	// 2. With the token: the call runs.
	eval(`document.querySelector("#token").value = "page-secret", ""`)
	eval(card("allowed-by-page") + `.querySelector(".allow").click(), ""`)
	w.waitFor("the call allowed from the page run", 30*time.Second, func() bool { return w.exists("allowed-by-page.txt") })

	// 3. Deny with words: refused, and the model reads them.
	until("the next card", `(`+card("denied-by-page")+`) ? "yes" : ""`, 60*time.Second)
	eval(card("denied-by-page") + `.querySelector(".q-msg").value = "use the tmp folder", ""`)
	eval(card("denied-by-page") + `.querySelector(".deny").click(), ""`)
	w.waitFor("the denial reaching the model", 30*time.Second, func() bool {
		return strings.Contains(strings.Join(s.seen(), "\n"), "use the tmp folder")
	})
	if seen := strings.Join(s.seen(), "\n"); !strings.Contains(seen, "through the watchdog (the page)") || w.exists("denied-by-page.txt") {
		t.Fatalf("the denial: the model read %s", tail(seen, 1000))
	}

	// 4. Words for the agent from its card.
	eval(`document.querySelector(".card .tell-text").value = "Please write the report next.", document.querySelector(".card .tell-send").click(), ""`)
	until("the words written", `document.querySelector(".card .tell-msg").textContent.includes("feedbackbox/") ? "yes" : ""`, 10*time.Second)
	items, _ := filepath.Glob(filepath.Join(w.ws, "feedbackbox", "from-user-*.md"))
	if len(items) != 1 {
		t.Fatalf("feedback items %v", items)
	}
	if b, _ := os.ReadFile(items[0]); !strings.Contains(string(b), "Please write the report next.") {
		t.Fatalf("%s = %q", items[0], b)
	}
	got := []string{}
	for _, r := range w.answers() {
		if r.Outcome != "withdrawn" {
			got = append(got, r.Outcome+"/"+r.Decision+"/"+r.Via)
		}
	}
	if strings.Join(got, " ") != "delivered/allow/page delivered/deny/page told//page" {
		t.Fatalf("answers recorded %v", got)
	}
}
