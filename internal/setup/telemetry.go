package setup

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ai-heart/ai-heart/internal/wiring"
	"github.com/pelletier/go-toml/v2"

	adapter "github.com/ai-heart/ai-heart/internal/clients/client"
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
	return ok && wiring.WindowLike(s)
}

// setTelemetry sets a client's telemetry settings (its adapter's, under
// their block of the JSON file) towards url, keeping any the user set,
// with a note where theirs differs; an endpoint an earlier init wrote is
// replaced, and a prompt logging the user turned on is warned of.
func setTelemetry(root *object, t adapter.Telemetry, url string, n *notes) error {
	blk, err := root.child(t.Block)
	if err != nil {
		return err
	}
	for _, s := range t.Settings {
		want := s.Value
		if want == adapter.URL {
			want = url
		}
		if v, ok := blk.get(s.Key); ok {
			if s.Value == adapter.URL && v != want && earlierOwn(v) {
				blk.set(s.Key, want)
				n.add("%s.%s updated from an earlier init's %s", t.Block, s.Key, jsonText(v))
				continue
			}
			if v != want {
				n.add("%s.%s %s is kept as you set it; the watchdog's telemetry wants %s", t.Block, s.Key, jsonText(v), jsonText(want))
			}
			continue
		}
		blk.set(s.Key, want)
	}
	if v, ok := blk.get(t.Prompts); ok && t.Prompts != "" && !slices.Contains(t.PromptsOff, v) {
		n.add("%s.%s %s is kept as you set it: the prompts' text goes to the telemetry", t.Block, t.Prompts, jsonText(v))
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
