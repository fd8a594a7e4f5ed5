package clients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Interactive Gemini CLI in a tmux pane, its hooks wired by `watchdog init
// --client gemini`: the end of a turn comes from the AfterAgent
// hook, not from an activity log, and a permission prompt is "waiting for
// you", which notifies the operator.

// geminiInTmux starts interactive Gemini CLI, its model a stand-in playing
// s, in the tmux session "agent" of a private server, and waits for its
// input box. It returns the server's socket and a reader of the pane.
func (w *world) geminiInTmux(s *script) (sock string, pane func() string) {
	w.t.Helper()
	gemini := client(w.t, "gemini")
	if _, err := exec.LookPath("tmux"); err != nil {
		w.t.Skip("tmux is not installed")
	}
	url := geminiStandIn(w.t, s)
	w.wiredFor("gemini", ".gemini/settings.json")
	w.writeJSON(".gemini/settings.json", map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
	sock, pane = w.startInTmux(gemini, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+url)
	w.waitFor("Gemini CLI's input box", 60*time.Second, func() bool { return strings.Contains(pane(), "Type your message") })
	return sock, pane
}

// startInTmux runs program in the workspace in a tmux session of its own
// (a 160x50 pane, the world's HOME, no colour, env added), returns its
// socket and a reader of its pane, and kills the server when the test ends
// (the clients ignore the hang-up), showing the pane if the test failed.
func (w *world) startInTmux(program string, env ...string) (sock string, pane func() string) {
	sock = filepath.Join(w.t.TempDir(), "tmux.sock")
	args := []string{"-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "agent", "-x", "160", "-y", "50", "-c", w.ws,
		"-e", "HOME=" + w.home, "-e", "NO_COLOR=1", "-e", "CI=false"} // with CI set, Gemini CLI's TUI draws nothing
	for _, e := range env {
		args = append(args, "-e", e)
	}
	if out, err := exec.Command("tmux", append(args, program)...).CombinedOutput(); err != nil {
		w.t.Fatalf("tmux: %v\n%s", err, out)
	}
	pane = func() string {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "agent").Output()
		return string(out)
	}
	w.t.Cleanup(func() {
		if w.t.Failed() {
			w.t.Logf("the pane:\n%s\nhook events: %v", pane(), w.hookEvents())
		}
		testutil.KillTmux(sock, 5*time.Second)
	})
	return sock, pane
}

// heartbeats counts the heartbeats the model saw, failing the test if two
// were ever typed into one message.
func heartbeats(t *testing.T, s *script) int {
	t.Helper()
	s.mu.Lock()
	prompts := append([]string(nil), s.prompts...)
	s.mu.Unlock()
	n := 0
	for _, p := range prompts {
		c := strings.Count(p, "Heartbeat: ")
		if c > 1 {
			t.Fatalf("heartbeats piled up in one message:\n%s", p)
		}
		n += c
	}
	return n
}

// Each heartbeat's turn makes a checkpoint only, never an activity log: a
// tmux wakeup stays in flight until it is answered, so a second heartbeat
// is typed only once the AfterAgent hook said the first turn ended.
func TestGeminiCLIInTmuxHooksAnswerTurns(t *testing.T) {
	w := newHookedWorld(t, "gemini")
	s := &script{PerTurn: true, Final: "Checkpointed this heartbeat.", Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
	}}
	sock, _ := w.geminiInTmux(s)
	w.runTmux(sock, 5*time.Second)
	w.waitFor("three heartbeats answered in the pane", 150*time.Second, func() bool {
		return heartbeats(t, s) >= 3 && len(s.seen()) >= 3
	})
	if logs, _ := filepath.Glob(filepath.Join(w.ws, "artifacts", "*", "histories", "*.md")); len(logs) != 0 {
		t.Fatalf("activity logs %v: the turns were meant to be answered by the hooks alone", logs)
	}
	if k := w.hookEvents(); k["turn_start"] < 3 || k["turn_end"] < 2 {
		t.Fatalf("hook events %v: want a turn's start and end for each heartbeat", k)
	}
	if a := w.alertsText(); strings.Contains(a, `"check":"inactivity"`) {
		t.Fatalf("inactivity alert for an agent that answered every heartbeat: %s", a)
	}
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}

// The control: the same turns without hooks answer nothing (a checkpoint is
// progress, not an answer), so the first heartbeat stays in flight and the
// next ones due are coalesced, never typed.
func TestGeminiCLIInTmuxWithoutHooksTurnsStayInFlight(t *testing.T) {
	w := newWorld(t)
	s := &script{PerTurn: true, Final: "Checkpointed this heartbeat.", Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
	}}
	sock, _ := w.geminiInTmux(s)
	w.runTmux(sock, 5*time.Second)
	w.waitFor("two heartbeats coalesced behind the first", 60*time.Second, func() bool {
		co, _ := w.counters()["coalesced"].(float64)
		return co >= 2 && len(s.seen()) >= 1
	})
	if n := heartbeats(t, s); n != 1 {
		t.Fatalf("the model saw %d heartbeats; without hooks only the first is typed", n)
	}
	if k := w.hookEvents(); len(k) != 0 {
		t.Fatalf("hook events %v from a workspace without hooks", k)
	}
}

// The same with interactive Claude Code, its Stop hook ending each turn.
// Its stand-in keeps no turns apart, so every heartbeat's turn is a plain
// reply, and the heartbeats are counted in the pane's history.
func TestClaudeCodeInTmuxHooksAnswerTurns(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	s := &script{Final: "Nothing to do this heartbeat."}
	sock, _ := w.claudeInTmux(s)
	history := func() string {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-S", "-", "-t", "agent").Output()
		return string(out)
	}
	w.runTmux(sock, 5*time.Second)
	w.waitFor("three heartbeats answered in the pane", 150*time.Second, func() bool {
		return strings.Count(history(), "❯ Heartbeat: ") >= 3
	})
	h := history()
	if n, m := strings.Count(h, "Heartbeat: "), strings.Count(h, "❯ Heartbeat: "); n != m {
		t.Fatalf("%d heartbeats in %d messages: some piled up in one message:\n%s", n, m, h)
	}
	if k := w.hookEvents(); k["turn_start"] < 3 || k["turn_end"] < 2 {
		t.Fatalf("hook events %v: want a turn's start and end for each heartbeat", k)
	}
	if logs, _ := filepath.Glob(filepath.Join(w.ws, "artifacts", "*", "histories", "*.md")); len(logs) != 0 {
		t.Fatalf("activity logs %v: the turns were meant to be answered by the hooks alone", logs)
	}
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}

// Interactive Claude Code in tmux, as a new user sets it up: init's files,
// the folder trusted once in its dialog. Each heartbeat's turn calls
// mcp-heart (a checkpoint), and no call stops at a permission prompt: an
// unattended agent would stall there.
func TestClaudeCodeInTmuxCallsMCPHeart(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	s := &script{PerTurn: true, Final: "Checked in.", Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
	}}
	sock, pane := w.claudeInTmux(s)
	w.runTmux(sock, 5*time.Second)
	w.waitFor("two heartbeats answered with a checkpoint", 120*time.Second, func() bool {
		if p := pane(); strings.Contains(p, "Do you want to proceed?") {
			t.Fatalf("Claude Code asks before running an mcp-heart tool:\n%s", p)
		}
		return s.checkpointReplies() >= 2
	})
	if r := refusal(strings.Join(s.seen(), "\n")); r != "" {
		t.Fatalf("the client refused an mcp-heart call: %s", r)
	}
	if w.hasAlert("waiting_for_you", "warning") {
		t.Fatalf("the agent waited for a person: %s", w.alertsText())
	}
	if heartbeats(t, s) < 2 {
		t.Fatalf("the model saw fewer than two heartbeats: %q", s.prompts)
	}
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}

// receiver is a local notification target (shoutrrr's generic webhook
// with the json template): it keeps each message's title and text.
type receiver struct {
	mu   sync.Mutex
	msgs []string
}

func newReceiver(t testing.TB) (*receiver, string) {
	r := &receiver{}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		var m struct{ Title, Message string }
		json.Unmarshal(b, &m)
		r.mu.Lock()
		r.msgs = append(r.msgs, m.Title+"\n"+m.Message)
		r.mu.Unlock()
	}))
	return r, "generic+" + url + "/notify?template=json"
}

func (r *receiver) find(what string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		if strings.Contains(m, what) {
			return m, true
		}
	}
	return "", false
}

// clientMode is the state file's client.mode ("" before any hook spoke).
func (w *world) clientMode() string {
	b, _ := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	var st struct {
		Client *struct{ Mode string } `json:"client"`
	}
	if json.Unmarshal(b, &st) != nil || st.Client == nil {
		return ""
	}
	return st.Client.Mode
}

// A heartbeat's turn calls run_shell_command without --yolo: Gemini CLI asks
// for approval, its Notification hook (ToolPermission) reaches the
// watchdog, which shows "waiting for you" and notifies the operator; once
// approved in the pane, the waiting ends.
func TestGeminiCLIInTmuxPermissionPromptWaitsForYou(t *testing.T) {
	w := newHookedWorld(t, "gemini")
	// touch, not echo: Gemini CLI runs read-only commands (echo, ls, cat)
	// without asking.
	s := &script{PerTurn: true, Final: "Ran the command.", Calls: []call{
		{Builtin: "run_shell_command", Args: map[string]any{"command": "touch approved-by-you.txt"}},
	}}
	w.waitsForYou(w.geminiInTmux, s, "Allow once", "Notification/ToolPermission")
}

// The same with interactive Claude Code and its Bash tool.
func TestClaudeCodeInTmuxPermissionPromptWaitsForYou(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	s := &script{Final: "Ran the command.", Calls: []call{
		{Builtin: "Bash", Args: map[string]any{"command": "touch approved-by-you.txt"}},
	}}
	// PermissionRequest comes with the dialog; the Notification
	// (permission_prompt) some 6 s later, once the dialog went unanswered.
	w.asked = true
	w.waitsForYou(w.claudeInTmux, s, "Do you want to proceed?", "PermissionRequest/permission", "Notification/permission_prompt")
}

// waitsForYou starts the client in tmux (its model playing s, whose first
// call is a shell command that touches approved-by-you.txt), waits for the
// client's approval dialog and checks the watchdog shows it and notifies;
// then approves with Enter (both clients' first choice is a one-time yes)
// and checks the waiting ends. asks are the hook events (name/detail) the
// client sends for the prompt.
func (w *world) waitsForYou(start func(*script) (string, func() string), s *script, dialog string, asks ...string) {
	t := w.t
	t.Helper()
	r, url := newReceiver(t)
	w.notify = `[{url: "` + url + `", min_level: warning, min_interval: 1ms}]`
	touched := filepath.Join(w.ws, "approved-by-you.txt")
	sock, pane := start(s)
	w.runTmux(sock, 5*time.Second)

	w.waitFor("the client's approval dialog", 90*time.Second, func() bool { return strings.Contains(pane(), dialog) })
	w.waitFor("a waiting_for_you warning", 30*time.Second, func() bool { return w.hasAlert("waiting_for_you", "warning") })
	if _, err := os.Stat(touched); err == nil {
		t.Fatal("the command ran before it was approved")
	}
	// The alert line is written during the pulse, the state file at its end.
	w.waitFor("state client.mode waiting_for_you", 5*time.Second, func() bool { return w.clientMode() == "waiting_for_you" })
	w.waitFor(fmt.Sprintf("the prompt's hook events %v", asks), 30*time.Second, func() bool {
		got := w.asks()
		for _, a := range asks {
			if !slices.Contains(got, a) {
				return false
			}
		}
		return true
	})
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", w.cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "WAITING FOR YOU since ") {
		t.Fatalf("watchdog status (%v) does not say WAITING FOR YOU:\n%s", err, out)
	}
	// Where the client's hook offers the question (Claude Code), its own
	// message says so, with its link; elsewhere the waiting_for_you alert.
	notified := func() (string, bool) {
		if m, ok := r.find("asks to run"); ok {
			return m, true
		}
		return r.find("waiting_for_you")
	}
	w.waitFor("the operator notified", 30*time.Second, func() bool { _, ok := notified(); return ok })
	m, _ := notified()
	t.Logf("ask events %v\nstatus:\n%s\nnotification: %s", w.asks(), out, m)

	if out, err := exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
	w.waitFor("the approved command run", 60*time.Second, func() bool {
		_, err := os.Stat(touched)
		return err == nil
	})
	w.waitFor("the waiting_for_you check back to ok", 30*time.Second, func() bool {
		return w.hasAlert("waiting_for_you", "ok") && w.clientMode() != "waiting_for_you"
	})
	w.waitFor("the approved turn's end from the hook", 30*time.Second, func() bool {
		k := w.hookEvents()
		return k["tool"] >= 1 && k["turn_end"] >= 1
	})
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}

// asks lists the spool's "ask" events as event/detail, as the client named
// them.
func (w *world) asks() []string {
	files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "hooks", "*.jsonl"))
	var out []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			var e struct{ Event, Kind, Detail string }
			if json.Unmarshal([]byte(l), &e) == nil && e.Kind == "ask" {
				out = append(out, e.Event+"/"+e.Detail)
			}
		}
	}
	return out
}

// claudeInTmux starts interactive Claude Code, its model a stand-in playing
// s, in the tmux session "agent" of a private server, in a workspace wired
// by init, and waits for its input box. Its config has what a user who ran
// it before has (the theme, the API key's approval); the folder's trust is
// given as README says, by accepting the dialog once.
func (w *world) claudeInTmux(s *script) (sock string, pane func() string) {
	w.t.Helper()
	claude := client(w.t, "claude")
	if _, err := exec.LookPath("tmux"); err != nil {
		w.t.Skip("tmux is not installed")
	}
	w.wiredFor("claude-code", ".mcp.json")
	url := claudeStandIn(w.t, s)
	w.writeJSON(".claude.json", map[string]any{"hasCompletedOnboarding": true, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{"standin"}}})
	program := claude
	if w.asked {
		program += " --permission-mode default" // tmux runs it through sh
	}
	sock, pane = w.startInTmux(program, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url,
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	// Claude Code 2.1.197 sometimes asks about the project's mcp-heart even
	// once the folder is trusted (enabledMcpjsonServers is in the project's
	// settings): a race in its start. Answer as its user would, with the
	// first choice, "Use this MCP server".
	trusted, moved := false, time.Time{}
	w.waitFor("Claude Code's input box", 60*time.Second, func() bool {
		p := pane()
		switch {
		case strings.Contains(p, "Yes, I trust this folder"):
			// Since 2.1.3xx a folder whose settings run hooks is offered
			// with "No, exit" highlighted: a person moves to Yes first.
			if strings.Contains(p, "❯ No, exit") {
				// A key typed before the dialog takes input is lost; one
				// typed before the pane shows the last may wrap back to No.
				if time.Since(moved) > time.Second {
					exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Down").Run()
					moved = time.Now()
				}
				return false
			}
			if !trusted {
				w.t.Log("Claude Code asked to trust the folder; answered: yes")
				trusted = true
			}
			exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").Run()
			return false
		case strings.Contains(p, "New MCP server found"):
			w.t.Log("Claude Code asked about mcp-heart; answered: use it")
			exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").Run()
			return false
		}
		// The footer shows the shortcuts hint, or the status line init
		// wires (heart-hook's "heart: ok") in its place.
		return strings.Contains(p, "for shortcuts") || strings.Contains(p, "heart: ")
	})
	if !trusted {
		w.t.Fatal("Claude Code never asked to trust the workspace: the test no longer starts where a new user does")
	}
	return sock, pane
}
