package humanize

import (
	"strconv"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// DurationIn writes d in language l: Duration's "1m54s" in English, and in
// Japanese the units a Japanese reader writes, without spaces: 「21秒」
// 「1分54秒」「1時間」, and past two days about how many days (「約389日」).
func DurationIn(l lang.Lang, d time.Duration) string {
	if l != lang.Japanese {
		return Duration(d)
	}
	if d < 0 {
		return "-" + DurationIn(l, neg(d))
	}
	if d > 0 && d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ミリ秒"
	}
	if d > 48*time.Hour {
		// 「9345時間45分19秒」 is read by no one: past two days, about
		// how many days.
		days := d / (24 * time.Hour)
		if d%(24*time.Hour) >= 12*time.Hour {
			days++
		}
		return "約" + strconv.FormatInt(int64(days), 10) + "日"
	}
	return units(d, [3]string{"時間", "分", "秒"})
}

// Span is a duration handed to a text that is put into the agent's language
// later (a catalogue's F, a tool's deferred words): printed with %s it is
// Duration's English, and lang.Catalogue.F renders it with In.
type Span time.Duration

// String is the English spelling, so English texts stay as they were.
func (s Span) String() string { return Duration(time.Duration(s)) }

// In is the spelling in language l.
func (s Span) In(l lang.Lang) string { return DurationIn(l, time.Duration(s)) }

// At is a time of day handed to a text that is put into the agent's language
// later: English keeps the layout the text always had (EN, "15:04:05 MST"),
// Japanese has one local form, 15:04:05, with no zone or date beside it.
type At struct {
	T  time.Time
	EN string
}

// String is the English spelling.
func (a At) String() string { return a.T.Format(a.EN) }

// In is the spelling in language l.
func (a At) In(l lang.Lang) string {
	if l == lang.Japanese {
		return a.T.Format("15:04:05")
	}
	return a.String()
}
