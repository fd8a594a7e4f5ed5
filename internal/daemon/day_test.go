package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The daemon marks the day as it goes: the agent's modes (working after
// a tmux wakeup, until answered), every wakeup's fate and every alert.
func TestDayMarks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws := cfg.AgentConfigs()[0].StateDir()
		time.Sleep(5 * time.Second) // a wakeup, coalesced ones, an inactivity warning (2s)
		synctest.Wait()
		h.stop()
		marks, err := day.Read(ws, time.Now().In(cfg.Location()).Format(time.DateOnly))
		if err != nil {
			t.Fatal(err)
		}
		var modes []string
		kinds := map[string]int{}
		for _, m := range marks {
			kinds[m.Kind+":"+m.Outcome+m.Check]++
			if m.Kind == day.KindMode {
				modes = append(modes, m.Mode)
			}
		}
		if len(modes) < 2 || modes[0] != day.Waiting || modes[1] != day.Working {
			t.Errorf("modes %v: want waiting, then working from the wakeup", modes)
		}
		if kinds["wakeup:delivered"] != 1 || kinds["wakeup:coalesced"] < 2 || kinds["alert:inactivity"] < 1 {
			t.Errorf("marks %v: want the delivered wakeup, the coalesced ones, the inactivity alert", kinds)
		}
	})
}

// The time no watchdog ran is marked: a stop ends the last mode, and a
// start after a crash (no stop mark) marks it from the last pulse before.
func TestDayMarksTheWatchdogsAbsence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		dir := cfg.AgentConfigs()[0].StateDir()
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		time.Sleep(3 * time.Second)
		synctest.Wait()
		h.stop()
		// A crash: the stop mark never made it; the state's last pulse stays.
		before := time.Now()
		last := h.state().PulseAt
		if err := os.RemoveAll(filepath.Join(dir, day.Dir)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		h2 := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		h2.stop()
		marks, err := day.Read(dir, before.In(cfg.Location()).Format(time.DateOnly))
		if err != nil {
			t.Fatal(err)
		}
		var modes []string
		for _, m := range marks {
			if m.Kind == day.KindMode {
				modes = append(modes, m.Time.Sub(last).Round(time.Second).String()+" "+m.Mode)
			}
		}
		if len(modes) < 3 || modes[0] != "0s stopped" || !strings.HasPrefix(modes[1], "1h0m") || !strings.HasSuffix(modes[len(modes)-1], " stopped") {
			t.Errorf("modes since the last pulse before the crash: %v; want stopped from it, the agent's mode from the start an hour later, stopped at the end", modes)
		}
	})
}

// The state names the theme from the newest theme record: its name while
// started, ended once the end record is newer.
func TestStateNamesTheTheme(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		ws, _ := workspace.New(cfg.Workspace, nil)
		dir := ws.Path(workspace.ThemeHistoriesDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write := func(name, body string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("20261125163711_start_tides.md", "# Theme start: Why two tides a day?\n\n## Theme\n- name: Why two tides a day?\n")
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		time.Sleep(time.Second)
		synctest.Wait()
		if th := h.state().Theme; th == nil || th.Name != "Why two tides a day?" || th.Dir != "tides" || th.StartID != "20261125163711" || th.Ended {
			t.Fatalf("theme while started: %+v", th)
		}
		write("20261125164457_end_tides.md", "# Theme end: 20261125163711_tides\n") // as end_theme names it
		time.Sleep(time.Second)
		synctest.Wait()
		if th := h.state().Theme; th == nil || !th.Ended || th.Dir != "tides" {
			t.Fatalf("theme after its end: %+v", th)
		}
		h.stop()
	})
}
