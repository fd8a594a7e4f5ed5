package tools

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// toolIDRe is what a marker may be named: it becomes a file name.
var toolIDRe = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$`)

type reportToolUsageInput struct {
	ToolID string `json:"tool_id" jsonschema:"The tool's ID, e.g. gemini.google.search: letters, digits, _, . and -."`
	Status string `json:"status" jsonschema:"success (it worked) or quota_exceeded (its quota or rate limit was hit)."`
}

// The values of status, matched exactly.
const (
	usageSuccess       = "success"
	usageQuotaExceeded = "quota_exceeded"
)

func (in *reportToolUsageInput) validate(c *checker) {
	if c.pattern(&in.ToolID, toolIDRe, sayf("the tool's ID, e.g. gemini.google.search")) && !toolIDRe.MatchString(in.ToolID) {
		c.report(&in.ToolID, sayf("%q is not a tool ID", clip(in.ToolID, 40)), sayf("use letters, digits, _, . and - only (up to 100), not starting with a dot, e.g. gemini.google.search"))
	}
	if c.enum(&in.Status, []string{usageSuccess, usageQuotaExceeded}, sayf("success or quota_exceeded")) && !oneOf(in.Status, []string{usageSuccess, usageQuotaExceeded}) {
		c.report(&in.Status, sayf("%q is not a status", clip(in.Status, 40)), sayf("pass success (the tool worked: start its cooldown) or quota_exceeded (lock it)"))
	}
}

var usageTool = define(toolnames.ReportToolUsage, "Report tool usage", writes, (*Tools).ReportToolUsage,
	"After using a rate-limited tool (a web search, an image API), report it: success starts its cooldown (%s), "+
		"quota_exceeded locks it (%s). These are your tools' limits, not the model's own rate limit. The watchdog reminds you while the restriction lasts and lifts it by itself.",
	func(t *Tools) any { return humanize.Span(t.restrictions().Cooldown.D()) },
	func(t *Tools) any { return humanize.Span(t.restrictions().Lock.D()) })

// ToolUsageResult is the reply of report_tool_usage.
type ToolUsageResult struct {
	ToolID  string `json:"tool_id"`           // the tool reported
	Status  string `json:"status"`            // success or quota_exceeded
	Marker  string `json:"marker"`            // the restriction marker written, stats/cooldown/<tool> or stats/lock/<tool>
	Until   string `json:"until"`             // RFC 3339 time until which the tool should not be used
	Cleared string `json:"cleared,omitempty"` // a lock marker a success removed
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
func (t *Tools) ReportToolUsage(in reportToolUsageInput) (*ToolUsageResult, error) {
	id, status := in.ToolID, in.Status
	r := t.restrictions()
	dir, d := workspace.CooldownDir, r.Cooldown.D()
	if status == usageQuotaExceeded {
		dir, d = workspace.LockDir, r.Lock.D()
	}
	now := t.now()
	until := now.Add(d)
	res := &ToolUsageResult{ToolID: id, Status: status, Marker: dir + "/" + id, Until: until.Format(time.RFC3339)}
	if err := t.WS.WriteFile(res.Marker, []byte("until: "+res.Until+"\n")); err != nil {
		return nil, err
	}
	if status == usageSuccess {
		lock := workspace.LockDir + "/" + id
		if err := t.WS.Remove(lock); err == nil {
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
