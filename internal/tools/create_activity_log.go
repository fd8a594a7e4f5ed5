package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type createActivityLogInput struct {
	ActivityType    string   `json:"activity_type" jsonschema:"What kind of activity this cycle was."`
	ActivityContent []string `json:"activity_content" jsonschema:"What you did in this cycle, one item per point. Each item is written as one bullet line."`
	Artifacts       []string `json:"artifacts,omitempty" jsonschema:"Optional: files you created or changed, as paths relative to the workspace (e.g. artifacts/20250101120000_ai_research/notes.md). Each must exist inside the workspace."`
	Evaluation      string   `json:"evaluation,omitempty" jsonschema:"Optional: your self-evaluation of this cycle, free text (several lines allowed)."`
	themeInput
	parentInput

	typ   workspace.ActivityType // ActivityType as parsed
	theme workspace.Theme        // the theme the log goes to
}

func (in *createActivityLogInput) validate(c *checker) {
	if c.enum(&in.ActivityType, activityTypeOffer(c.t), typeHint) {
		typ, ok := workspace.ParseActivityType(in.ActivityType)
		if !ok || strings.ContainsAny(in.ActivityType, " \t(（:：") {
			c.report(&in.ActivityType, sayf("%q is not an activity type", clip(in.ActivityType, 40)), typeHint)
		}
		in.typ = typ
	}
	c.list(&in.ActivityContent, sayf("what you did in this cycle, one item per point"))
	c.artifacts(&in.Artifacts)
	c.text(&in.Evaluation, sayf("your assessment of this cycle"))
	in.theme = c.theme(&in.themeInput, &in.parentInput)
}

var logTool = define(toolnames.CreateActivityLog, "Create activity log", writes, (*Tools).CreateActivityLog,
	"Write the activity log that closes the current activity cycle, into the theme's histories folder, named by the current heartbeat ID (read from the workspace; never pass it). "+
		"Also completes any active deep-work declaration. Call it at the end of each cycle. The reply gives the file path, the time since the previous log and checkpoint, and advice.")

// CompletedDeepWork is a declaration an activity log ended.
type CompletedDeepWork struct {
	File            string    `json:"file"`             // the declaration's new path, stats/deep_work/<ID>.completed.txt
	Mode            string    `json:"mode"`             // flexible or strict; empty when the declaration could not be read
	Activity        string    `json:"activity"`         // what the declaration said would be done
	DurationSeconds int64     `json:"duration_seconds"` // time from the declaration to this log
	deadline        time.Time // strict only
}

// LogResult is the reply of create_activity_log.
type LogResult struct {
	HeartbeatID                    string              `json:"heartbeat_id"`                                // the heartbeat ID the tool named the log by, for reference: never pass or reuse one
	Path                           string              `json:"path"`                                        // the new activity log, workspace-relative
	ActivityType                   string              `json:"activity_type"`                               // the activity type written
	PreviousLog                    string              `json:"previous_log,omitempty"`                      // the activity log before this one, if any
	SincePreviousLogSeconds        *int64              `json:"since_previous_log_seconds,omitempty"`        // length of this cycle: seconds since the previous activity log
	SincePreviousCheckpointSeconds *int64              `json:"since_previous_checkpoint_seconds,omitempty"` // seconds since the latest checkpoint
	CompletedDeepWork              []CompletedDeepWork `json:"completed_deep_work"`                         // deep-work declarations this log completed
	Stage                          string              `json:"stage"`                                       // empty, notice (this cycle, from the previous log or the wakeup if later, ran past the inactivity warning) or split (past the error: split your work)
	Notes                          []string            `json:"-"`                                           // in the reply's text, which leads the structure: not said twice
	WatchdogNotices                []string            `json:"-"`                                           // in the reply's text, which leads the structure: not said twice
	NoticesAgeSeconds              *int64              `json:"notices_age_seconds,omitempty"`               // how old the pulse the notices come from is
}

func (r *LogResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *LogResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Activity log written: %s (heartbeat ID %s, type %s).\n"), r.Path, r.HeartbeatID, workspace.ActivityType(r.ActivityType).Name(l))
	fmt.Fprintf(&b, tr(l, "Time since previous activity log: %s. Time since latest checkpoint: %s.\n"),
		humanSec(l, r.SincePreviousLogSeconds, tr(l, "none (this is the first log)")), humanSec(l, r.SincePreviousCheckpointSeconds, tr(l, "none yet")))
	for _, c := range r.CompletedDeepWork {
		fmt.Fprintf(&b, tr(l, "Deep work completed: %s (%s, %s): %s.\n"), c.File, orUnknown(l, c.Mode), humanize.DurationIn(l, time.Duration(c.DurationSeconds)*time.Second), orUnknown(l, c.Activity))
	}
	for _, n := range r.Notes {
		b.WriteString(n + "\n")
	}
	writeNotices(&b, l, r.WatchdogNotices, r.NoticesAgeSeconds)
	return strings.TrimRight(b.String(), "\n")
}

func orUnknown(l lang.Lang, s string) string {
	if s == "" {
		return tr(l, "unreadable")
	}
	return s
}

// CreateActivityLog writes the activity log of the current cycle into a
// theme's histories folder under the first free name <ID>.md, <ID>_01.md ..
// <ID>_99.md, and completes every active deep-work declaration.
func (t *Tools) CreateActivityLog(in createActivityLogInput) (*LogResult, error) {
	typ, content, artifacts, eval, theme := in.typ, in.ActivityContent, in.Artifacts, in.Evaluation, in.theme
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	if err := t.checkTheme(theme); err != nil {
		return nil, err
	}
	latest, err := t.WS.LoadLatest()
	if err != nil {
		return nil, err
	}
	// Judged before the log counts: the cycle it closes.
	before := t.now()
	sd := t.standing(before, latest)
	gap := sd.gap(before)

	data := workspace.ActivityLog{Type: typ, Content: content, Artifacts: artifacts, Evaluation: eval}.Format(id, t.Lang)
	rel, mod, err := t.WS.ClaimSequencedTime(theme.HistoriesDir(), id, ".md", data)
	if errors.Is(err, workspace.ErrSequenceFull) {
		return nil, &InputError{
			Problem: sayf("all %d activity log names for heartbeat ID %s are taken in %s (%s.md and _01 to _%02d)", workspace.MaxSequence+1, id, theme.HistoriesDir(), id, workspace.MaxSequence),
			Fix:     sayf("wait for the watchdog's next heartbeat ID (get_heartbeat_elapsed_time shows it), then call again; write fewer, larger logs per cycle"),
		}
	}
	if err != nil {
		return nil, err
	}
	now := t.now()
	res := &LogResult{HeartbeatID: string(id), Path: rel, ActivityType: string(typ), CompletedDeepWork: []CompletedDeepWork{}, Notes: []string{}}
	_, res.WatchdogNotices, res.NoticesAgeSeconds = sd.notices(now, slices.Concat(answered(typ, true), sd.answeredSincePulse(latest), t.taken())...)
	res.WatchdogNotices = t.once(now, latest, res.WatchdogNotices)
	if latest.Log != nil {
		res.PreviousLog = latest.Log.Path
		res.SincePreviousLogSeconds = since(now, latest.Log)
	}
	res.SincePreviousCheckpointSeconds = since(now, latest.Checkpoint)

	proof := workspace.Proof{Path: rel, ID: id, ModTime: mod, Type: typ}
	if err := t.WS.UpdateLatest(func(l *workspace.Latest) { l.NoteLog(proof) }); err != nil {
		t.Log.Error().Err(err).Str("id", string(id)).Msg("update latest-proof index")
		res.Notes = append(res.Notes, t.trf("Warning: the log was written but the latest-proof index could not be updated (%s); the watchdog will pick the log up on its next scan.", osReason(err).in(t.Lang)))
	}

	completed, err := t.completeDeepWork(now)
	if err != nil {
		res.Notes = append(res.Notes, t.trf("Warning: %s", osReason(err).in(t.Lang)))
	}
	// A log after a strict deadline says so, and what comes next in the
	// expiry's order, so the agent hears one order, not two.
	end, strictEnded := strictEndedBefore(now, latest.Log, sd, completed)
	if strictEnded {
		res.Notes = append(res.Notes, t.trf("This log comes after your strict deep work's deadline (%s). Make your next activity log an introspection: why was the planned time too short? Declare again only if the work goes on.", clockOf(end.In(t.WS.Loc))))
	} else if len(completed) > 0 {
		res.Notes = append(res.Notes, t.tr("Deep work has ended with this log. The next activity log must be an introspection (activity_type introspection): look back on the deep work before starting anything new."))
	}
	res.CompletedDeepWork = append(res.CompletedDeepWork, completed...)
	// A recovery log closes a stall that recovery has already named.
	// A declaration made or ended in this cycle has its own note: the cycle
	// note would tell the agent to declare what it declared.
	if stage, note := t.closedNote(gap, len(res.CompletedDeepWork) > 0 || strictEnded); stage != "" && typ != workspace.Recovery {
		res.Stage = stage
		res.Notes = append(res.Notes, note)
	}
	return res, nil
}

// typeHint is the fix for a bad activity_type.
var typeHint = sayf("use one of %s", activityValues{})

// activityValues are the values activity_type accepts, as the agent's
// language lists them: every value in English; in Japanese the Japanese
// values in 「」, as the agent reads a value everywhere else.
type activityValues struct{}

func (activityValues) In(l lang.Lang) string {
	if l != lang.Japanese {
		return strings.Join(activityTypeNames(), ", ")
	}
	return "「" + strings.Join(workspace.JapaneseActivityTypes, "」「") + "」"
}

// activityTypeOffer is what the schema offers for activity_type: the
// values in the agent's language, one language to a tool list. Either
// language's value is accepted (activityTypeNames).
func activityTypeOffer(t *Tools) []string {
	if t != nil && t.Lang == lang.Japanese {
		return slices.Clone(workspace.JapaneseActivityTypes)
	}
	return activityTypeNames()[:len(workspace.ActivityTypes)]
}

// activityTypeNames are the values activity_type accepts: the English ones
// and the old system's Japanese ones.
func activityTypeNames() []string {
	names := make([]string, 0, 2*len(workspace.ActivityTypes))
	for _, t := range workspace.ActivityTypes {
		names = append(names, string(t))
	}
	return append(names, workspace.JapaneseActivityTypes...)
}

// artifacts checks the artifacts list: each path must name an existing
// file or folder inside the workspace. Absolute paths inside the workspace
// are made relative, since agents often copy them from a shell.
func (c *checker) artifacts(f *[]string) {
	if !c.list(f, sayf("workspace-relative paths of files you created or changed, e.g. artifacts/20250101120000_ai_research/notes.md")) {
		return
	}
	ws := c.t.WS
	out := make([]string, 0, len(*f))
	for i, p := range *f {
		field := fmt.Sprintf("%s[%d]", c.of(f).name, i)
		rel := filepath.ToSlash(p)
		if filepath.IsAbs(p) {
			if r, err := filepath.Rel(ws.Root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				rel = filepath.ToSlash(r)
			}
		}
		rel = strings.TrimPrefix(rel, "./")
		if workspace.OneLine(rel) != rel {
			c.bad.add(badField(field, sayf("%q contains a newline or control character", clip(p, 80)), sayf("pass one plain path per item")))
			return
		}
		_, err := ws.Stat(rel)
		if errors.Is(err, workspace.ErrOutside) {
			c.bad.add(badField(field, sayf("%q is not inside the workspace %s", clip(p, 80), ws.Root), sayf("list only files inside the workspace, as paths relative to it (no .., no absolute paths elsewhere, no symlinks pointing out)")))
			return
		}
		if err != nil {
			c.bad.add(badField(field, sayf("%q does not exist in the workspace %s", clip(p, 80), ws.Root), sayf("create the file first, correct the path (relative to the workspace), or leave it out")))
			return
		}
		out = append(out, rel)
	}
	*f = out
}

// completeDeepWork renames every active declaration to <ID>.completed.txt.
// A declaration another process completed meanwhile is skipped.
func (t *Tools) completeDeepWork(now time.Time) ([]CompletedDeepWork, error) {
	active, err := t.activeDeclarations()
	if err != nil {
		return nil, err
	}
	var out []CompletedDeepWork
	var errs []error
	for _, d := range active {
		to := workspace.DeepWorkDir + "/" + workspace.DeepWorkName(d.ID, workspace.Completed)
		if err := t.WS.Rename(d.Rel, to); err != nil {
			if errors.Is(err, os.ErrNotExist) || t.gone(d.Rel) {
				continue // another server completed it meanwhile
			}
			errs = append(errs, fmt.Errorf("complete deep work %s: %w", d.Rel, err))
			continue
		}
		c := CompletedDeepWork{File: to}
		if d.ParseErr == nil && d.ReadErr == nil {
			c.Mode, c.Activity, c.deadline = string(d.Decl.Mode), d.Decl.Activity, d.Decl.Deadline
			c.DurationSeconds = int64(now.Sub(d.Decl.DeclaredAt).Round(time.Second) / time.Second)
		} else if idt, err := t.WS.IDTime(d.ID); err == nil {
			c.DurationSeconds = int64(now.Sub(idt).Round(time.Second) / time.Second)
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// gone reports whether the workspace file rel no longer exists (or leads
// out of the workspace: nothing of the workspace is there, and writing it
// is refused with its own words).
func (t *Tools) gone(rel string) bool {
	_, err := t.WS.Lstat(rel)
	return errors.Is(err, os.ErrNotExist) || errors.Is(err, workspace.ErrOutside)
}

// strictEndedBefore finds a strict deadline this log comes after: one the
// watchdog has expired since the previous log (the state's strict_ended),
// or one this log completed late.
func strictEndedBefore(now time.Time, prev *workspace.Proof, sd standing, completed []CompletedDeepWork) (time.Time, bool) {
	var end time.Time
	if e := sd.st.Work.StrictEnded; sd.live && e != nil && (prev == nil || e.After(prev.ModTime)) && !e.After(now) {
		end = *e
	}
	for _, c := range completed {
		if d := c.deadline; c.Mode == string(workspace.Strict) && d.Before(now) && d.After(end) {
			end = d
		}
	}
	return end, !end.IsZero()
}
