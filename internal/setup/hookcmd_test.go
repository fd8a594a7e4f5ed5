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
	w := Wiring{Dir: filepath.Join(root, "ai works 'x'"), HeartHook: hook}
	cmd := w.hookCommand(ClientClaudeCode)
	if b, err := exec.Command("/bin/sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("sh -c %s: %v\n%s", cmd, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := w.hookArgv(ClientClaudeCode)[1:]
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
