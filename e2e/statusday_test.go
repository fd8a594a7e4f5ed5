package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// status --brief: one line per agent with its state in a word and the last
// 24 hours' strip; a stopped watchdog is NOT RUNNING and the exit is 1.
func TestE2EStatusBrief(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	body := "pulse: {interval: 200ms}\nschedule: {every: 0s}\nagents:\n"
	for _, a := range []string{"luna", "sol"} {
		dir := filepath.Join(root, a)
		if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", dir).CombinedOutput(); err != nil {
			t.Fatalf("init: %v\n%s", err, out)
		}
		body += "  - {name: " + a + ", workspace: " + dir + "}\n"
	}
	cfg := filepath.Join(root, "watchdog.yaml")
	writeConfig(t, cfg, body)
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "pause", "-c", cfg, "--agent", "sol", "--for", "1h").CombinedOutput(); err != nil {
		t.Fatalf("pause: %v\n%s", err, out)
	}
	run := testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg))
	brief := func() (map[string]string, int) {
		cmd := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg, "--brief")
		out, _ := cmd.CombinedOutput()
		lines := map[string]string{}
		for _, l := range strings.Split(string(out), "\n") {
			if f := strings.Fields(l); len(f) > 1 {
				lines[f[0]] = l
			}
		}
		return lines, cmd.ProcessState.ExitCode()
	}
	var lines map[string]string
	waitUntil(t, "both agents running", 10*time.Second, func() bool {
		var code int
		lines, code = brief()
		return code == 0 && strings.Contains(lines["sol"], " paused until ")
	})
	for _, a := range []string{"luna", "sol"} {
		_, strip, ok := strings.Cut(lines[a], "|")
		strip, _, _ = strings.Cut(strip, "|")
		if !ok || len([]rune(strip)) != 48 {
			t.Errorf("%s's line has no 48-character strip: %q", a, lines[a])
		}
	}
	if !strings.Contains(lines["luna"], " working ") || !strings.Contains(lines["AGENT"], "LAST 24H") || !strings.HasPrefix(lines["last"], "last 24h: █ working") {
		t.Errorf("status --brief:\n%v", lines)
	}
	run.Signal(syscall.SIGTERM)
	run.Wait()
	lines, code := brief()
	if code != 1 || !strings.Contains(lines["luna"], "NOT RUNNING") {
		t.Errorf("after the watchdog stopped: exit %d, luna %q", code, lines["luna"])
	}
}
