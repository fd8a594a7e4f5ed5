package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
)

func TestFolderSendsStateChangesOnly(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	ch := func(at time.Duration, check string, l checks.Level) Change {
		return Change{Time: t0.Add(at), Level: l, Check: check, Message: check + " is " + l.String()}
	}
	f := newFolder(checks.Warning, 5*time.Minute)
	levels := func(ls []line) string {
		var s []string
		for _, l := range ls {
			s = append(s, l.Check+"="+l.Level.String())
		}
		return strings.Join(s, ",")
	}

	// An info below min_level is not sent; a warning and an error in one
	// pulse go out together.
	got := f.flush("a", []Change{ch(0, "introspection", checks.Info)}, t0)
	if len(got) != 0 {
		t.Fatalf("info sent to a warning target: %v", levels(got))
	}
	got = f.flush("a", []Change{ch(time.Minute, "introspection", checks.Warning), ch(time.Minute, "inactivity", checks.Error)}, t0.Add(time.Minute))
	if levels(got) != "introspection=warning,inactivity=error" {
		t.Fatalf("first changes: %v", levels(got))
	}
	// Another agent's checks are its own.
	if got = f.flush("b", []Change{ch(time.Minute, "inactivity", checks.Error)}, t0.Add(time.Minute)); len(got) != 1 {
		t.Fatalf("agent b: %v", levels(got))
	}
	// inactivity flaps within min_interval: held, then folded.
	got = f.flush("a", []Change{ch(2*time.Minute, "inactivity", checks.OK)}, t0.Add(2*time.Minute))
	got = append(got, f.flush("a", []Change{ch(3*time.Minute, "inactivity", checks.Error)}, t0.Add(3*time.Minute))...)
	got = append(got, f.flush("a", []Change{ch(4*time.Minute, "inactivity", checks.OK)}, t0.Add(4*time.Minute))...)
	if len(got) != 0 {
		t.Fatalf("a flapping check was sent within min_interval: %v", levels(got))
	}
	// Once the interval has passed, the next flush carries the last state
	// and the number of changes folded into it.
	got = f.flush("a", nil, t0.Add(6*time.Minute))
	if levels(got) != "inactivity=ok" || got[0].folded != 3 || !strings.Contains(got[0].String(), "3 changes folded in since 09:02:00") {
		t.Fatalf("released: %v %+v", levels(got), got)
	}
	// An escalation is never held: warning to error within the interval
	// goes out at once, with the held change folded in.
	got = f.flush("a", []Change{ch(7*time.Minute, "inactivity", checks.Warning)}, t0.Add(7*time.Minute))
	got = append(got, f.flush("a", []Change{ch(8*time.Minute, "inactivity", checks.OK)}, t0.Add(8*time.Minute))...)
	if levels(got) != "inactivity=warning" {
		t.Fatalf("warning after ok: %v", levels(got))
	}
	got = f.flush("a", []Change{ch(9*time.Minute, "inactivity", checks.Error)}, t0.Add(9*time.Minute))
	if levels(got) != "inactivity=error" || got[0].folded != 2 {
		t.Fatalf("escalation: %v %+v", levels(got), got)
	}
	// Back to ok from a sent warning is news; a later info is not.
	got = f.flush("a", []Change{ch(7*time.Minute, "introspection", checks.OK)}, t0.Add(7*time.Minute))
	if levels(got) != "introspection=ok" {
		t.Fatalf("back to ok: %v", levels(got))
	}
	if got = f.flush("a", []Change{ch(20*time.Minute, "introspection", checks.Info)}, t0.Add(20*time.Minute)); len(got) != 0 {
		t.Fatalf("info after ok: %v", levels(got))
	}
}

func TestComposeNamesTheWorstLevelInWords(t *testing.T) {
	title, body := compose("ada", []line{
		{Change: Change{Level: checks.Warning, Check: "introspection", Message: "no introspection for 2h"}},
		{Change: Change{Level: checks.Error, Check: "inactivity", Message: "no activity for 12m"}},
	})
	if title != "ai-heart: ada ERROR" || body != "WARNING introspection: no introspection for 2h\nERROR inactivity: no activity for 12m" {
		t.Fatalf("title %q body %q", title, body)
	}
	if title, _ := compose("ada", []line{{Change: Change{Level: checks.OK, Check: "inactivity"}}}); title != "ai-heart: ada back to OK" {
		t.Fatalf("ok title %q", title)
	}
}

// TestComposeEscapesControls: an alert quoting an agent-written file name
// with an escape sequence is sent escaped, for plain-text clients and
// terminals.
func TestComposeEscapesControls(t *testing.T) {
	_, body := compose("ada", []line{{Change: Change{Level: checks.Error, Check: "log_loop", Message: "rewritten: histories/\x1b[2Jx.md"}}})
	if strings.Contains(body, "\x1b") || !strings.Contains(body, `histories/\x1b[2Jx.md`) {
		t.Fatalf("body %q: want the escape shown escaped", body)
	}
}
