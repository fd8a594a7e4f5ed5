package claudecode

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// HooksOff: Claude Code 2.1.197 runs no hook and no status line when any
// settings file it reads says "disableAllHooks": true (its settings schema:
// "Disable all hooks and statusLine execution"), the project's shared and
// local ones included.
func (Adapter) HooksOff() []client.HooksOff {
	return []client.HooksOff{{Path: ".claude/settings.json", Read: disableAll}, {Path: ".claude/settings.local.json", Read: disableAll}}
}

func disableAll(data []byte) []string {
	var s struct {
		Disable *bool `json:"disableAllHooks"`
	}
	if json.Unmarshal(data, &s) != nil || s.Disable == nil || !*s.Disable {
		return nil
	}
	return []string{"disableAllHooks: true"}
}
