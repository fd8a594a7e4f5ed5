package daemon

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A paused agent gets no wakeup and no inactivity alert while the pulse goes
// on; on resume the schedule picks up and the pause is not held against it.
func TestPauseStopsWakeupsAndQuietsInactivity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
		ws, _ := workspace.New(cfg.Workspace, nil)
		if err := pause.Set(ws, pause.Pause{Since: time.Now(), Reason: "holiday"}); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(5 * time.Second) // past inactivity_error (4s)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("paused agent woken %d times", n)
		}
		st := h.state()
		if st.Pause == nil || st.Pause.Reason != "holiday" || st.Counters.Paused == 0 || st.Counters.Pulses < 40 {
			t.Fatalf("state while paused: pause %+v, paused wakeups %d, pulses %d", st.Pause, st.Counters.Paused, st.Counters.Pulses)
		}
		if got := st.Counters.BySource["schedule"]["paused"]; got != st.Counters.Paused {
			t.Fatalf("wakeups_by_source schedule/paused = %d, want all %d paused wakeups", got, st.Counters.Paused)
		}
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") || st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("inactivity alerted while paused: %+v", st.Checks["inactivity"])
		}
		if err := pause.Clear(ws); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n == 0 {
			t.Fatal("no wakeup after resume")
		}
		if st := h.state(); st.Counters.BySource["schedule"]["delivered"] == 0 {
			t.Fatalf("no delivered schedule wakeup counted after resume: %v", st.Counters.BySource)
		}
		if st := h.state(); st.Pause != nil || st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("after resume: pause %+v, inactivity %+v (the pause was held against the agent)", st.Pause, st.Checks["inactivity"])
		}
		h.stop()
	})
}

// A pause with an until ends by itself, and its file is removed.
func TestPauseUntilEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
		ws, _ := workspace.New(cfg.Workspace, nil)
		now := time.Now()
		if err := pause.Set(ws, pause.Pause{Since: now, Until: now.Add(time.Second)}); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(900 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("woken %d times before until", n)
		}
		time.Sleep(700 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n == 0 {
			t.Fatal("no wakeup after until passed")
		}
		if p, _ := pause.Read(ws); p != nil {
			t.Fatalf("pause file left after until: %+v", p)
		}
		h.stop()
	})
}
