package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
)

// A retry wait the running client announced holds inactivity off until
// its end, then inactivity counts from that end, with the usual
// thresholds (5m warning, 10m error); a wait already behind the stretch's
// start or proof changes nothing.
func TestInactivityRetryWait(t *testing.T) {
	m := time.Minute
	for _, tc := range []struct {
		name  string
		since time.Duration // the wakeup, ago
		until time.Duration // the wait's end, from now
		want  Level
		says  string
	}{
		{"no wait", 20 * m, 0, Error, ""},
		{"in the wait", 20 * m, 2 * m, OK, "waits to retry"},
		{"the wait just over, a moment ago", 20 * m, -5 * m, OK, "retry wait ended"},
		{"just over 5m after the wait", 20 * m, -5*m - sec, Warning, "retry wait ended"},
		{"just over 10m after the wait", 20 * m, -10*m - sec, Error, "retry wait ended"},
		{"a wait before the wakeup", 3 * m, -5 * m, OK, "wakeup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.Work = Work{Scheduled: true, Working: true, Since: now.Add(-tc.since)}
			if tc.until != 0 {
				c.Work.RetryUntil = now.Add(tc.until)
			}
			res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
			f, _ := res.Finding(Inactivity)
			if f.Level != tc.want || !strings.Contains(f.Message, tc.says) {
				t.Fatalf("Evaluate(%s) = %v %q, want %v saying %q", tc.name, f.Level, f.Message, tc.want, tc.says)
			}
		})
	}
}
