package budget

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

var (
	t0  = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	bcf = config.CircuitBreaker{
		Failures:    3,
		Cooldown:    config.Duration(15 * time.Minute),
		MaxCooldown: config.Duration(time.Hour),
	}
)

func openBreaker(t *testing.T, ws stateDir, cfg config.CircuitBreaker) *Breaker {
	t.Helper()
	b, err := OpenBreaker(string(ws), cfg)
	if err != nil {
		t.Fatalf("OpenBreaker: %v", err)
	}
	return b
}

func TestBreakerThreshold(t *testing.T) {
	tests := []struct {
		name        string
		failures    int
		wantState   string
		wantChanged bool // on the last Record
	}{
		{"one failure", 1, Closed, false},
		{"one under the threshold", 2, Closed, false},
		{"at the threshold", 3, Open, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := openBreaker(t, newWS(t), bcf)
			var changed bool
			for i := range tt.failures {
				var err error
				if changed, err = b.Record(t0.Add(time.Duration(i)*time.Second), false); err != nil {
					t.Fatal(err)
				}
			}
			st := b.State(t0)
			if st.State != tt.wantState || st.Failures != tt.failures || changed != tt.wantChanged {
				t.Errorf("after %d failures: State %q failures %d changed %v; want %q %d %v",
					tt.failures, st.State, st.Failures, changed, tt.wantState, tt.failures, tt.wantChanged)
			}
			if ok, _ := b.Allow(t0.Add(3 * time.Second)); ok != (tt.wantState == Closed) {
				t.Errorf("Allow = %v, want %v", ok, tt.wantState == Closed)
			}
		})
	}
}

func TestBreakerSuccessResetsFailures(t *testing.T) {
	b := openBreaker(t, newWS(t), bcf)
	b.Record(t0, false)
	b.Record(t0, false)
	if changed, _ := b.Record(t0, true); changed {
		t.Error("success while closed: changed = true, want false")
	}
	b.Record(t0, false)
	b.Record(t0, false)
	if st := b.State(t0); st.State != Closed || st.Failures != 2 {
		t.Errorf("2 failures after a success: State %q failures %d, want closed 2 (not consecutive)", st.State, st.Failures)
	}
}

// TestBreakerLifecycle walks one breaker through opening, skipping, probing,
// backing off up to the cap and closing. Each step is at t0 plus its offset.
func TestBreakerLifecycle(t *testing.T) {
	const m = time.Minute
	type step struct {
		name  string
		at    time.Duration
		op    string // "allow", "fail", "ok"
		ok    bool   // allow: want ok
		probe bool   // allow: want probe
		chg   bool   // fail/ok: want changed
		state string
		cd    time.Duration // want Cooldown
	}
	steps := []step{
		{"failure 1", 0, "fail", false, false, false, Closed, 0},
		{"failure 2", 0, "fail", false, false, false, Closed, 0},
		{"failure 3 opens", 0, "fail", false, false, true, Open, 15 * m},
		{"open skips", 1 * m, "allow", false, false, false, Open, 15 * m},
		{"just before the cooldown ends", 15*m - time.Nanosecond, "allow", false, false, false, Open, 15 * m},
		{"at the cooldown's end: the probe", 15 * m, "allow", true, true, false, HalfOpen, 15 * m},
		{"no second probe while one is out", 15*m + time.Second, "allow", false, false, false, HalfOpen, 15 * m},
		{"failed probe doubles the cooldown", 16 * m, "fail", false, false, true, Open, 30 * m},
		{"still open just before 30m", 46*m - time.Nanosecond, "allow", false, false, false, Open, 30 * m},
		{"second probe", 46 * m, "allow", true, true, false, HalfOpen, 30 * m},
		{"failed probe doubles to the cap", 46 * m, "fail", false, false, true, Open, 60 * m},
		{"third probe", 106 * m, "allow", true, true, false, HalfOpen, 60 * m},
		{"failed probe stays at the cap", 106 * m, "fail", false, false, true, Open, 60 * m},
		{"fourth probe", 166 * m, "allow", true, true, false, HalfOpen, 60 * m},
		{"successful probe closes", 167 * m, "ok", false, false, true, Closed, 0},
		{"closed lets everything through", 167 * m, "allow", true, false, false, Closed, 0},
		{"and again", 167 * m, "allow", true, false, false, Closed, 0},
	}
	b := openBreaker(t, newWS(t), bcf)
	for _, s := range steps {
		now := t0.Add(s.at)
		switch s.op {
		case "allow":
			ok, probe := b.Allow(now)
			if ok != s.ok || probe != s.probe {
				t.Errorf("%s: Allow(+%s) = %v, %v; want %v, %v", s.name, s.at, ok, probe, s.ok, s.probe)
			}
		default:
			changed, err := b.Record(now, s.op == "ok")
			if err != nil {
				t.Fatalf("%s: Record: %v", s.name, err)
			}
			if changed != s.chg {
				t.Errorf("%s: Record(+%s, %s) changed = %v, want %v", s.name, s.at, s.op, changed, s.chg)
			}
		}
		st := b.State(now)
		if st.State != s.state || st.Cooldown != s.cd {
			t.Errorf("%s: State(+%s) = %q cooldown %s, want %q %s", s.name, s.at, st.State, st.Cooldown, s.state, s.cd)
		}
	}
	if st := b.State(t0.Add(167 * time.Minute)); st.Failures != 0 || st.Skipped != 0 || !st.OpenUntil.IsZero() {
		t.Errorf("closed State = %+v, want failures, skips and open_until reset", st)
	}
}

func TestBreakerCountsSkips(t *testing.T) {
	b := openBreaker(t, newWS(t), bcf)
	for range 3 {
		b.Record(t0, false)
	}
	for i := range 4 {
		b.Allow(t0.Add(time.Duration(i) * time.Minute))
	}
	st := b.State(t0.Add(5 * time.Minute))
	if st.Skipped != 4 || st.CooldownLeft != 10*time.Minute || !st.OpenUntil.Equal(t0.Add(15*time.Minute)) {
		t.Errorf("State = %+v, want 4 skipped, 10m left, open until %s", st, t0.Add(15*time.Minute))
	}
}

func TestBreakerSurvivesRestart(t *testing.T) {
	ws := newWS(t)
	b := openBreaker(t, ws, bcf)
	for range 3 {
		b.Record(t0, false)
	}
	b.Allow(t0.Add(time.Minute))
	b.Record(t0.Add(time.Minute), false) // a late failure while open: counted, persisted

	b = openBreaker(t, ws, bcf) // restart
	st := b.State(t0.Add(2 * time.Minute))
	if st.State != Open || st.Failures != 4 || st.Skipped != 1 || st.Cooldown != 15*time.Minute || !st.OpenUntil.Equal(t0.Add(15*time.Minute)) {
		t.Fatalf("reopened State = %+v, want open, 4 failures, 1 skipped, 15m until %s", st, t0.Add(15*time.Minute))
	}
	if ok, _ := b.Allow(t0.Add(14 * time.Minute)); ok {
		t.Error("Allow before the cooldown's end after restart = ok, want skipped")
	}
	if ok, probe := b.Allow(t0.Add(15 * time.Minute)); !ok || !probe {
		t.Fatalf("Allow at the cooldown's end = %v, %v; want a probe", ok, probe)
	}

	b = openBreaker(t, ws, bcf) // restart with the probe out: it is forgotten
	if ok, probe := b.Allow(t0.Add(20 * time.Minute)); !ok || !probe {
		t.Fatalf("Allow after a restart with a probe out = %v, %v; want a new probe", ok, probe)
	}
	b.Record(t0.Add(20*time.Minute), false)

	b = openBreaker(t, ws, bcf)
	if st := b.State(t0.Add(20 * time.Minute)); st.State != Open || st.Cooldown != 30*time.Minute {
		t.Errorf("after a failed probe and restart: State %q cooldown %s, want open 30m", st.State, st.Cooldown)
	}

	lower := bcf
	lower.MaxCooldown = bcf.Cooldown
	b = openBreaker(t, ws, lower) // restart with a lower max_cooldown
	if st := b.State(t0.Add(20 * time.Minute)); st.Cooldown != 15*time.Minute || !st.OpenUntil.Equal(t0.Add(35*time.Minute)) {
		t.Errorf("with max_cooldown cut to 15m: cooldown %s until %s, want 15m until %s", st.Cooldown, st.OpenUntil, t0.Add(35*time.Minute))
	}
}

func TestBreakerClockStepsBack(t *testing.T) {
	b := openBreaker(t, newWS(t), bcf)
	for range 3 {
		b.Record(t0, false)
	}
	back := t0.Add(-2 * time.Hour)
	if ok, _ := b.Allow(back); ok {
		t.Fatal("Allow right after opening = ok, want skipped")
	}
	if left := b.State(back).CooldownLeft; left > 15*time.Minute {
		t.Errorf("CooldownLeft after the clock stepped back = %s, want at most the 15m cooldown", left)
	}
	if ok, probe := b.Allow(back.Add(15 * time.Minute)); !ok || !probe {
		t.Errorf("Allow one cooldown after the step back = %v, %v; want a probe", ok, probe)
	}
}

func TestOpenBreakerErrors(t *testing.T) {
	tests := []struct {
		name    string
		cfg     config.CircuitBreaker
		file    string
		corrupt bool // usable breaker and ErrCorrupt
		wantErr string
	}{
		{"zero failures", config.CircuitBreaker{Failures: 0, Cooldown: bcf.Cooldown, MaxCooldown: bcf.MaxCooldown}, "", false, "failures"},
		{"zero cooldown", config.CircuitBreaker{Failures: 3, MaxCooldown: bcf.MaxCooldown}, "", false, "cooldown"},
		{"max below cooldown", config.CircuitBreaker{Failures: 3, Cooldown: bcf.MaxCooldown, MaxCooldown: bcf.Cooldown}, "", false, "max_cooldown"},
		{"not JSON", bcf, "{", true, "corrupt"},
		{"unknown state", bcf, `{"state":"ajar"}`, true, "ajar"},
		{"open without cooldown", bcf, `{"state":"open","failures":3}`, true, "without a cooldown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWS(t)
			if tt.file != "" {
				if err := ws.WriteFile(BreakerFile, []byte(tt.file)); err != nil {
					t.Fatal(err)
				}
			}
			b, err := OpenBreaker(string(ws), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("OpenBreaker = %v, want an error containing %q", err, tt.wantErr)
			}
			if tt.corrupt != errors.Is(err, statefile.ErrCorrupt) || tt.corrupt != (b != nil) {
				t.Fatalf("OpenBreaker = %v, %v; want usable and ErrCorrupt: %v", b, err, tt.corrupt)
			}
			if tt.corrupt {
				if ok, _ := b.Allow(t0); !ok {
					t.Error("Allow on a fresh breaker = false, want closed")
				}
			}
		})
	}
}

func TestBreakerStateJSON(t *testing.T) {
	in := BreakerState{State: Open, Failures: 3, Cooldown: 15 * time.Minute, OpenUntil: t0, CooldownLeft: 90 * time.Second, Skipped: 2}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"cooldown":"15m0s"`, `"cooldown_left":"1m30s"`, `"state":"open"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("json.Marshal = %s, want it to contain %s", b, want)
		}
	}
	var out BreakerState
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("round trip = %+v, want %+v", out, in)
	}
	b, _ = json.Marshal(BreakerState{State: Closed})
	if strings.Contains(string(b), "open_until") {
		t.Errorf("closed state JSON %s carries open_until, want it left out", b)
	}
}

// TestBreakerWritesOnlyChanges pins that Record persists only a changed state:
// a success while closed with no failures writes nothing, a failure does, and
// so does the success that resets it.
func TestBreakerWritesOnlyChanges(t *testing.T) {
	ws := newWS(t)
	b := openBreaker(t, ws, bcf)
	exists := func() bool {
		_, err := os.Stat(ws.Path(BreakerFile))
		return err == nil
	}
	if _, err := b.Record(t0, true); err != nil || exists() {
		t.Fatalf("Record(success) while closed: err %v, file written %v; want no write", err, exists())
	}
	b.Record(t0, false)
	if st := openBreaker(t, ws, bcf).State(t0); st.Failures != 1 {
		t.Fatalf("after a failure, reopened Failures = %d, want 1", st.Failures)
	}
	b.Record(t0, true)
	if st := openBreaker(t, ws, bcf).State(t0); st.Failures != 0 {
		t.Fatalf("after a success, reopened Failures = %d, want 0", st.Failures)
	}
	if err := os.Remove(ws.Path(BreakerFile)); err != nil {
		t.Fatal(err)
	}
	b.Record(t0, true)
	if exists() {
		t.Error("second Record(success) while closed wrote the file, want no write")
	}
	if err := ws.WriteFile(BreakerFile, []byte("{")); err != nil {
		t.Fatal(err)
	}
	b, err := OpenBreaker(string(ws), bcf)
	if !errors.Is(err, statefile.ErrCorrupt) {
		t.Fatalf("OpenBreaker(corrupt) = %v, want ErrCorrupt", err)
	}
	b.Record(t0, true)
	if _, err := OpenBreaker(string(ws), bcf); err != nil {
		t.Errorf("reopen after Record(success) on a corrupt file: %v, want the file repaired", err)
	}
}
