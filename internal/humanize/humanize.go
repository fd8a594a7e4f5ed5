// Package humanize writes durations the way every text the agent and the
// operator read spells them: to the second, without zero units ("6m",
// "6m30s", "2h1s", "0s"). One formatter, so a notice and a tool reply never
// disagree ("6m" in one, "6m0s" in the other).
package humanize

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration rounds d to the second and writes its non-zero hours, minutes
// and seconds; a negative duration gets a leading "-". Under a second (the
// scaled-down durations of tests and demos) it keeps Go's spelling to the
// millisecond, "200ms" (never "610.932446ms").
func Duration(d time.Duration) string {
	if d < 0 {
		return "-" + Duration(neg(d))
	}
	if d > 0 && d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return units(d, [3]string{"h", "m", "s"})
}

// units rounds d (at least half a second) to the second and writes its
// non-zero hours, minutes and seconds with the names given; 0 is "0" and
// the seconds' name.
func units(d time.Duration, names [3]string) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s == 0 {
		return "0" + names[2]
	}
	var b strings.Builder
	for i, secs := range []int64{3600, 60, 1} {
		if n := s / secs; n > 0 {
			b.WriteString(strconv.FormatInt(n, 10))
			b.WriteString(names[i])
			s -= n * secs
		}
	}
	return b.String()
}

// neg is -d for a negative d; -math.MinInt64 is itself, so that one (an age
// saturated by an ID centuries away) is taken as the largest duration.
func neg(d time.Duration) time.Duration {
	if d == math.MinInt64 {
		return math.MaxInt64
	}
	return -d
}
