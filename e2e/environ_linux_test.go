//go:build linux

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestE2EAgentCannotReadTheWatchdogsEnvironment: an exec agent running as
// the watchdog's own user reads /proc/$PPID/environ, the environment the
// watchdog started with, where a notify URL's ${NAME} secret is (unsetting
// it later does not change that file): the watchdog is non-dumpable, so the
// read is refused. The watchdog's own /proc/self reads (the process metrics
// on /metrics) still work. As root the test runs both as nobody: root reads
// any process's environ.
func TestE2EAgentCannotReadTheWatchdogsEnvironment(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-ENVIRON"
	base, err := os.MkdirTemp("", "aiheart-environ-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	asUser := func(cmd *exec.Cmd) *exec.Cmd {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		cmd.Env = append(os.Environ(), "HOME="+filepath.Join(base, "home"))
		return cmd
	}
	watchdog, agent := filepath.Join(base, "watchdog"), filepath.Join(base, "fakeagent")
	bin, err := os.ReadFile(filepath.Join(binDir, "watchdog"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(watchdog, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testutil.Build("../internal/delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"home", "state"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "ai-works")
	if cred != nil {
		for _, d := range []string{base + "/home", base + "/state"} {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := asUser(exec.Command(watchdog, "init", dir)).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	cfg := filepath.Join(base, "watchdog.yaml")
	writeConfig(t, cfg, fmt.Sprintf(`workspace: %s
state_dir: %s
pulse: {interval: 500ms}
schedule: {every: 1s}
agent: {delivery: exec, command: [%q, parentenv], timeout: 10s}
http: {listen: %q}
alerts:
  notify:
    - {url: "generic+http://127.0.0.1:9/hook?pw=${AIHEART_HOOK_PW}", min_level: error}
`, dir, filepath.Join(base, "state"), agent, addr))
	cmd := asUser(exec.Command(watchdog, "run", "-c", cfg, "--log-format", "json"))
	cmd.Env = append(cmd.Env, "AIHEART_HOOK_PW="+secret)
	testutil.Start(t, cmd)
	ws, _ := workspace.New(dir, nil)
	var transcript string
	waitUntil(t, "a wakeup transcript", 20*time.Second, func() bool {
		files, _ := filepath.Glob(ws.Path("stats/wakeups/*.jsonl"))
		transcript = ""
		for _, f := range files {
			b, _ := os.ReadFile(f)
			transcript += string(b)
		}
		return strings.Contains(transcript, "parentenv")
	})
	if strings.Contains(transcript, secret) || strings.Contains(transcript, "AIHEART_HOOK_PW") {
		t.Fatalf("the agent read the notify secret from its watchdog's environment:\n%.2000s", transcript)
	}
	if !strings.Contains(transcript, "permission denied") {
		t.Fatalf("the agent's read of /proc/$PPID/environ was not refused:\n%.2000s", transcript)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "process_open_fds") {
		t.Fatalf("/metrics = %d, want the process metrics read from /proc/self:\n%.1500s", resp.StatusCode, body)
	}
}
