package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestHooksTurnedOffIsAnError: the budget gate and every hook live in
// files the agent can write, and one setting there turns them all off
// (the review's G3: Claude Code's .claude/settings.local.json
// {"disableAllHooks": true}). The watchdog reads those settings in the
// workspace's client files and raises hooks_off at error, in the alerts
// and the state, naming the file and the setting; it goes back to ok when
// the setting is gone. Gemini CLI's and Codex's switches likewise.
func TestHooksTurnedOffIsAnError(t *testing.T) {
	for _, tc := range []struct {
		file, body, says string
	}{
		{".claude/settings.local.json", `{"disableAllHooks": true}`, "disableAllHooks: true"},
		{".claude/settings.json", `{"hooks": {}, "disableAllHooks": true}`, "disableAllHooks: true"},
		{".gemini/settings.json", `{"hooksConfig": {"enabled": false}}`, "hooksConfig.enabled: false"},
		{".gemini/settings.json", `{"hooksConfig": {"disabled": ["heart-hook"]}}`, `hooksConfig.disabled: heart-hook`},
		{".codex/config.toml", "[features]\nhooks = false\n", "features.hooks = false"},
		{".codex/config.toml", "features.codex_hooks = false\n", "features.codex_hooks = false"},
	} {
		t.Run(tc.file+" "+tc.says, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				h := startFake(t, cfg, nil)
				time.Sleep(300 * time.Millisecond)
				synctest.Wait()
				if c := h.state().Checks["hooks_off"]; c.Level != "ok" {
					t.Fatalf("hooks_off %+v before any setting, want ok", c)
				}
				p := filepath.Join(cfg.Workspace, filepath.FromSlash(tc.file))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
					t.Fatal(err)
				}
				time.Sleep(300 * time.Millisecond)
				synctest.Wait()
				c := h.state().Checks["hooks_off"]
				if c.Level != "error" || !strings.Contains(c.Message, tc.file) || !strings.Contains(c.Message, tc.says) {
					t.Fatalf("hooks_off %+v: want an error naming %s and %q", c, tc.file, tc.says)
				}
				if n := alertsWith(t, h.alerts, "hooks_off", tc.file); n != 1 {
					t.Fatalf("%d hooks_off alerts naming %s, want 1: %v", n, tc.file, alertsOf(t, h.alerts))
				}
				// A link to a file elsewhere is followed, as the client
				// follows it.
				elsewhere := filepath.Join(t.TempDir(), "settings")
				os.Rename(p, elsewhere)
				if err := os.Symlink(elsewhere, p); err != nil {
					t.Fatal(err)
				}
				time.Sleep(300 * time.Millisecond)
				synctest.Wait()
				if c := h.state().Checks["hooks_off"]; c.Level != "error" {
					t.Fatalf("hooks_off %+v with the settings behind a link, want the error", c)
				}
				os.Remove(p)
				time.Sleep(300 * time.Millisecond)
				synctest.Wait()
				if c := h.state().Checks["hooks_off"]; c.Level != "ok" {
					t.Fatalf("hooks_off %+v after the setting went, want ok", c)
				}
			})
		})
	}
}
