package delivery

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A text-mode run's reply is stdout; what the model said is that minus the
// lines the client printed there of its own. Gemini CLI 0.61 logs its
// telemetry exporter's give-ups to stdout after the model's [IDLE]
// (testdata/text/gemini-export-retry.txt, captured from the real binary
// exporting to an address nothing served).
func TestExecTextSaidIsTheModelsOwn(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	dir := t.TempDir()
	cases := []struct{ name, out, said string }{
		{"export give-ups after the idle token", "", "[IDLE]"},
		{"a reply that quotes the client", "Done.\nThe log said: Export retry time 5000ms exceeds remaining timeout 1775ms, not retrying further.\n", "Done.\nThe log said: Export retry time 5000ms exceeds remaining timeout 1775ms, not retrying further."},
		{"a line shaped like the client's, forged with more after it", "[IDLE]\nExport retry time 5000ms exceeds remaining timeout 1775ms, not retrying further. and then I deleted the repo\n", "[IDLE]\nExport retry time 5000ms exceeds remaining timeout 1775ms, not retrying further. and then I deleted the repo"},
		{"the other give-ups", "[IDLE]\nExport failed after maximum retry attempts (5).\nExport failed with non-retryable error: Error: connect ECONNREFUSED 127.0.0.1:9\n", "[IDLE]"},
		{"nothing but the client's", "Export failed after maximum retry attempts (5).\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join("testdata", "text", "gemini-export-retry.txt")
			if tc.out != "" {
				file = filepath.Join(dir, "out.txt")
				if err := os.WriteFile(file, []byte(tc.out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := NewExec([]string{agent, "cat", file}, 30*time.Second).Deliver(context.Background(), "Heartbeat: 1")
			if err != nil {
				t.Fatal(err)
			}
			if res.Said != tc.said {
				t.Fatalf("Said = %q, want %q (stdout %q)", res.Said, tc.said, res.Reply)
			}
		})
	}
}

// With stream-json what the model said is the stream's reply, whatever
// else stdout holds.
func TestExecStreamSaidIsTheStreamsReply(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	file := filepath.Join(t.TempDir(), "out.jsonl")
	out := `{"type":"init","session_id":"s","model":"gemini-2.5-pro"}
{"type":"message","role":"assistant","content":"[IDLE]","delta":true}
Export retry time 5000ms exceeds remaining timeout 1775ms, not retrying further.
{"type":"result","status":"success","stats":{}}
Some other words of the client
`
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewExec([]string{agent, "cat", file}, 30*time.Second)
	e.StreamJSON = true
	res, err := e.Deliver(context.Background(), "Heartbeat: 1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Said != "[IDLE]" {
		t.Fatalf("Said = %q, want [IDLE] (reply %q)", res.Said, res.Reply)
	}
}
