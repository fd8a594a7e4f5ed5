package selfwake

import (
	"fmt"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
)

var cfg = Config{Margin: 5 * time.Minute, MaxHold: 2 * time.Hour}

// stop is a turn's end at 12:00:30 UTC.
var stop = time.Date(2026, 12, 8, 12, 0, 30, 0, time.UTC)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		crons []string
		next  time.Time
		bad   int
	}{
		{"none", nil, time.Time{}, 0},
		{"a wakeup at 12:37 (ScheduleWakeup's one-shot)", []string{"37 12 8 12 *"}, time.Date(2026, 12, 8, 12, 37, 0, 0, time.UTC), 0},
		{"the earliest of several", []string{"0 9 * * *", "*/10 * * * *", "45 12 * * *"}, time.Date(2026, 12, 8, 12, 10, 0, 0, time.UTC), 0},
		{"one that never fires", []string{"0 0 30 2 *"}, time.Time{}, 0},
		{"descriptor", []string{"@every 1s"}, time.Time{}, 1},
		{"a time zone prefix", []string{"TZ=Asia/Tokyo 0 9 * * *", "CRON_TZ=x 0 9 * * *"}, time.Time{}, 2},
		{"seconds field", []string{"0 0 9 * * *"}, time.Time{}, 1},
		{"out of range", []string{"99 99 * * *", "* * * * 9"}, time.Time{}, 2},
		{"junk beside a good one", []string{"rm -rf /", "5 13 * * *"}, time.Date(2026, 12, 8, 13, 5, 0, 0, time.UTC), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var crons []hook.Cron
			for i, s := range tc.crons {
				crons = append(crons, hook.Cron{ID: fmt.Sprint(i), Schedule: s})
			}
			p := Read(stop, 0, crons, time.UTC)
			if !p.Next.Equal(tc.next) || p.Bad != tc.bad {
				t.Fatalf("Read(%q) = next %v, bad %d; want %v, %d", tc.crons, p.Next, p.Bad, tc.next, tc.bad)
			}
		})
	}
	if p := Read(stop, -5, nil, time.UTC); p.Any() {
		t.Errorf("Read with -5 tasks = %+v: want parked on nothing", p)
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	if p := Read(stop, 0, []hook.Cron{{Schedule: "0 22 * * *"}}, tokyo); !p.Next.Equal(time.Date(2026, 12, 8, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("22:00 in Tokyo = %v, want 13:00 UTC", p.Next)
	}
}

func TestJudge(t *testing.T) {
	wake := Read(stop, 0, []hook.Cron{{ID: "w", Schedule: "37 12 8 12 *"}}, time.UTC) // due 12:37
	yearly := Read(stop, 0, []hook.Cron{{ID: "y", Schedule: "0 0 1 1 *"}}, time.UTC)
	late := Read(stop, 0, []hook.Cron{{ID: "l", Schedule: "0 14 * * *"}}, time.UTC) // 14:00 + 5m is past 14:00:30
	busy := Read(stop, 3, nil, time.UTC)
	both := Read(stop, 1, []hook.Cron{{ID: "w", Schedule: "37 12 8 12 *"}}, time.UTC)
	at := func(h, m, s int) time.Time { return time.Date(2026, 12, 8, h, m, s, 0, time.UTC) }
	for _, tc := range []struct {
		name string
		p    Parked
		now  time.Time
		want Verdict
	}{
		{"parked on nothing", Parked{At: stop}, at(15, 0, 0), Verdict{}},
		{"before the cron", wake, at(12, 20, 0), Verdict{Hold: true}},
		{"at the cron, within the margin", wake, at(12, 41, 59), Verdict{Hold: true}},
		{"just before the margin ends", wake, at(12, 41, 59).Add(time.Second - time.Nanosecond), Verdict{Hold: true}},
		{"the margin over: missed", wake, at(12, 42, 0), Verdict{Missed: true}},
		{"a cron a year off holds for MaxHold", yearly, at(14, 0, 29), Verdict{Hold: true}},
		{"and no longer", yearly, at(14, 0, 30), Verdict{Capped: true}},
		{"a cron whose margin passes MaxHold", late, at(14, 0, 30), Verdict{Capped: true}},
		{"background work holds for MaxHold", busy, at(14, 0, 29), Verdict{Hold: true}},
		{"and no longer", busy, at(14, 0, 30), Verdict{Capped: true}},
		{"background work and a missed cron", both, at(12, 42, 0), Verdict{Missed: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Judge(tc.p, tc.now, cfg); got != tc.want {
				t.Fatalf("Judge(%+v, %v) = %+v, want %+v", tc.p, tc.now.Format(time.TimeOnly), got, tc.want)
			}
		})
	}
}
