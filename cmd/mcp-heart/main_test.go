package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// binDir holds the mcp-heart binary built once for the package's tests.
var binDir string

func bin() string { return filepath.Join(binDir, "mcp-heart") }

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/mcp-heart"))
}

const (
	curID     = "20250102030405"
	themeID   = "20250101000000"
	themePart = "research"
	themeHist = "artifacts/20250101000000_research/histories"
)

// newWorkspace lays out a workspace with a current ID and one theme.
func newWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteCurrentID(curID); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ws.Path(themeHist), 0o755); err != nil {
		t.Fatal(err)
	}
	return ws
}

// connect starts the binary on root and initializes with protocol version
// pv ("" = the client's default negotiation).
func connect(t *testing.T, root, pv string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	c, err := client.NewStdioMCPClient(bin(), nil, "--workspace", root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = pv
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-heart-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize %q: %v", pv, err)
	}
	return c, res
}

// call runs one tool and returns its result.
func call(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// text joins a result's text content.
func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestListTools(t *testing.T) {
	ws := newWorkspace(t)
	c, _ := connect(t, ws.Root, "2025-06-18")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		readOnly, idempotent bool
		required             []string
	}{
		"create_activity_log":         {false, false, []string{"activity_type", "activity_content", "theme_start_id", "theme_directory_part"}},
		"checkpoint":                  {false, false, []string{"current_activity"}},
		"start_deep_work":             {false, false, []string{"mode", "activity_description"}},
		"get_heartbeat_elapsed_time":  {true, true, nil},
		"start_theme":                 {false, false, []string{"theme_name", "theme_directory_part", "reason"}},
		"end_theme":                   {false, false, []string{"theme_start_id", "theme_directory_part", "reason", "achievements"}},
		"preview_next_theme":          {true, true, nil},
		"check_and_process_item":      {false, false, nil},
		"report_tool_usage":           {false, false, []string{"tool_id", "status"}},
		"create_theme_expert_context": {false, false, []string{"theme_name", "expert_role", "expert_perspective", "constraints", "expected_outcome", "theme_start_id", "theme_directory_part"}},
		"get_latest_theme_context":    {true, true, []string{"theme_start_id", "theme_directory_part"}},
		"check_theme_status":          {true, true, []string{"theme_start_id", "theme_directory_part"}},
		"get_latest_activity_log":     {true, true, []string{"theme_start_id", "theme_directory_part"}},
		"list_theme_artifacts":        {true, true, []string{"theme_start_id", "theme_directory_part"}},
	}
	if len(res.Tools) != len(want) {
		t.Errorf("got %d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		w, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: an annotation hint is unset: %+v", tool.Name, a)
			continue
		}
		if *a.ReadOnlyHint != w.readOnly || *a.DestructiveHint || *a.IdempotentHint != w.idempotent || *a.OpenWorldHint {
			t.Errorf("%s hints = readOnly %v destructive %v idempotent %v openWorld %v", tool.Name, *a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint)
		}
		// required is a set: its order is the input type's field order.
		if got := slices.Sorted(slices.Values(tool.InputSchema.Required)); !slices.Equal(got, slices.Sorted(slices.Values(w.required))) {
			t.Errorf("%s required = %v, want %v", tool.Name, tool.InputSchema.Required, w.required)
		}
		for name, p := range tool.InputSchema.Properties {
			if strings.ToLower(name) != name || strings.Contains(name, "-") {
				t.Errorf("%s: parameter %q is not snake_case", tool.Name, name)
			}
			if d, _ := p.(map[string]any)["description"].(string); len(d) < 20 {
				t.Errorf("%s.%s: description %q too thin for an LLM", tool.Name, name, d)
			}
		}
		if tool.OutputSchema.Type != "object" || len(tool.OutputSchema.Properties) == 0 {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if len(tool.Description) < 80 {
			t.Errorf("%s: description too short: %q", tool.Name, tool.Description)
		}
	}
}

// Every tool, good and bad calls, over the real binary; after each bad call
// the server still serves.
func TestCallEveryTool(t *testing.T) {
	ws := newWorkspace(t)
	if err := os.WriteFile(ws.Path("themebox/idea.md"), []byte("study Y"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := connect(t, ws.Root, "2025-06-18")
	steps := []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string // in the text
		field   string // structured field that must be present on success
	}{
		{"get_heartbeat_elapsed_time", nil, false, curID, "heartbeat_id"},
		{"checkpoint", map[string]any{"current_activity": "reading"}, false, curID, "path"},
		{"checkpoint", map[string]any{}, true, "current_activity", ""},
		{"start_deep_work", map[string]any{"mode": "strict", "activity_description": "a long read", "planned_duration_minutes": 45}, true, "planned_duration_minutes", ""},
		{"start_deep_work", map[string]any{"mode": "flexible", "activity_description": "a long read"}, false, "Flexible", "mode"},
		{"create_activity_log", map[string]any{"activity_type": "nap", "activity_content": []string{"x"}, "theme_start_id": themeID, "theme_directory_part": themePart}, true, "activity_type", ""},
		{"create_activity_log", map[string]any{"activity_type": "thinking", "activity_content": []string{"read"}, "theme_start_id": themeID, "theme_directory_part": themePart}, false, "introspection", "completed_deep_work"},
		{"start_theme", map[string]any{"theme_name": "Y", "theme_directory_part": "y/z", "reason": "r"}, true, "theme_directory_part", ""},
		{"start_theme", map[string]any{"theme_name": "Y", "theme_directory_part": "study_y", "reason": "user asked", "themebox_file": "idea.md"}, false, "study_y", "theme_start_id"},
		{"end_theme", map[string]any{"theme_start_id": curID, "theme_directory_part": "nope", "reason": "r", "achievements": []string{"a"}}, true, "theme_start_id", ""},
		{"end_theme", map[string]any{"theme_start_id": curID, "theme_directory_part": "study_y", "reason": "done", "achievements": []string{"a"}}, false, "Theme ended", "end_record"},
		{"no_such_tool", nil, true, "", ""},
	}
	for i, s := range steps {
		if s.tool == "no_such_tool" {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			req := mcp.CallToolRequest{}
			req.Params.Name = s.tool
			_, err := c.CallTool(ctx, req)
			cancel()
			if err == nil {
				t.Errorf("step %d: unknown tool accepted", i)
			}
			continue
		}
		r := call(t, c, s.tool, s.args)
		if r.IsError != s.isError || !strings.Contains(text(r), s.want) {
			t.Errorf("step %d %s: isError %v text %q; want isError %v containing %q", i, s.tool, r.IsError, text(r), s.isError, s.want)
		}
		if s.field != "" {
			m, ok := r.StructuredContent.(map[string]any)
			if _, has := m[s.field]; !ok || !has {
				t.Errorf("step %d %s: structuredContent lacks %s: %v", i, s.tool, s.field, r.StructuredContent)
			}
		}
	}
	for _, rel := range []string{themeHist + "/" + curID + ".md", "stats/deep_work/" + curID + ".completed.txt", "themebox/processed.idea.md",
		"artifacts/theme_histories/" + curID + "_start_study_y.md", "artifacts/theme_histories/" + curID + "_end_study_y.md"} {
		if _, err := os.Stat(ws.Path(rel)); err != nil {
			t.Errorf("after the calls: %v", err)
		}
	}
}

// Real clients negotiate older protocol versions (Gemini CLI ships the
// TypeScript SDK 1.23); each must initialize and call tools.
func TestProtocolVersions(t *testing.T) {
	for _, pv := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", ""} {
		t.Run("v"+pv, func(t *testing.T) {
			ws := newWorkspace(t)
			c, res := connect(t, ws.Root, pv)
			if pv != "" && res.ProtocolVersion != pv {
				t.Errorf("negotiated %q, want the client's %q", res.ProtocolVersion, pv)
			}
			if res.ServerInfo.Name != "mcp-heart" {
				t.Errorf("server name %q", res.ServerInfo.Name)
			}
			r := call(t, c, "checkpoint", map[string]any{"current_activity": "protocol " + pv})
			if r.IsError {
				t.Errorf("checkpoint over %q: %s", pv, text(r))
			}
		})
	}
}

// rawSession runs the binary with the given stdin lines and returns its
// stdout and stderr once it exits (stdin EOF ends it).
func rawSession(t *testing.T, root string, lines ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin(), "--workspace", root)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp-heart: %v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

// Nothing but JSON-RPC reaches stdout, whatever the input; logs go to stderr.
func TestStdoutCarriesOnlyJSONRPC(t *testing.T) {
	ws := newWorkspace(t)
	out, errOut := rawSession(t, ws.Root,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`this is not json`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"checkpoint","arguments":{"current_activity":"raw\nline"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"checkpoint","arguments":"not an object"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"create_activity_log","arguments":{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"`+themeID+`","theme_directory_part":"`+themePart+`"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"no/such/method"}`,
	)
	ids := map[float64]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Errorf("stdout line is not JSON: %q", sc.Text())
			continue
		}
		if msg["jsonrpc"] != "2.0" {
			t.Errorf("stdout line is not JSON-RPC 2.0: %q", sc.Text())
		}
		if id, ok := msg["id"].(float64); ok {
			ids[id] = true
		}
	}
	for _, id := range []float64{1, 2, 3, 4, 5, 6} {
		if !ids[id] {
			t.Errorf("no reply to request %v; stdout:\n%s", id, out)
		}
	}
	if !strings.Contains(errOut, `"level"`) {
		t.Errorf("stderr has no zerolog lines: %q", errOut)
	}
}

// Closing stdin ends the server promptly (it exits at once; the bound only
// leaves room for a loaded CI machine).
func TestExitsOnStdinEOF(t *testing.T) {
	ws := newWorkspace(t)
	cmd := exec.Command(bin(), "--workspace", ws.Root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	p := testutil.Start(t, cmd)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"eof","version":"1"}}}`)
	in.Close()
	select {
	case <-p.Done():
		if err := p.Wait(); err != nil {
			t.Errorf("exit after EOF: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5 s after stdin EOF")
	}
}

func TestBadCommandLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  string
	}{
		{"missing workspace", []string{"--workspace", "/nonexistent/ai-works"}, ""},
		{"missing env workspace", nil, "/nonexistent/ai-works"},
		{"unknown flag", []string{"--nope"}, ""},
		{"bad config", []string{"--config", "/nonexistent/watchdog.yaml"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin(), tc.args...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "AI_WORKS_DIR="+tc.env)
			var out strings.Builder
			cmd.Stdout = &out
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
				t.Errorf("exit = %v, want status 2", err)
			}
			if out.Len() != 0 {
				t.Errorf("wrote to stdout: %q", out.String())
			}
		})
	}
}
