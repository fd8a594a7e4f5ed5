package daemon

import (
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/wiring"
)

// CheckClientSettings names the alerts of a client file in the workspace
// that disagrees with what this watchdog serves (package wiring).
const CheckClientSettings = "client_settings"

// settingsMemory is what the start and each reload compared: the window's
// address, and the mismatches already alerted.
type settingsMemory struct {
	listen  string          // http.listen ("" no window)
	alerted map[string]bool // by wiring.Mismatch.Key
}

// checkSettings compares the workspace's client files with what the
// watchdog serves, at the start and after each reload (never in the
// pulse: the files are the operator's to fix, once told), and alerts each
// mismatch once. One that was fixed and comes back is told again.
func (a *agent) checkSettings() {
	served := wiring.Served{Client: a.cfg.Agent.Client}
	if a.settings.listen != "" {
		key, err := telemetry.LoadKey(filepath.Join(a.dir, telemetry.KeyFile), false)
		if err != nil {
			key = "" // none yet: a file's key cannot be this agent's
		}
		served.Telemetry = wiring.TelemetryURL(a.settings.listen, a.name, key)
	}
	now := a.clock.Now()
	seen := map[string]bool{}
	for _, m := range wiring.Check(a.ws.Root, served) {
		seen[m.Key()] = true
		if a.settings.alerted[m.Key()] {
			continue
		}
		a.log.Warn().Str("file", m.File).Str("client", m.Client).Msg(m.What)
		a.emit(now, a.currentID(), checks.Warning, CheckClientSettings, m.Message(a.ws.Root), 0)
	}
	a.settings.alerted = seen
}
