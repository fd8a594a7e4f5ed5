package humanize

import (
	"fmt"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestDurationIn(t *testing.T) {
	for _, tc := range []struct {
		d      time.Duration
		en, ja string
	}{
		{0, "0s", "0秒"},
		{200 * time.Millisecond, "200ms", "200ミリ秒"},
		{21 * time.Second, "21s", "21秒"},
		{time.Minute + 54*time.Second, "1m54s", "1分54秒"},
		{time.Hour, "1h", "1時間"},
		{2*time.Hour + time.Second, "2h1s", "2時間1秒"},
		{-90 * time.Second, "-1m30s", "-1分30秒"},
		// Past two days the hours are hard to read: about how many days.
		{48 * time.Hour, "48h", "48時間"},
		{9345*time.Hour + 45*time.Minute + 19*time.Second, "9345h45m19s", "約389日"},
		{60*time.Hour + 30*time.Minute, "60h30m", "約3日"},
	} {
		if got := DurationIn(lang.English, tc.d); got != tc.en {
			t.Errorf("DurationIn(en, %v) = %q, want %q", tc.d, got, tc.en)
		}
		if got := DurationIn(lang.Japanese, tc.d); got != tc.ja {
			t.Errorf("DurationIn(ja, %v) = %q, want %q", tc.d, got, tc.ja)
		}
	}
}

// A Span and an At keep English texts byte-identical and are put into
// Japanese by a catalogue's F.
func TestSpanAndAtThroughCatalogue(t *testing.T) {
	at := time.Date(2026, 11, 24, 15, 28, 13, 0, time.UTC)
	c := lang.Catalogue{"for %s until %s": "%[2]sまで%[1]s"}
	args := []any{Span(114 * time.Second), At{at, "15:04:05 MST"}}
	if got, want := c.F(lang.English, "for %s until %s", args...), "for 1m54s until 15:28:13 UTC"; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	if got, want := c.F(lang.Japanese, "for %s until %s", args...), "15:28:13まで1分54秒"; got != want {
		t.Errorf("Japanese: %q, want %q", got, want)
	}
	if got := fmt.Sprint(args...); got != "1m54s 15:28:13 UTC" {
		t.Errorf("Sprint = %q", got)
	}
	if _, ok := args[1].(At); !ok {
		t.Error("F changed its caller's arguments")
	}
}
