package gemini

import (
	"encoding/json"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// hookName is the name init gives heart-hook's hooks.
const hookName = "heart-hook"

// HooksOff: Gemini CLI 0.61 runs no hook when hooksConfig.enabled is false
// ("Canonical toggle for the hooks system"), and not the hooks whose name
// (or, without one, command) hooksConfig.disabled lists.
func (Adapter) HooksOff() []client.HooksOff {
	return []client.HooksOff{{Path: SettingsFile, Read: hooksOff}}
}

func hooksOff(data []byte) []string {
	var s struct {
		Config struct {
			Enabled  *bool `json:"enabled"`
			Disabled []any `json:"disabled"`
		} `json:"hooksConfig"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []string
	if e := s.Config.Enabled; e != nil && !*e {
		out = append(out, "hooksConfig.enabled: false")
	}
	for _, d := range s.Config.Disabled {
		if name, _ := d.(string); name == hookName || strings.Contains(name, hookName) {
			out = append(out, "hooksConfig.disabled: "+name)
		}
	}
	return out
}
