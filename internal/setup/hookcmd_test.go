package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestHookCommandRunsInSh: the hook command line, run by sh as the
// clients run it, gives heart-hook exactly the argv of the interface, with
// spaces, quotes and $ in the paths.
func TestHookCommandRunsInSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no sh")
	}
	root := t.TempDir()
	binDir := filepath.Join(root, `it's a "bin" $HOME`)
	hook := filepath.Join(binDir, "heart-hook")
	out := filepath.Join(root, "argv")
	writeFile(t, hook, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \""+out+"\"\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	w := Wiring{Dir: filepath.Join(root, "ai works 'x'"), HeartHook: hook, MCPHeart: filepath.Join(root, `other's $bin`, "mcp-heart")}
	cmd := w.hookCommand(ClientClaudeCode)
	if b, err := exec.Command("/bin/sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("sh -c %s: %v\n%s", cmd, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := w.hookArgv(ClientClaudeCode)[1:]
	if !slices.Contains(want, "--mcp-heart") {
		t.Fatalf("argv %q: an mcp-heart not next to heart-hook is not named", want)
	}
	if got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("heart-hook got %q, want %q", got, want)
	}
	if !isHeartHook(cmd) {
		t.Errorf("isHeartHook(%s) = false", cmd)
	}
}

func TestIsHeartHook(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{`'/usr/bin/heart-hook' --client gemini --workspace '/w'`, true},
		{`heart-hook --client codex`, true},
		{`"/opt/my dir/heart-hook" x`, true},
		{`/opt/my\ dir/heart-hook.exe`, true},
		{`'/it'\''s/heart-hook' --client agy`, true},
		{`./guard.sh heart-hook`, false},
		{`/usr/bin/heart-hooks`, false},
		{`echo heart-hook`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := isHeartHook(tt.cmd); got != tt.want {
			t.Errorf("isHeartHook(%s) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// A hook whose program is gone (heart-hook uninstalled) still exits 0: a
// failing hook blocks a Gemini CLI agent.
func TestHookCommandNeverFails(t *testing.T) {
	w := Wiring{Dir: t.TempDir(), HeartHook: filepath.Join(t.TempDir(), "gone", "heart-hook")}
	cmd := w.hookCommand(ClientGemini)
	if b, err := exec.Command("/bin/sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("sh -c %s: %v\n%s", cmd, err, b)
	}
}

// TestHookNamesMCPHeartElsewhere: heart-hook knows the real mcp-heart as
// the file next to it; where init registered another (--mcp-heart), the
// hooks name it, and only then.
func TestHookNamesMCPHeartElsewhere(t *testing.T) {
	bin := t.TempDir()
	hook := filepath.Join(bin, "heart-hook")
	writeFile(t, hook, "#!/bin/false\n")
	w := Wiring{Dir: t.TempDir(), HeartHook: hook, MCPHeart: filepath.Join(bin, "mcp-heart")}
	if argv := w.hookArgv(ClientClaudeCode); slices.Contains(argv, "--mcp-heart") {
		t.Errorf("mcp-heart next to heart-hook: argv %q names it", argv)
	}
	elsewhere := fakeBinary(t, "mcp-heart")
	w.MCPHeart = elsewhere
	if argv := w.hookArgv(ClientClaudeCode); !slices.Equal(argv[len(argv)-2:], []string{"--mcp-heart", elsewhere}) {
		t.Errorf("mcp-heart elsewhere: argv %q, want it named last", argv)
	}
	// A link next to heart-hook to the mcp-heart registered: the same file.
	if err := os.Symlink(elsewhere, filepath.Join(bin, "mcp-heart")); err != nil {
		t.Skip(err)
	}
	if argv := w.hookArgv(ClientClaudeCode); slices.Contains(argv, "--mcp-heart") {
		t.Errorf("the registered mcp-heart is the file next to heart-hook: argv %q names it", argv)
	}
	if !strings.Contains(w.hookCommand(ClientClaudeCode), "--workspace") {
		t.Error(w.hookCommand(ClientClaudeCode))
	}
}
