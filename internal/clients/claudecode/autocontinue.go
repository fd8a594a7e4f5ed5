package claudecode

import (
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// maxSettings bounds a settings file read for one key: the agent can
// write these files.
const maxSettings = 1 << 20

// AutoContinueOff reports whether the workspace's own settings turn off
// Claude Code's continuing by itself when a usage limit resets
// ("autoContinueAtUsageLimit": false; on when absent, since 2.1.234). The
// project's local file wins over its shared one, as in the client. The
// user's own settings are not the watchdog's to read: with the setting off
// only there, the wakeup comes a resume margin late, with its warning.
// A file that cannot be read whole or parsed says nothing.
func (Adapter) AutoContinueOff(root string) bool {
	for _, rel := range []string{".claude/settings.local.json", settingsFile} {
		b, err := safeopen.ReadHead(filepath.Join(root, rel), maxSettings+1)
		if err != nil || len(b) > maxSettings {
			continue
		}
		m, err := client.Members(b)
		if err != nil {
			continue
		}
		switch string(m["autoContinueAtUsageLimit"]) {
		case "false":
			return true
		case "true":
			return false
		}
	}
	return false
}
