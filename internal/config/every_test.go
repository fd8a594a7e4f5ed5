package config

import (
	"strings"
	"testing"
)

// A schedule shorter than a second (1ns made 624 exec runs in 4 s) is
// refused, saying the least it takes; a test's fast pulse allows wakeups as
// fast as itself.
func TestScheduleEveryHasAFloor(t *testing.T) {
	for _, tt := range []struct {
		yml, want string // want: "" = accepted, else in the error
	}{
		{"schedule: {every: 1ns}", "schedule.every: must be 0 (off) or at least 1s, got 1ns"},
		{"schedule: {every: 999ms}", "at least 1s"},
		{"schedule: {every: 1s}", ""},
		{"schedule: {every: 0s}", ""},
		{"pulse: {interval: 100ms}\nschedule: {every: 100ms}", ""},
		{"pulse: {interval: 100ms}\nschedule: {every: 50ms}", "at least 100ms, got 50ms"},
		{"pulse: {interval: 5m}", ""}, // the default every (60s) with a long pulse
		{"agents:\n  - {name: a, workspace: /w/a, schedule: {every: 10ms}}", "agents[0].schedule.every"},
	} {
		_, err := Parse([]byte("workspace: /w\n" + tt.yml + "\n"))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v, want it accepted", tt.yml, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: %v, want an error saying %q", tt.yml, err, tt.want)
		}
	}
}
