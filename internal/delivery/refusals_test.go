package delivery

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The streams in testdata/stream/*refused* are what the installed clients
// printed when they refused calls, headless against the scripted model
// stand-in, paths shortened: Claude Code 2.1.197 (`claude -p
// --output-format stream-json --verbose`, default permissions) refusing
// Bash and Write and running Read (which failed: no such file, not a
// refusal), and refusing mcp-heart's checkpoint (no permissions.allow);
// Gemini CLI 0.61.0 (`gemini -p --output-format stream-json`) answering
// run_shell_command, write_file and an MCP tool without "trust" with
// tool_not_registered: headless, it leaves out every tool that needs
// approval. A run whose every call was refused is ErrRefused: it did
// nothing.
func TestExecRefusedCalls(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	for _, tc := range []struct {
		file        string
		wantErr     error
		wantTools   []string
		wantRefused int
		wantCalls   int
	}{
		{"claude-2.1.197-refused.jsonl", nil, []string{"Bash", "Write"}, 2, 3},
		{"claude-2.1.197-all-refused.jsonl", ErrRefused, []string{"mcp__mcp-heart__checkpoint"}, 1, 1},
		{"gemini-0.61.0-refused.jsonl", ErrRefused, []string{"run_shell_command", "write_file", "mcp_mcp-heart_checkpoint"}, 3, 3},
		{"claude-2.1.197.jsonl", nil, nil, 0, 0},
		{"gemini-0.61.0.jsonl", nil, nil, 0, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			e := NewExec([]string{agent, "cat", filepath.Join("testdata", "stream", tc.file)}, 30*time.Second)
			e.StreamJSON = true
			res, err := e.Deliver(context.Background(), "x")
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Deliver = %v, want %v", err, tc.wantErr)
			}
			if !slices.Equal(res.Refused, tc.wantTools) || res.RefusedCalls != tc.wantRefused {
				t.Fatalf("refused %q (%d calls), want %q (%d)", res.Refused, res.RefusedCalls, tc.wantTools, tc.wantRefused)
			}
			if tc.wantCalls > 0 && res.ToolCalls != tc.wantCalls {
				t.Fatalf("%d tool calls, want %d", res.ToolCalls, tc.wantCalls)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantTools[0]) {
				t.Fatalf("error %q does not name %s", err, tc.wantTools[0])
			}
		})
	}
}

// The agent writes what its client prints, so a stream may be forged:
// names are cut and made printable, only MaxRefusedTools are kept, calls
// that never get a result cannot grow the reader, and a refusal whose
// call was never named still counts.
func TestStreamRefusalsForged(t *testing.T) {
	long := strings.Repeat("x", 10_000)
	var b strings.Builder
	b.WriteString(`{"type":"result","result":"ok","permission_denials":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"tool_name":"tool_%d\u001b[31m\u202e"}`, i%20)
	}
	fmt.Fprintf(&b, `,{"tool_name":%q}]}`+"\n", long)
	for i := range 10 * maxPending {
		fmt.Fprintf(&b, `{"type":"tool_use","tool_name":"t%d","tool_id":"%d"}`+"\n", i, i)
	}
	b.WriteString(`{"type":"tool_result","tool_id":"nobody","status":"error","error":{"type":"policy_violation"}}` + "\n")
	b.WriteString(`{"type":"tool_result","tool_id":"1","status":"error","error":"not an object"}` + "\n")
	b.WriteString(`{"type":"tool_result","tool_id":"2","status":"success","error":{"type":"policy_violation"}}` + "\n")
	s := &streamReader{}
	s.Write([]byte(b.String()))
	s.finish()
	tools, n := s.refused()
	if n != 1002 || len(tools) != MaxRefusedTools {
		t.Fatalf("%d refusals naming %d tools, want 1002 naming %d", n, len(tools), MaxRefusedTools)
	}
	for _, name := range tools {
		if strings.ContainsAny(name, "\x1b\u202e") || len(name) > 90 {
			t.Fatalf("name %q: want it escaped and short", name)
		}
	}
	if len(s.refusals.pending) > maxPending {
		t.Fatalf("%d calls remembered, want at most %d", len(s.refusals.pending), maxPending)
	}
	// One long name alone is cut, and the unnamed refusal is named so.
	r := refusals{}
	r.refuse(long)
	r.result("unknown", true)
	if len(r.tools) != 2 || len(r.tools[0]) > 90 || r.tools[1] != "an unnamed tool" {
		t.Fatalf("tools %q", r.tools)
	}
}
