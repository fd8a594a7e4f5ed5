package telemetry

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Bounds of one export request. A client batches a run's records (Claude
// Code sends them as it exits); 4 MiB holds thousands of them, and a gzip
// body may not inflate past the same bound.
const (
	MaxBody = 4 << 20
)

// Receiver is the OTLP/HTTP endpoint: POST /v1/logs and /v1/metrics,
// protobuf or JSON, plain or gzip, chunked or not. Each request's records
// go to Sink in one call, with the agent the path names (its "agent" path
// value, as in /otlp/{agent}/{key}/v1/logs; "" for plain /v1/logs); the
// answer is OTLP's empty success, or 404 when Sink refuses the agent.
type Receiver struct {
	Sink func(agent string, recs []Record) error
	// Key, when set, is the key the agent's clients must send (the "key"
	// path value); a post without it gets 401 before its body is read,
	// and Refused hears of it. Key fails for an agent not run here.
	Key     func(agent string) (string, error)
	Refused func(agent string)
}

// ServeHTTP takes one export request; the path's last element names the signal.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, last, _ := strings.Cut(r.URL.Path, "/v1/")
	sig := Signal(last)
	if r.Method != http.MethodPost || (sig != Logs && sig != Metrics && sig != traces) {
		http.Error(w, "OTLP/HTTP takes POST /v1/logs and /v1/metrics", http.StatusNotFound)
		return
	}
	agent := r.PathValue("agent")
	if rc.Key != nil {
		want, err := rc.Key(agent)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		if !SameKey(r.PathValue("key"), want) {
			if rc.Refused != nil {
				rc.Refused(agent)
			}
			http.Error(w, "telemetry without this agent's key: export to the URL `watchdog init -c CONFIG` writes (/otlp/<agent>/<key>)", http.StatusUnauthorized)
			return
		}
	}
	// Two requests at a time are read and decoded: each may take its 4 MiB
	// and what decoding it costs, so many at once could not take more.
	select {
	case decoding <- struct{}{}:
		defer func() { <-decoding }()
	case <-r.Context().Done():
		return
	}
	ct := r.Header.Get("Content-Type")
	isJSON := strings.HasPrefix(strings.ToLower(ct), "application/json")
	if !isJSON && !strings.HasPrefix(strings.ToLower(ct), "application/x-protobuf") {
		http.Error(w, "content type: application/x-protobuf or application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := readBody(w, r)
	if err != nil {
		code := http.StatusBadRequest
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) || errors.Is(err, errTooBig) {
			code = http.StatusRequestEntityTooLarge
		}
		http.Error(w, err.Error(), code)
		return
	}
	var recs []Record
	if sig != traces { // a client that sends traces anyway gets a success, not retries
		recs, err = Decode(sig, ct, body)
	}
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, ErrTooMany) || errors.Is(err, errElements) {
			code = http.StatusRequestEntityTooLarge
		}
		http.Error(w, err.Error(), code)
		return
	}
	if rc.Sink != nil && len(recs) > 0 {
		if err := rc.Sink(agent, recs); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound) // no such agent: a client pointed at the wrong watchdog
			return
		}
	}
	// An empty Export*ServiceResponse: no bytes in protobuf, {} in JSON.
	if isJSON {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

// decoding holds a place for each request being read and decoded.
var decoding = make(chan struct{}, 2)

// traces are taken and dropped: Gemini CLI sends them with its logs.
const traces Signal = "traces"

var errTooBig = fmt.Errorf("request body inflates past %d bytes", MaxBody)

// readBody reads at most MaxBody bytes off the wire and, for a gzip body,
// at most MaxBody bytes once inflated.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	var in io.Reader = http.MaxBytesReader(w, r.Body, MaxBody)
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		b, err := io.ReadAll(io.LimitReader(zr, MaxBody+1))
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		if len(b) > MaxBody {
			return nil, errTooBig
		}
		return b, nil
	default:
		return nil, fmt.Errorf("content encoding %q: gzip or none", enc)
	}
	return io.ReadAll(in)
}
