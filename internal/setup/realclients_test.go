package setup

// These tests run the real clients, installed from npm into
// $AIHEART_CLIENTS_DIR (as for e2e/clients) or on PATH, against the files
// init writes, in a throwaway HOME: the client must load mcp-heart from
// them and run heart-hook on its events. They skip when the client is not
// installed. The model API is a stand-in on loopback that asks for one
// mcp-heart tool call, then ends the turn.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// clientBin returns an installed client's path, or skips.
func clientBin(t *testing.T, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the recording hook is a shell script")
	}
	if dir := os.Getenv("AIHEART_CLIENTS_DIR"); dir != "" {
		p := filepath.Join(dir, "node_modules", ".bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (neither in $AIHEART_CLIENTS_DIR/node_modules/.bin nor on PATH)", name)
	}
	return p
}

// realWorkspace lays out a workspace with the real mcp-heart and a
// recording heart-hook, wired for client with the agent's home at home, and
// returns it with the hook's log.
func realWorkspace(t *testing.T, client, home string) (dir, hookLog string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds mcp-heart and runs a real client")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	mcpHeart := filepath.Join(bin, "mcp-heart")
	if err := testutil.Build("github.com/ai-heart/ai-heart/cmd/mcp-heart", mcpHeart); err != nil {
		t.Fatal(err)
	}
	// The stand-in heart-hook keeps the interface's promises: it reads the
	// event from stdin, prints nothing and exits 0.
	hookLog = filepath.Join(root, "hook.log")
	hook := filepath.Join(bin, "heart-hook")
	script := "#!/bin/sh\n{ printf '%s\\t' \"$*\"; tr -d '\\n'; echo; } >> " + shQuote(hookLog) + "\nexit 0\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(root, "ai-works")
	if _, err := Init(dir, Options{MCPHeart: mcpHeart, HeartHook: hook, Clients: []string{client}, AgentHome: home}); err != nil {
		t.Fatalf("Init(%s) = %v", client, err)
	}
	return dir, hookLog
}

// hookEvent is one line of the recording hook's log.
type recordedEvent struct {
	argv    string
	payload map[string]any
}

func readHookLog(t *testing.T, p string) []recordedEvent {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatalf("heart-hook never ran: %v", err)
	}
	defer f.Close()
	var out []recordedEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		argv, payload, _ := strings.Cut(sc.Text(), "\t")
		e := recordedEvent{argv: argv}
		if err := json.Unmarshal([]byte(payload), &e.payload); err != nil {
			t.Errorf("heart-hook got a payload that is not JSON: %v\n%s", err, payload)
		}
		out = append(out, e)
	}
	return out
}

// checkEvents checks that every event of want reached heart-hook, with the
// interface's argv, and returns the events by name.
func checkEvents(t *testing.T, events []recordedEvent, client, dir string, want ...string) map[string]map[string]any {
	t.Helper()
	byName := map[string]map[string]any{}
	var names []string
	for _, e := range events {
		if wantArgv := "--client " + client + " --workspace " + dir; e.argv != wantArgv {
			t.Errorf("heart-hook argv = %q, want %q", e.argv, wantArgv)
		}
		name, _ := e.payload["hook_event_name"].(string)
		names = append(names, name)
		if _, ok := byName[name]; !ok {
			byName[name] = e.payload
		}
	}
	for _, w := range want {
		if byName[w] == nil {
			t.Errorf("no %s event reached heart-hook; got %q", w, names)
		}
	}
	t.Logf("%s events: %q", client, names)
	return byName
}

func runClient(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return string(out)
}

// standIn serves a model API on loopback: answer(n) writes the n-th reply
// of the main conversation (n from 0); other requests get side.
func standIn(t *testing.T, isMain func(*http.Request, []byte) bool, answer func(w http.ResponseWriter, n int), side func(w http.ResponseWriter)) string {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if isMain(r, body) {
			answer(w, int(n.Add(1))-1)
			return
		}
		side(w)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRealClaudeCode: Claude Code 2.1 runs heart-hook on the hooks of
// .claude/settings.json through a headless turn with tool calls, using the
// mcp-heart of .mcp.json, in a folder nobody trusted yet; interactive
// Claude Code shows that server "Pending approval" until the folder is
// trusted, then "Connected" (approved by enabledMcpjsonServers).
func TestRealClaudeCode(t *testing.T) {
	claude := clientBin(t, "claude")
	home := t.TempDir()
	dir, hookLog := realWorkspace(t, ClientClaudeCode, home)
	// A heartbeat ID makes the first tool call succeed (PostToolUse); the
	// second lacks a required argument and fails (PostToolUseFailure).
	id := filepath.Join(dir, "stats", "current_heartbeat_id.txt")
	if err := os.WriteFile(id, []byte(time.Now().Format("20060102150405")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1", "CI=true"}

	if out := runClient(t, dir, env, claude, "mcp", "list"); !strings.Contains(out, "mcp-heart:") || !strings.Contains(out, "Pending approval") {
		t.Errorf("claude mcp list in an untrusted folder does not show mcp-heart pending:\n%s", out)
	}

	var lastBody, firstRequest atomic.Value
	url := standIn(t, func(r *http.Request, body []byte) bool {
		lastBody.Store(body)
		return strings.HasPrefix(r.URL.Path, "/v1/messages") && !strings.Contains(r.URL.Path, "count_tokens") && strings.Contains(string(body), "mcp__mcp-heart__")
	}, func(w http.ResponseWriter, n int) {
		if n == 0 {
			firstRequest.Store(string(lastBody.Load().([]byte)))
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name string, v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		}
		ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
			"model": "claude-standin", "content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
		stop := "end_turn"
		if tools := []string{"get_heartbeat_elapsed_time", "checkpoint"}; n < len(tools) {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", n), "name": "mcp__mcp-heart__" + tools[n], "input": map[string]any{}}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": "{}"}})
			stop = "tool_use"
		} else {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "done"}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
		ev("message_stop", map[string]any{"type": "message_stop"})
	}, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens":10}`)
	})
	env = append(env, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=stand-in")
	// As README runs it: no flag but the output's, no setting but init's.
	out := runClient(t, dir, env, claude, "-p", "hello", "--output-format", "stream-json", "--verbose")
	if !strings.Contains(out, `"permission_denials":[]`) {
		t.Errorf("Claude Code refused an mcp-heart call in a workspace init wired:\n%s", out)
	}
	// CLAUDE.md leads to GEMINI.md: its rules reach the model.
	rules, _ := os.ReadFile(filepath.Join(dir, "GEMINI.md"))
	heading, _, _ := strings.Cut(string(rules), "\n")
	if first, _ := firstRequest.Load().(string); heading == "" || !strings.Contains(first, heading) || !strings.Contains(first, "CLAUDE.md") {
		t.Errorf("the model's first request does not carry GEMINI.md's rules (%q) through CLAUDE.md", heading)
	}

	got := checkEvents(t, readHookLog(t, hookLog), ClientClaudeCode, dir,
		"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd")
	if name := got["PreToolUse"]["tool_name"]; name != "mcp__mcp-heart__get_heartbeat_elapsed_time" {
		t.Errorf("PreToolUse tool_name = %v, want the mcp-heart tool", name)
	}

	// The trust a person gives once in the interactive dialog.
	// Claude Code keys a folder's trust to its project root, which a stray
	// .git above the workspace (an empty /tmp/.git on a shared machine)
	// moves up: the person accepts the dialog for whichever folder it names,
	// so the test trusts the workspace and each folder above it.
	projects := map[string]any{}
	for p := dir; ; p = filepath.Dir(p) {
		projects[p] = map[string]any{"hasTrustDialogAccepted": true}
		if filepath.Dir(p) == p {
			break
		}
	}
	trust, _ := json.Marshal(map[string]any{"projects": projects})
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), trust, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := runClient(t, dir, env, claude, "mcp", "list"); !strings.Contains(out, "mcp-heart:") || !strings.Contains(out, "Connected") {
		t.Errorf("claude mcp list in the trusted folder does not show mcp-heart connected:\n%s", out)
	}

	// A model API that cannot be reached ends the turn with StopFailure.
	if err := os.Remove(hookLog); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "hello")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(env, "ANTHROPIC_BASE_URL=http://127.0.0.1:1", "CLAUDE_CODE_MAX_RETRIES=0")...)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("claude -p with no model API succeeded:\n%s", out)
	}
	got = checkEvents(t, readHookLog(t, hookLog), ClientClaudeCode, dir, "StopFailure")
	if e := got["StopFailure"]["error"]; e == nil || e == "" {
		t.Errorf("StopFailure has no error type: %v", got["StopFailure"])
	}
}

// TestRealGemini: Gemini CLI 0.61 connects the mcp-heart of
// .gemini/settings.json in a trusted folder and runs heart-hook on the
// hooks there through a turn with a tool call.
func TestRealGemini(t *testing.T) {
	gemini := clientBin(t, "gemini")
	home := t.TempDir()
	dir, hookLog := realWorkspace(t, ClientGemini, home)
	// The user's sign-in; the folder's trust is init's.
	for name, v := range map[string]any{
		"settings.json": map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}},
	} {
		b, _ := json.Marshal(v)
		if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".gemini", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "NO_COLOR=1", "CI=true"}

	out := runClient(t, dir, env, gemini, "mcp", "list")
	if !strings.Contains(out, "mcp-heart:") || !strings.Contains(out, "Connected") {
		t.Fatalf("gemini mcp list does not show mcp-heart connected:\n%s", out)
	}

	url := standIn(t, func(r *http.Request, _ []byte) bool {
		return strings.Contains(r.URL.Path, ":streamGenerateContent")
	}, func(w http.ResponseWriter, n int) {
		var part any = map[string]any{"text": "done"}
		if n == 0 {
			part = map[string]any{"functionCall": map[string]any{"name": "mcp_mcp-heart_get_heartbeat_elapsed_time", "args": map[string]any{}}}
		}
		b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP"}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", b)
	}, func(w http.ResponseWriter) {
		// The router model: a valid answer keeps it quiet.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"complexity_reasoning\":\"simple\",\"complexity_score\":1}"}]},"finishReason":"STOP"}]}`)
	})
	env = append(env, "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=stand-in")
	runClient(t, dir, env, gemini, "-p", "hello")

	got := checkEvents(t, readHookLog(t, hookLog), ClientGemini, dir,
		"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd")
	if name := got["BeforeTool"]["tool_name"]; !strings.Contains(fmt.Sprint(name), "get_heartbeat_elapsed_time") {
		t.Errorf("BeforeTool tool_name = %v, want the mcp-heart tool", name)
	}
}

// TestRealCodex: Codex CLI lists the mcp-heart of the project's
// .codex/config.toml, which init trusted, and runs heart-hook on the hooks
// of .codex/hooks.json once a person trusted them in Codex's own review,
// as README asks (done here in tmux). With no model API reachable Codex
// retries for minutes, so the run is ended once the turn's first event has
// arrived.
func TestRealCodex(t *testing.T) {
	codex := clientBin(t, "codex")
	home := t.TempDir()
	dir, hookLog := realWorkspace(t, ClientCodex, home)
	codexHome := filepath.Join(home, ".codex") // init trusted the project there
	env := []string{"HOME=" + filepath.Dir(codexHome), "CODEX_HOME=" + codexHome, "NO_COLOR=1"}
	out := runClient(t, dir, env, codex, "mcp", "list")
	lines := strings.Split(out, "\n")
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "mcp-heart ") && strings.Contains(l, "--workspace "+dir) && strings.Contains(l, "enabled")
	}) {
		t.Errorf("codex mcp list does not show mcp-heart enabled:\n%s", out)
	}

	// The user's sign-in: a provider (one that cannot be reached) before
	// init's trust of the project.
	trusted, err := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	provider := "model = \"gpt-5.1-codex\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"stand-in\"\n" +
		"base_url = \"http://127.0.0.1:1/v1\"\nenv_key = \"OPENAI_API_KEY\"\nwire_api = \"responses\"\nsupports_websockets = false\n\n"
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), append([]byte(provider), trusted...), 0o600); err != nil {
		t.Fatal(err)
	}
	trustCodexHooks(t, codex, dir, codexHome, append(env, "OPENAI_API_KEY=stand-in"))
	cmd := exec.Command(codex, "exec", "--skip-git-repo-check", "hello")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(env, "OPENAI_API_KEY=stand-in")...)
	p := testutil.Start(t, cmd)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Minute)
	for done := false; !done; {
		select {
		case <-tick.C:
			// Done once the event's line is whole.
			b, _ := os.ReadFile(hookLog)
			_, rest, found := strings.Cut(string(b), `"hook_event_name":"UserPromptSubmit"`)
			done = found && strings.Contains(rest, "\n")
		case <-p.Done():
			done = true
		case <-deadline:
			t.Fatal("no UserPromptSubmit from codex exec in 2 minutes")
		}
	}
	checkEvents(t, readHookLog(t, hookLog), ClientCodex, dir, "SessionStart", "UserPromptSubmit")
}

// trustCodexHooks opens Codex in dir in a tmux pane and answers its review
// of the new hooks with "Trust all and continue", as a person does once;
// Codex records the trust in codexHome's config.toml.
func trustCodexHooks(t *testing.T, codex, dir, codexHome string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	args := []string{"-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "agent", "-x", "160", "-y", "50", "-c", dir}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	if out, err := exec.Command("tmux", append(args, codex)...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { testutil.StopCodexDaemon(codex, codexHome, env) })
	t.Cleanup(func() { testutil.KillTmux(sock, 5*time.Second) })
	deadline := time.Now().Add(time.Minute)
	for {
		b, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
		if strings.Count(string(b), "trusted_hash") >= 8 {
			break
		}
		if time.Now().After(deadline) {
			pane, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "agent").Output()
			t.Fatalf("Codex never recorded the hooks' trust; its pane:\n%s", pane)
		}
		testutil.AnswerCodexHookReview(sock)
		time.Sleep(200 * time.Millisecond)
	}
	testutil.KillTmux(sock, 5*time.Second)
}
