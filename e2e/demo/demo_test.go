// Package demo tests `watchdog demo` as a newcomer meets it: the real
// binaries, the narrated day in the terminal and the page beside it.
package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

var binDir string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/watchdog", "github.com/ai-heart/ai-heart/cmd/mcp-heart"))
}

// The whole scripted day: every part of the loop shows in the narration,
// the page serves the same agent while it runs, the demo ends by itself
// with a summary that adds up, and it never touches ./ai-works. The folder
// holds an earlier demo's day, 500 runs in its cost ledger: this run
// counts its own day only.
func TestDemoPlaysTheWholeLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo takes about two minutes")
	}
	cwd := t.TempDir()
	earlier := filepath.Join(cwd, "ai-heart-demo", "stats")
	if err := os.MkdirAll(earlier, 0o755); err != nil {
		t.Fatal(err)
	}
	ledger := `{"days": {"` + time.Now().Format("2006-01-02") + `": {"by": {"schedule": {"worked": {"runs": 500, "usd": 9}}}}}, "totals": {"schedule": {"runs": 500, "usd": 9}}}`
	for f, body := range map[string]string{"demo_agent.json": "{}", "cost.json": ledger} {
		if err := os.WriteFile(filepath.Join(earlier, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "demo")
	cmd.Dir = cwd
	// A pipe of the test's own, not StdoutPipe: Start reaps the demo in the
	// background, and Wait would close a StdoutPipe under the reader.
	out, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	cmd.Stdout = outW
	var stderr strings.Builder
	cmd.Stderr = &stderr
	p := testutil.Start(t, cmd)
	outW.Close()

	var mu sync.Mutex
	var lines []string
	pageURL := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			if u, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "status page"); ok {
				pageURL <- strings.TrimSpace(u)
			}
		}
	}()

	// The page's URL comes first, and it serves the demo agent's status.
	var url string
	select {
	case url = <-pageURL:
	case <-time.After(30 * time.Second):
		t.Fatalf("no status page URL; stderr:\n%s", stderr.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("page URL %q is not on loopback", url)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(url + "api/v1/status")
		if err == nil {
			var body struct {
				Agents []struct{ Agent, Delivery string }
			}
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if len(body.Agents) == 1 && body.Agents[0].Agent == "demo" && body.Agents[0].Delivery == "exec" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never served the demo agent: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The same day on the page, in a real browser when there is one: a
	// screenshot while the agent is in flexible deep work.
	said := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(strings.Join(lines, "\n"), s)
	}
	screenshot(t, url, func() bool { return said("start_deep_work flexible") })

	done := make(chan error, 1)
	go func() { <-read; done <- p.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("demo: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the demo did not end by itself")
	}
	mu.Lock()
	text := strings.Join(lines, "\n")
	mu.Unlock()
	t.Logf("the demo's output:\n%s", text)

	// Every part of the loop, in the order the day plays it.
	line := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d  `)
	steps := []string{
		"wakeup    #1 from the schedule",
		"tool      start_theme",
		"create_activity_log observation",
		"start_deep_work flexible",
		"checkpoint",
		"introspection: no introspection",
		"create_activity_log introspection",
		"start_deep_work strict",
		"stall",
		"ERROR inactivity",
		"recovery attempt 1",
		"create_activity_log recovery",
		"OK recovery: no check that starts recovery is at error any more",
		"end_theme",
		"replies [IDLE]",
		"ghost",
		"Summary: ",
	}
	rest := text
	for _, s := range steps {
		i := strings.Index(rest, s)
		if i < 0 {
			t.Fatalf("%q missing (or out of order) in the narration", s)
		}
		rest = rest[i+len(s):]
	}
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "{") {
			t.Fatalf("a JSON line reached the narration: %s", l)
		}
	}
	if n := len(line.FindAllString(text, -1)); n < 30 {
		t.Fatalf("only %d timeline lines", n)
	}
	// The summary is a sum: "N wakeups: a delivered (g of them ghosts…),
	// b taken over…; c more came due…".
	sm := regexp.MustCompile(`Summary: (\d+) wakeups: (\d+) delivered \(([1-9]\d*) of them ghosts[^)]*\)((?:, \d+ [a-z ]+)*)[;.].*[1-9]\d* alerts, 1 recovery`).FindStringSubmatch(text)
	if sm == nil {
		t.Fatalf("summary: %s", text[strings.Index(text, "Summary"):])
	}
	sum := atoi(t, sm[2])
	for _, n := range regexp.MustCompile(`, (\d+) `).FindAllStringSubmatch(sm[4], -1) {
		sum += atoi(t, n[1])
	}
	if sum != atoi(t, sm[1]) {
		t.Errorf("the summary's parts add up to %d, its whole is %s: %s", sum, sm[1], sm[0])
	}
	// The day's cost, from the ledger: the scripted runs report tokens,
	// priced by the demo's prices; the ghosts apart; this run's only.
	cm := regexp.MustCompile(`The day's cost: ([1-9]\d*) runs: [\d,]+ tokens, \$0\.\d+.*; [1-9]\d* runs? of them ghosts: [\d,]+ tokens, \$0\.\d+; the pulse \$0`).FindStringSubmatch(text)
	if cm == nil {
		t.Fatalf("no day's cost in the summary: %s", text[strings.Index(text, "Summary"):])
	}
	if runs := atoi(t, cm[1]); runs > atoi(t, sm[1]) {
		t.Errorf("the day's cost counts %d runs for %s wakeups: an earlier demo's day is in it", runs, sm[1])
	}
	// A run the watchdog ends is said as such, never as an error; the
	// closing suggestion names a watchdog that exists from here.
	for _, bad := range []string{"context canceled", "bin/watchdog"} {
		if strings.Contains(text, bad) {
			t.Errorf("the narration says %q", bad)
		}
	}
	if l := regexp.MustCompile(`(?m)^.*  agent +error: .*$`).FindString(text); l != "" {
		t.Errorf("the agent's run ended in an error: %s", l)
	}
	if !strings.Contains(text, "`"+filepath.Join(binDir, "watchdog")+" init ai-works`") {
		t.Errorf("the closing suggestion does not name this watchdog, %s", filepath.Join(binDir, "watchdog"))
	}

	// The workspace is left to open; ./ai-works was never made.
	logs, _ := filepath.Glob(filepath.Join(cwd, "ai-heart-demo", "artifacts", "*_tides", "histories", "*.md"))
	if len(logs) < 5 {
		t.Fatalf("%d activity logs left in the demo workspace", len(logs))
	}
	if _, err := os.Stat(filepath.Join(cwd, "ai-works")); !os.IsNotExist(err) {
		t.Fatalf("the demo touched ./ai-works: %v", err)
	}
}

// The demo refuses a folder that holds a real workspace.
func TestDemoRefusesARealWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "demo", dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out.String(), "is not a demo workspace") {
		t.Fatalf("demo on a real workspace: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "stats", "demo_agent.json")); !os.IsNotExist(err) {
		t.Fatal("the demo wrote into the real workspace")
	}
}

// screenshot saves the page as demo-page.png (in $SCREENSHOT_DIR, else a
// temp folder) once ready() holds; without Chromium it does nothing.
func screenshot(t *testing.T, url string, ready func() bool) {
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Log("chromium not installed: no screenshot")
		return
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1000, 560))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(`[data-agent="demo"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("page: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !ready() {
		if time.Now().After(deadline) {
			t.Fatal("the demo never reached the screenshot's moment")
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // let the pulse's event draw; only the picture depends on it
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	testutil.SaveScreenshot(t, "demo-page.png", shot)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
