package setup

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// init turns each client's telemetry on towards the watchdog, without
// prompt text, and keeps what the user set there.
func TestWireTurnsTelemetryOn(t *testing.T) {
	w := testWiring(t)
	w.Telemetry = "http://127.0.0.1:9477"
	w.Home = t.TempDir()
	// The user's own: a Claude Code env value, a Gemini telemetry key.
	os.MkdirAll(filepath.Join(w.Dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(w.Dir, ".claude/settings.json"), []byte(`{"env": {"OTEL_METRICS_EXPORTER": "none", "FOO": "bar"}}`), 0o644)
	os.MkdirAll(filepath.Join(w.Dir, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(w.Dir, ".gemini/settings.json"), []byte(`{"telemetry": {"otlpProtocol": "grpc"}}`), 0o644)
	wrote, _, err := Wire(w, []string{ClientClaudeCode, ClientGemini, ClientCodex})
	if err != nil {
		t.Fatal(err)
	}
	claude := readJSON(t, filepath.Join(w.Dir, ".claude/settings.json")).(map[string]any)["env"]
	want := mustJSON(t, `{"FOO": "bar", "OTEL_METRICS_EXPORTER": "none", "CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_LOGS_EXPORTER": "otlp",
		"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9477"}`)
	if !reflect.DeepEqual(claude, want) {
		t.Errorf("Claude Code env %v, want %v", claude, want)
	}
	gemini := readJSON(t, filepath.Join(w.Dir, ".gemini/settings.json")).(map[string]any)["telemetry"]
	if want := mustJSON(t, `{"enabled": true, "otlpEndpoint": "http://127.0.0.1:9477", "otlpProtocol": "grpc", "logPrompts": false}`); !reflect.DeepEqual(gemini, want) {
		t.Errorf("Gemini CLI telemetry %v, want %v", gemini, want)
	}
	// Claude Code 2.1.3xx takes the telemetry from the user's settings
	// only: the home has it too, kept from other users (it holds the key).
	home := readJSON(t, filepath.Join(w.Home, ".claude/settings.json")).(map[string]any)
	if env, _ := home["env"].(map[string]any); env["OTEL_EXPORTER_OTLP_ENDPOINT"] != w.Telemetry || env["CLAUDE_CODE_ENABLE_TELEMETRY"] != "1" {
		t.Errorf("the user's Claude Code settings %v lack the telemetry", home)
	}
	if fi, _ := os.Stat(filepath.Join(w.Home, ".claude/settings.json")); fi.Mode().Perm()&0o007 != 0 {
		t.Errorf("the user's Claude Code settings are mode %v", fi.Mode().Perm())
	}
	// Codex ignores [otel] in a project: it goes in the user's config.
	if b, _ := os.ReadFile(filepath.Join(w.Dir, ".codex/config.toml")); strings.Contains(string(b), "otel") || !strings.Contains(string(b), "mcp-heart") {
		t.Errorf("the project's Codex config:\n%s", b)
	}
	b, _ := os.ReadFile(filepath.Join(w.Home, ".codex/config.toml"))
	var codex map[string]any
	if err := toml.Unmarshal(b, &codex); err != nil {
		t.Fatal(err)
	}
	otel := codex["otel"].(map[string]any)
	if otel["log_user_prompt"] != false || !reflect.DeepEqual(otel["exporter"], map[string]any{"otlp-http": map[string]any{"endpoint": "http://127.0.0.1:9477/v1/logs", "protocol": "binary"}}) ||
		!reflect.DeepEqual(otel["metrics_exporter"], map[string]any{"otlp-http": map[string]any{"endpoint": "http://127.0.0.1:9477/v1/metrics", "protocol": "binary"}}) {
		t.Errorf("Codex [otel] %v", otel)
	}
	if codex["projects"] == nil {
		t.Errorf("the user's Codex config lost the project's trust:\n%s", b)
	}
	all := strings.Join(fileNotes(wrote), "\n")
	for _, n := range []string{"OTEL_METRICS_EXPORTER", "telemetry.otlpProtocol"} {
		if !strings.Contains(all, n) {
			t.Errorf("notes %q do not name the kept %s", all, n)
		}
	}
	// Again: nothing changes, and a user's own [otel] is kept whole.
	wrote, _, err = Wire(w, []string{ClientClaudeCode, ClientGemini, ClientCodex})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range wrote {
		if x.Changed {
			t.Errorf("%s rewritten by a second init", x.Path)
		}
	}
	own := "[otel]\nexporter = \"none\"\n"
	os.WriteFile(filepath.Join(w.Home, ".codex/config.toml"), []byte(own), 0o600)
	if wrote, _, err = Wire(w, []string{ClientCodex}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.Home, ".codex/config.toml")); !strings.HasPrefix(string(b), own) || strings.Count(string(b), "[otel]") != 1 {
		t.Errorf("the user's [otel] was not kept whole:\n%s", b)
	}
	if !strings.Contains(strings.Join(fileNotes(wrote), "\n"), "[otel] is kept") {
		t.Errorf("notes %q: want the kept [otel] said", fileNotes(wrote))
	}
	// No telemetry asked: none written.
	w2 := testWiring(t)
	w2.Home = t.TempDir()
	if _, _, err := Wire(w2, []string{ClientClaudeCode, ClientGemini, ClientCodex}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(w2.Dir, ".claude/settings.json"), filepath.Join(w2.Dir, ".gemini/settings.json"), filepath.Join(w2.Home, ".codex/config.toml")} {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "otel") || strings.Contains(string(b), "telemetry") || strings.Contains(string(b), "OTEL") {
			t.Errorf("%s turns telemetry on unasked:\n%s", f, b)
		}
	}
}

func TestTelemetryURL(t *testing.T) {
	for _, c := range []struct{ listen, agent, want string }{
		{"127.0.0.1:9500", "a", "http://127.0.0.1:9500/otlp/a/K"},
		{":9500", "bob", "http://127.0.0.1:9500/otlp/bob/K"},
		{"0.0.0.0:9500", "a b/c", "http://127.0.0.1:9500/otlp/a%20b%2Fc/K"},
		{"[::1]:9500", "a", "http://[::1]:9500/otlp/a/K"},
	} {
		if got := TelemetryURL(c.listen, c.agent, "K"); got != c.want {
			t.Errorf("TelemetryURL(%q, %q) = %q, want %q", c.listen, c.agent, got, c.want)
		}
	}
}

func fileNotes(wrote []Wrote) []string {
	var out []string
	for _, w := range wrote {
		out = append(out, w.Notes...)
	}
	return out
}

// Run again once the window asks for the agent's key, init replaces the
// endpoint an earlier init wrote (the window's bare root) and keeps one the
// user chose.
func TestWireUpdatesAnEarlierEndpoint(t *testing.T) {
	w := testWiring(t)
	w.Telemetry = "http://127.0.0.1:9477/otlp/a/K"
	w.Home = t.TempDir()
	os.MkdirAll(filepath.Join(w.Dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(w.Dir, ".claude/settings.json"), []byte(`{"env": {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9477"}}`), 0o644)
	os.MkdirAll(filepath.Join(w.Dir, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(w.Dir, ".gemini/settings.json"), []byte(`{"telemetry": {"otlpEndpoint": "https://collector.example:4318"}}`), 0o644)
	if _, _, err := Wire(w, []string{ClientClaudeCode, ClientGemini}); err != nil {
		t.Fatal(err)
	}
	env := readJSON(t, filepath.Join(w.Dir, ".claude/settings.json")).(map[string]any)["env"].(map[string]any)
	if env["OTEL_EXPORTER_OTLP_ENDPOINT"] != w.Telemetry {
		t.Errorf("Claude Code's endpoint %v, want the earlier init's replaced by %s", env["OTEL_EXPORTER_OTLP_ENDPOINT"], w.Telemetry)
	}
	if fi, _ := os.Stat(filepath.Join(w.Dir, ".claude/settings.json")); fi.Mode().Perm()&0o007 != 0 {
		t.Errorf("Claude Code's settings, holding the telemetry key, are mode %v: other users can read the key", fi.Mode().Perm())
	}
	tel := readJSON(t, filepath.Join(w.Dir, ".gemini/settings.json")).(map[string]any)["telemetry"].(map[string]any)
	if tel["otlpEndpoint"] != "https://collector.example:4318" {
		t.Errorf("Gemini CLI's endpoint %v: the user's own collector was replaced", tel["otlpEndpoint"])
	}
}
