package delivery

import (
	"strings"
	"testing"
	"time"
)

// What Claude Code's stream-json says of its own session (2.1.197 and
// 2.1.337's schemas): its state, its retries and their waits, why its turn
// loop ended, writes lost for a full disk. The agent can print any line
// into an exec run's output: a wrong type loses its field, never the run,
// a huge wait is bounded, a word the client never sends is not kept.
func TestStreamClientSaid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  clientSaid
		waits []time.Duration
	}{
		{"a run's life", []string{
			`{"type":"system","subtype":"session_state_changed","state":"running","session_id":"s"}`,
			`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":30000,"error_status":429,"error":"rate_limit"}`,
			`{"type":"system","subtype":"session_state_changed","state":"requires_action"}`,
			`{"type":"result","subtype":"success","is_error":false,"result":"done","terminal_reason":"budget_exhausted"}`,
			`{"type":"system","subtype":"session_writes_lost","error_code":"ENOSPC","lost":["transcript","global_config"],"transcript_session_ids":["s"]}`,
		}, clientSaid{State: "requires_action", Ended: "budget_exhausted", WritesLost: "ENOSPC: transcript, global_config", Retries: 1}, []time.Duration{30 * time.Second}},
		{"an older client: no terminal_reason", []string{`{"type":"result","subtype":"success","result":"done"}`}, clientSaid{}, nil},
		{"wrong types", []string{
			`{"type":"system","subtype":"session_state_changed","state":7}`,
			`{"type":"system","subtype":"api_retry","retry_delay_ms":"soon"}`,
			`{"type":"system","subtype":"session_writes_lost","error_code":{"x":1},"lost":"transcript"}`,
			`{"type":"result","result":"done","terminal_reason":["max_turns"]}`,
		}, clientSaid{WritesLost: "unknown", Retries: 1, Ended: "other"}, []time.Duration{0}},
		{"words the client never sends", []string{
			`{"type":"system","subtype":"session_state_changed","state":"asleep\u001b[2J"}`,
			`{"type":"result","result":"done","terminal_reason":"` + strings.Repeat("x", 5000) + `"}`,
			`{"type":"system","subtype":"session_writes_lost","error_code":"EIO","lost":["everything"]}`,
		}, clientSaid{Ended: "other", WritesLost: "unknown"}, nil},
		{"negative and huge waits", []string{
			`{"type":"system","subtype":"api_retry","retry_delay_ms":-5000}`,
			`{"type":"system","subtype":"api_retry","retry_delay_ms":1e300}`,
			`{"type":"system","subtype":"api_retry","retry_delay_ms":9223372036854775807}`,
		}, clientSaid{Retries: 3}, []time.Duration{0, 24 * time.Hour, 24 * time.Hour}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var waits []time.Duration
			s := &streamReader{onRetry: func(w time.Duration) { waits = append(waits, w) }}
			for _, l := range tc.lines {
				s.Write([]byte(l + "\n"))
			}
			s.finish()
			got := s.saidOfSession()
			got.RetryWait, got.RetryAt = 0, time.Time{}
			if got != tc.want {
				t.Errorf("said %+v, want %+v", got, tc.want)
			}
			if len(waits) != len(tc.waits) {
				t.Fatalf("retry waits %v, want %v", waits, tc.waits)
			}
			for i := range waits {
				if waits[i] != tc.waits[i] {
					t.Errorf("retry waits %v, want %v", waits, tc.waits)
				}
			}
		})
	}
}
