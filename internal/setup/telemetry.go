package setup

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/ai-heart/ai-heart/internal/wiring"
	"github.com/pelletier/go-toml/v2"
)

// TelemetryURL is the base the clients export to for a watchdog listening
// on listen: /otlp/<agent>/<key>, the agent's name and its telemetry key
// (the window refuses a post without it).
// The watchdog compares what it serves with the same URL (package wiring).
func TelemetryURL(listen, agent, key string) string {
	return wiring.TelemetryURL(listen, agent, key)
}

// earlierOwn says whether an endpoint a client's settings hold is one an
// earlier init wrote (the window on loopback, its root or an /otlp/ path):
// init replaces it, where it keeps one the user chose.
func earlierOwn(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" {
		return false
	}
	switch u.Hostname() {
	case "127.0.0.1", "::1", "localhost":
	default:
		return false
	}
	p := strings.TrimSuffix(u.Path, "/")
	return p == "" || strings.HasPrefix(p, "/otlp/")
}

// The names below were confirmed against the installed clients
// (docs/telemetry.md): each one's telemetry, so set, reached a stand-in
// receiver, with no prompt text in it.

// claudeTelemetryEnv is what turns Claude Code 2.1's OpenTelemetry on,
// through the env of the project's .claude/settings.json. Prompts stay out
// (OTEL_LOG_USER_PROMPTS unset: Claude Code sends "<REDACTED>").
func claudeTelemetryEnv(url string) []kv {
	return []kv{
		{"CLAUDE_CODE_ENABLE_TELEMETRY", "1"},
		{"OTEL_LOGS_EXPORTER", "otlp"},
		{"OTEL_METRICS_EXPORTER", "otlp"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", url},
	}
}

// setClaudeTelemetry adds the telemetry variables to root.env, keeping any
// the user set (with a note where theirs differs) and warning of a prompt
// logging the user turned on.
func setClaudeTelemetry(root *object, url string, n *notes) error {
	env, err := root.child("env")
	if err != nil {
		return err
	}
	for _, p := range claudeTelemetryEnv(url) {
		if v, ok := env.get(p.k); ok {
			if p.k == "OTEL_EXPORTER_OTLP_ENDPOINT" && v != p.v && earlierOwn(v) {
				env.set(p.k, p.v)
				n.add("env.%s updated from an earlier init's %s", p.k, jsonText(v))
				continue
			}
			if v != p.v {
				n.add("env.%s %s is kept as you set it; the watchdog's telemetry wants %q", p.k, jsonText(v), p.v)
			}
			continue
		}
		env.set(p.k, p.v)
	}
	if v, ok := env.get("OTEL_LOG_USER_PROMPTS"); ok && v != "0" && v != "" {
		n.add("env.OTEL_LOG_USER_PROMPTS %s is kept as you set it: the prompts' text goes to the telemetry", jsonText(v))
	}
	return nil
}

// setGeminiTelemetry sets Gemini CLI 0.61's settings telemetry: on, to
// the watchdog over OTLP/HTTP, no prompts. Keys the user set are kept.
func setGeminiTelemetry(root *object, url string, n *notes) error {
	t, err := root.child("telemetry")
	if err != nil {
		return err
	}
	for _, p := range []kv{{"enabled", true}, {"otlpEndpoint", url}, {"otlpProtocol", "http"}, {"logPrompts", false}} {
		if v, ok := t.get(p.k); ok {
			if p.k == "otlpEndpoint" && v != p.v && earlierOwn(v) {
				t.set(p.k, p.v)
				n.add("telemetry.%s updated from an earlier init's %s", p.k, jsonText(v))
				continue
			}
			if v != p.v {
				n.add("telemetry.%s %s is kept as you set it; the watchdog's telemetry wants %s", p.k, jsonText(v), jsonText(p.v))
			}
			continue
		}
		t.set(p.k, p.v)
	}
	return nil
}

// codexOtel is Codex 0.169's [otel] table towards url: logs and metrics
// over OTLP/HTTP protobuf (each endpoint the whole URL), no prompt text.
type codexOtel struct {
	LogUserPrompt   bool                         `toml:"log_user_prompt"`
	Exporter        map[string]map[string]string `toml:"exporter,inline"`
	MetricsExporter map[string]map[string]string `toml:"metrics_exporter,inline"`
}

func newCodexOtel(url string) codexOtel {
	exp := func(path string) map[string]map[string]string {
		return map[string]map[string]string{"otlp-http": {"endpoint": url + path, "protocol": "binary"}}
	}
	return codexOtel{Exporter: exp("/v1/logs"), MetricsExporter: exp("/v1/metrics")}
}

// mergeCodexOtel appends the [otel] table to a Codex config.toml that has
// none; one the user wrote is kept whole, with a note. The text is
// appended, the user's bytes stay, and the result must read as the old
// document plus that table.
func mergeCodexOtel(doc []byte, url string, n *notes) ([]byte, error) {
	var before map[string]any
	if err := toml.Unmarshal(doc, &before); err != nil {
		return nil, fmt.Errorf("not valid TOML (%v): fix or move it, then run init again", err)
	}
	if _, ok := before["otel"]; ok {
		var own map[string]any
		want, _ := toml.Marshal(map[string]any{"otel": newCodexOtel(url)})
		toml.Unmarshal(want, &own)
		if !reflect.DeepEqual(before["otel"], own["otel"]) && earlierCodex(before["otel"]) {
			n.add("[otel] points at an earlier watchdog URL, which the window now refuses without this agent's key: remove the [otel] table and run init again (it writes exporter and metrics_exporter to %s/v1/logs and /v1/metrics)", url)
		} else if !reflect.DeepEqual(before["otel"], own["otel"]) {
			n.add("[otel] is kept as you set it; the watchdog's telemetry wants exporter and metrics_exporter otlp-http to %s/v1/logs and /v1/metrics, log_user_prompt = false", url)
		}
		return doc, nil
	}
	kvs, err := toml.Marshal(newCodexOtel(url))
	if err != nil {
		return nil, err
	}
	out := appendTable(doc, append([]byte("[otel]\n"), kvs...))
	var after map[string]any
	if err := toml.Unmarshal(out, &after); err != nil {
		return nil, err
	}
	delete(after, "otel")
	if before == nil {
		before = map[string]any{}
	}
	if !reflect.DeepEqual(after, before) {
		return nil, fmt.Errorf("cannot add [otel] without changing other settings: add it by hand (docs/telemetry.md)")
	}
	return out, nil
}

// earlierCodex says whether a Codex [otel] table exports its logs to an
// endpoint an earlier init wrote.
func earlierCodex(otel any) bool {
	t, _ := otel.(map[string]any)
	exp, _ := t["exporter"].(map[string]any)
	h, _ := exp["otlp-http"].(map[string]any)
	e, _ := h["endpoint"].(string)
	return e != "" && earlierOwn(strings.TrimSuffix(e, "/v1/logs"))
}
