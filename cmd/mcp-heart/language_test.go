package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/setup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// initWorkspace makes a workspace as `watchdog init --lang l` does.
func initWorkspace(t *testing.T, l lang.Lang) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ai-works")
	if _, err := setup.Init(dir, setup.Options{MCPHeart: bin(), Language: l, WorkspaceOnly: true}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLanguageFromConfigAndState: the binary speaks Japanese when the
// config passed with --config says language: ja, or, without one, when the
// watchdog's state file does, or, with neither, when `watchdog init --lang
// ja` made the workspace; the server instructions follow too.
func TestLanguageFromConfigAndState(t *testing.T) {
	hasKana := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x3040 && r <= 0x30ff })
	}
	cfg := filepath.Join(t.TempDir(), "watchdog.yaml")
	if err := os.WriteFile(cfg, []byte("language: ja\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A running watchdog's published state: a fresh pulse (mcp-heart
	// believes no stale or impossible one).
	fromState := newWorkspace(t)
	st := fmt.Sprintf(`{"timezone":"UTC","language":"ja","pulse_at":%q,"pulse_interval":"1m0s"}`, time.Now().UTC().Format(time.RFC3339Nano))
	if err := os.WriteFile(fromState.Path(workspace.StateFile), []byte(st), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		root string
		args []string
		ja   bool
	}{
		{"default", newWorkspace(t).Root, nil, false},
		{"config", newWorkspace(t).Root, []string{"--config", cfg}, true},
		{"state file", fromState.Root, nil, true},
		// A workspace made by `watchdog init --lang ja`, no config, no
		// watchdog yet: its recorded language.
		{"init --lang ja", initWorkspace(t, lang.Japanese), nil, true},
		{"init --lang en", initWorkspace(t, lang.English), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := client.NewStdioMCPClient(bin(), nil, append([]string{"--workspace", tt.root}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req := mcp.InitializeRequest{}
			req.Params.ClientInfo = mcp.Implementation{Name: "mcp-heart-test", Version: "1"}
			init, err := c.Initialize(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if hasKana(init.Instructions) != tt.ja {
				t.Errorf("instructions Japanese = %v, want %v", !tt.ja, tt.ja)
			}
			for _, tool := range list.Tools {
				if hasKana(tool.Description) != tt.ja {
					t.Errorf("%s description Japanese = %v, want %v", tool.Name, !tt.ja, tt.ja)
				}
			}
			res := call(t, c, "checkpoint", map[string]any{"current_activity": "reading"})
			if hasKana(text(res)) != tt.ja {
				t.Errorf("checkpoint reply %q: Japanese = %v, want %v", text(res), !tt.ja, tt.ja)
			}
		})
	}
}
