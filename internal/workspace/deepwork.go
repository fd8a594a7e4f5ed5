package workspace

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Mode is a deep-work mode.
type Mode string

// Deep-work modes (docs/design.md section 2).
const (
	// Flexible lasts until the next activity log; checkpoints are still
	// required, introspection checks pause.
	Flexible Mode = "flexible"
	// Strict lasts until its deadline; every check pauses.
	Strict Mode = "strict"
)

// DeepWorkState is what a declaration file's name says about it.
type DeepWorkState string

// Declaration file states: <ID>.txt, <ID>.completed.txt, <ID>.expired.txt,
// <ID>.invalid.txt.
const (
	Active    DeepWorkState = ""
	Completed DeepWorkState = "completed"
	Expired   DeepWorkState = "expired"
	Invalid   DeepWorkState = "invalid"
)

// DeepWorkName is the file name of a declaration in a state.
func DeepWorkName(id ID, s DeepWorkState) string {
	if s == Active {
		return string(id) + ".txt"
	}
	return string(id) + "." + string(s) + ".txt"
}

// ParseDeepWorkName reads a declaration file name back.
func ParseDeepWorkName(name string) (ID, DeepWorkState, bool) {
	id, ok := IDPrefix(name)
	if !ok {
		return "", "", false
	}
	switch name[IDLen:] {
	case ".txt":
		return id, Active, true
	case ".completed.txt":
		return id, Completed, true
	case ".expired.txt":
		return id, Expired, true
	case ".invalid.txt":
		return id, Invalid, true
	}
	return "", "", false
}

// ErrBadDeclaration reports a declaration file that cannot be understood.
var ErrBadDeclaration = errors.New("bad deep-work declaration")

// Declaration is a deep-work declaration. Deadline is zero for flexible.
type Declaration struct {
	ID             ID
	Mode           Mode
	Activity       string
	DeclaredAt     time.Time
	PlannedMinutes int
	Deadline       time.Time
}

// ParseDeclaration reads a declaration named by id. It accepts the keys
// mode/activity/declared_at/planned_minutes/deadline, the legacy keys
// 制限タイプ/活動予定内容/予定時間 (deadline = ID time + minutes), and the old
// current.conf keys ハートビートID/計画処理時間/理由 (strict). Full-width
// colons are accepted.
func ParseDeclaration(id ID, data []byte, loc *time.Location) (Declaration, error) {
	d := Declaration{ID: id}
	idTime, err := id.Time(loc)
	if err != nil {
		return d, fmt.Errorf("%w: %v", ErrBadDeclaration, err)
	}
	var minutes string
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(raw), "-*"))
		key, val, ok := cutKey(line)
		if !ok {
			continue
		}
		switch key {
		case "mode", "制限タイプ":
			switch m := Mode(strings.ToLower(val)); m {
			case Flexible, Strict:
				d.Mode = m
			default:
				return d, fmt.Errorf("%w: mode %q is neither flexible nor strict", ErrBadDeclaration, val)
			}
		case "activity", "活動予定内容", "理由":
			if d.Activity == "" {
				d.Activity = val
			}
		case "declared_at":
			t, err := time.Parse(time.RFC3339, val)
			if err != nil {
				return d, fmt.Errorf("%w: declared_at %q is not RFC 3339", ErrBadDeclaration, val)
			}
			d.DeclaredAt = t
		case "planned_minutes", "予定時間", "計画処理時間":
			minutes = val
		case "deadline":
			t, err := time.Parse(time.RFC3339, val)
			if err != nil {
				return d, fmt.Errorf("%w: deadline %q is not RFC 3339", ErrBadDeclaration, val)
			}
			d.Deadline = t
		case "ハートビートid":
			if _, err := ParseID(val); err != nil {
				return d, fmt.Errorf("%w: %v", ErrBadDeclaration, err)
			}
		}
	}
	if minutes != "" {
		n, err := parseMinutes(minutes)
		if err != nil {
			return d, err
		}
		d.PlannedMinutes = n
	}
	if d.Mode == "" {
		if d.PlannedMinutes == 0 && d.Deadline.IsZero() {
			return d, fmt.Errorf("%w: no mode line (mode: flexible|strict)", ErrBadDeclaration)
		}
		d.Mode = Strict // the old extended_processing declarations were all timed
	}
	if d.DeclaredAt.IsZero() {
		d.DeclaredAt = idTime
	}
	if d.Mode == Strict && d.Deadline.IsZero() {
		if d.PlannedMinutes <= 0 {
			return d, fmt.Errorf("%w: strict declaration without planned_minutes or deadline", ErrBadDeclaration)
		}
		d.Deadline = idTime.Add(time.Duration(d.PlannedMinutes) * time.Minute)
	}
	if d.Mode == Flexible {
		d.Deadline = time.Time{}
	}
	return d, nil
}

// cutKey splits "key: value" (ASCII or full-width colon); keys are lower-cased.
func cutKey(line string) (string, string, bool) {
	i := strings.IndexAny(line, ":：")
	if i <= 0 {
		return "", "", false
	}
	sep := 1
	if strings.HasPrefix(line[i:], "：") {
		sep = len("：")
	}
	return strings.ToLower(strings.TrimSpace(line[:i])), strings.TrimSpace(line[i+sep:]), true
}

// maxMinutes is the most minutes a time.Duration holds; more would overflow
// and put the deadline centuries in the past.
const maxMinutes = int(math.MaxInt64 / int64(time.Minute))

// parseMinutes reads "30", "30分", "30m", "30 min", "30 minutes".
func parseMinutes(s string) (int, error) {
	t := strings.TrimSpace(s)
	for _, suf := range []string{"minutes", "minute", "mins", "min", "m", "分間", "分"} {
		if strings.HasSuffix(t, suf) {
			t = strings.TrimSpace(strings.TrimSuffix(t, suf))
			break
		}
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > maxMinutes {
		return 0, fmt.Errorf("%w: planned time %q is not a positive number of minutes", ErrBadDeclaration, s)
	}
	return n, nil
}

// Format renders the declaration in the current key: value format.
func (d Declaration) Format() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "mode: %s\nactivity: %s\ndeclared_at: %s\n", d.Mode, OneLine(d.Activity), d.DeclaredAt.Format(time.RFC3339))
	if d.Mode == Strict {
		// A declaration given by its deadline alone has no minutes, and
		// "planned_minutes: 0" would not read back.
		if d.PlannedMinutes > 0 {
			fmt.Fprintf(&b, "planned_minutes: %d\n", d.PlannedMinutes)
		}
		fmt.Fprintf(&b, "deadline: %s\n", d.Deadline.Format(time.RFC3339))
	}
	return []byte(b.String())
}
