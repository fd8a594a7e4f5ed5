package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2ENotifySecretStaysWithTheWatchdog: a notify URL's ${ENV} secret is
// the watchdog's; the exec agent's run does not inherit it, so it cannot
// print it into the wakeup transcript (as it did before).
func TestE2ENotifySecretStaysWithTheWatchdog(t *testing.T) {
	t.Parallel()
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../internal/delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	const secret = "hunter2-S3CRET"
	ws, cfg, _ := initWorkspace(t, "")
	writeConfig(t, cfg, fmt.Sprintf(`workspace: %s
pulse: {interval: 500ms}
schedule: {every: 1s}
agent: {delivery: exec, command: [%q, env], timeout: 10s}
alerts:
  notify:
    - {url: "generic+http://127.0.0.1:9/hook?pw=${AIHEART_HOOK_PW}", min_level: error}
`, ws.Root, agent))
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = append(os.Environ(), "AIHEART_HOOK_PW="+secret, "AIHEART_VISIBLE=shown")
	testutil.Start(t, cmd)
	var transcript string
	waitUntil(t, "a wakeup transcript", 20*time.Second, func() bool {
		files, _ := filepath.Glob(ws.Path("stats/wakeups/*.jsonl"))
		transcript = ""
		for _, f := range files {
			b, _ := os.ReadFile(f)
			transcript += string(b)
		}
		return strings.Contains(transcript, "AIHEART_VISIBLE=shown")
	})
	if strings.Contains(transcript, secret) || strings.Contains(transcript, "AIHEART_HOOK_PW") {
		t.Fatalf("the agent's run inherited the notify secret:\n%.2000s", transcript)
	}
}
