package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// freeAddr is a loopback address with a port free right now.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startRun(t *testing.T, cfg string) (*testutil.Proc, *bytes.Buffer) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Stderr = &stderr
	return testutil.Start(t, cmd), &stderr
}

func counterOf(st map[string]any, name string) float64 {
	c, _ := st["counters"].(map[string]any)
	v, _ := c[name].(float64)
	return v
}

// The pause is a file: it holds across a kill -9 and a restart, and the
// HTTP resume (token required) ends it.
func TestE2EPauseSurvivesKill9AndRestart(t *testing.T) {
	addr := freeAddr(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("tok-123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: pia\npulse: {interval: 200ms}\nschedule: {every: 300ms}\nhttp: {listen: %q, token_file: %q}\n", addr, tokenFile))
	wd := filepath.Join(binDir, "watchdog")
	cmd, stderr := startRun(t, cfg)
	waitUntil(t, "a delivered wakeup", 10*time.Second, func() bool { return counterOf(readState(t, ws), "delivered") > 0 })

	out, err := exec.Command(wd, "pause", "-c", cfg, "--reason", "dentist").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pia: paused") {
		t.Fatalf("watchdog pause: %v\n%s", err, out)
	}
	// The pause is the operator's: it is written outside the workspace, for
	// the owner only.
	if files := pauseFiles(t, cfg); len(files) != 1 {
		t.Fatalf("pause files %v, want one under state_dir", files)
	} else if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 || strings.HasPrefix(files[0], ws.Root) {
		t.Fatalf("pause file %s: %v, %v", files[0], fi.Mode(), err)
	}
	waitUntil(t, "the pause in the state", 5*time.Second, func() bool {
		st := readState(t, ws)
		p, _ := st["pause"].(map[string]any)
		return p != nil && p["reason"] == "dentist" && counterOf(st, "paused") > 0
	})
	status, _ := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
	me, _ := user.Current()
	if !strings.Contains(string(status), "PAUSED") || !strings.Contains(string(status), "dentist") || me == nil || !strings.Contains(string(status), "by "+me.Username) {
		t.Fatalf("status does not show the pause:\n%s", status)
	}

	// kill -9: no chance to clean up. The restarted watchdog is paused at
	// once: it counts paused wakeups and delivers none.
	if err := cmd.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	startRun(t, cfg)
	waitUntil(t, "paused wakeups after the restart", 10*time.Second, func() bool {
		st := readState(t, ws)
		return st != nil && st["pid"] != float64(cmd.Cmd.Process.Pid) && counterOf(st, "paused") >= 2
	})
	if st := readState(t, ws); counterOf(st, "delivered") != 0 || st["pause"] == nil {
		t.Fatalf("after restart: delivered %v, pause %v", counterOf(st, "delivered"), st["pause"])
	}

	post := func(path, token string) int {
		req, _ := http.NewRequest("POST", "http://"+addr+path, strings.NewReader("{}"))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	waitUntil(t, "the http server", 5*time.Second, func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	if code := post("/api/v1/agents/pia/resume", ""); code != http.StatusUnauthorized {
		t.Fatalf("resume without token: %d", code)
	}
	if code := post("/api/v1/agents/pia/resume", "tok-123"); code != http.StatusOK {
		t.Fatalf("resume: %d", code)
	}
	waitUntil(t, "wakeups after resume", 5*time.Second, func() bool {
		st := readState(t, ws)
		return st["pause"] == nil && counterOf(st, "delivered") > 0
	})
	if files := pauseFiles(t, cfg); len(files) != 0 {
		t.Fatalf("pause file after resume: %v", files)
	}
	if strings.Contains(stderr.String(), "tok-123") {
		t.Fatal("the token reached the log")
	}

	// /api/v1/status carries the same state.
	resp, err := http.Get("http://" + addr + "/api/v1/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Agents []struct {
			Agent       string       `json:"agent"`
			HeartbeatID workspace.ID `json:"heartbeat_id"`
			Running     bool         `json:"running"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Agents) != 1 || body.Agents[0].Agent != "pia" || !body.Agents[0].Running || body.Agents[0].HeartbeatID == "" {
		t.Fatalf("/api/v1/status: %v %+v", err, body)
	}
}

// A non-loopback listen without a token is refused at start.
func TestE2ERefusesAnOpenNonLoopbackListen(t *testing.T) {
	_, cfg, _ := initWorkspace(t, "http: {listen: \"0.0.0.0:0\"}\n")
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "token_file") {
		t.Fatalf("watchdog run with 0.0.0.0 and no token: %v\n%s", err, out)
	}
}

// pauseFiles lists the pause file of the config's agent, if it exists
// (under this run's own state_dir: testutil.IsolateState).
func pauseFiles(t *testing.T, cfgPath string) []string {
	t.Helper()
	c, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	file := c.AgentConfigs()[0].PauseFile()
	if _, err := os.Stat(file); err != nil {
		return nil
	}
	return []string{file}
}
