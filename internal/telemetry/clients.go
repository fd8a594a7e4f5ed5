package telemetry

import (
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/clients/codex"
	"github.com/ai-heart/ai-heart/internal/clients/gemini"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// The clients whose telemetry the watchdog reads, by the names `watchdog
// init --client` and heart-hook take.
const (
	ClaudeCode = claudecode.Name
	Gemini     = gemini.Name
	Codex      = codex.Name
)

// What a record tells, as the watchdog reads it.
const (
	KindUsage = client.TeleUsage // one model request's tokens (and price)
	KindError = client.TeleError // a model request that failed
	KindOther = client.TeleOther // anything else the client said: proof it runs
)

// Report is what one record of a known client means, as its adapter reads
// it (client.Telemetry), with the watchdog's own tags.
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
	Tokens tokens.Tokens
	USD    *float64 // the client's own price (Claude Code); nil otherwise
	Error  string   // KindError: the status or message
}

// Client names the client a record came from by its service.name ("" for
// one the watchdog does not know).
func Client(service string) string {
	name, _ := clients.ByService(service)
	return name
}

// Read says what each record of a known client means, as its adapter
// reads it; metric points and records of unknown services are left out
// (usage is read from the log events, one per request: the metrics sum the
// same requests again).
func Read(recs []Record) []Report {
	out := make([]Report, 0, len(recs))
	for _, r := range recs {
		c, t := clients.ByService(r.Service)
		if t == nil || r.Signal != Logs {
			continue
		}
		rep := Report{Client: c, Time: r.Time, Name: r.Name, Agent: r.Attr(AttrAgent), Run: r.Attr(AttrRun)}
		if ts, err := time.Parse(time.RFC3339Nano, r.Attr("event.timestamp")); err == nil && rep.Time.IsZero() {
			rep.Time = ts
		}
		rd := t.Read(client.Record{Name: r.Name, Attr: r.Attr})
		rep.Kind, rep.Session, rep.Turn, rep.Key = rd.Kind, rd.Session, rd.Turn, rd.Key
		rep.Model, rep.Tokens, rep.USD, rep.Error = rd.Model, rd.Tokens, rd.USD, rd.Error
		if rep.Kind == "" {
			rep.Kind = KindOther
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
