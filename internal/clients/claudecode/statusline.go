package claudecode

import (
	"encoding/json"
	"math"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Statusline reads the rate limits of Claude Code's status-line input. As
// 2.1.197 builds it (its statusline input builder): rate_limits is there
// only for a Claude.ai subscription whose API answered with the
// anthropic-ratelimit-unified-5h-* and -7d-* headers (utilization, a share
// of 1, and reset, Unix seconds): {"rate_limits": {"five_hour":
// {"used_percentage": utilization*100, "resets_at": reset}, "seven_day":
// {...}}}, each window only when its headers came. With an API key there
// is none.
func (Adapter) Statusline() client.Statusline { return readStatusline }

// statusInput is the part of the status-line input that is read.
type statusInput struct {
	Version    json.RawMessage `json:"version"` // "2.1.337": 2.1.197 and 2.1.337 send it
	RateLimits map[string]*struct {
		Used   *float64 `json:"used_percentage"`
		Resets *float64 `json:"resets_at"`
	} `json:"rate_limits"`
}

func readStatusline(data []byte) (client.Status, error) {
	var in statusInput
	if err := json.Unmarshal(data, &in); err != nil {
		return client.Status{}, err
	}
	var version string
	json.Unmarshal(in.Version, &version)
	var out []hook.Limit
	for _, w := range []string{"five_hour", "seven_day"} {
		l := in.RateLimits[w]
		if l == nil || l.Used == nil || l.Resets == nil || math.IsNaN(*l.Used) || !(*l.Resets > 0 && *l.Resets < 1e11) {
			continue
		}
		sec, frac := math.Modf(*l.Resets)
		out = append(out, hook.Limit{Window: w, Used: *l.Used, Resets: time.Unix(int64(sec), int64(frac*1e9)).UTC()})
	}
	return client.Status{Limits: out, Version: hook.ClientVersion(version)}, nil
}

// Deny refuses a PreToolUse call: its hookSpecificOutput's
// permissionDecision "deny" and the reason, which the model reads.
func (Adapter) Deny(reason string) []byte { return preToolDeny(reason) }

func preToolDeny(reason string) []byte {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
	return b
}

// Decide answers its PermissionRequest hook: 2.1.197 runs that hook while
// its dialog is on screen (the person at the terminal can still answer
// there), and closes the dialog on {"hookSpecificOutput": {"hookEventName":
// "PermissionRequest", "decision": {"behavior": "allow"}}} (the call runs
// with its own input) or "deny" with a message (the model gets it as the
// call's error, and the turn goes on). Declined at the terminal (Escape),
// the turn ends and Claude Code ends the hook with it.
func (Adapter) Decide(event string, allow bool, message string) []byte {
	if event != "PermissionRequest" {
		return nil
	}
	d := map[string]any{"behavior": "allow"}
	if !allow {
		d = map[string]any{"behavior": "deny", "message": message}
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}})
	return b
}

// Context hands the running turn text after a tool call: PostToolUse's
// additionalContext, which Claude Code adds to the conversation.
func (Adapter) Context(text string) []byte {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PostToolUse", "additionalContext": text}})
	return b
}
