package tools

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Bounds of activity_description, in characters after newlines are removed.
const (
	minDescLen = 10
	maxDescLen = 200
)

type startDeepWorkInput struct {
	Mode                   string `json:"mode" jsonschema:"flexible or strict, as the tool's description says."`
	ActivityDescription    string `json:"activity_description" jsonschema:"What you will work on, %d to %d characters on one line."`
	PlannedDurationMinutes int    `json:"planned_duration_minutes,omitempty" jsonschema:"Strict mode only, and required there: planned length in whole minutes, 1 to %d. Leave it out for flexible mode."`
}

// modes are the values of mode, matched without regard to case.
var modes = []string{string(workspace.Flexible), string(workspace.Strict)}

func (in *startDeepWorkInput) validate(c *checker) {
	maxMin := int(c.t.Thresholds.MaxStrictDeepWork.D() / time.Minute)
	modeHint := sayf("use flexible (until your next activity log; checkpoints at natural breaks) or strict (a fixed number of minutes; inactivity, introspection and stale_id paused)")
	if c.enum(&in.Mode, modes, modeHint) {
		if m := strings.ToLower(in.Mode); oneOf(m, modes) {
			in.Mode = m
		} else {
			c.report(&in.Mode, sayf("%q is not a mode", clip(in.Mode, 40)), modeHint)
		}
	}
	c.oneLine(&in.ActivityDescription, minDescLen, maxDescLen, sayf("describe the work you will do in %d to %d characters on one line", minDescLen, maxDescLen))
	c.says(&in.ActivityDescription, minDescLen, maxDescLen)
	durHint := sayf("for strict mode pass planned_duration_minutes as a whole number from 1 to %d", maxMin)
	given, inRange := c.whole(&in.PlannedDurationMinutes, 1, maxMin, durHint)
	c.says(&in.PlannedDurationMinutes, maxMin)
	typed := given && c.of(&in.PlannedDurationMinutes).ok
	switch mode := workspace.Mode(in.Mode); {
	case given && !typed:
	case mode == workspace.Flexible && given:
		c.report(&in.PlannedDurationMinutes, sayf("applies to strict mode only"), sayf("leave planned_duration_minutes out for flexible mode, or use mode strict for a fixed number of minutes"))
	case mode == workspace.Strict && !given:
		c.report(&in.PlannedDurationMinutes, sayf("required for strict mode"), durHint)
	case mode == workspace.Strict && given && !inRange:
		c.report(&in.PlannedDurationMinutes, sayf("%d is outside 1..%d minutes", in.PlannedDurationMinutes, maxMin), sayf("%s; for longer work write an activity log and declare again, or use flexible mode", durHint))
	}
}

var deepWorkTool = define(toolnames.StartDeepWork, "Start deep work", writes, (*Tools).StartDeepWork,
	"Declare a period of long, focused work. flexible: lasts until your next activity log; the introspection check pauses; keep writing checkpoints at natural breaks. "+
		"strict: lasts planned_duration_minutes; the inactivity, introspection and stale_id checks pause until the deadline (every other check stays on). "+
		"A new declaration supersedes (expires) an older active one. The activity log that ends deep work records the work; the next activity log after it must be an introspection.")

// DeepWorkResult is the reply of start_deep_work.
type DeepWorkResult struct {
	HeartbeatID    string   `json:"heartbeat_id"`              // the current heartbeat ID the declaration is named by
	Path           string   `json:"path"`                      // the declaration, stats/deep_work/<ID>.txt
	Mode           string   `json:"mode"`                      // flexible or strict
	Activity       string   `json:"activity"`                  // the activity description as recorded
	DeclaredAt     string   `json:"declared_at"`               // RFC 3339 time of the declaration
	PlannedMinutes int      `json:"planned_minutes,omitempty"` // strict only: planned length in minutes
	Deadline       string   `json:"deadline,omitempty"`        // strict only: RFC 3339 time the declaration expires
	Expired        []string `json:"expired"`                   // older active declarations this one superseded, renamed to <ID>.expired.txt
	Rules          string   `json:"-"`                         // in the reply's text, which leads the structure: not said twice
}

func (r *DeepWorkResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *DeepWorkResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Deep work declared (%s) in %s: %s.\n"), r.Mode, r.Path, r.Activity)
	for _, e := range r.Expired {
		fmt.Fprintf(&b, tr(l, "Superseded older declaration: %s.\n"), e)
	}
	b.WriteString(r.Rules)
	return b.String()
}

// StartDeepWork declares deep work for the current heartbeat ID, writing
// stats/deep_work/<ID>.txt, and expires any older active declaration. There
// is one declaration per heartbeat ID.
func (t *Tools) StartDeepWork(in startDeepWorkInput) (*DeepWorkResult, error) {
	mode, desc, minutes := workspace.Mode(in.Mode), in.ActivityDescription, in.PlannedDurationMinutes
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	taken, older, err := t.deepWorkFiles(id)
	if err != nil {
		return nil, err
	}
	if taken != "" {
		// Only an active declaration can still be worked under; a completed,
		// expired or invalid one leaves waiting for the next ID.
		fix := sayf("wait for the watchdog's next heartbeat ID (it mints one every %s; get_heartbeat_elapsed_time shows it) and declare again", t.pulse())
		if _, st, _ := workspace.ParseDeepWorkName(path.Base(taken)); st == workspace.Active {
			fix = sayf("keep working under it, or wait for the watchdog's next heartbeat ID (it mints one every %s; get_heartbeat_elapsed_time shows it) and declare again", t.pulse())
		}
		return nil, &InputError{
			Problem: sayf("a deep-work declaration for the current heartbeat ID %s already exists (%s); there is one per heartbeat ID", id, taken),
			Fix:     fix,
		}
	}
	now := t.now()
	d := workspace.Declaration{ID: id, Mode: mode, Activity: desc, DeclaredAt: now}
	if mode == workspace.Strict {
		d.PlannedMinutes = minutes
		d.Deadline = now.Add(time.Duration(minutes) * time.Minute)
	}
	rel := workspace.DeepWorkDir + "/" + workspace.DeepWorkName(id, workspace.Active)
	if err := t.WS.CreateNew(rel, d.Format(), time.Time{}); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, &InputError{Problem: sayf("another call declared deep work for heartbeat ID %s at the same moment", string(id)), Fix: sayf("keep working under that declaration")}
		}
		return nil, err
	}
	res := &DeepWorkResult{HeartbeatID: string(id), Path: rel, Mode: string(mode), Activity: desc, DeclaredAt: now.Format(time.RFC3339), Expired: []string{}}
	for _, o := range older {
		from := workspace.DeepWorkDir + "/" + workspace.DeepWorkName(o, workspace.Active)
		to := workspace.DeepWorkDir + "/" + workspace.DeepWorkName(o, workspace.Expired)
		if err := t.WS.Rename(from, to); err != nil {
			if !t.gone(from) {
				t.Log.Warn().Err(err).Str("id", string(id)).Msg("expire older declaration")
			}
			continue
		}
		res.Expired = append(res.Expired, to)
	}
	if mode == workspace.Strict {
		res.PlannedMinutes = minutes
		res.Deadline = d.Deadline.Format(time.RFC3339)
		res.Rules = t.trf("Strict deep work until %s (%s): the inactivity, introspection and stale_id checks are paused until then; every other check stays on. Work without interruption. Close the work with an activity log by the deadline (one before it ends the declaration early); if you need longer, write that log and declare again. Heartbeats that arrive meanwhile need no answer of their own: keep working, and the log that closes the work answers them. The activity log after the one that ends the work must be an introspection.", humanize.At{T: d.Deadline, EN: "15:04:05"}, humanize.Span(time.Duration(minutes)*time.Minute))
	} else {
		res.Rules = t.trf("Flexible deep work: it lasts until your next activity log (create_activity_log completes it). The introspection check is paused; the inactivity check is not, so write a checkpoint at natural breaks (%s). The activity log after the one that ends the work must be an introspection.", t.warningComes(now).in(t.Lang))
	}
	return res, nil
}

// warningComes says how the inactivity warning comes, without a deadline
// to beat (GEMINI.md: do not watch the clock): after the threshold without
// a proof, or now, when the count (which declaring does not restart) has
// already passed it.
func (t *Tools) warningComes(now time.Time) say {
	var sd standing
	if latest, err := t.WS.LoadLatest(); err == nil {
		sd = t.standing(now, latest)
	}
	warn := t.limits().InactivityWarning.D()
	if sd.counting() && !sd.stretch.From.Add(warn).After(now) {
		return sayf("the inactivity warning is already due: write one now")
	}
	return sayf("the watchdog warns when %s pass with no proof of activity, and declaring does not restart that count", humanize.Span(warn))
}

// deepWorkFiles lists stats/deep_work once and returns the file already
// named by id in any state (active, completed, expired or invalid), or "",
// and the IDs of the active declarations older than id, oldest first.
func (t *Tools) deepWorkFiles(id workspace.ID) (taken string, older []workspace.ID, err error) {
	ents, err := t.WS.ReadDir(workspace.DeepWorkDir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("list %s: %w", workspace.DeepWorkDir, err)
	}
	for _, e := range ents {
		eid, state, ok := workspace.ParseDeepWorkName(e.Name())
		switch {
		case !ok:
		case eid == id:
			if taken == "" || state == workspace.Active {
				taken = workspace.DeepWorkDir + "/" + e.Name()
			}
		case eid < id && state == workspace.Active && !e.IsDir():
			older = append(older, eid)
		}
	}
	return taken, older, nil // ReadDir sorts by name, so by ID
}
