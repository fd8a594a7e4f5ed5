package tools

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// DeepWorkStatus is the declaration in force.
type DeepWorkStatus struct {
	File             string `json:"file" jsonschema:"the declaration, stats/deep_work/<ID>.txt"`
	Mode             string `json:"mode" jsonschema:"flexible or strict"`
	Activity         string `json:"activity" jsonschema:"what was declared"`
	ElapsedSeconds   int64  `json:"elapsed_seconds" jsonschema:"seconds since the declaration"`
	Deadline         string `json:"deadline,omitempty" jsonschema:"strict only: RFC 3339 deadline"`
	RemainingSeconds *int64 `json:"remaining_seconds,omitempty" jsonschema:"strict only: seconds until the deadline"`
}

// ThresholdStatus is one watchdog threshold and how far away it is.
type ThresholdStatus struct {
	Check            string `json:"check" jsonschema:"the watchdog check: inactivity or introspection"`
	Level            string `json:"level" jsonschema:"the alert level at this threshold: info, warning or error"`
	ThresholdSeconds int64  `json:"threshold_seconds" jsonschema:"the threshold"`
	RemainingSeconds *int64 `json:"remaining_seconds,omitempty" jsonschema:"seconds until it is crossed (0 when already crossed); absent when there is no proof to measure from"`
	Crossed          bool   `json:"crossed" jsonschema:"whether it is crossed now"`
	Paused           bool   `json:"paused" jsonschema:"whether deep work pauses this check now"`
}

var elapsedTool = define[noInput]("get_heartbeat_elapsed_time", "Get heartbeat elapsed time", reads, (*Tools).GetHeartbeatElapsedTime,
	"Read-only status: time since your latest activity log, checkpoint and introspection, deep work in force and time left, "+
		"each watchdog threshold (%s and %s without proof) and whether it is crossed, and the watchdog's current notices. Takes no parameters.",
	"$inactivityWarning", "$inactivityError")

// ElapsedResult is the reply of get_heartbeat_elapsed_time.
type ElapsedResult struct {
	HeartbeatID                string            `json:"heartbeat_id" jsonschema:"the current heartbeat ID"`
	HeartbeatAgeSeconds        *int64            `json:"heartbeat_age_seconds,omitempty" jsonschema:"seconds since the current ID was minted"`
	LastLog                    string            `json:"last_log,omitempty" jsonschema:"the latest activity log"`
	SinceLastLogSeconds        *int64            `json:"since_last_log_seconds,omitempty" jsonschema:"seconds since the latest activity log: the cycle so far"`
	LastCheckpointMessage      string            `json:"last_checkpoint_message,omitempty" jsonschema:"what the latest checkpoint said"`
	SinceLastCheckpointSeconds *int64            `json:"since_last_checkpoint_seconds,omitempty" jsonschema:"seconds since the latest checkpoint"`
	SinceLastIntrospectionSecs *int64            `json:"since_last_introspection_seconds,omitempty" jsonschema:"seconds since the latest introspection log"`
	DeepWork                   *DeepWorkStatus   `json:"deep_work,omitempty" jsonschema:"the deep work in force, if any"`
	Thresholds                 []ThresholdStatus `json:"thresholds" jsonschema:"each watchdog threshold and the time until it is crossed"`
	Stage                      string            `json:"stage" jsonschema:"empty, notice (cycle 5+ min) or split (cycle 10+ min: split recommended)"`
	StageNote                  string            `json:"stage_note,omitempty" jsonschema:"advice for the stage"`
	PendingNoticesHeartbeatID  string            `json:"pending_notices_heartbeat_id,omitempty" jsonschema:"the heartbeat ID of the watchdog pulse the notices come from"`
	PendingNotices             []string          `json:"pending_notices" jsonschema:"the watchdog's current notice paragraphs (warnings, feedback, recovery instructions), whatever the delivery"`
}

func (r *ElapsedResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *ElapsedResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Current heartbeat ID: %s (the tools use it for you).\n"), r.HeartbeatID)
	if r.LastLog != "" {
		fmt.Fprintf(&b, tr(l, "Since latest activity log (this cycle): %s (%s).\n"), humanSec(l, r.SinceLastLogSeconds, ""), r.LastLog)
	} else {
		fmt.Fprintf(&b, tr(l, "Since latest activity log (this cycle): %s.\n"), humanSec(l, r.SinceLastLogSeconds, tr(l, "no log yet")))
	}
	if r.SinceLastCheckpointSeconds != nil {
		fmt.Fprintf(&b, tr(l, "Since latest checkpoint: %s (%q).\n"), humanSec(l, r.SinceLastCheckpointSeconds, ""), r.LastCheckpointMessage)
	} else {
		b.WriteString(tr(l, "Since latest checkpoint: no checkpoint yet.\n"))
	}
	fmt.Fprintf(&b, tr(l, "Since latest introspection: %s.\n"), humanSec(l, r.SinceLastIntrospectionSecs, tr(l, "no introspection log yet")))
	if d := r.DeepWork; d != nil {
		fmt.Fprintf(&b, tr(l, "Deep work in force: %s, %q (%s), for %s"), d.Mode, d.Activity, d.File, humanize.DurationIn(l, time.Duration(d.ElapsedSeconds)*time.Second))
		if d.RemainingSeconds != nil {
			fmt.Fprintf(&b, tr(l, ", %s left until %s"), humanSec(l, d.RemainingSeconds, ""), clockIn(l, d.Deadline))
		}
		b.WriteString(tr(l, ".\n"))
	} else {
		b.WriteString(tr(l, "No deep work in force.\n"))
	}
	// The text names only what needs attention; the structured content
	// has every threshold with its countdown.
	var crossed []string
	for _, th := range r.Thresholds {
		if th.Crossed && !th.Paused {
			crossed = append(crossed, fmt.Sprintf(tr(l, "%s %s (%s)"), th.Check, levelWord(l, th.Level), humanize.DurationIn(l, time.Duration(th.ThresholdSeconds)*time.Second)))
		}
	}
	if len(crossed) == 0 {
		b.WriteString(tr(l, "No watchdog threshold is crossed.\n"))
	} else {
		b.WriteString(tr(l, "Watchdog thresholds crossed: ") + strings.Join(crossed, tr(l, ", ")) + tr(l, ".\n"))
	}
	if r.StageNote != "" {
		b.WriteString(r.StageNote + "\n")
	}
	writeNotices(&b, l, r.PendingNotices)
	return strings.TrimRight(b.String(), "\n")
}

// GetHeartbeatElapsedTime reports, without writing anything, where the
// agent stands against the watchdog: current ID, time since the latest log,
// checkpoint and introspection, deep work, and the time left until each
// threshold, plus the watchdog's pending notices.
func (t *Tools) GetHeartbeatElapsedTime(a Args) (*ElapsedResult, error) {
	if err := checkParams[noInput](a); err != nil {
		return nil, err
	}
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	now := t.now()
	latest, err := t.WS.LoadLatest()
	if err != nil {
		return nil, err
	}
	res := &ElapsedResult{HeartbeatID: string(id), Thresholds: []ThresholdStatus{}, PendingNotices: []string{}}
	if idt, err := t.WS.IDTime(id); err == nil {
		s := int64(now.Sub(idt).Round(time.Second) / time.Second)
		res.HeartbeatAgeSeconds = &s
	}
	if latest.Log != nil {
		res.LastLog = latest.Log.Path
		res.SinceLastLogSeconds = since(now, latest.Log)
	}
	if latest.Checkpoint != nil {
		res.LastCheckpointMessage = latest.Checkpoint.Message
		res.SinceLastCheckpointSeconds = since(now, latest.Checkpoint)
	}
	res.SinceLastIntrospectionSecs = since(now, latest.Introspection)

	active, err := t.activeDeclarations()
	if err != nil {
		return nil, err
	}
	var strict, anyDeep bool
	for _, d := range active {
		if !inForce(d, now) {
			continue
		}
		anyDeep = true
		st := &DeepWorkStatus{File: d.Rel, Mode: string(d.Decl.Mode), Activity: d.Decl.Activity,
			ElapsedSeconds: int64(now.Sub(d.Decl.DeclaredAt).Round(time.Second) / time.Second)}
		if d.Decl.Mode == workspace.Strict {
			strict = true
			st.Deadline = d.Decl.Deadline.Format(time.RFC3339)
			left := int64(d.Decl.Deadline.Sub(now).Round(time.Second) / time.Second)
			st.RemainingSeconds = &left
		}
		res.DeepWork = st // the newest in force wins; the list is oldest first
	}

	th := t.Thresholds
	proof := latest.NewestProof()
	info, warning, limit := th.IntrospectionLevels()
	res.Thresholds = append(res.Thresholds,
		threshold("inactivity", "warning", th.InactivityWarning.D(), now, proof, strict),
		threshold("inactivity", "error", th.InactivityError.D(), now, proof, strict),
		threshold("introspection", "info", info, now, latest.Introspection, anyDeep),
		threshold("introspection", "warning", warning, now, latest.Introspection, anyDeep),
		threshold("introspection", "error", limit, now, latest.Introspection, anyDeep),
	)
	res.Stage, res.StageNote = t.stageNote(res.SinceLastLogSeconds, res.DeepWork != nil)
	res.PendingNoticesHeartbeatID, res.PendingNotices = t.pendingNotices(now)
	return res, nil
}

// threshold measures one threshold from the proof it counts from.
func threshold(check, level string, limit time.Duration, now time.Time, from *workspace.Proof, paused bool) ThresholdStatus {
	s := ThresholdStatus{Check: check, Level: level, ThresholdSeconds: int64(limit / time.Second), Paused: paused}
	if from == nil {
		return s
	}
	left := from.ModTime.Add(limit).Sub(now)
	if left <= 0 {
		s.Crossed = true
		left = 0
	}
	secs := int64(left.Round(time.Second) / time.Second)
	s.RemainingSeconds = &secs
	return s
}

// pendingNotices are the watchdog's current notices, from the state file it
// writes every pulse whatever the delivery. A state from a watchdog that is
// no longer running has none worth repeating.
func (t *Tools) pendingNotices(now time.Time) (string, []string) {
	st, err := state.Read(t.WS)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			t.Log.Warn().Err(err).Msg("read watchdog state")
		}
		return "", []string{}
	}
	if !st.Running(now) || len(st.Notices) == 0 {
		return "", []string{}
	}
	return string(st.HeartbeatID), st.Notices
}
