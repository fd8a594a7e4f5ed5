package tools

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/workspace"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// Parameters of report_tool_usage.
const (
	pToolID = "tool_id"
	pStatus = "status"
)

// toolIDRe is what a marker may be named: it becomes a file name.
var toolIDRe = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$`)

type reportToolUsageInput struct {
	ToolID string `json:"tool_id" pattern:"$toolID" jsonschema:"The tool's ID, e.g. gemini.google.search: letters, digits, _, . and -."`
	Status string `json:"status" enum:"success|quota_exceeded" jsonschema:"success (it worked: cooldown) or quota_exceeded (its quota or rate limit hit: lock)."`
}

var usageTool = define[reportToolUsageInput]("report_tool_usage", "Report tool usage", writes, (*Tools).ReportToolUsage,
	"After using a rate-limited tool (a web search, an image API), report it: success starts its cooldown (%s), "+
		"quota_exceeded locks it (%s). The watchdog reminds you while the restriction lasts and lifts it by itself.",
	"$cooldown", "$lock")

// ToolUsageResult is the reply of report_tool_usage.
type ToolUsageResult struct {
	ToolID  string `json:"tool_id" jsonschema:"the tool reported"`
	Status  string `json:"status" jsonschema:"success or quota_exceeded"`
	Marker  string `json:"marker" jsonschema:"the restriction marker written, stats/cooldown/<tool> or stats/lock/<tool>"`
	Until   string `json:"until" jsonschema:"RFC 3339 time until which the tool should not be used"`
	Cleared string `json:"cleared,omitempty" jsonschema:"a lock marker a success removed"`
}

func (r *ToolUsageResult) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *ToolUsageResult) Text(l lang.Lang) string {
	what := tr(l, "cooldown")
	if r.Status == "quota_exceeded" {
		what = tr(l, "lock")
	}
	s := fmt.Sprintf(tr(l, "Recorded %s for %s: %s until %s (%s). Use other tools or activities meanwhile; the watchdog lifts it by itself."), r.Status, r.ToolID, what, clockIn(r.Until), r.Marker)
	if r.Cleared != "" {
		s += fmt.Sprintf(tr(l, " The earlier lock %s is lifted."), r.Cleared)
	}
	return s
}

// ReportToolUsage records the use of a rate-limited tool: success starts
// its cooldown (stats/cooldown/<tool>), quota_exceeded locks it
// (stats/lock/<tool>), for the configured durations. The watchdog's
// tool_restriction check reads the markers and removes them when they end.
func (t *Tools) ReportToolUsage(a Args) (*ToolUsageResult, error) {
	if err := checkParams[reportToolUsageInput](a); err != nil {
		return nil, err
	}
	var bad problems
	id, err := a.text(pToolID, true, sayf("the tool's ID, e.g. gemini.google.search"))
	bad.add(err)
	if err == nil && !toolIDRe.MatchString(id) {
		bad.add(badField(pToolID, sayf("%q is not a tool ID", clip(id, 40)), sayf("use letters, digits, _, . and - only (up to 100), not starting with a dot, e.g. gemini.google.search")))
	}
	status, err := a.text(pStatus, true, sayf("success or quota_exceeded"))
	bad.add(err)
	if err == nil && status != "success" && status != "quota_exceeded" {
		bad.add(badField(pStatus, sayf("%q is not a status", clip(status, 40)), sayf("pass success (the tool worked: start its cooldown) or quota_exceeded (lock it)")))
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	r := t.restrictions()
	dir, d := workspace.CooldownDir, r.Cooldown.D()
	if status == "quota_exceeded" {
		dir, d = workspace.LockDir, r.Lock.D()
	}
	now := t.now()
	until := now.Add(d)
	res := &ToolUsageResult{ToolID: id, Status: status, Marker: dir + "/" + id, Until: until.Format(time.RFC3339)}
	if err := t.WS.WriteFile(res.Marker, []byte("until: "+res.Until+"\n")); err != nil {
		return nil, err
	}
	if status == "success" {
		lock := workspace.LockDir + "/" + id
		if err := os.Remove(t.WS.Path(lock)); err == nil {
			res.Cleared = lock
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return res, nil
}

// restrictions are the configured marker durations, or the defaults.
func (t *Tools) restrictions() config.Restrictions {
	r, d := t.Restrictions, config.Defaults().Restrictions
	if r.Cooldown <= 0 {
		r.Cooldown = d.Cooldown
	}
	if r.Lock <= 0 {
		r.Lock = d.Lock
	}
	return r
}
