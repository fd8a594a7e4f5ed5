package telemetry

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// logs builds an export of one resource (service.name svc) holding one log
// record per attribute set, each as the clients send them: the event's
// name in the event.name attribute.
func logs(svc string, recs ...map[string]any) plog.Logs {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", svc)
	sl := rl.ScopeLogs().AppendEmpty()
	for _, attrs := range recs {
		lr := sl.LogRecords().AppendEmpty()
		lr.SetTimestamp(1)
		for k, v := range attrs {
			switch v := v.(type) {
			case string:
				lr.Attributes().PutStr(k, v)
			case int:
				lr.Attributes().PutInt(k, int64(v))
			case float64:
				lr.Attributes().PutDouble(k, v)
			}
		}
		if n, ok := attrs["body"].(string); ok {
			lr.Body().SetStr(n)
		}
	}
	return ld
}

// claudeRequest is a Claude Code 2.1.197 api_request as seen from the real
// client (docs/telemetry.md), less the host's attributes.
func claudeRequest(seq int, in, out, cacheRead, cacheWrite int, usd float64) map[string]any {
	return map[string]any{"event.name": "api_request", "body": "claude_code.api_request", "event.sequence": seq,
		"event.timestamp": "2026-11-27T09:27:58.509Z", "session.id": "s1", "prompt.id": "p1", "model": "claude-standin",
		"input_tokens": in, "output_tokens": out, "cache_read_tokens": cacheRead, "cache_creation_tokens": cacheWrite,
		"cost_usd": usd, "cost_usd_micros": int(usd * 1e6), "duration_ms": 40}
}

func TestDecodeBothEncodings(t *testing.T) {
	ld := logs("claude-code", claudeRequest(3, 10, 5, 2, 1, 0.000175))
	pb, err := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
	if err != nil {
		t.Fatal(err)
	}
	js, err := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ct   string
		body []byte
	}{{"application/x-protobuf", pb}, {"application/json", js}, {"application/json; charset=utf-8", js}} {
		recs, err := Decode(Logs, c.ct, c.body)
		if err != nil {
			t.Fatalf("%s: %v", c.ct, err)
		}
		reps := Read(recs)
		if len(reps) != 1 {
			t.Fatalf("%s: %d reports, want 1", c.ct, len(reps))
		}
		r := reps[0]
		want := cost.Tokens{Input: 10, Output: 5, CacheRead: 2, CacheWrite: 1}
		if r.Client != ClaudeCode || r.Kind != KindUsage || r.Tokens != want || r.USD == nil || *r.USD != 0.000175 ||
			r.Session != "s1" || r.Turn != "p1" || r.Model != "claude-standin" || r.Key == "" {
			t.Fatalf("%s: %+v", c.ct, r)
		}
	}
}

func TestReadEachClient(t *testing.T) {
	var recs []Record
	for _, ld := range []plog.Logs{
		logs("claude-code", claudeRequest(3, 10, 5, 0, 0, 0.000175), claudeRequest(6, 10, 5, 0, 0, 0.000175),
			map[string]any{"event.name": "user_prompt", "prompt": "<REDACTED>", "session.id": "s1"}),
		logs("gemini-cli", map[string]any{"event.name": "gemini_cli.api_response", "session.id": "g1", "prompt_id": "g1",
			"role": "main", "model": "gemini-3.8-flash", "input_token_count": 10, "cached_content_token_count": 4,
			"output_token_count": 5, "thoughts_token_count": 2, "total_token_count": 17, "event.timestamp": "2026-11-27T09:16:18.230Z"}),
		logs("codex_exec",
			map[string]any{"event.name": "codex.sse_event", "event.kind": "response.completed", "conversation.id": "c1", "model": "gpt-5.1-codex"},
			map[string]any{"event.name": "codex.sse_event", "event.kind": "response.completed", "conversation.id": "c1", "model": "gpt-5.1-codex",
				"input_token_count": 10, "cached_token_count": 2, "cache_write_token_count": 0, "output_token_count": 5, "reasoning_token_count": 1},
			map[string]any{"event.name": "codex.api_request", "http.response.status_code": 429, "conversation.id": "c1"}),
		logs("some-other-service", map[string]any{"event.name": "api_request", "input_tokens": 99}),
	} {
		b, _ := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
		r, err := Decode(Logs, "application/x-protobuf", b)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r...)
	}
	got := map[string]cost.Tokens{}
	kinds := map[string]int{}
	keys := map[string]bool{}
	for _, r := range Read(recs) {
		kinds[r.Client+" "+r.Kind]++
		if r.Kind == KindUsage {
			got[r.Client] = got[r.Client].Add(r.Tokens)
			keys[r.Key] = true
		}
	}
	want := map[string]cost.Tokens{
		ClaudeCode: {Input: 20, Output: 10},
		Gemini:     {Input: 6, CacheRead: 4, Output: 7}, // output: the total less the prompt
		Codex:      {Input: 8, CacheRead: 2, Output: 5},
	}
	for c, w := range want {
		if got[c] != w {
			t.Errorf("%s tokens %+v, want %+v", c, got[c], w)
		}
	}
	if kinds["codex error"] != 1 || kinds["claude-code other"] != 1 || kinds["codex other"] != 1 || len(keys) != 4 {
		t.Fatalf("kinds %v, %d distinct keys: want Codex's 429 an error, the prompt and the token-less completion other, four requests", kinds, len(keys))
	}
}

func post(t *testing.T, rc *Receiver, path, ct, enc string, body io.Reader) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, body)
	req.Header.Set("Content-Type", ct)
	if enc != "" {
		req.Header.Set("Content-Encoding", enc)
	}
	w := httptest.NewRecorder()
	rc.ServeHTTP(w, req)
	return w
}

func gz(b []byte) *bytes.Buffer {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return &buf
}

func TestReceiverBoundsAndEncodings(t *testing.T) {
	var got []Record
	rc := &Receiver{Sink: func(_ string, r []Record) error { got = append(got, r...); return nil }}
	ld := logs("claude-code", claudeRequest(3, 10, 5, 0, 0, 0.1))
	pb, _ := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
	js, _ := (&plog.JSONMarshaler{}).MarshalLogs(ld)

	if w := post(t, rc, "/v1/logs", "application/x-protobuf", "gzip", gz(pb)); w.Code != 200 || w.Body.Len() != 0 {
		t.Fatalf("gzip protobuf: %d %q", w.Code, w.Body)
	}
	// An unknown length (a chunked body, as Claude Code sends it).
	if w := post(t, rc, "/v1/logs", "application/json", "", io.MultiReader(bytes.NewReader(js))); w.Code != 200 || w.Body.String() != "{}" {
		t.Fatalf("chunked json: %d %q", w.Code, w.Body)
	}
	if len(got) != 2 {
		t.Fatalf("%d records, want 2", len(got))
	}
	// Gemini CLI sends traces too: taken, not read.
	if w := post(t, rc, "/v1/traces", "application/json", "", strings.NewReader(`{"resourceSpans":[]}`)); w.Code != 200 {
		t.Fatalf("traces: %d", w.Code)
	}

	huge := bytes.Repeat([]byte{0}, MaxBody+1)
	if w := post(t, rc, "/v1/logs", "application/x-protobuf", "", bytes.NewReader(huge)); w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a body past the bound: %d, want 413", w.Code)
	}
	// A gzip bomb: small on the wire, past the bound once inflated.
	bomb := gz(bytes.Repeat([]byte{0}, 3*MaxBody))
	if bomb.Len() > MaxBody/100 {
		t.Fatalf("bomb is %d bytes", bomb.Len())
	}
	if w := post(t, rc, "/v1/logs", "application/x-protobuf", "gzip", bomb); w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a gzip bomb: %d, want 413", w.Code)
	}
	for _, c := range []struct{ path, ct, enc, body string }{
		{"/v1/logs", "text/plain", "", "x"},
		{"/v1/logs", "application/json", "br", "x"},
		{"/v1/logs", "application/json", "", "{not json"},
		{"/v1/logs", "application/x-protobuf", "", "\xff\xff\xff"},
		{"/v1/logs", "application/x-protobuf", "gzip", "not gzip"},
		{"/v1/spans", "application/json", "", "{}"},
	} {
		if w := post(t, rc, c.path, c.ct, c.enc, strings.NewReader(c.body)); w.Code < 400 {
			t.Errorf("%+v: %d, want refused", c, w.Code)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d records after the refusals, want still 2", len(got))
	}
}

func TestTimeFromEventTimestamp(t *testing.T) {
	ld := logs("gemini-cli", map[string]any{"event.name": "gemini_cli.api_response", "event.timestamp": "2026-11-27T09:16:18.230Z"})
	ld.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().At(0).SetTimestamp(0)
	b, _ := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	recs, _ := Decode(Logs, "application/json", b)
	r := Read(recs)
	if len(r) != 1 || !r[0].Time.Equal(time.Date(2026, 11, 27, 9, 16, 18, 230e6, time.UTC)) {
		t.Fatalf("%+v", r)
	}
}
