package humanize

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{200 * time.Millisecond, "200ms"},
		{610932446 * time.Nanosecond, "611ms"},
		{1499 * time.Millisecond, "1s"},
		{1500 * time.Millisecond, "2s"},
		{6 * time.Minute, "6m"},
		{6*time.Minute + 30*time.Second, "6m30s"},
		{2*time.Hour + time.Second, "2h1s"},
		{time.Hour, "1h"},
		{26*time.Hour + 3*time.Minute, "26h3m"},
		{-90 * time.Second, "-1m30s"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestDurationAtTheEnds: an age saturated by an ID centuries away reaches
// the ends of time.Duration; -math.MinInt64 is itself, and Duration once
// recursed on it until the stack overflowed, ending the watchdog.
func TestDurationAtTheEnds(t *testing.T) {
	for _, d := range []time.Duration{math.MinInt64, math.MinInt64 + 1, math.MaxInt64} {
		en, ja := Duration(d), DurationIn(lang.Japanese, d)
		if !strings.HasSuffix(en, "s") || !strings.HasSuffix(ja, "日") {
			t.Errorf("%d: %q / %q", int64(d), en, ja)
		}
		if (d < 0) != strings.HasPrefix(en, "-") {
			t.Errorf("%d: sign lost in %q", int64(d), en)
		}
	}
}
