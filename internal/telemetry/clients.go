package telemetry

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// The clients, by the names `watchdog init --client` and heart-hook take.
const (
	ClaudeCode = "claude-code"
	Gemini     = "gemini"
	Codex      = "codex"
)

// What a record tells, as the watchdog reads it.
const (
	KindUsage = "usage" // one model request's tokens (and price)
	KindError = "error" // a model request that failed
	KindOther = "other" // anything else the client said: proof it runs
)

// Report is what one record of a known client means. The names read here
// are those the installed clients were seen to send (docs/telemetry.md):
// Claude Code 2.1.197, Gemini CLI 0.61.0, Codex 0.169.0.
type Report struct {
	Client  string
	Session string // the client's session (conversation) id
	// Agent and Run are the watchdog's own tags of an exec run
	// (AttrAgent, AttrRun); "" on a record of an interactive session.
	Agent, Run string
	Turn       string // the prompt's id where the client gives one
	Time       time.Time
	Kind       string
	Name       string // the event's name as the client sent it
	// Key identifies a usage report for deduplication: a client that
	// retries an export sends the same record again.
	Key    string
	Model  string
	Tokens cost.Tokens
	USD    *float64 // the client's own price (Claude Code); nil otherwise
	Error  string   // KindError: the status or message
}

// Client names the client a record came from by its service.name ("" for
// one the watchdog does not know).
func Client(service string) string {
	switch {
	case service == "claude-code":
		return ClaudeCode
	case service == "gemini-cli":
		return Gemini
	case service == "codex" || strings.HasPrefix(service, "codex_") || strings.HasPrefix(service, "codex-"):
		return Codex // codex_exec for `codex exec`, codex-tui interactively
	}
	return ""
}

// Read says what each record of a known client means; metric points and
// records of unknown services are left out (usage is read from the log
// events, one per request: the metrics sum the same requests again).
func Read(recs []Record) []Report {
	out := make([]Report, 0, len(recs))
	for _, r := range recs {
		c := Client(r.Service)
		if c == "" || r.Signal != Logs {
			continue
		}
		rep := Report{Client: c, Time: r.Time, Kind: KindOther, Name: r.Name, Agent: r.Attr(AttrAgent), Run: r.Attr(AttrRun)}
		if ts, err := time.Parse(time.RFC3339Nano, r.Attr("event.timestamp")); err == nil && rep.Time.IsZero() {
			rep.Time = ts
		}
		switch c {
		case ClaudeCode:
			claude(r, &rep)
		case Gemini:
			gemini(r, &rep)
		case Codex:
			codex(r, &rep)
		}
		rep.clip()
		out = append(out, rep)
	}
	return out
}

// maxWord bounds each string a Report keeps: what the book holds for up to
// an hour is then a few hundred bytes a report, whatever a record carried.
const maxWord = 128

// clip cuts the report's strings to maxWord bytes.
func (r *Report) clip() {
	for _, s := range []*string{&r.Client, &r.Session, &r.Agent, &r.Run, &r.Turn, &r.Kind, &r.Name, &r.Key, &r.Model, &r.Error} {
		if len(*s) > maxWord {
			*s = strings.ToValidUTF8((*s)[:maxWord], "")
		}
	}
}

// claude: Claude Code's events are named without its prefix in event.name
// (api_request, api_error, user_prompt, tool_result...), carry session.id,
// prompt.id and a per-session event.sequence.
func claude(r Record, rep *Report) {
	rep.Session, rep.Turn = r.Attr("session.id"), r.Attr("prompt.id")
	switch r.Name {
	case "api_request":
		rep.Kind, rep.Model = KindUsage, r.Attr("model")
		rep.Tokens = cost.Tokens{Input: count(r, "input_tokens"), Output: count(r, "output_tokens"),
			CacheRead: count(r, "cache_read_tokens"), CacheWrite: count(r, "cache_creation_tokens")}
		if v, err := strconv.ParseFloat(r.Attr("cost_usd"), 64); err == nil && !math.IsNaN(v) {
			rep.USD = &v
		}
		rep.Key = key(ClaudeCode, rep.Session, r.Attr("event.sequence"), r.Attr("event.timestamp"))
	case "api_error":
		rep.Kind, rep.Model = KindError, r.Attr("model")
		rep.Error = first(r.Attr("status_code"), r.Attr("error"))
	}
}

// gemini: Gemini CLI's gemini_cli.api_response, one per model request
// (the router's too, role utility_router), with session.id and prompt_id.
func gemini(r Record, rep *Report) {
	rep.Session, rep.Turn = r.Attr("session.id"), r.Attr("prompt_id")
	switch r.Name {
	case "gemini_cli.api_response":
		rep.Kind, rep.Model = KindUsage, r.Attr("model")
		// As its stream-json's stats are read: the input count includes
		// what the cache served; output is the total less the input
		// (candidates and thinking, both billed as output).
		in, cached := count(r, "input_token_count"), count(r, "cached_content_token_count")
		total := count(r, "total_token_count")
		out := less(total, in)
		if out < 0 && total >= 0 && in >= 0 {
			out = 0
		}
		rep.Tokens = cost.Tokens{Input: less(in, cached), CacheRead: cached, Output: out}
		rep.Key = key(Gemini, rep.Session, rep.Turn, r.Attr("role"), r.Attr("event.timestamp"), r.Attr("duration_ms"))
	case "gemini_cli.api_error":
		rep.Kind, rep.Model = KindError, r.Attr("model")
		rep.Error = first(r.Attr("status_code"), r.Attr("error.message"), r.Attr("error"))
	}
}

// codex: Codex's codex.sse_event of kind response.completed that carries
// token counts (it sends a second one without them), keyed by
// conversation.id.
func codex(r Record, rep *Report) {
	rep.Session = r.Attr("conversation.id")
	switch {
	case r.Name == "codex.sse_event" && r.Attr("event.kind") == "response.completed" && r.Attr("input_token_count") != "":
		rep.Kind, rep.Model = KindUsage, r.Attr("model")
		// OpenAI's input count includes the cached tokens.
		cached := count(r, "cached_token_count")
		rep.Tokens = cost.Tokens{Input: less(count(r, "input_token_count"), cached), CacheRead: cached,
			CacheWrite: count(r, "cache_write_token_count"), Output: count(r, "output_token_count")}
		rep.Key = key(Codex, rep.Session, r.Attr("event.timestamp"), r.Attr("input_token_count"), r.Attr("output_token_count"))
	case r.Name == "codex.api_request" && r.Attr("http.response.status_code") != "" && !strings.HasPrefix(r.Attr("http.response.status_code"), "2"):
		rep.Kind, rep.Model = KindError, r.Attr("model")
		rep.Error = r.Attr("http.response.status_code")
	}
}

// count reads a token count; absent or unreadable is 0, a negative one
// stays negative for cost.Vet to refuse.
func count(r Record, k string) int64 {
	v := r.Attr(k)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && math.Abs(f) < 1<<62 {
		return int64(f)
	}
	return 0
}

// less is a-b for counts: a negative count stays negative (cost.Vet
// refuses the report), so no subtraction turns a forged figure plausible.
func less(a, b int64) int64 {
	if a < 0 || b < 0 {
		return min(a, b)
	}
	return a - b
}

// key is a short digest of the parts that make a record unique.
func key(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:12])
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
