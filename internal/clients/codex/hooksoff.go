package codex

import (
	"github.com/pelletier/go-toml/v2"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// HooksOff: Codex 0.169 runs no hook when its feature "hooks" (or the old
// name codex_hooks) is false, and a trusted project's .codex/config.toml
// sets it (`codex features list` there shows hooks false).
func (Adapter) HooksOff() []client.HooksOff {
	return []client.HooksOff{{Path: ConfigFile, Read: hooksOff}}
}

func hooksOff(data []byte) ([]string, error) {
	var root map[string]any
	if err := toml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	features, _ := root["features"].(map[string]any)
	var out []string
	for _, k := range []string{"hooks", "codex_hooks"} {
		if v, ok := features[k].(bool); ok && !v {
			out = append(out, "features."+k+" = false")
		}
	}
	return out, nil
}
