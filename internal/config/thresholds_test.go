package config

import (
	"strings"
	"testing"
	"time"
)

func TestIntrospectionLevels(t *testing.T) {
	th := Thresholds{Introspection: Duration(30 * time.Minute)}
	info, warning, err := th.IntrospectionLevels()
	if info != 15*time.Minute || warning != 20*time.Minute || err != 30*time.Minute {
		t.Errorf("IntrospectionLevels(30m) = %v, %v, %v, want 15m0s, 20m0s, 30m0s", info, warning, err)
	}
}

func TestThresholdsValidate(t *testing.T) {
	ok := Defaults().Thresholds
	tests := []struct {
		name   string
		change func(*Thresholds)
		want   string // "" for valid
	}{
		{"defaults", func(*Thresholds) {}, ""},
		{"error just over warning", func(t *Thresholds) { t.InactivityError = t.InactivityWarning + 1 }, ""},
		{"error equals warning", func(t *Thresholds) { t.InactivityError = t.InactivityWarning }, "thresholds.inactivity_error: must be longer than inactivity_warning (5m0s)"},
		{"zero warning", func(t *Thresholds) { t.InactivityWarning = 0 }, "thresholds.inactivity_warning: must be positive"},
		{"zero introspection", func(t *Thresholds) { t.Introspection = 0 }, "thresholds.introspection: must be positive"},
		{"strict deep work 1m", func(t *Thresholds) { t.MaxStrictDeepWork = Duration(time.Minute) }, ""},
		{"strict deep work just under 1m", func(t *Thresholds) { t.MaxStrictDeepWork = Duration(time.Minute - 1) }, "thresholds.max_strict_deep_work: must be at least 1m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th := ok
			tc.change(&th)
			err := th.Validate()
			if (err == nil) != (tc.want == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.want)) {
				t.Errorf("Validate(%+v) = %v, want %q", th, err, tc.want)
			}
		})
	}
}

func TestLoadLocation(t *testing.T) {
	for _, name := range []string{"", "Local"} {
		if loc, err := LoadLocation(name); err != nil || loc != time.Local {
			t.Errorf("LoadLocation(%q) = %v, %v, want Local", name, loc, err)
		}
	}
	if loc, err := LoadLocation("Asia/Tokyo"); err != nil || loc.String() != "Asia/Tokyo" {
		t.Errorf("LoadLocation(Asia/Tokyo) = %v, %v", loc, err)
	}
	if _, err := LoadLocation("Mars/Olympus"); err == nil || !strings.HasPrefix(err.Error(), `timezone: "Mars/Olympus" is not a known time zone`) {
		t.Errorf("LoadLocation(Mars/Olympus) = %v, want a timezone error", err)
	}
}
