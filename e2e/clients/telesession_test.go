package clients

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/telemetry"
)

// hookSessions are the sessions the hooks named in the workspace's spool.
func (w *world) hookSessions() map[string]bool {
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(w.ws, filepath.FromSlash(hook.SpoolDir), "*.jsonl"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var e hook.Event
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Session != "" {
				out[e.Session] = true
			}
		}
		fh.Close()
	}
	return out
}

// sameSession fails unless every usage report the telemetry sent names a
// session the hooks named: a turn in a pane is bound to its reports by it.
func sameSession(t *testing.T, w *world, sink *otlpSink) {
	t.Helper()
	hooks := w.hookSessions()
	var usage []string
	for _, r := range telemetry.Read(sink.records()) {
		if r.Kind == telemetry.KindUsage {
			usage = append(usage, r.Session)
		}
	}
	sort.Strings(usage)
	if len(usage) == 0 || len(hooks) == 0 {
		t.Fatalf("usage reports of sessions %q, hooks' sessions %v: want both", usage, hooks)
	}
	for _, s := range usage {
		if !hooks[s] {
			t.Fatalf("a usage report of session %q, which no hook named (hooks: %v)", s, hooks)
		}
	}
	t.Logf("%d usage reports, each of a session the hooks named: %v", len(usage), hooks)
}

// The session a client's hooks name is the session its telemetry names,
// for each installed client: what binds an interactive turn's reports to
// it. Each runs once headless in a workspace init wired with hooks.
func TestTelemetrySessionIsTheHooks(t *testing.T) {
	t.Run("claude-code", func(t *testing.T) {
		t.Parallel()
		claude := client(t, "claude")
		w, s := newHookedWorld(t, "claude-code"), idleScript()
		sink, otlp := newOTLPSink(t)
		w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+claudeStandIn(t, s))
		w.once([]string{claude, "-p", "hello", "--output-format", "stream-json", "--verbose"},
			"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=otlp",
			"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT="+otlp, "DISABLE_TELEMETRY=")
		sameSession(t, w, sink)
	})
	t.Run("gemini", func(t *testing.T) {
		t.Parallel()
		gemini := client(t, "gemini")
		w, s := newHookedWorld(t, "gemini"), idleScript()
		sink, otlp := newOTLPSink(t)
		w.writeJSON(".gemini/settings.json", map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
		w.env = append(w.env, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+geminiStandIn(t, s))
		w.once([]string{gemini, "-p", "hello", "--output-format", "stream-json"},
			"GEMINI_TELEMETRY_ENABLED=true", "GEMINI_TELEMETRY_OTLP_ENDPOINT="+otlp, "GEMINI_TELEMETRY_OTLP_PROTOCOL=http")
		sameSession(t, w, sink)
	})
	t.Run("codex", func(t *testing.T) {
		t.Parallel()
		w, s := newHookedWorld(t, "codex"), idleScript()
		codex, codexHome := w.codexSignIn(s, codexModel)
		w.trustCodexHooks(codex, codexHome)
		sink, otlp := newOTLPSink(t)
		b, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
		otel := fmt.Sprintf("\n[otel]\nlog_user_prompt = false\nexporter = { otlp-http = { endpoint = %q, protocol = \"binary\" } }\n", otlp+"/v1/logs")
		os.WriteFile(filepath.Join(codexHome, "config.toml"), append(b, otel...), 0o600)
		out := w.once([]string{codex, "exec", "--skip-git-repo-check", "--json", "hello"})
		if !strings.Contains(out, "turn.completed") {
			t.Logf("codex exec said:\n%s", tail(out, 2000))
		}
		sameSession(t, w, sink)
	})
}
