package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestE2EVersion: a release build stamped with -ldflags, as make dist and
// the Debian package build it, prints its version, commit and date, and
// mcp-heart reports the same version in its MCP server info.
func TestE2EVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const pkg = "github.com/ai-heart/ai-heart/internal/version"
	ldflags := "-X " + pkg + ".version=9.8.7 -X " + pkg + ".commit=0123456789abcdef -X " + pkg + ".date=2026-11-24T10:00:00Z"
	for _, cmd := range []string{"watchdog", "mcp-heart"} {
		if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", filepath.Join(dir, cmd), "../cmd/"+cmd).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", cmd, err, out)
		}
	}
	const want = "9.8.7 (commit 0123456789ab, built 2026-11-24T10:00:00Z)"
	out, err := exec.Command(filepath.Join(dir, "watchdog"), "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "watchdog "+want {
		t.Errorf("watchdog --version = %q, %v; want %q", out, err, "watchdog "+want)
	}
	// mcp-heart's stdout is JSON-RPC's alone: the version goes to stderr.
	cmd := exec.Command(filepath.Join(dir, "mcp-heart"), "--version")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp-heart --version: %v", err)
	}
	if stdout.Len() != 0 || strings.TrimSpace(stderr.String()) != "mcp-heart "+want {
		t.Errorf("mcp-heart --version: stdout %q, stderr %q; want nothing and %q", stdout.String(), stderr.String(), "mcp-heart "+want)
	}
	c, err := client.NewStdioMCPClient(filepath.Join(dir, "mcp-heart"), nil, "--workspace", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "e2e", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Version != "9.8.7" {
		t.Errorf("serverInfo.version = %q, want 9.8.7", res.ServerInfo.Version)
	}
}
