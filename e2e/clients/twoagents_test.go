package clients

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// Two agents on one machine, each set up as README says (its own folder,
// watchdog.yaml with its own port, init run beside it): each watchdog
// books only its own client's tokens, a stranger's post to a window is
// refused and counted apart, and a second watchdog on a port already taken
// stops saying what to do.
func TestTwoAgentsOneMachine(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	a, windowA := newTelemetryWorld(t, "claude-code", false)
	b, _ := newTelemetryWorld(t, "claude-code", false)
	a.claudeExec(idleScript(), []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json")
	b.claudeExec(idleScript(), []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json")

	a.waitFor("A's window", 30*time.Second, func() bool {
		resp, err := http.Get(windowA + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	// A stranger on this machine posts a forged request to A's window,
	// at the root and under A's name, without A's key.
	forged := `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claude-code"}}]},"scopeLogs":[{"logRecords":[{"attributes":[` +
		`{"key":"event.name","value":{"stringValue":"api_request"}},{"key":"session.id","value":{"stringValue":"x"}},{"key":"event.sequence","value":{"intValue":"1"}},` +
		`{"key":"model","value":{"stringValue":"claude-forged"}},{"key":"input_tokens","value":{"intValue":"57420"}},{"key":"cost_usd","value":{"doubleValue":1.5}}]}]}]}]}`
	for _, path := range []string{"/v1/logs", "/otlp/ai-works/v1/logs", "/otlp/ai-works/0123456789abcdef0123456789abcdef/v1/logs"} {
		resp, err := http.Post(windowA+path, "application/json", strings.NewReader(forged))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("a stranger's post to %s: %d, want 401", path, resp.StatusCode)
		}
	}

	perRun := cost.Tokens{Input: perRunInput, Output: perRunOutput}
	a.bookedOnce(perRun) // exactly its own runs: nothing of B's, nothing forged
	b.bookedOnce(perRun)
	var st struct {
		Counters struct {
			Unkeyed int64 `json:"telemetry_unkeyed"`
		} `json:"counters"`
	}
	raw, _ := os.ReadFile(filepath.Join(a.ws, "stats", "watchdog_state.json"))
	json.Unmarshal(raw, &st)
	if st.Counters.Unkeyed < 3 {
		t.Fatalf("A's state counts %d posts without its key, want the stranger's 3:\n%s", st.Counters.Unkeyed, raw)
	}

	// A third watchdog on A's port: it stops at once, saying what to do.
	cfg := filepath.Join(t.TempDir(), "watchdog.yaml")
	os.WriteFile(cfg, []byte("workspace: "+b.ws+"\nstate_dir: "+t.TempDir()+"\nagent: {delivery: inbox}\nhttp: {listen: \""+strings.TrimPrefix(windowA, "http://")+"\"}\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "watchdog"), "run", "-c", cfg)
	cmd.Env = b.env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil || err == nil || !strings.Contains(string(out), "is taken") || !strings.Contains(string(out), "port of its own") {
		t.Fatalf("a watchdog on a taken port: %v (ctx %v), said:\n%s", err, ctx.Err(), out)
	}
}
