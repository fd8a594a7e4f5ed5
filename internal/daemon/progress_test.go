package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// An agent that answers every wakeup and changes nothing is caught by its
// work: no_progress warns after progress.after answers, errs at twice as
// many, starts no recovery; an agent whose answers write its work never
// trips it, nor do ghost replies count against one.
func TestNoProgressFromAnswersAlone(t *testing.T) {
	for _, c := range []struct {
		name   string
		reply  string
		write  bool
		strict bool     // in strict deep work until past the last wakeup
		want   []string // the check's level after each of 6 answered wakeups
	}{
		{"in strict deep work", "Still heads-down.", false, true, []string{"ok", "ok", "ok", "ok", "ok", "ok"}},
		{"answers only", "Done: I reviewed the plan and everything is on track.", false, false, []string{"ok", "ok", "warning", "warning", "warning", "error"}},
		{"writes its work", "Done.", true, false, []string{"ok", "ok", "ok", "ok", "ok", "ok"}},
		{"ghost replies", "[IDLE]", false, false, []string{"ok", "ok", "ok", "ok", "ok", "ok"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				cfg.Schedule.Every = config.Duration(time.Minute)
				cfg.Thresholds.InactivityWarning = config.Duration(time.Hour) // the answers write no log
				cfg.Thresholds.InactivityError = config.Duration(2 * time.Hour)
				cfg.Progress.After = 3
				var runs atomic.Int32 // the deliverer's goroutine counts, the test reads
				nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
					return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
						n := runs.Add(1)
						if c.write {
							f := filepath.Join(cfg.Workspace, "projects", fmt.Sprintf("step%d.md", n))
							os.MkdirAll(filepath.Dir(f), 0o755)
							os.WriteFile(f, []byte("work"), 0o644)
						}
						return delivery.Result{Reply: c.reply, Said: c.reply}, nil
					}}, nil
				}
				cfg.Thresholds.MaxStrictDeepWork = config.Duration(time.Hour)
				h := startFake(t, cfg, nd)
				if c.strict {
					ws, _ := workspace.New(cfg.Workspace, nil)
					now := time.Now()
					id := workspace.NewID(now)
					d := workspace.Declaration{ID: id, Mode: workspace.Strict, Activity: "a long build", DeclaredAt: now, PlannedMinutes: 30, Deadline: now.Add(30 * time.Minute)}
					if err := ws.WriteFile("stats/deep_work/"+string(id)+".txt", d.Format()); err != nil {
						t.Fatal(err)
					}
				}
				var got []string
				time.Sleep(30 * time.Second) // between wakeups: each answer and the pulse after it are in
				for i := range c.want {
					time.Sleep(time.Minute)
					synctest.Wait()
					st := h.state()
					got = append(got, st.Checks["no_progress"].Level)
					if n := runs.Load(); st.Progress == nil || int(n) < i+1 {
						t.Fatalf("after wakeup %d: progress %+v, %d runs", i+1, st.Progress, n)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Fatalf("no_progress levels %v, want %v", got, c.want)
				}
				st := h.state()
				if st.Recovery.Active {
					t.Fatalf("recovery %+v: no_progress must start none", st.Recovery)
				}
				if c.write && (len(st.Progress.Recent) == 0 || st.Progress.Recent[len(st.Progress.Recent)-1].Files != 1) {
					t.Fatalf("recent work %+v: want one file a wakeup", st.Progress.Recent)
				}
			})
		})
	}
}
