package tools

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"
)

// The adapter turns every failure into an isError result the agent reads,
// and a panic never reaches the transport.
func TestHandle(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name    string
		run     func(checkpointInput) (*CheckpointResult, error)
		args    any
		isError bool
		want    string
	}{
		{"ok", e.tl.Checkpoint, map[string]any{"current_activity": "x"}, false, "Checkpoint recorded"},
		{"input error", e.tl.Checkpoint, map[string]any{}, true, "current_activity: required"},
		{"arguments not an object", e.tl.Checkpoint, []any{"x"}, true, "JSON object"},
		{"panic", func(checkpointInput) (*CheckpointResult, error) { panic("boom") }, map[string]any{"current_activity": "x"}, true, "internal error (`boom`)"},
		{"io error", func(checkpointInput) (*CheckpointResult, error) { return nil, context.DeadlineExceeded }, map[string]any{"current_activity": "x"}, true, "failed: the system reported `context deadline exceeded`"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := mcp.CallToolRequest{}
			req.Params.Arguments = tc.args
			res, err := handle[checkpointInput](e.tl, "checkpoint", tc.run)(context.Background(), req)
			if err != nil {
				t.Fatalf("handler returned a Go error %v; the agent would never see it", err)
			}
			txt := res.Content[0].(mcp.TextContent).Text
			if res.IsError != tc.isError || !strings.Contains(txt, tc.want) {
				t.Errorf("isError %v text %q, want %v containing %q", res.IsError, txt, tc.isError, tc.want)
			}
			if !tc.isError && res.StructuredContent == nil {
				t.Error("success without structuredContent")
			}
		})
	}
}

// A call's log line names the heartbeat ID the call used.
func TestHandleLogsHeartbeatID(t *testing.T) {
	e := newEnv(t)
	var buf bytes.Buffer
	e.tl.Log = zerolog.New(&buf)
	req := mcp.CallToolRequest{}
	req.Params.Arguments = map[string]any{"current_activity": "x"}
	if _, err := handle[checkpointInput](e.tl, "checkpoint", e.tl.Checkpoint)(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if want := `"heartbeat_id":"` + string(testID) + `"`; !strings.Contains(buf.String(), want) {
		t.Errorf("log = %s, want it to contain %s", buf.String(), want)
	}
}

// TestEveryToolRefusesExactlyWhatItsSchemaLacks: a tool's parameters are
// written once, in its input type; the check its handler makes against a
// misspelt parameter must be against that same type, so it names exactly
// what the schema declares.
func TestEveryToolRefusesExactlyWhatItsSchemaLacks(t *testing.T) {
	e := newEnv(t)
	for _, d := range e.tl.Definitions() {
		t.Run(d.Tool.Name, func(t *testing.T) {
			req := mcp.CallToolRequest{}
			req.Params.Name = d.Tool.Name
			req.Params.Arguments = map[string]any{"zzz_not_a_parameter": 1}
			res, err := d.Handler(context.Background(), req)
			if err != nil || !res.IsError {
				t.Fatalf("call with an unknown parameter = %+v, %v; want a refusal", res, err)
			}
			msg := res.Content[0].(mcp.TextContent).Text
			var schema []string
			for p := range d.Tool.InputSchema.Properties {
				schema = append(schema, p)
			}
			slices.Sort(schema)
			if len(schema) == 0 {
				if !strings.Contains(msg, "takes no parameters") {
					t.Fatalf("refusal %q, want it to say the tool takes none", msg)
				}
				return
			}
			_, list, ok := strings.Cut(msg, "use only these parameter names: ")
			if !ok {
				t.Fatalf("refusal %q names no parameters", msg)
			}
			list, _, _ = strings.Cut(list, ".")
			var known []string
			for _, p := range strings.Split(list, ", ") {
				known = append(known, strings.TrimSpace(p))
			}
			slices.Sort(known)
			if !slices.Equal(known, schema) {
				t.Fatalf("the tool accepts %v, its schema declares %v", known, schema)
			}
		})
	}
}
