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
// the Debian package build it, prints its version, commit and date on
// stdout for each of the three binaries (a --version run serves nothing, so
// mcp-heart's stdout is free), and mcp-heart reports the same version in
// its MCP server info.
func TestE2EVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const pkg = "github.com/ai-heart/ai-heart/internal/version"
	ldflags := "-X " + pkg + ".version=9.8.7 -X " + pkg + ".commit=0123456789abcdef -X " + pkg + ".date=2026-11-24T10:00:00Z"
	for _, cmd := range []string{"watchdog", "mcp-heart", "heart-hook"} {
		if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", filepath.Join(dir, cmd), "../cmd/"+cmd).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", cmd, err, out)
		}
	}
	const want = "9.8.7 (commit 0123456789ab, built 2026-11-24T10:00:00Z)"
	for _, name := range []string{"watchdog", "mcp-heart", "heart-hook"} {
		cmd := exec.Command(filepath.Join(dir, name), "--version")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s --version: %v", name, err)
		}
		if strings.TrimSpace(stdout.String()) != name+" "+want || stderr.Len() != 0 {
			t.Errorf("%s --version: stdout %q, stderr %q; want %q and nothing", name, stdout.String(), stderr.String(), name+" "+want)
		}
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

// TestMakeBuildStamps: make build stamps each of the three binaries it
// builds, heart-hook as much as the others.
func TestMakeBuildStamps(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	t.Parallel()
	bin := t.TempDir()
	mk := exec.Command("make", "-s", "-C", "..", "build", "BIN="+bin, "VERSION=9.8.7", "COMMIT=0123456789abcdef", "DATE=2026-11-24T10:00:00Z")
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	for _, name := range []string{"watchdog", "mcp-heart", "heart-hook"} {
		out, err := exec.Command(filepath.Join(bin, name), "--version").Output()
		if want := name + " 9.8.7 (commit 0123456789ab, built 2026-11-24T10:00:00Z)"; err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("%s --version = %q, %v; want %q", name, out, err, want)
		}
	}
}
