package clients

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unservedAddr is a loopback address nothing listens on.
func unservedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// The field's ghost case: init wired Gemini CLI's telemetry to a window the
// running watchdog does not serve, so each run retries the export for
// seconds and prints its complaint after the model's [IDLE]. The [IDLE] is
// still the model's whole reply: a ghost, in text and in stream-json.
func TestGeminiCLIGhostWithTelemetryToNobody(t *testing.T) {
	for _, mode := range []struct {
		name, output string
		flags        []string
	}{{"text", "output: text", nil}, {"stream-json", "output: stream-json", []string{"--output-format", "stream-json"}}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel() // waits on its schedule; the timing tests run alone
			w := newWorldWith(t, "--heart-hook", "/nonexistent/heart-hook", "--client", "gemini", "--telemetry=false")
			dir := filepath.Dir(w.ws)
			wired := unservedAddr(t)
			if err := os.WriteFile(filepath.Join(dir, "watchdog.yaml"), []byte(fmt.Sprintf("workspace: ai-works\nhttp: {listen: %q}\n", wired)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(filepath.Join(binDir, "watchdog"), "init", "--mcp-heart", filepath.Join(binDir, "mcp-heart"), "--heart-hook", "/nonexistent/heart-hook", "--client", "gemini", "ai-works")
			cmd.Dir, cmd.Env = dir, w.env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("watchdog init: %v\n%s", err, out)
			}
			if b, _ := os.ReadFile(filepath.Join(w.ws, ".gemini", "settings.json")); !strings.Contains(string(b), wired) {
				t.Fatalf("init did not wire the telemetry to %s: %s", wired, b)
			}
			// The watchdog the operator runs serves another window.
			w.more = fmt.Sprintf("http: {listen: %q}\n", unservedAddr(t))
			w.geminiExec(&script{Final: "[IDLE]"}, mode.flags, mode.output)
			w.waitFor("a ghost or an answer", 150*time.Second, func() bool {
				g, _ := w.counters()["ghosts"].(float64)
				files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "wakeups", "*.jsonl"))
				return g >= 1 || len(files) > 0
			})
			if files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "wakeups", "*.jsonl")); len(files) != 0 {
				b, _ := os.ReadFile(files[0])
				t.Fatalf("the [IDLE] run was counted as an answer: %s", tail(string(b), 2000))
			}
			// And the operator was told at the start, with the fix.
			b, _ := os.ReadFile(w.alerts)
			if !strings.Contains(string(b), `"check":"client_settings"`) || !strings.Contains(string(b), wired) || !strings.Contains(string(b), "watchdog init") {
				t.Fatalf("no client_settings alert naming %s and the fix: %s", wired, b)
			}
		})
	}
}
