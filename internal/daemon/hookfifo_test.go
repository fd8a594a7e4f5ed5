package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
)

// A FIFO the agent put at today's spool file leaves the hooks blind: the
// operator hears of it (a hooks warning, and status shows why the hooks
// are not heard), not only the log; once the spool reads again, an ok.
func TestHookSpoolFIFOIsAlerted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // pulse 100ms
		p := filepath.Join(cfg.Workspace, filepath.FromSlash(hook.SpoolFile(time.Now())))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		h := startFake(t, cfg, nil)
		time.Sleep(350 * time.Millisecond)
		synctest.Wait()
		if n := limitAlerts(t, h, "hooks", "warning", "not a regular file"); n != 1 {
			t.Fatalf("%d hooks warnings for a FIFO at the spool, want one: %v", n, alertsOf(t, h.alerts))
		}
		if why := h.state().Chambers.Pulse.HooksUnread; !strings.Contains(why, "not a regular file") {
			t.Fatalf("state's hooks_unread = %q, want why the hooks are not heard", why)
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if n := limitAlerts(t, h, "hooks", "ok", "reads again"); n != 1 || h.state().Chambers.Pulse.HooksUnread != "" {
			t.Fatalf("after the FIFO is gone: %d ok alerts, hooks_unread %q; want one, none", n, h.state().Chambers.Pulse.HooksUnread)
		}
	})
}
