package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestGateThatIsNoFileRefuses: something at the gate's path that no write
// of the watchdog's replaces (a folder: the review's G1) or that cannot be
// read leaves the budget unknown: heart-hook refuses every call but the
// real mcp-heart's, at once, saying what stands there and to remove it,
// in the workspace's language; nothing there, or a file, is read as
// before.
func TestGateThatIsNoFileRefuses(t *testing.T) {
	ws := t.TempDir()
	gate := filepath.Join(ws, filepath.FromSlash(hook.GateFile))
	os.MkdirAll(filepath.Dir(gate), 0o755)
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"mcp-heart": map[string]any{"command": filepath.Join(binDir, "mcp-heart")}}})
	os.WriteFile(filepath.Join(ws, ".mcp.json"), b, 0o644)
	call := func(tool string) (string, string) {
		t.Helper()
		payload := `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"` + tool + `","tool_input":{"command":"ls"}}`
		type res struct{ out, errs string }
		done := make(chan res, 1)
		go func() {
			_, out, errs := runHook(t, payload, "--client", "claude-code", "--workspace", ws)
			done <- res{out, errs}
		}()
		select {
		case r := <-done:
			if r.out == "" {
				return "", r.errs
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(r.out), &got); err != nil || hookSpecificDeny(got) == "" {
				t.Fatalf("stdout %q: want nothing or a denial", r.out)
			}
			return hookSpecificDeny(got), r.errs
		case <-time.After(10 * time.Second):
			t.Fatal("the hook blocks on what stands at the gate's path")
		}
		return "", ""
	}
	refused := func(what string, says ...string) {
		t.Helper()
		r, errs := call("Bash")
		for _, s := range says {
			if !strings.Contains(r, s) {
				t.Errorf("%s: Bash gets %q, want a refusal saying %q", what, r, s)
			}
		}
		if !strings.Contains(errs, hook.GateFile) {
			t.Errorf("%s: stderr %q does not name the gate", what, errs)
		}
		if r, _ := call("mcp__mcp-heart__checkpoint"); r != "" {
			t.Errorf("%s: mcp-heart's checkpoint refused: %q", what, r)
		}
	}
	if r, _ := call("Bash"); r != "" {
		t.Fatalf("no gate: Bash refused: %q", r)
	}

	// The review's G1: a non-empty folder at the gate's path.
	if err := os.MkdirAll(filepath.Join(gate, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	refused("a folder", "stats/budget_gate.json is a folder, not a file: remove it")
	os.WriteFile(filepath.Join(ws, filepath.FromSlash(workspace.LanguageFile)), []byte("ja\n"), 0o644)
	refused("a folder, in Japanese", "stats/budget_gate.json はフォルダで、ファイルではありません。削除してください。")
	os.Remove(filepath.Join(ws, filepath.FromSlash(workspace.LanguageFile)))
	os.RemoveAll(gate)

	if err := syscall.Mkfifo(gate, 0o644); err != nil {
		t.Fatal(err)
	}
	refused("a FIFO", "stats/budget_gate.json is a FIFO, not a file: remove it")
	os.Remove(gate)

	// stats/ itself no folder: the gate cannot even be looked for.
	os.RemoveAll(filepath.Dir(gate))
	os.WriteFile(filepath.Dir(gate), []byte("x"), 0o644)
	refused("stats a file", "stats/budget_gate.json cannot be read (")
	os.Remove(filepath.Dir(gate))

	// A garbled file is the watchdog's to replace: it allows, as before.
	os.MkdirAll(filepath.Dir(gate), 0o755)
	os.WriteFile(gate, []byte(`{"spent": tru`), 0o644)
	if r, errs := call("Bash"); r != "" || errs != "" {
		t.Errorf("a garbled gate: Bash gets %q (stderr %q), want it allowed", r, errs)
	}
}
