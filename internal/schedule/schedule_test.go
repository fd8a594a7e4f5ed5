package schedule

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the DST cases must not depend on the machine's zoneinfo

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

func mustLoc(t *testing.T, name string) *time.Location { return testutil.Loc(t, name) }

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func mustPlan(t *testing.T, cfg config.Schedule, loc *time.Location) *Plan {
	t.Helper()
	p, err := New(cfg, loc)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return p
}

func TestNext(t *testing.T) {
	every := func(d time.Duration) config.Schedule { return config.Schedule{Every: config.Duration(d)} }
	crn := func(spec string, extra ...config.ExtraWakeup) config.Schedule {
		return config.Schedule{Cron: spec, Extra: extra}
	}
	x := func(spec, prompt string) config.ExtraWakeup { return config.ExtraWakeup{Cron: spec, Prompt: prompt} }
	tests := []struct {
		name   string
		cfg    config.Schedule
		loc    string
		after  string // RFC 3339
		want   string // RFC 3339 instant; "" = none
		source string
		prompt string
	}{
		{"every 60s", every(time.Minute), "UTC", "2026-05-01T10:00:00.5Z", "2026-05-01T10:01:00.5Z", SourceSchedule, ""},
		{"every 2h across NY spring forward is elapsed time", every(2 * time.Hour), "America/New_York", "2026-03-08T06:30:00Z", "2026-03-08T08:30:00Z", SourceSchedule, ""},
		{"nothing configured", config.Schedule{}, "UTC", "2026-05-01T10:00:00Z", "", "", ""},
		{"cron replaces every", config.Schedule{Every: config.Duration(time.Minute), Cron: "0 * * * *"}, "UTC", "2026-05-01T10:00:00Z", "2026-05-01T11:00:00Z", SourceSchedule, ""},
		{"cron UTC", crn("*/30 * * * *"), "UTC", "2026-05-01T10:05:00Z", "2026-05-01T10:30:00Z", SourceSchedule, ""},
		{"cron UTC just before", crn("*/30 * * * *"), "UTC", "2026-05-01T10:29:59.999Z", "2026-05-01T10:30:00Z", SourceSchedule, ""},
		{"cron UTC at the time is strictly after", crn("*/30 * * * *"), "UTC", "2026-05-01T10:30:00Z", "2026-05-01T11:00:00Z", SourceSchedule, ""},
		{"cron Tokyo 09:00 is 00:00 UTC", crn("0 9 * * *"), "Asia/Tokyo", "2026-04-30T23:59:59Z", "2026-05-01T00:00:00Z", SourceSchedule, ""},
		{"cron Tokyo at 09:00 gives tomorrow", crn("0 9 * * *"), "Asia/Tokyo", "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z", SourceSchedule, ""},
		{"cron NY before spring forward is EST", crn("0 9 * * *"), "America/New_York", "2026-03-07T00:00:00Z", "2026-03-07T14:00:00Z", SourceSchedule, ""},
		{"cron NY on spring forward day is EDT", crn("0 9 * * *"), "America/New_York", "2026-03-07T15:00:00Z", "2026-03-08T13:00:00Z", SourceSchedule, ""},
		{"cron NY time in the skipped hour fires after the jump", crn("30 2 * * *"), "America/New_York", "2026-03-08T05:00:00Z", "2026-03-08T07:30:00Z", SourceSchedule, ""},
		{"cron NY hourly jumps the skipped hour", crn("0 * * * *"), "America/New_York", "2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z", SourceSchedule, ""},
		{"cron NY daily in the repeated hour fires once", crn("30 1 * * *"), "America/New_York", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z", SourceSchedule, ""},
		{"cron NY started inside the repeated hour", crn("30 1 * * *"), "America/New_York", "2026-11-01T06:10:00Z", "2026-11-01T06:30:00Z", SourceSchedule, ""},
		{"cron NY hourly does not repeat 01:00", crn("0 * * * *"), "America/New_York", "2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z", SourceSchedule, ""},
		{"cron Berlin midnight after fall back", crn("0 0 * * *"), "Europe/Berlin", "2026-10-25T12:00:00Z", "2026-10-25T23:00:00Z", SourceSchedule, ""},
		{"@every counts elapsed time", crn("@every 90m"), "America/New_York", "2026-03-08T06:00:00Z", "2026-03-08T07:30:00Z", SourceSchedule, ""},
		{"cron that never fires", crn("0 0 30 2 *"), "UTC", "2026-05-01T10:00:00Z", "", "", ""},
		{"extra before the schedule", crn("0 * * * *", x("30 9 * * *", "report")), "UTC", "2026-05-01T09:10:00Z", "2026-05-01T09:30:00Z", SourceExtra, "report"},
		{"schedule before the extra", crn("0 * * * *", x("30 9 * * *", "report")), "UTC", "2026-05-01T09:40:00Z", "2026-05-01T10:00:00Z", SourceSchedule, ""},
		{"extras only", config.Schedule{Extra: []config.ExtraWakeup{x("0 12 * * 1-5", "lunch"), x("30 9 * * *", "report")}}, "UTC", "2026-05-01T10:00:00Z", "2026-05-01T12:00:00Z", SourceExtra, "lunch"},
		{"extras only, weekend skips lunch", config.Schedule{Extra: []config.ExtraWakeup{x("0 12 * * 1-5", "lunch"), x("30 9 * * *", "report")}}, "UTC", "2026-05-02T10:00:00Z", "2026-05-03T09:30:00Z", SourceExtra, "report"},
		{"extra in Tokyo", config.Schedule{Extra: []config.ExtraWakeup{x("0 9 * * *", "morning")}}, "Asia/Tokyo", "2026-05-01T01:00:00Z", "2026-05-02T00:00:00Z", SourceExtra, "morning"},
		{"tie: cron schedule first", crn("0 * * * *", x("0 12 * * *", "noon")), "UTC", "2026-05-01T11:59:00Z", "2026-05-01T12:00:00Z", SourceSchedule, ""},
		{"tie: every schedule first", config.Schedule{Every: config.Duration(time.Hour), Extra: []config.ExtraWakeup{x("0 12 * * *", "noon")}}, "UTC", "2026-05-01T11:00:00Z", "2026-05-01T12:00:00Z", SourceSchedule, ""},
		{"tie between extras: first listed", config.Schedule{Extra: []config.ExtraWakeup{x("0 12 * * *", "a"), x("0 */6 * * *", "b")}}, "UTC", "2026-05-01T11:00:00Z", "2026-05-01T12:00:00Z", SourceExtra, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := mustLoc(t, tt.loc)
			p := mustPlan(t, tt.cfg, loc)
			after := utc(t, tt.after)
			got, ok := p.Next(after)
			if tt.want == "" {
				if ok {
					t.Errorf("Next(%s) = %+v, want none", tt.after, got)
				}
				return
			}
			want := Wakeup{At: utc(t, tt.want), Source: tt.source, Prompt: tt.prompt}
			if !ok || !got.At.Equal(want.At) || got.Source != want.Source || got.Prompt != want.Prompt {
				t.Errorf("Next(%s) = %s %q %q (%v), want %s %q %q", tt.after, got.At.UTC().Format(time.RFC3339Nano), got.Source, got.Prompt, ok,
					tt.want, want.Source, want.Prompt)
			}
			if ok && got.At.Location() != loc {
				t.Errorf("Next(%s).At is in %s, want %s", tt.after, got.At.Location(), loc)
			}
		})
	}
}

// TestDailyCronOnDSTDays checks that a daily spec fires exactly once on each
// day around the DST changes, whatever its time of day.
func TestDailyCronOnDSTDays(t *testing.T) {
	tests := []struct {
		loc, spec  string
		start, end string // local dates, inclusive
	}{
		{"America/New_York", "30 2 * * *", "2026-03-07", "2026-03-10"},
		{"America/New_York", "30 1 * * *", "2026-10-31", "2026-11-03"},
		{"America/New_York", "0 0 * * *", "2026-03-07", "2026-03-10"},
		{"Europe/Berlin", "30 2 * * *", "2026-03-28", "2026-03-31"},
		{"Europe/Berlin", "30 2 * * *", "2026-10-24", "2026-10-27"},
		{"Asia/Tokyo", "0 9 * * *", "2026-03-07", "2026-03-10"},
	}
	for _, tt := range tests {
		t.Run(tt.loc+" "+tt.spec+" from "+tt.start, func(t *testing.T) {
			loc := mustLoc(t, tt.loc)
			p := mustPlan(t, config.Schedule{Cron: tt.spec}, loc)
			start, _ := time.ParseInLocation("2006-01-02", tt.start, loc)
			end, _ := time.ParseInLocation("2006-01-02", tt.end, loc)
			perDay := map[string]int{}
			at := start.Add(-time.Nanosecond)
			for {
				w, ok := p.Next(at)
				if !ok {
					t.Fatalf("Next(%s) = none", at)
				}
				if !w.At.After(at) {
					t.Fatalf("Next(%s) = %s, not after", at, w.At)
				}
				if !w.At.Before(end.AddDate(0, 0, 1)) {
					break
				}
				perDay[w.At.In(loc).Format("2006-01-02")]++
				at = w.At
			}
			for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
				if n := perDay[d.Format("2006-01-02")]; n != 1 {
					t.Errorf("%s fired %d times on %s, want once (all: %v)", tt.spec, n, d.Format("2006-01-02"), perDay)
				}
			}
		})
	}
}

func TestNextFrom(t *testing.T) {
	x := func(spec, prompt string) config.ExtraWakeup { return config.ExtraWakeup{Cron: spec, Prompt: prompt} }
	minutely := config.Schedule{Every: config.Duration(time.Minute)}
	hourlyAndReport := config.Schedule{Cron: "0 * * * *", Extra: []config.ExtraWakeup{x("30 9 * * *", "report")}}
	tests := []struct {
		name      string
		cfg       config.Schedule
		last, now string
		want      string
		source    string
		prompt    string
	}{
		{"still ahead: same as Next", minutely, "2026-05-01T10:00:00Z", "2026-05-01T10:00:30Z", "2026-05-01T10:01:00Z", SourceSchedule, ""},
		{"just ahead", minutely, "2026-05-01T10:00:00Z", "2026-05-01T10:00:59.999Z", "2026-05-01T10:01:00Z", SourceSchedule, ""},
		{"due exactly now is skipped", minutely, "2026-05-01T10:00:00Z", "2026-05-01T10:01:00Z", "2026-05-01T10:02:00Z", SourceSchedule, ""},
		{"slow delivery: keeps the phase", minutely, "2026-05-01T10:00:00Z", "2026-05-01T10:02:30Z", "2026-05-01T10:03:00Z", SourceSchedule, ""},
		{"asleep 8h in every mode", minutely, "2026-05-01T10:00:00Z", "2026-05-01T18:00:00.25Z", "2026-05-01T18:01:00Z", SourceSchedule, ""},
		{"asleep 2 days: next hourly", hourlyAndReport, "2026-05-01T08:00:00Z", "2026-05-03T09:10:00Z", "2026-05-03T09:30:00Z", SourceExtra, "report"},
		{"asleep 2 days: missed report not replayed", hourlyAndReport, "2026-05-01T08:00:00Z", "2026-05-03T09:45:00Z", "2026-05-03T10:00:00Z", SourceSchedule, ""},
		{"asleep 2 years, per-minute cron", config.Schedule{Cron: "* * * * *"}, "2024-05-01T08:00:00Z", "2026-05-03T09:45:30Z", "2026-05-03T09:46:00Z", SourceSchedule, ""},
		{"clock stepped back", minutely, "2026-05-01T10:00:00Z", "2026-05-01T09:00:00Z", "2026-05-01T10:01:00Z", SourceSchedule, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPlan(t, tt.cfg, time.UTC)
			last, now := utc(t, tt.last), utc(t, tt.now)
			got, ok := p.NextFrom(last, now)
			if !ok || !got.At.Equal(utc(t, tt.want)) || got.Source != tt.source || got.Prompt != tt.prompt {
				t.Errorf("NextFrom(%s, %s) = %s %q %q (%v), want %s %q %q", tt.last, tt.now,
					got.At.Format(time.RFC3339Nano), got.Source, got.Prompt, ok, tt.want, tt.source, tt.prompt)
			}
			if got.At.Before(now) {
				t.Errorf("NextFrom(%s, %s) = %s, before now", tt.last, tt.now, got.At)
			}
		})
	}
	t.Run("nothing configured", func(t *testing.T) {
		p := mustPlan(t, config.Schedule{}, time.UTC)
		if w, ok := p.NextFrom(utc(t, "2026-05-01T10:00:00Z"), utc(t, "2026-05-02T10:00:00Z")); ok {
			t.Errorf("NextFrom = %+v, want none", w)
		}
	})
}

// TestNoBurstAfterSleep simulates the daemon's loop (wait for w.At, fire,
// w = NextFrom(w.At, now)) with the machine asleep for 10 hours while a
// wakeup is pending: that wakeup fires late, once, and the rhythm resumes.
func TestNoBurstAfterSleep(t *testing.T) {
	p := mustPlan(t, config.Schedule{Cron: "*/5 * * * *"}, time.UTC)
	now := utc(t, "2026-05-01T10:00:00Z")
	w, _ := p.Next(now)
	var fired []time.Time
	for len(fired) < 6 {
		if w.At.After(now) {
			now = w.At // sleep until due
			if len(fired) == 2 {
				now = now.Add(10 * time.Hour) // the machine slept
			}
		}
		fired = append(fired, now)
		w, _ = p.NextFrom(w.At, now)
	}
	want := []string{"10:05", "10:10", "20:15", "20:20", "20:25", "20:30"}
	for i, at := range fired {
		if got := at.Format("15:04"); got != want[i] {
			t.Errorf("fire %d at %s, want %s (all: %v)", i, got, want[i], fired)
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  config.Schedule
		want string
	}{
		{"TZ= prefix", config.Schedule{Cron: "TZ=Asia/Tokyo 0 9 * * *"}, "schedule.cron"},
		{"CRON_TZ= prefix", config.Schedule{Cron: "CRON_TZ=UTC 0 9 * * *"}, "TZ= prefix"},
		{"TZ= prefix in an extra", config.Schedule{Extra: []config.ExtraWakeup{{Cron: "0 9 * * *", Prompt: "a"}, {Cron: "TZ=UTC 0 9 * * *", Prompt: "b"}}}, "schedule.extra[1].cron"},
		{"six fields", config.Schedule{Cron: "0 0 9 * * *"}, "schedule.cron"},
		{"garbage", config.Schedule{Cron: "every day"}, "schedule.cron"},
		{"negative every", config.Schedule{Every: config.Duration(-time.Second)}, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg, time.UTC)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(%+v) = %v, %v; want an error containing %q", tt.cfg, p, err, tt.want)
			}
		})
	}
}
