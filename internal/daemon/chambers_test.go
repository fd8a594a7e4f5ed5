package daemon

import (
	"github.com/ai-heart/ai-heart/internal/lang"

	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// recorder is a deliverer that keeps every prompt it was given.
type recorder struct {
	method string
	mu     sync.Mutex
	got    []string
}

func (r *recorder) factory(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
	return &fakeDeliverer{method: r.method, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
		r.mu.Lock()
		r.got = append(r.got, p)
		r.mu.Unlock()
		return delivery.Result{Reply: "ok"}, nil
	}}, nil
}

func (r *recorder) prompts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// writeLog writes an activity log named and dated now. Its mtime is set
// before it takes its name, so under fake time no scan sees a real-clock
// mtime on it.
func writeLog(t *testing.T, ws *workspace.Workspace, typ workspace.ActivityType) {
	t.Helper()
	now := time.Now()
	id := workspace.NewID(now)
	theme := workspace.Theme{StartID: "20000101000000", Part: "t"}
	dir := ws.Path(theme.HistoriesDir())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".writing")
	if err := os.WriteFile(tmp, workspace.ActivityLog{Type: typ, Content: []string{"x"}}.Format(id, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, string(id)+".md")); err != nil {
		t.Fatal(err)
	}
}

func TestIdleChamber(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: "You have been idle. Explore."}
		rec := &recorder{method: config.DeliveryExec}
		startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)

		time.Sleep(550 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("woken %d times before idle.after", n)
		}
		time.Sleep(100 * time.Millisecond) // the idle tick at 600ms
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("woken %d times at idle.after, want the idle wakeup", n)
		}
		if p := rec.prompts()[0]; !strings.HasPrefix(p, "Heartbeat: ") || !strings.Contains(p, "You have been idle. Explore.") {
			t.Fatalf("idle prompt = %q", p)
		}
		// While idle, a new themebox file wakes the agent within a pulse or
		// two, named in the prompt; no second plain idle prompt meanwhile.
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if err := ws.WriteFile("themebox/next-theme.md", []byte("# Paint the sea\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(250 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("woken %d times after a themebox file while idle, want 2", n)
		}
		if p := rec.prompts()[1]; !strings.Contains(p, "themebox/next-theme.md") {
			t.Fatalf("themebox wakeup = %q, want the file named", p)
		}
		// Activity ends idleness: the next idle wakeup comes idle.after later.
		writeLog(t, ws, workspace.Thinking)
		time.Sleep(550 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("woken %d times within idle.after of activity, want 2", n)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 3 {
			t.Fatalf("woken %d times idle.after past the activity, want 3", n)
		}
	})
}

func TestDailyCapDropsAndAlertsOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(40 * time.Millisecond)
		cfg.DailyCap = 3
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(330 * time.Millisecond) // 8 wakeups due
		synctest.Wait()
		h.stop()
		if n := len(rec.prompts()); n != 3 {
			t.Fatalf("delivered %d wakeups with a cap of 3", n)
		}
		var capAlerts int
		for _, a := range alertsOf(t, h.alerts) {
			if a["check"] == "daily_cap" {
				capAlerts++
			}
		}
		if capAlerts != 1 {
			t.Fatalf("daily_cap alerts = %d, want exactly 1 per day", capAlerts)
		}
		st := h.state()
		if st.DailyCap.Used != 3 || st.DailyCap.Limit != 3 || st.Counters.Dropped != 5 {
			t.Fatalf("state daily cap = %+v, dropped %d; want 3 of 3 used and 5 dropped", st.DailyCap, st.Counters.Dropped)
		}
	})
}

// TestTmuxWakeupStaysInFlightUntilALog: no heartbeat is pushed into a busy
// pane; the next goes out after the agent writes an activity log.
func TestTmuxWakeupStaysInFlightUntilALog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(50 * time.Millisecond)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(650 * time.Millisecond) // 13 wakeups due
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d heartbeats pushed into a busy pane, want 1", n)
		}
		if s := h.state(); s.Counters.Coalesced < 10 {
			t.Fatalf("coalesced = %d, want the wakeups due while in flight counted", s.Counters.Coalesced)
		}
		writeLog(t, ws, workspace.Thinking)
		time.Sleep(200 * time.Millisecond) // the next pulse sees the log; the next wakeup goes out
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("%d heartbeats after the agent's log, want 2", n)
		}
	})
}

// TestDailyCapCountsRecovery: the cap is hard. A tmux agent that never
// answers its wakeup with a log spends the cap of 2 on the scheduled wakeup
// and the first recovery; then recovery waits for the cap, saying so, and
// invokes nothing.
func TestDailyCapCountsRecovery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.DailyCap = 2
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(7 * time.Second)
		synctest.Wait()
		h.stop()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("agent invoked %d times with a cap of 2: %q", n, rec.prompts())
		}
		var asleep int
		for _, a := range alertsOf(t, h.alerts) {
			if msg, _ := a["message"].(string); a["check"] == "recovery" && a["level"] == "warning" && strings.Contains(msg, "recovery waits") && strings.Contains(msg, "daily cap") {
				asleep++
			}
		}
		if asleep == 0 {
			t.Fatal("no recovery alert saying the cap keeps the agent asleep: recovery must still alert when the cap is spent")
		}
		if st := h.state(); st.DailyCap.Used != 2 || st.DailyCap.Limit != 2 || st.Recovery.Attempt == 0 {
			t.Fatalf("cap %+v, recovery %+v; want 2 of 2 used and recovery attempted", st.DailyCap, st.Recovery)
		}
	})
}

// TestUrgentFeedbackIsDelivered: an interrupt. feedback file loses its prefix
// and is handed to the agent in a prompt of its own, counted by the cap, in
// the agent's language; the state file carries the language for mcp-heart.
func TestUrgentFeedbackIsDelivered(t *testing.T) {
	for _, tt := range []struct {
		lang lang.Lang
		want string
	}{
		{lang.English, "Urgent feedback: feedbackbox/stop-the-loop.md"},
		{lang.Japanese, "緊急のフィードバック：feedbackbox/stop-the-loop.md"},
	} {
		t.Run(string(tt.lang), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				cfg.DailyCap = 5
				cfg.Language = tt.lang
				rec := &recorder{method: config.DeliveryTmux}
				h := startFake(t, cfg, rec.factory)
				ws, _ := workspace.New(cfg.Workspace, nil)
				time.Sleep(150 * time.Millisecond)
				if err := ws.WriteFile("feedbackbox/interrupt.stop-the-loop.md", []byte("Stop the loop.\n")); err != nil {
					t.Fatal(err)
				}
				time.Sleep(200 * time.Millisecond)
				synctest.Wait()
				p := rec.prompts()
				if len(p) != 1 || !strings.Contains(p[0], tt.want) {
					t.Fatalf("prompts = %q, want one naming the urgent item: %q", p, tt.want)
				}
				if strings.Contains(p[0], "] feedback: ") {
					t.Fatalf("prompt = %q: a second procedure (the feedback notice) for the urgent file", p[0])
				}
				if _, err := os.Stat(ws.Path("feedbackbox/stop-the-loop.md")); err != nil {
					t.Fatalf("the item lost its interrupt. prefix? %v", err)
				}
				if st := h.state(); st.DailyCap.Used != 1 || st.Language != tt.lang {
					t.Fatalf("cap used = %d, language %q; want the urgent wakeup counted and language %q", st.DailyCap.Used, st.Language, tt.lang)
				}
			})
		})
	}
}

// Declared deep work is work: no idle wakeup comes while it is in force
// ("nothing has happened for a while" and its log would end it early);
// once it is over, the idle chamber wakes the agent again.
func TestNoIdleWakeupDuringDeepWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Thresholds.MaxStrictDeepWork = config.Duration(time.Hour)
		cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: "You have been idle. Explore."}
		rec := &recorder{method: config.DeliveryExec}
		startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		now := time.Now()
		id := workspace.NewID(now)
		d := workspace.Declaration{ID: id, Mode: workspace.Strict, Activity: "a long build", DeclaredAt: now, PlannedMinutes: 1, Deadline: now.Add(time.Minute)}
		if err := ws.WriteFile("stats/deep_work/"+string(id)+".txt", d.Format()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("%d idle wakeups during strict deep work: %q", n, rec.prompts())
		}
		time.Sleep(3 * time.Second) // the deadline passes; idle.after counts from the last activity
		synctest.Wait()
		if n := len(rec.prompts()); n == 0 {
			t.Fatal("no idle wakeup once the deep work was over")
		}
	})
}
