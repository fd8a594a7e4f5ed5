package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
)

// The standing introspection notice is said in full once per level and
// stretch; later checkpoint and log replies carry a one-line reminder, and
// the status always gives it in full. A new level, or a new stretch (an
// introspection log since), says it in full again. In both languages.
func TestTheIntrospectionNoticeIsSaidOnceThenMarked(t *testing.T) {
	const (
		warn = "[warning] introspection: You have not reflected for 21m of working time (introspection is due every 30m). Make your next activity log an introspection (create_activity_log with activity_type introspection)."
		errN = "[error] introspection: You have not reflected for 31m of working time (introspection is due every 30m). Introspect now, in this cycle: look back on your recent activity and record it with create_activity_log with activity_type introspection."
	)
	for _, tc := range []struct {
		l      lang.Lang
		marker string
	}{{lang.English, "Still stands"}, {lang.Japanese, "まだ続いています"}} {
		t.Run(string(tc.l), func(t *testing.T) {
			e := newEnv(t)
			e.tl.Lang = tc.l
			checkpoint := func() []string {
				t.Helper()
				r, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"reading"}`))
				if err != nil {
					t.Fatal(err)
				}
				e.clk.Advance(time.Second)
				return r.WatchdogNotices
			}
			log := func() []string {
				t.Helper()
				r, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
				if err != nil {
					t.Fatal(err)
				}
				e.clk.Advance(time.Second)
				return r.WatchdogNotices
			}
			full := func(what string, got []string, want string) {
				t.Helper()
				if len(got) != 1 || got[0] != want {
					t.Errorf("%s: notices %q, want %q in full", what, got, want)
				}
			}
			marked := func(what string, got []string, level string) {
				t.Helper()
				if len(got) != 1 || !strings.HasPrefix(got[0], "["+level+"] introspection: ") || !strings.Contains(got[0], tc.marker) || len(got[0]) > 100 {
					t.Errorf("%s: notices %q, want a short %s reminder", what, got, level)
				}
			}
			e.writeStateWith(t, state.State{PulseAt: e.now().Add(-time.Second), Notices: []string{warn}})
			full("first checkpoint", checkpoint(), warn)
			second := checkpoint()
			marked("second checkpoint", second, "warning")
			if len(second) == 1 {
				t.Logf("%s: the notice in full %d bytes, its reminder %d", tc.l, len(warn), len(second[0]))
			}
			marked("a log after it", log(), "warning")
			st, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			full("the status", st.PendingNotices, warn)

			e.writeStateWith(t, state.State{PulseAt: e.now().Add(-time.Second), Notices: []string{errN}})
			full("the error's first checkpoint", checkpoint(), errN)
			marked("the error's second checkpoint", checkpoint(), "error")

			// An introspection log starts a new stretch.
			if _, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"introspection"`, 1))); err != nil {
				t.Fatal(err)
			}
			// The watchdog's next pulse, after the log (written at the
			// real time).
			e.clk.Set(time.Now().Add(time.Minute))
			e.writeStateWith(t, state.State{PulseAt: e.now().Add(-time.Second), Notices: []string{errN}})
			full("a new stretch's first checkpoint", checkpoint(), errN)
		})
	}
}
