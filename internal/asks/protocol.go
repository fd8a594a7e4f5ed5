package asks

import "github.com/ai-heart/ai-heart/internal/asks/ask"

// The protocol's words, from package ask (the hook's side, which heart-hook
// links without the rest of this package).
type (
	Request  = ask.Request
	Reply    = ask.Reply
	Ask      = ask.Ask
	Decision = ask.Decision
	Question = ask.Question
)

// The operations and errors of the protocol.
const (
	OpAsk    = ask.OpAsk
	OpList   = ask.OpList
	OpAnswer = ask.OpAnswer
	OpTell   = ask.OpTell
	MaxLine  = ask.MaxLine
	MaxShown = ask.MaxShown
	MaxHold  = ask.MaxHold
	// Supported reports whether questions can be held here (Linux).
	Supported = ask.Supported
)

// Errors of the protocol.
var (
	ErrUnknown        = ask.ErrUnknown
	ErrAnswered       = ask.ErrAnswered
	ErrNotYours       = ask.ErrNotYours
	ErrFull           = ask.ErrFull
	ErrGone           = ask.ErrGone
	ErrNotTheWatchdog = ask.ErrNotTheWatchdog
)

// ParseWord reads "allow" or "deny".
func ParseWord(s string) (bool, error) { return ask.ParseWord(s) }

// Hold asks the watchdog at path and waits for a person's decision (see
// ask.Hold).
var Hold = ask.Hold
