// Package claudecode is the adapter of Claude Code (2.1.197, the version
// its payloads and outputs here were taken from): its hooks, its headless
// runs' stream-json, the usage in its session transcripts, its failure
// words, its keys and the files init writes for it.
package claudecode

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Name is what --client takes.
const Name = "claude-code"

// Adapter is Claude Code's.
type Adapter struct{}

var _ client.Adapter = Adapter{}

// Name is "claude-code".
func (Adapter) Name() string { return Name }

// Title is "Claude Code".
func (Adapter) Title() string { return "Claude Code" }

// Hooks is its hooks' dialect.
func (Adapter) Hooks() *hook.Dialect { return &Hooks }

// Transcripts reads a turn's usage from its session transcript.
func (Adapter) Transcripts() client.Transcripts { return TurnUsage }

// Keys: one Escape stops it (a second opens its history menu, which would
// swallow the next prompt), and it keeps every session itself.
func (Adapter) Keys() client.Keys { return client.Keys{Escapes: 1} }

// Failures are the error types of its StopFailure hook (its matcher
// values) and of a failed request in its stream-json.
func (Adapter) Failures() map[string]client.Fate {
	return map[string]client.Fate{
		"rate_limit": client.Busy, "overloaded": client.Busy, "server_error": client.Busy,
		"authentication_failed": client.NeedsYou, "billing_error": client.NeedsYou, "oauth_org_not_allowed": client.NeedsYou,
	}
}

// statusError is the error type an HTTP status from the model's API means
// (its result event gives the status of a failed request).
func statusError(code int) string {
	switch code {
	case 429:
		return "rate_limit"
	case 529, 503:
		return "overloaded"
	case 401, 403:
		return "authentication_failed"
	case 402:
		return "billing_error"
	}
	return ""
}
