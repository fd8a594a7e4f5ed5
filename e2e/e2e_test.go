// Package e2e drives the real binaries: `watchdog init`, `watchdog run` with a
// 1 s pulse and second-scale thresholds, and mcp-heart over stdio through
// mcp-go's client, acting as the agent. It asserts the alert sequence of
// every scenario of the watchdog issue.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

var binDir string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/watchdog", "github.com/ai-heart/ai-heart/cmd/mcp-heart", "github.com/ai-heart/ai-heart/cmd/heart-hook"))
}

// world is one workspace with a watchdog and an agent (mcp-heart client).
type world struct {
	t      *testing.T
	ws     *workspace.Workspace
	config string
	alerts string
	wd     *testutil.Proc
	wdLog  *os.File
	mcp    *client.Client
	offset int       // alerts already looked at
	lang   lang.Lang // the workspace's language: init --lang and language in the config
}

const configYAML = `workspace: %s
name: e2e
pulse: {interval: 1s}
thresholds: {inactivity_warning: 3s, inactivity_error: 6s, introspection: 15s, max_strict_deep_work: 30m}
schedule: {every: 0s}
recovery: {max_attempts: 3, max_wait_cycles: 4}
alerts: {file: %s}
language: %s
`

func newWorld(t *testing.T, l lang.Lang) *world {
	root := t.TempDir()
	dir := filepath.Join(root, "ai-works")
	w := &world{t: t, config: filepath.Join(root, "watchdog.yaml"), alerts: filepath.Join(root, "alerts.jsonl"), lang: l}
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", "--lang", string(l), "--mcp-heart", filepath.Join(binDir, "mcp-heart"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("watchdog init: %v\n%s", err, out)
	}
	if err := os.WriteFile(w.config, []byte(fmt.Sprintf(configYAML, dir, w.alerts, l)), 0o644); err != nil {
		t.Fatal(err)
	}
	w.ws, _ = workspace.New(dir, nil)
	w.startWatchdog()
	t.Cleanup(w.stopWatchdog)

	c, err := client.NewStdioMCPClient(filepath.Join(binDir, "mcp-heart"), nil, "--workspace", dir)
	if err != nil {
		t.Fatalf("start mcp-heart: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	w.mcp = c
	return w
}

func (w *world) startWatchdog() {
	w.t.Helper()
	f, err := os.CreateTemp(w.t.TempDir(), "watchdog-*.log")
	if err != nil {
		w.t.Fatal(err)
	}
	w.wdLog = f
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", w.config, "--log-format", "json")
	cmd.Stdout, cmd.Stderr = f, f
	w.wd = testutil.Start(w.t, cmd)
	w.eventually("the first heartbeat ID", 5*time.Second, func() bool { _, err := w.ws.ReadCurrentID(); return err == nil })
	// mcp-heart learns the thresholds and the language from the state file
	// when it starts: the first pulse writes it just after the ID.
	w.eventually("the first state file", 5*time.Second, func() bool { _, err := os.Stat(w.ws.Path(workspace.StateFile)); return err == nil })
}

// stopWatchdog sends SIGTERM: the watchdog must finish and exit 0.
func (w *world) stopWatchdog() {
	if w.wd == nil {
		return
	}
	w.wd.Signal(syscall.SIGTERM)
	err := w.wd.Wait()
	w.wd = nil
	if err != nil {
		b, _ := os.ReadFile(w.wdLog.Name())
		w.t.Errorf("watchdog exit after SIGTERM: %v\n%s", err, b)
	}
}

func (w *world) eventually(what string, timeout time.Duration, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(w.alerts)
	w.t.Fatalf("timed out after %s waiting for %s; alerts so far:\n%s", timeout, what, b)
}

type alertLine struct {
	Time, Level, Agent, Check, Message, HeartbeatID string
	ElapsedS                                        int64 `json:"elapsed_s"`
}

func (w *world) readAlerts() []alertLine {
	f, err := os.Open(w.alerts)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []alertLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a alertLine
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			w.t.Fatalf("alert line %q is not JSON: %v", sc.Text(), err)
		}
		a.HeartbeatID = jsonField(sc.Bytes(), "heartbeat_id")
		out = append(out, a)
	}
	return out
}

func jsonField(b []byte, k string) string {
	var m map[string]any
	json.Unmarshal(b, &m)
	s, _ := m[k].(string)
	return s
}

// mark forgets the alerts seen so far: later expectations look only after it.
func (w *world) mark() { w.offset = len(w.readAlerts()) }

// expect waits for an alert (check, level) after the mark, and moves the
// mark past it so sequences are asserted in order.
func (w *world) expect(check, level string, timeout time.Duration) alertLine {
	w.t.Helper()
	var found alertLine
	w.eventually(fmt.Sprintf("alert %s=%s", check, level), timeout, func() bool {
		all := w.readAlerts()
		for i := w.offset; i < len(all); i++ {
			if all[i].Check == check && all[i].Level == level {
				found = all[i]
				w.offset = i + 1
				return true
			}
		}
		return false
	})
	return found
}

// none fails if an alert for check at one of levels came after the mark.
func (w *world) none(check string, levels ...string) {
	w.t.Helper()
	for _, a := range w.readAlerts()[w.offset:] {
		for _, l := range levels {
			if a.Check == check && a.Level == l {
				w.t.Fatalf("unexpected alert %s=%s: %s", check, l, a.Message)
			}
		}
	}
}

func (w *world) call(tool string, args map[string]any) *mcp.CallToolResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := w.mcp.CallTool(ctx, req)
	if err != nil {
		w.t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		w.t.Fatalf("%s(%v) failed: %s", tool, args, text(res))
	}
	return res
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// structured returns the tool's structuredContent as a map.
func structured(t *testing.T, r *mcp.CallToolResult) map[string]any {
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// log closes a cycle with an activity log of the given type, named as an
// agent of the workspace's language names it (内省 in Japanese).
func (w *world) log(themeID, activityType string) string {
	name := workspace.ActivityType(activityType).Name(w.lang)
	res := w.call("create_activity_log", map[string]any{
		"activity_type": name, "activity_content": []string{"e2e " + activityType},
		"theme_start_id": themeID, "theme_directory_part": "e2e",
	})
	p, _ := structured(w.t, res)["path"].(string)
	return p
}

func (w *world) checkpoint(msg string) {
	w.call("checkpoint", map[string]any{"current_activity": msg})
}

// pulsedAfter waits until the watchdog has completed a pulse later than t,
// so an assertion that nothing happened covers a pulse that looked at t.
func (w *world) pulsedAfter(t time.Time, timeout time.Duration) {
	w.t.Helper()
	w.eventually("a pulse after "+t.Format("15:04:05.000"), timeout, func() bool {
		var st struct {
			PulseAt time.Time `json:"pulse_at"`
		}
		b, err := os.ReadFile(w.ws.Path(workspace.StateFile))
		return err == nil && json.Unmarshal(b, &st) == nil && st.PulseAt.After(t)
	})
}

// newIDAfter waits until the watchdog has minted an ID other than id.
func (w *world) newIDAfter(id workspace.ID) {
	w.t.Helper()
	w.eventually("a new heartbeat ID", 5*time.Second, func() bool {
		cur, err := w.ws.ReadCurrentID()
		return err == nil && cur != id
	})
}

// themed starts a scenario's world: a workspace in language l with a
// watchdog, a theme and a first introspection log. Scenarios are
// independent and run in parallel.
func themed(t *testing.T, l lang.Lang) (*world, string) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	t.Parallel()
	w := newWorld(t, l)
	st := structured(t, w.call("start_theme", map[string]any{"theme_name": "End to end", "theme_directory_part": "e2e", "reason": "exercise the watchdog"}))
	theme, _ := st["theme_start_id"].(string)
	if theme == "" {
		t.Fatalf("start_theme gave no theme_start_id: %v", st)
	}
	w.log(theme, "introspection")
	return w, theme
}

func TestE2EInactivityWarningErrorRecovery(t *testing.T) {
	inLanguages(t, testE2EInactivityWarningErrorRecovery)
}

func testE2EInactivityWarningErrorRecovery(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	w.mark()
	a := w.expect("inactivity", "warning", 8*time.Second)
	if a.ElapsedS < 3 || a.Agent != "e2e" || len(a.HeartbeatID) != 14 {
		t.Fatalf("warning alert = %+v, want elapsed ≥ 3 s, agent e2e, a heartbeat ID", a)
	}
	w.expect("inactivity", "error", 8*time.Second)
	w.expect("recovery", "warning", 4*time.Second)
	recovery := map[lang.Lang]string{lang.English: "RECOVERY", lang.Japanese: "回復通知"}[l]
	w.eventually("the recovery notice in the prompt", 4*time.Second, func() bool {
		b, _ := os.ReadFile(w.ws.Path(workspace.PromptFile))
		return strings.HasPrefix(string(b), "Heartbeat: ") && strings.Contains(string(b), recovery) &&
			strings.Contains(string(b), "[error] inactivity: ")
	})
	w.log(theme, "introspection")
	w.expect("inactivity", "ok", 4*time.Second)
	w.expect("recovery", "ok", 4*time.Second)
}

func TestE2ECheckpointsKeepItHealthy(t *testing.T) { inLanguages(t, testE2ECheckpointsKeepItHealthy) }

func testE2ECheckpointsKeepItHealthy(t *testing.T, l lang.Lang) {
	w, _ := themed(t, l)
	w.mark()
	began := time.Now()
	for i := 0; i < 5; i++ { // the agent's pace: a checkpoint every 1.5 s
		w.checkpoint(fmt.Sprintf("still refactoring, step %d", i))
		time.Sleep(1500 * time.Millisecond)
	}
	w.pulsedAfter(began.Add(7*time.Second), 5*time.Second) // well past the 3 s warning since the log
	w.none("inactivity", "warning", "error")
}

func TestE2EFlexibleDeepWork(t *testing.T) { inLanguages(t, testE2EFlexibleDeepWork) }

func testE2EFlexibleDeepWork(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	w.call("start_deep_work", map[string]any{"mode": "flexible", "activity_description": "a long refactor of the scanner"})
	w.mark()
	began := time.Now()
	for i := 0; i < 8; i++ { // 12 s: past the 10 s introspection warning
		w.checkpoint("deep in the refactor")
		time.Sleep(1500 * time.Millisecond)
	}
	w.pulsedAfter(began.Add(11*time.Second), 5*time.Second)
	w.none("introspection", "warning", "error")
	w.none("inactivity", "warning", "error")
	w.expect("inactivity", "warning", 8*time.Second) // no checkpoints now: not paused
	w.log(theme, "creation")                         // completes the declaration
	w.expect("inactivity", "ok", 4*time.Second)
	done, _ := filepath.Glob(w.ws.Path(workspace.DeepWorkDir, "*.completed.txt"))
	if len(done) != 1 {
		t.Fatalf("completed declarations = %v, want 1", done)
	}
	w.log(theme, "thinking") // the next log after deep work is not introspection
	w.expect("after_deep_work", "warning", 4*time.Second)
	w.log(theme, "introspection")
	w.expect("after_deep_work", "ok", 4*time.Second)
}

func TestE2EStrictDeepWork(t *testing.T) { inLanguages(t, testE2EStrictDeepWork) }

func testE2EStrictDeepWork(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	id, err := w.ws.ReadCurrentID()
	if err != nil {
		t.Fatal(err)
	}
	// The tool plans whole minutes; to keep the test short the agent writes
	// a strict declaration with a deadline 8 s ahead by hand.
	now := time.Now()
	decl := workspace.Declaration{ID: id, Mode: workspace.Strict, Activity: "rendering a long batch", DeclaredAt: now, PlannedMinutes: 1, Deadline: now.Add(8 * time.Second)}
	if err := w.ws.WriteFile(workspace.DeepWorkDir+"/"+workspace.DeepWorkName(id, workspace.Active), decl.Format()); err != nil {
		t.Fatal(err)
	}
	w.mark()
	w.pulsedAfter(now.Add(6500*time.Millisecond), 10*time.Second) // past the 6 s inactivity error
	if _, err := os.Stat(w.ws.Path(workspace.DeepWorkDir, workspace.DeepWorkName(id, workspace.Active))); err == nil {
		// Still before the deadline: nothing may have fired.
		w.none("inactivity", "warning", "error")
	}
	w.expect("deep_work_expired", "warning", 8*time.Second)
	if _, err := os.Stat(w.ws.Path(workspace.DeepWorkDir, workspace.DeepWorkName(id, workspace.Expired))); err != nil {
		t.Fatalf("expired declaration not renamed: %v", err)
	}
	// The checks resume, counting from the deadline: the expiry notice comes
	// alone, then the inactivity warning 3 s later, not an instant error.
	w.none("inactivity", "error")
	w.expect("inactivity", "warning", 6*time.Second)
	w.log(theme, "introspection")
	w.expect("inactivity", "ok", 4*time.Second)
}

func TestE2EFutureID(t *testing.T) { inLanguages(t, testE2EFutureID) }

func testE2EFutureID(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	w.mark()
	future := workspace.NewID(time.Now().Add(time.Hour))
	rel := "artifacts/" + theme + "_e2e/histories/" + string(future) + ".md"
	if err := w.ws.WriteFile(rel, workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"forged"}}.Format(future, "")); err != nil {
		t.Fatal(err)
	}
	w.expect("future_id", "error", 4*time.Second)
	os.Rename(w.ws.Path(rel), w.ws.Path("artifacts/"+theme+"_e2e/histories/.forged"))
	w.log(theme, "introspection")
	w.expect("future_id", "ok", 4*time.Second)
}

func TestE2ELogLoop(t *testing.T) { inLanguages(t, testE2ELogLoop) }

func testE2ELogLoop(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	p := w.log(theme, "introspection")
	w.pulsedAfter(time.Now(), 5*time.Second)
	w.mark()
	for i := 0; i < 3; i++ { // rewritten in consecutive pulses
		f, err := os.OpenFile(w.ws.Path(p), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "- edited again %d\n", i)
		f.Close()
		w.pulsedAfter(time.Now(), 5*time.Second)
	}
	w.expect("log_loop", "error", 4*time.Second)
	w.log(theme, "introspection")
	w.expect("log_loop", "ok", 4*time.Second)
}

func TestE2EThemePattern(t *testing.T) { inLanguages(t, testE2EThemePattern) }

func testE2EThemePattern(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
	w.mark()
	id, err := w.ws.ReadCurrentID() // the watchdog's own ID: never before its baseline
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"_start_a", "_start_b", "_end_c"} {
		if err := w.ws.WriteFile(workspace.ThemeHistoriesDir+"/"+string(id)+name+".md", []byte("# theme record\n")); err != nil {
			t.Fatal(err)
		}
	}
	w.expect("theme_pattern", "error", 4*time.Second)
	w.newIDAfter(id) // a new ID for the next record
	w.call("start_theme", map[string]any{"theme_name": "Next", "theme_directory_part": "next", "reason": "move on"})
	w.expect("theme_pattern", "ok", 4*time.Second)
	w.log(theme, "introspection")
}

func TestE2ERestartFiresNoStaleAlarms(t *testing.T) { inLanguages(t, testE2ERestartFiresNoStaleAlarms) }

func testE2ERestartFiresNoStaleAlarms(t *testing.T, l lang.Lang) {
	w, _ := themed(t, l)
	w.stopWatchdog()
	var st struct {
		PulseAt time.Time `json:"pulse_at"`
	}
	b, err := os.ReadFile(w.ws.Path(workspace.StateFile))
	if err != nil || json.Unmarshal(b, &st) != nil || time.Since(st.PulseAt) > 3*time.Second {
		t.Fatalf("state not persisted at shutdown: %v %s", err, b)
	}
	time.Sleep(7 * time.Second) // the watchdog is down longer than the inactivity error threshold
	w.mark()
	restarted := time.Now()
	w.startWatchdog()
	w.pulsedAfter(restarted.Add(2*time.Second), 5*time.Second)
	w.none("inactivity", "warning", "error")
	w.none("stale_id", "warning", "error")
	w.expect("inactivity", "warning", 5*time.Second) // measured from the restart
}
