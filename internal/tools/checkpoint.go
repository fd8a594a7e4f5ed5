package tools

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// maxCheckpointLen bounds a checkpoint message: it is a one-line proof, not
// a report (that is what activity logs are for).
const maxCheckpointLen = 500

type checkpointInput struct {
	CurrentActivity string `json:"current_activity" jsonschema:"What you are working on right now, one short line (up to %d characters). Newlines are replaced by spaces."`
}

func (in *checkpointInput) validate(c *checker) {
	c.oneLine(&in.CurrentActivity, 1, maxCheckpointLen, sayf("one short line (up to %d characters) saying what you are working on right now", maxCheckpointLen))
	c.says(&in.CurrentActivity, maxCheckpointLen)
}

var checkpointTool = define(toolnames.Checkpoint, "Checkpoint", writes, (*Tools).Checkpoint,
	"Record a one-line note that you are still consciously working on something long, cheaper than an activity log; it counts as proof of activity for the watchdog. "+
		"Call it at natural breaks in your work; there is no need to watch the clock. It is progress, not the end of a cycle: an activity log still closes the cycle. "+
		"The reply gives elapsed times and the watchdog's current notices, if any.")

// CheckpointResult is the reply of checkpoint.
type CheckpointResult struct {
	HeartbeatID                    string   `json:"heartbeat_id"`                                // the heartbeat ID the checkpoint is filed under, for reference: the tools read IDs themselves, never pass or reuse one
	Path                           string   `json:"path"`                                        // the checkpoint file, stats/checkpoints/<ID>.txt
	Message                        string   `json:"message"`                                     // the line recorded, as written
	SinceLastLogSeconds            *int64   `json:"since_last_log_seconds,omitempty"`            // seconds since the latest activity log (the cycle so far)
	SincePreviousCheckpointSeconds *int64   `json:"since_previous_checkpoint_seconds,omitempty"` // seconds since the checkpoint before this one
	PreviousCheckpointMessage      string   `json:"previous_checkpoint_message,omitempty"`       // what the checkpoint before this one said
	DeepWorkActive                 bool     `json:"deep_work_active"`                            // whether a deep-work declaration is in force
	Notes                          []string `json:"-"`                                           // in the reply's text, which leads the structure: not said twice
	WatchdogNotices                []string `json:"-"`                                           // in the reply's text, which leads the structure: not said twice
	NoticesAgeSeconds              *int64   `json:"notices_age_seconds,omitempty"`               // how old the pulse the notices come from is
}

func (r *CheckpointResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *CheckpointResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Checkpoint recorded in %s: %q.\n"), r.Path, r.Message)
	fmt.Fprintf(&b, tr(l, "Time since latest activity log: %s.\n"), humanSec(l, r.SinceLastLogSeconds, tr(l, "no log yet")))
	if r.SincePreviousCheckpointSeconds != nil {
		fmt.Fprintf(&b, tr(l, "Previous checkpoint %s ago: %q.\n"), humanSec(l, r.SincePreviousCheckpointSeconds, ""), r.PreviousCheckpointMessage)
	} else {
		b.WriteString(tr(l, "This is the first checkpoint.\n"))
	}
	for _, n := range r.Notes {
		b.WriteString(n + "\n")
	}
	writeNotices(&b, l, r.WatchdogNotices, r.NoticesAgeSeconds)
	return strings.TrimRight(b.String(), "\n")
}

// Checkpoint appends "HH:MM:SS <current_activity>" to the current ID's
// checkpoint file: a cheap proof that the agent is still consciously at work.
func (t *Tools) Checkpoint(in checkpointInput) (*CheckpointResult, error) {
	msg := in.CurrentActivity
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	latest, err := t.WS.LoadLatest()
	if err != nil {
		return nil, err
	}
	now := t.now()
	// Judged before the checkpoint counts: the cycle it lands in.
	sd := t.standing(now, latest)
	cycle := sd.cycle(now, latest.Log)
	p, err := t.WS.AddCheckpoint(id, now, msg)
	if err != nil && p.Path == "" {
		return nil, err
	}
	res := &CheckpointResult{HeartbeatID: string(id), Path: p.Path, Message: p.Message, Notes: []string{}}
	_, res.WatchdogNotices, res.NoticesAgeSeconds = sd.notices(now, slices.Concat(answered("", false), sd.answeredSincePulse(latest), t.taken())...)
	res.WatchdogNotices = t.once(now, latest, res.WatchdogNotices)
	if err != nil {
		res.Notes = append(res.Notes, t.trf("Warning: the checkpoint was written but the latest-proof index could not be updated (%s).", osReason(err).in(t.Lang)))
	}
	res.SinceLastLogSeconds = since(now, latest.Log)
	if latest.Checkpoint != nil {
		res.SincePreviousCheckpointSeconds = since(now, latest.Checkpoint)
		res.PreviousCheckpointMessage = latest.Checkpoint.Message
	}
	active, err := t.activeDeclarations()
	if err != nil {
		return nil, err
	}
	for _, d := range active {
		if inForce(d, now) {
			res.DeepWorkActive = true
		}
	}
	warn := t.limits().InactivityWarning.D()
	if !res.DeepWorkActive && !sd.recovering() && cycle != nil && time.Duration(*cycle)*time.Second >= warn &&
		!t.cycleTold(cycle, res.SincePreviousCheckpointSeconds) {
		res.Notes = append(res.Notes, t.trf("This cycle has run %s. If this work will take a while longer, you can declare it with start_deep_work (flexible: until your next log, with checkpoints at natural breaks; strict: a planned duration with inactivity, introspection and stale_id paused). Otherwise, close it with an activity log at the next natural break.", humanSec(t.Lang, cycle, "")))
	}
	return res, nil
}
