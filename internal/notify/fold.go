package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// Change is one alert as a notification sees it: a check entering a level.
type Change struct {
	Time    time.Time
	Level   checks.Level
	Check   string
	Message string
}

// line is one check's part of a message; folded counts the changes held back
// by min_interval and reported together in it.
type line struct {
	Change
	folded int
	since  time.Time
}

func (l line) String() string {
	s := fmt.Sprintf("%s %s: %s", strings.ToUpper(l.Level.String()), l.Check, l.Message)
	if l.folded > 1 {
		s += fmt.Sprintf(" (%d changes folded in since %s)", l.folded, l.since.Format("15:04:05"))
	}
	return s
}

// checkState is what one target last told its reader about one check.
type checkState struct {
	sent   checks.Level // the level the reader knows
	sentAt time.Time    // zero: never sent
	held   *line        // changes waiting for min_interval to pass
}

// folder decides which changes go to one target, and when. It is pure: the
// caller passes the changes and the time, and owns the locking.
type folder struct {
	minLevel    checks.Level
	minInterval time.Duration
	state       map[[2]string]*checkState // agent, check
}

func newFolder(minLevel checks.Level, minInterval time.Duration) *folder {
	return &folder{minLevel: minLevel, minInterval: minInterval, state: map[[2]string]*checkState{}}
}

// flush takes one agent's changes since its last flush and returns the lines
// to send now, oldest first. A change matters to the target when it enters a
// level at or above min_level, or leaves one (back to ok included). A change
// above the level the reader last heard goes out at once: an escalation is
// never held. Any other change within min_interval of the check's last
// message is held, and further changes fold into it until the interval has
// passed, so a flapping check costs one message per interval.
func (f *folder) flush(agent string, changes []Change, now time.Time) []line {
	var out []line
	for _, c := range changes {
		k := [2]string{agent, c.Check}
		cs := f.state[k]
		if cs == nil {
			cs = &checkState{}
			f.state[k] = cs
		}
		switch {
		case c.Level > cs.sent && c.Level >= f.minLevel:
			l := line{Change: c}
			if cs.held != nil {
				l.folded, l.since, cs.held = cs.held.folded+1, cs.held.since, nil
			}
			out = append(out, l)
			cs.sent, cs.sentAt = c.Level, now
		case cs.held != nil:
			cs.held.Change = c
			cs.held.folded++
		case c.Level < f.minLevel && cs.sent < f.minLevel:
		case !cs.sentAt.IsZero() && now.Sub(cs.sentAt) < f.minInterval:
			cs.held = &line{Change: c, folded: 1, since: c.Time}
		default:
			out = append(out, line{Change: c})
			cs.sent, cs.sentAt = c.Level, now
		}
	}
	for k, cs := range f.state {
		if k[0] != agent || cs.held == nil || now.Sub(cs.sentAt) < f.minInterval {
			continue
		}
		out = append(out, *cs.held)
		cs.sent, cs.sentAt, cs.held = cs.held.Level, now, nil
	}
	return out
}

// compose turns one flush's lines into a message for a person: the title
// names the agent and the worst level, in words (never colour alone).
func compose(agent string, lines []line) (title, body string) {
	worst := checks.OK
	var b strings.Builder
	for i, l := range lines {
		worst = max(worst, l.Level)
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.String())
	}
	state := strings.ToUpper(worst.String())
	if worst == checks.OK {
		state = "back to OK"
	}
	// Messages quote agent-written names; a notification shown in a
	// terminal or a plain-text client must not act on their escapes.
	return termsafe.Line(fmt.Sprintf("ai-heart: %s %s", agent, state)), termsafe.Text(b.String())
}
