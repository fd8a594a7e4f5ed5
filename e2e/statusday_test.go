package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// watchdog status draws today's strip, and --json gives scripts the state
// and the strip: here a wakeup made the agent work, and no log answered it
// before the inactivity warning.
func TestE2EStatusDayStrip(t *testing.T) {
	t.Parallel()
	ws, cfg, _ := initWorkspace(t, "pulse: {interval: 200ms}\nschedule: {every: 1s}\nthresholds: {inactivity_warning: 3s, inactivity_error: 60s}\n")
	testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg))
	waitUntil(t, "an inactivity warning", 20*time.Second, func() bool {
		c, _ := readState(t, ws)["checks"].(map[string]any)
		in, _ := c["inactivity"].(map[string]any)
		return in["level"] == "warning"
	})
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	var strip string
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "last 24h:"); ok && strings.Contains(v, "|") {
			strip = strings.Split(strings.TrimSpace(v), "|")[1]
		}
	}
	if n := len([]rune(strip)); n != 48 || !strings.ContainsAny(strip, "?█") || !strings.Contains(string(out), "█ working") {
		t.Fatalf("status's strip %q (%d slots), want 48 with the warning or the work in it:\n%s", strip, n, out)
	}
	js, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg, "--json").Output()
	if err != nil {
		t.Fatalf("status --json: %v\n%s", err, js)
	}
	type stripJSON struct {
		SlotMinutes int `json:"slot_minutes"`
		Slots       []struct {
			Mode, Worst string
			Future      bool
		}
	}
	var agents []struct {
		Agent   string
		Running bool
		State   struct {
			Checks map[string]struct{ Level string }
		}
		Today   stripJSON
		Last24h stripJSON `json:"last_24h"`
	}
	if err := json.Unmarshal(js, &agents); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, js)
	}
	if len(agents) != 1 || !agents[0].Running || agents[0].State.Checks["inactivity"].Level != "warning" || agents[0].Today.SlotMinutes != 30 || len(agents[0].Today.Slots) != 48 {
		t.Fatalf("status --json = %s", js)
	}
	// The last 24 hours end with the present slot.
	if l := agents[0].Last24h.Slots; len(l) != 48 || l[47].Future || (l[47].Mode != "working" && l[47].Worst != "warning") {
		t.Fatalf("status --json's last_24h does not end with the present: %s", js)
	}
	var worked, warned bool
	for _, s := range agents[0].Today.Slots {
		worked = worked || s.Mode == "working"
		warned = warned || s.Worst == "warning"
	}
	if !worked || !warned {
		t.Fatalf("today's slots show no work or no warning: %s", js)
	}
}
