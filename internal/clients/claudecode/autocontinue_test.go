package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestAutoContinueOff(t *testing.T) {
	for name, c := range map[string]struct {
		shared, local string
		want          bool
	}{
		"absent":            {"", "", false},
		"shared off":        {`{"autoContinueAtUsageLimit": false}`, "", true},
		"shared on":         {`{"autoContinueAtUsageLimit": true}`, "", false},
		"local on wins":     {`{"autoContinueAtUsageLimit": false}`, `{"autoContinueAtUsageLimit": true}`, false},
		"local off wins":    {`{"autoContinueAtUsageLimit": true}`, `{"autoContinueAtUsageLimit": false}`, true},
		"malformed local":   {`{"autoContinueAtUsageLimit": false}`, `{"autoContinueAtUsageLimit": fal`, true},
		"not a bool":        {`{"autoContinueAtUsageLimit": "false"}`, "", false},
		"huge says nothing": {`{"x": "` + strings.Repeat("a", maxSettings) + `", "autoContinueAtUsageLimit": false}`, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
			if c.shared != "" {
				os.WriteFile(filepath.Join(root, ".claude/settings.json"), []byte(c.shared), 0o644)
			}
			if c.local != "" {
				os.WriteFile(filepath.Join(root, ".claude/settings.local.json"), []byte(c.local), 0o644)
			}
			if got := (Adapter{}).AutoContinueOff(root); got != c.want {
				t.Fatalf("AutoContinueOff = %v, want %v", got, c.want)
			}
		})
	}
}

// A FIFO the agent planted where a settings file goes is not waited on.
func TestAutoContinueOffFIFO(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(root, ".claude/settings.local.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.WriteFile(filepath.Join(root, ".claude/settings.json"), []byte(`{"autoContinueAtUsageLimit": false}`), 0o644)
	done := make(chan bool, 1)
	go func() { done <- (Adapter{}).AutoContinueOff(root) }()
	if !<-done {
		t.Fatal("the shared file's word was lost behind the FIFO")
	}
}
