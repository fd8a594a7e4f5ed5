package claudecode

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// settingsFile is where init wires the hooks.
const settingsFile = ".claude/settings.json"

// HooksOff: Claude Code 2.1.197 runs no hook and no status line when any
// settings file it reads says "disableAllHooks": true (its settings schema:
// "Disable all hooks and statusLine execution"), the project's shared and
// local ones included; and no gate when PreToolUse no longer runs
// heart-hook.
func (a Adapter) HooksOff() []client.HooksOff {
	events := client.WiredEvents(a.Setup(), settingsFile)
	return []client.HooksOff{
		{Path: settingsFile, Read: disableAll, Wired: func(b []byte) []string { return client.MissingHooks(b, events) }},
		{Path: ".claude/settings.local.json", Read: disableAll},
	}
}

func disableAll(data []byte) ([]string, error) {
	root, err := client.Members(data)
	if err != nil {
		return nil, err
	}
	out := client.CaseTwins(root, "disableAllHooks", "hooks")
	if string(root["disableAllHooks"]) == "true" {
		out = append(out, "disableAllHooks: true")
	}
	return out, nil
}
