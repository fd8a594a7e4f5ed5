package client

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// OTLP is how a client's OpenTelemetry log records are read: which
// service.name is its, and what each of its records means. The names read
// are those the installed clients were seen to send (docs/telemetry.md).
type OTLP struct {
	// Service reports whether a record's service.name is this client's.
	Service func(name string) bool
	// Read says what one of its log records means.
	Read func(r Record) Reading
}

// Record is one log record as an adapter reads it: its event name and its
// attributes (the record's, else its resource's; "" when absent).
type Record struct {
	Name string
	Attr func(key string) string
}

// What a record tells, as the watchdog reads it.
const (
	TeleUsage = "usage" // one model request's tokens (and price)
	TeleError = "error" // a model request that failed
	TeleOther = "other" // anything else the client said: proof it runs
)

// Reading is what one record means: its Kind ("" is TeleOther), the client's
// session and prompt, and for a request its model, tokens, price or error.
type Reading struct {
	Kind    string
	Session string // the client's session (conversation) id
	Turn    string // the prompt's id where the client gives one
	// Key identifies a usage report for deduplication: a client that
	// retries an export sends the same record again.
	Key    string
	Model  string
	Tokens tokens.Tokens
	USD    *float64 // the client's own price (Claude Code); nil otherwise
	Error  string   // TeleError: the status or message
}

// Count reads a token count; absent or unreadable is 0, a negative one
// stays negative for cost.Vet to refuse.
func (r Record) Count(k string) int64 {
	v := r.Attr(k)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && math.Abs(f) < 1<<62 {
		return int64(f)
	}
	return 0
}

// Less is a-b for counts: a negative count stays negative (cost.Vet
// refuses the report), so no subtraction turns a forged figure plausible.
func Less(a, b int64) int64 {
	if a < 0 || b < 0 {
		return min(a, b)
	}
	return a - b
}

// Key is a short digest of the parts that make a record unique.
func Key(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:12])
}

// First is the first of vs that is not "".
func First(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
