package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ai-heart/ai-heart/internal/cost"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// otlpSink is a stand-in OTLP/HTTP receiver: the watchdog's own decoding,
// keeping every record that arrives.
type otlpSink struct {
	mu    sync.Mutex
	recs  []telemetry.Record
	paths map[string]string // path → content type and encoding seen
}

func newOTLPSink(t testing.TB) (*otlpSink, string) {
	s := &otlpSink{paths: map[string]string{}}
	rc := &telemetry.Receiver{Sink: func(_ string, r []telemetry.Record) error {
		s.mu.Lock()
		s.recs = append(s.recs, r...)
		s.mu.Unlock()
		return nil
	}}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths[r.URL.Path] = fmt.Sprintf("%s %s chunked=%v", r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"), r.ContentLength < 0)
		s.mu.Unlock()
		rc.ServeHTTP(w, r)
	}))
	return s, url
}

func (s *otlpSink) records() []telemetry.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]telemetry.Record(nil), s.recs...)
}

// names lists what arrived: each signal's names, and for each name the
// attribute keys seen (the resource's too).
func (s *otlpSink) names() string {
	keys := map[string]map[string]bool{}
	for _, r := range s.records() {
		k := fmt.Sprintf("%s %s [%s]", r.Signal, r.Name, r.Service)
		if keys[k] == nil {
			keys[k] = map[string]bool{}
		}
		for _, a := range r.Keys() {
			keys[k][a] = true
		}
	}
	var out []string
	for k, as := range keys {
		var l []string
		for a := range as {
			l = append(l, a)
		}
		sort.Strings(l)
		out = append(out, k+": "+strings.Join(l, " "))
	}
	sort.Strings(out)
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("paths %v\n%s", s.paths, strings.Join(out, "\n"))
}

// once runs argv in the workspace with the world's environment and extra,
// until it exits (at most two minutes).
func (w *world) once(argv []string, extra ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = w.ws
	cmd.Env = append(append([]string(nil), w.env...), extra...)
	cmd.WaitDelay = 5 * time.Second // a child left holding the output
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("%s: %v\n%s", argv[0], err, tail(string(out), 3000))
	}
	return string(out)
}

// TestTelemetryNamesSeen runs each client once against its stand-in with
// telemetry on and logs every event, metric and attribute name that
// arrives: the names docs/telemetry.md records.
func TestTelemetryNamesSeen(t *testing.T) {
	if os.Getenv("AIHEART_TELEMETRY_PROBE") == "" {
		t.Skip("set AIHEART_TELEMETRY_PROBE=1 to list what the clients send")
	}
	for _, proto := range []string{"http/json", "http/protobuf"} {
		t.Run("claude "+proto, func(t *testing.T) {
			claude := client(t, "claude")
			w, s := newWorld(t, "claude-code"), idleScript()
			sink, otlp := newOTLPSink(t)
			url := claudeStandIn(t, s)
			w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
			out := w.once([]string{claude, "-p", "hello", "--output-format", "stream-json", "--verbose"},
				"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=otlp",
				"OTEL_EXPORTER_OTLP_PROTOCOL="+proto, "OTEL_EXPORTER_OTLP_ENDPOINT="+otlp, "DISABLE_TELEMETRY=")
			t.Logf("stream-json:\n%s", tail(out, 3000))
			t.Logf("claude %s:\n%s", proto, sink.names())
			for _, r := range sink.records() {
				if r.Name == "api_request" || r.Name == "user_prompt" || r.Name == "assistant_response" {
					t.Logf("api_request %v", r.Attrs)
				}
			}
		})
	}
	t.Run("gemini", func(t *testing.T) {
		gemini := client(t, "gemini")
		w, s := newWorld(t), idleScript()
		sink, otlp := newOTLPSink(t)
		url := geminiStandIn(t, s)
		w.writeJSON(".gemini/settings.json", map[string]any{
			"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
			"telemetry": map[string]any{"enabled": true, "otlpEndpoint": otlp, "otlpProtocol": "http", "logPrompts": false}})
		w.env = append(w.env, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+url)
		out := w.once([]string{gemini, "-p", "hello", "--output-format", "stream-json"})
		t.Logf("stream-json:\n%s", tail(out, 3000))
		t.Logf("gemini:\n%s", sink.names())
		for _, r := range sink.records() {
			if strings.Contains(r.Name, "api_response") {
				t.Logf("api_response %v", r.Attrs)
			}
		}
	})
	t.Run("codex", func(t *testing.T) {
		w, s := newHookedWorld(t, "codex"), idleScript()
		codex, codexHome := w.codexSignIn(s, codexModel)
		sink, otlp := newOTLPSink(t)
		b, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
		otel := fmt.Sprintf(`
[otel]
log_user_prompt = false
exporter = { otlp-http = { endpoint = %q, protocol = "binary" } }
metrics_exporter = { otlp-http = { endpoint = %q, protocol = "binary" } }

`, otlp+"/v1/logs", otlp+"/v1/metrics")
		os.WriteFile(filepath.Join(codexHome, "config.toml"), append(b, otel...), 0o600)
		t.Cleanup(func() { testutil.StopCodexDaemon(codex, codexHome, w.env) })
		out := w.once([]string{codex, "exec", "--skip-git-repo-check", "--json", "hello"})
		t.Logf("exec --json:\n%s", tail(out, 3000))
		t.Logf("codex:\n%s", sink.names())
		for _, r := range sink.records() {
			if r.Signal == telemetry.Logs && r.Attr("event.name") != "codex.tool_result" {
				delete(r.Attrs, "mcp_servers")
				t.Logf("%s: %v", r.Attr("event.name"), r.Attrs)
			}
		}
	})
}

// TestTelemetryToNobody: what a client does when its telemetry goes to an
// address nothing listens on (init's default while the watchdog runs no
// window): how long the run takes and what it prints.
func TestTelemetryToNobody(t *testing.T) {
	if os.Getenv("AIHEART_TELEMETRY_PROBE") == "" {
		t.Skip("set AIHEART_TELEMETRY_PROBE=1")
	}
	claude := client(t, "claude")
	for _, otlp := range []string{"", "http://127.0.0.1:9"} {
		w, s := newWorld(t, "claude-code"), idleScript()
		url := claudeStandIn(t, s)
		w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
		extra := []string{}
		if otlp != "" {
			extra = []string{"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=otlp",
				"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT=" + otlp, "DISABLE_TELEMETRY="}
		}
		start := time.Now()
		out := w.once([]string{claude, "-p", "hello", "--output-format", "stream-json", "--verbose"}, extra...)
		t.Logf("endpoint %q: %s, output tail %q", otlp, time.Since(start), tail(out, 300))
	}
}

// newTelemetryWorld lays out a workspace for client, then, as README's
// quick start does, runs `watchdog init` again beside a config whose window
// listens on a free loopback port: init turns the client's telemetry on
// towards it, with the agent's key, and the watchdog run serves it.
func newTelemetryWorld(t *testing.T, client string, hooked bool) (*world, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	hook := "/nonexistent/heart-hook"
	if hooked {
		hook = filepath.Join(binDir, "heart-hook")
	}
	w := newWorldWith(t, "--heart-hook", hook, "--client", client, "--telemetry=false")
	w.more = fmt.Sprintf("http: {listen: %q}\n", addr)
	dir := filepath.Dir(w.ws)
	if err := os.WriteFile(filepath.Join(dir, "watchdog.yaml"), []byte(fmt.Sprintf("workspace: ai-works\nhttp: {listen: %q}\n", addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "init", "--mcp-heart", filepath.Join(binDir, "mcp-heart"), "--heart-hook", hook, "--client", client, "ai-works")
	cmd.Dir, cmd.Env = dir, w.env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "./watchdog.yaml") {
		t.Fatalf("watchdog init beside watchdog.yaml: %v\n%s", err, out)
	}
	return w, "http://" + addr
}

// channels reads when each channel last spoke from the state file.
func (w *world) channels() map[string]time.Time {
	b, err := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	if err != nil {
		return nil
	}
	var st struct {
		Channels map[string]time.Time `json:"channels"`
	}
	json.Unmarshal(b, &st)
	return st.Channels
}

// telemetryArrives waits for the client's telemetry to reach the watchdog
// through what init wrote, and for /metrics to say when.
func (w *world) telemetryArrives(window string) {
	w.t.Helper()
	w.waitFor("the client's telemetry at the watchdog", 150*time.Second, func() bool {
		return !w.channels()["telemetry"].IsZero()
	})
	resp, err := http.Get(window + "/metrics")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `channel="telemetry"`) {
		w.t.Fatalf("/metrics has no telemetry channel:\n%s", tail(string(b), 2000))
	}
	w.t.Logf("channels %v", w.channels())
}

// bookedOnce waits for a ghost run booked from the telemetry, then checks
// the day's ghosts: every run at exactly what the stand-in served (perRun),
// whichever source booked it, so none was counted twice.
func (w *world) bookedOnce(perRun cost.Tokens) cost.Cell {
	w.t.Helper()
	var c cost.Cell
	w.waitFor("a ghost run booked from the telemetry", 150*time.Second, func() bool {
		var ok bool
		c, ok = w.costToday()
		return ok && c.Telemetry >= 1
	})
	want := cost.Tokens{Input: perRun.Input * c.Runs, Output: perRun.Output * c.Runs, CacheRead: perRun.CacheRead * c.Runs, CacheWrite: perRun.CacheWrite * c.Runs}
	if c.Unknown != 0 || c.Tokens != want {
		w.t.Fatalf("ghosts today %+v, want %d runs of %+v each: a run counted twice or short", c, c.Runs, perRun)
	}
	w.t.Logf("ghosts today %+v (%d of %d runs booked from the telemetry)", c, c.Telemetry, c.Runs)
	return c
}

// Claude Code, its telemetry turned on by init, woken by exec with
// stream-json: the window receives the telemetry, and every run is booked
// once at what the stand-in served, at Claude Code's own price (its
// cost_usd, three requests a run; it prices the stand-in's unknown model
// as its default one: $0.000175 a request in 2.1.197, $0.00014 in 2.1.337).
func TestInitTurnsClaudeCodeTelemetryOn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, window := newTelemetryWorld(t, "claude-code", false)
	w.claudeExec(idleScript(), []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json")
	w.telemetryArrives(window)
	c := w.bookedOnce(cost.Tokens{Input: perRunInput, Output: perRunOutput})
	if c.Unpriced != 0 || c.USD <= 0 {
		t.Fatalf("ghosts today $%v (%d unpriced), want Claude Code's own cost_usd", c.USD, c.Unpriced)
	}
	v := claudeVersion(t)
	perRequest, known := map[string]float64{"2.1.197": 0.000175, "2.1.337": 0.00014}[v]
	if !known {
		t.Logf("Claude Code %s: $%v a run; its price is not recorded here, only that it was booked once", v, c.USD/float64(c.Runs))
		return
	}
	if want := 3 * perRequest * float64(c.Runs); math.Abs(c.USD-want) > 1e-12 {
		t.Fatalf("ghosts today $%v, want $%v: Claude Code %s's own cost_usd", c.USD, want, v)
	}
}

// claudeVersion is the installed Claude Code's version ("2.1.337 (Claude
// Code)" says its --version).
func claudeVersion(t *testing.T) string {
	out, err := exec.Command(client(t, "claude"), "--version").Output()
	if err != nil {
		t.Fatalf("claude --version: %v", err)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return v
}

func TestInitTurnsGeminiCLITelemetryOn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, window := newTelemetryWorld(t, "gemini", false)
	w.geminiExec(idleScript(), []string{"--output-format", "stream-json"}, "output: stream-json")
	w.telemetryArrives(window)
	w.bookedOnce(cost.Tokens{Input: perRunInput, Output: perRunOutput})
}

// Codex's stand-in reports 10 input tokens (2 cached) and 5 output a
// response, three a run.
func TestInitTurnsCodexTelemetryOn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, window := newTelemetryWorld(t, "codex", false)
	w.codexExec(idleScript(), []string{"--json"}, "output: stream-json")
	w.telemetryArrives(window)
	w.bookedOnce(cost.Tokens{Input: 24, CacheRead: 6, Output: 15})
}
