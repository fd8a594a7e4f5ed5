// Package client is what an LLM client's adapter tells the rest of the
// watchdog: the interface every adapter answers (internal/clients/<name>)
// and the words its answers are made of. The registry, package clients,
// lists the adapters; this package holds none, so the adapters can import
// it. Like them it is the standard library and the leaves it names
// (internal/hook, internal/cost/tokens): heart-hook links it.
package client

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/cost/tokens"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Adapter is one LLM client: everything the watchdog knows of it, in one
// folder. Each part is an answer, empty where the client has nothing of
// the kind (Claude Desktop has no hooks, no headless mode, no keys).
type Adapter interface {
	// Name is what --client takes (init, heart-hook) and agent.client names.
	Name() string
	// Title is the client's own name, for people.
	Title() string
	// Hooks is how its hooks speak (hook.Parse reads them); nil when it
	// has none.
	Hooks() *hook.Dialect
	// Exec is how the watchdog runs it headless and reads its output; nil
	// when it has no headless mode.
	Exec() *Exec
	// Transcripts reads what a turn used from its session transcript; nil
	// when its transcripts carry no usage.
	Transcripts() Transcripts
	// Failures classifies the words it gives a failed request (a hook's
	// error type, its stream's error): those it does not list are
	// failures like any other.
	Failures() map[string]Fate
	// Keys is how it is interrupted in a terminal.
	Keys() Keys
	// Setup is what `watchdog init --client NAME` writes for it.
	Setup() Setup
	// Deny is what its pre-tool hook prints on stdout to refuse the tool
	// call with reason, in its own decision format; nil when its hooks
	// cannot refuse one. The hook exits 0 all the same: init's hook command
	// ends in "|| true", which would lose an exit code.
	Deny(reason string) []byte
	// HooksOff are the workspace files whose settings can turn its hooks
	// off; nil when it has none (or no hooks).
	HooksOff() []HooksOff
	// MCP is how its hooks name the tools of its MCP servers and where it
	// reads the servers from; nil when its hooks refuse no call (Deny nil).
	MCP() *MCP
	// Decide is what its hook prints on stdout to answer the question its
	// hook event waits on (a permission request) with a person's decision,
	// in its own decision format: allow or deny (message is what the model
	// reads with a denial), never a changed input or a new rule, so it
	// decides exactly the pending call, once. nil when that event's hook
	// cannot answer one, or holding it would keep the client's own dialog
	// from the person at the terminal.
	Decide(event string, allow bool, message string) []byte
	// Context is what its post-tool hook prints on stdout to hand the
	// running turn text (a word of the watchdog's: the inactivity notice a
	// busy agent would otherwise never read), nil when its hooks cannot.
	Context(text string) []byte
	// Statusline reads its status line's input (the rate limits it
	// reports); nil when it has none.
	Statusline() Statusline
	// Screen is how its terminal UI looks in a tmux pane; nil when it has
	// none the watchdog types into.
	Screen() *Screen
	// Telemetry is how its OpenTelemetry log records are read; nil when
	// the watchdog reads none of its.
	Telemetry() *OTLP
}

// Statusline reads a client's status-line input: the rate limits it
// reports, none when it reports none.
type Statusline func(data []byte) (Status, error)

// Status is what a status-line input says: the rate limits, and the
// client's version ("" when it gives none).
type Status struct {
	Limits  []hook.Limit
	Version string
}

// Fate is what a service failure says of the model's service.
type Fate int

// Fates.
const (
	Other    Fate = iota // a failure like any: the breaker counts it
	Busy                 // rate-limited or overloaded: it will answer later
	NeedsYou             // refused: the operator must fix credentials or billing
)

// Keys is how a client in a terminal is stopped and its chat kept.
type Keys struct {
	// Escapes is how many Escapes stop what it is doing: 1, or 2 where the
	// first cancels and the second clears the input (Gemini CLI). A second
	// Escape opens Claude Code's and Codex's history menus, which would
	// swallow the next prompt.
	Escapes int
	// SavesChat is set for a client that keeps a chat only when asked
	// (Gemini CLI's "/chat save NAME"); the others keep every session.
	SavesChat bool
}

// Transcripts sums what one turn used, from the end of the client's
// session transcript (tail: its last bytes, read by the caller), counting
// only what was said between from and to. nil means unknown.
type Transcripts func(tail []byte, from, to time.Time) *tokens.Usage

// Exec is how the watchdog wakes a client headless and reads what the run
// printed.
type Exec struct {
	// Command is the argv whose output the watchdog reads tokens, cost and
	// tool calls from ("{prompt}" is the heartbeat).
	Command []string
	// Priced is set when the client prices its own runs; Price is an
	// example prices entry (config) for one that does not, "" if none fits.
	Priced bool
	Price  string
	// Types lists the "type" of the output's events that Line reads.
	Types []string
	// Line reads one event of the output (a JSON line whose type is one of
	// Types).
	Line func(typ string, line []byte) Step
	// Chatter reports a whole line of a text-mode run's stdout that the
	// client printed of its own, not the model (nil: none known). What the
	// model said, and so a ghost, is judged without them.
	Chatter func(line string) bool
	// Optional are flags init adds to Command only where the installed
	// client has them: each whose Help its --help names.
	Optional []Flag
}

// Flag is an optional flag of a headless command: Args are added where
// the client's --help names Help.
type Flag struct {
	Help string
	Args []string
}

// Step is what one event of a run's output says. The reader of the output
// (package delivery) keeps the run's state: the caps, the running sums.
type Step struct {
	Model   *string       // the session's model, when the event names it
	Calls   int           // tool calls begun
	Said    string        // the assistant's text, the reply if no event gives one
	Reply   *string       // the run's reply
	Message *Message      // an assistant message's usage as it stands
	Usage   *tokens.Usage // the run's usage, every step summed
	// Failure says why the model's service failed the run (a word of
	// Failures); FailureIfNone does the same unless a failure was said.
	Failure, FailureIfNone string
	Refused                []string    // tools the client refused to run
	Begin                  *Call       // a call whose result may come as a later event
	Result                 *CallResult // the result of a call begun earlier
	// State is the session's state when the event says it (Claude Code's
	// session_state_changed: idle, running, requires_action).
	State string
	// Ended is why the client's turn loop ended, when it says (Claude
	// Code's result.terminal_reason: max_turns, budget_exhausted, ...).
	Ended string
	// WritesLost says what the client could not save and why ("ENOSPC:
	// transcript"): its disk is full.
	WritesLost string
	// RetryWait is how long the client says it waits before it retries a
	// failed request (Claude Code's api_retry), 0 when it says none;
	// Retrying is set on such an event.
	RetryWait time.Duration
	Retrying  bool
}

// Message is one assistant message's usage as last seen: an event may
// repeat it, and the last one counts.
type Message struct {
	ID, Model string
	Tokens    tokens.Tokens
}

// Call is a tool call begun.
type Call struct{ ID, Tool string }

// CallResult is how a call ended: Refused when the client refused it.
type CallResult struct {
	ID      string
	Refused bool
}
