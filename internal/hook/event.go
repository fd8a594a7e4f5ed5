package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Kind is what an event means, the same for every client.
type Kind string

// Kinds of event.
const (
	TurnStart    Kind = "turn_start"    // a prompt reached the agent (UserPromptSubmit, BeforeAgent)
	TurnEnd      Kind = "turn_end"      // the agent finished answering (Stop, AfterAgent, Codex's agent-turn-complete)
	Tool         Kind = "tool"          // a tool call begins (PreToolUse, BeforeTool)
	ToolDone     Kind = "tool_done"     // it ended (PostToolUse, AfterTool)
	ToolFailed   Kind = "tool_failed"   // it failed (PostToolUseFailure)
	Refused      Kind = "refused"       // the client refused it (PermissionDenied: Claude Code's auto mode)
	Ask          Kind = "ask"           // the agent waits for a person: a permission prompt, a question
	Failure      Kind = "failure"       // the model's service ended the turn (StopFailure); Detail says why
	SessionStart Kind = "session_start" // the client started
	SessionEnd   Kind = "session_end"   // the client ended
	Compact      Kind = "compact"       // the client compacts its context
	RateLimit    Kind = "rate_limit"    // the client reported its rate limits (Claude Code's status line); Limits says them
	ModelSwitch  Kind = "model_switch"  // the client changed the session's model (PostModelSwitch); Model names it, Detail says who
	Other        Kind = "other"         // anything else: still proof the client is alive
)

// Event is one line of the spool. Nothing in it is the agent's text.
type Event struct {
	Time    time.Time `json:"t"`
	Client  string    `json:"client"`
	Name    string    `json:"event"` // the client's own event name
	Kind    Kind      `json:"kind"`
	Tool    string    `json:"tool,omitempty"`
	Input   string    `json:"input,omitempty"`   // hash of the tool's input (16 hex digits)
	Session string    `json:"session,omitempty"` // the client's session ID
	// Detail is a client-defined word: the notification type, the failure's
	// error type (rate_limit, authentication_failed, ...).
	Detail string `json:"detail,omitempty"`
	// A turn's end says whether the agent's last words were only the idle
	// token (a ghost, judged here: the words are not kept) and where the
	// client's transcript is (a path, for the turn's token usage).
	Ghost      bool   `json:"ghost,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	// Limits are a rate_limit event's limits, as the client reported them;
	// Version the client's version, as its status line said it.
	Limits  []Limit `json:"limits,omitempty"`
	Version string  `json:"version,omitempty"`
	// A turn's end may say what will wake the session by itself (Claude
	// Code's Stop): Tasks counts its background work in flight (at most
	// MaxTasks), Crons are its own scheduled wakeups (at most MaxCrons,
	// CronCount how many it listed, at most MaxTasks). The crons' prompts
	// are the agent's words: not kept.
	Tasks     int    `json:"tasks,omitempty"`
	Crons     []Cron `json:"crons,omitempty"`
	CronCount int    `json:"cron_count,omitempty"`
	// Model is the model a model_switch event switched to.
	Model string `json:"model,omitempty"`
}

// Cron is one of the session's own scheduled wakeups, as the client
// listed it: a 5-field cron expression, and whether it fires again. The
// agent can forge it: the watchdog bounds what it believes.
type Cron struct {
	ID        string `json:"id"`
	Schedule  string `json:"schedule"`
	Recurring bool   `json:"recurring,omitempty"`
}

// MaxCrons bounds the crons one event carries (a spool line stays under
// MaxLine); MaxTasks bounds the counts.
const (
	MaxCrons = 8
	MaxTasks = 1000
)

// Limit is one of the client's rate limits: how much of its window is
// used, and when the window resets. The agent can forge it: the watchdog
// bounds what it believes.
type Limit struct {
	Window string    `json:"window"` // five_hour, seven_day
	Used   float64   `json:"used"`   // percent of the limit used
	Resets time.Time `json:"resets"` // when the window resets
}

// MaxLimits bounds the limits one event carries.
const MaxLimits = 4

// RateLimitEvent is the spool's event of limits a client reported at now
// (nil when it reported none): each window a word, each share within
// 0..100, at most MaxLimits.
func RateLimitEvent(client string, limits []Limit, now time.Time) *Event {
	var kept []Limit
	for _, l := range limits {
		if len(kept) == MaxLimits || l.Window == "" || l.Resets.IsZero() || l.Used != l.Used {
			continue
		}
		l.Window, l.Used, l.Resets = word(l.Window, 32), min(max(l.Used, 0), 100), l.Resets.UTC()
		kept = append(kept, l)
	}
	if len(kept) == 0 {
		return nil
	}
	return &Event{Time: now.UTC(), Client: client, Name: "statusline", Kind: RateLimit, Limits: kept}
}

// ClientVersion is s when it is a version number ("2.1.337"), else "".
func ClientVersion(s string) string {
	if len(s) == 0 || len(s) > 16 || strings.Trim(s, "0123456789.") != "" || strings.Count(s, ".") != 2 {
		return ""
	}
	return s
}

// A Dialect is how one client's hooks speak: its adapter
// (internal/clients) gives it, and Parse reads the client's input with it.
// It holds no code that needs more than the standard library: heart-hook
// runs on the agent's critical path.
type Dialect struct {
	// Client is the client's name, as heart-hook's --client takes it.
	Client string
	// Kinds maps the client's own event names to what they mean; any other
	// name is Other.
	Kinds map[string]Kind
	// Decode reads one hook input (trimmed JSON) into what every client
	// says in its own words.
	Decode func(data []byte) (Input, error)
	// Questions names the tools whose call is a question to the user.
	Questions []string
}

// Input is what a client's hook input says, in the words Parse keeps.
type Input struct {
	Event     string          // the client's event name
	Session   string          // the client's session (or thread) ID
	Tool      string          // the tool's name, for a tool event
	ToolInput json.RawMessage // the tool's input: only its hash is kept
	// Detail is a client-defined word: the notification type, the
	// failure's error type (rate_limit, authentication_failed, ...).
	Detail string
	// Asks is set when the event waits for a person although its name
	// does not say so (a notification of a permission prompt).
	Asks       bool
	Transcript string  // where the client's session transcript is
	Said       *string // the agent's last words, at a turn's end (never kept)
	// At a turn's end: the background work in flight and the session's
	// own scheduled wakeups (all it listed: Parse bounds them).
	Tasks int
	Crons []Cron
	// Model is the model a model switch switched to.
	Model string
}

// ErrNoEvent reports a payload that names no event.
var ErrNoEvent = errors.New("no event name in the hook's input")

// Parse reads one hook input from d's client at now.
func Parse(d Dialect, data []byte, now time.Time) (Event, error) {
	e, _, err := ParseInput(d, data, now)
	return e, err
}

// ParseInput is Parse that also returns the input as the client's adapter
// decoded it: a hook that decides on a call needs the tool's name as the
// client gave it, and the input is decoded once.
func ParseInput(d Dialect, data []byte, now time.Time) (Event, Input, error) {
	in, err := d.Decode(bytes.TrimSpace(data))
	if err != nil {
		return Event{}, Input{}, fmt.Errorf("hook input from %s: %w", d.Client, err)
	}
	e := Event{Time: now.UTC(), Client: d.Client, Name: in.Event, Session: word(in.Session, 64)}
	if e.Name == "" {
		return Event{}, Input{}, ErrNoEvent
	}
	e.Name = word(e.Name, 40)
	e.Kind = d.Kinds[e.Name]
	if e.Kind == "" {
		e.Kind = Other
	}
	if in.Tool != "" {
		e.Tool = AgentToolName(word(in.Tool, 80))
	}
	if e.Kind == Tool {
		e.Input = InputHash(in.ToolInput)
		if slices.Contains(d.Questions, e.Tool) {
			e.Kind, e.Detail = Ask, "question"
		}
	}
	if e.Kind == TurnEnd {
		if in.Said != nil {
			e.Ghost = isGhost(*in.Said)
		}
		if len(in.Transcript) <= 1024 { // a spool line stays under MaxLine
			e.Transcript = word(in.Transcript, 1024)
		}
		e.Tasks = min(max(in.Tasks, 0), MaxTasks)
		e.CronCount = min(len(in.Crons), MaxTasks)
		for _, c := range in.Crons {
			if len(e.Crons) == MaxCrons {
				break
			}
			if c.Schedule == "" || len(c.Schedule) > 64 {
				continue // no 5-field cron is longer: not one of the client's
			}
			e.Crons = append(e.Crons, Cron{ID: word(c.ID, 24), Schedule: word(c.Schedule, 64), Recurring: c.Recurring})
		}
	}
	if e.Kind == ModelSwitch {
		e.Model = word(in.Model, 80)
	}
	if in.Detail != "" {
		e.Detail = word(in.Detail, 40)
	}
	if in.Asks {
		e.Kind = Ask
	}
	return e, in, nil
}

// isGhost reports a reply that is only the idle token: the agent found
// nothing worth doing (transcript.IsGhost; this package stays standard
// library only).
func isGhost(said string) bool {
	s := strings.TrimSpace(said)
	return s == "[IDLE]" || s == "HEARTBEAT_OK"
}

// InputHash is a short hash of a tool's input: equal inputs, equal hashes,
// and nothing of the input itself. The client writes the same call's JSON
// the same way, so the bytes are hashed as they came, compacted.
func InputHash(in json.RawMessage) string {
	if len(in) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, in) != nil {
		buf.Reset()
		buf.Write(in)
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:8])
}

// word keeps an identifier-like field short and printable: the spool is
// read by the pulse and shown on the page.
func word(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > max {
		s = s[:max]
	}
	return s
}
