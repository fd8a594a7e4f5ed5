//go:build linux

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2ESecretsFromCredentialFiles: the shipped unit's way to give the
// watchdog its secrets, systemd's LoadCredential=, which hands the unit
// files in $CREDENTIALS_DIRECTORY: the config names them as
// ${CREDENTIALS_DIRECTORY}/NAME. The secrets (the healthcheck URL, a notify
// URL, the page's token) work, and none is ever in the watchdog's
// environment, which a process of the same user can read in /proc before
// the watchdog makes itself non-dumpable (24 starts of 30 in a review).
func TestE2ESecretsFromCredentialFiles(t *testing.T) {
	t.Parallel()
	const hcSecret, notifySecret, token = "0f3c-hc-SECRET", "ntfy-SECRET", "page-token-SECRET"
	var mu sync.Mutex
	var pinged, notified bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.URL.Path == "/ping/"+hcSecret:
			pinged = true
		case strings.Contains(r.URL.RawQuery, notifySecret):
			notified = true
		}
	}))
	t.Cleanup(srv.Close)
	creds := t.TempDir() // as systemd makes it: the unit's user's, 0500, files 0400
	for name, content := range map[string]string{
		"hc-url":     srv.URL + "/ping/" + hcSecret + "\n",
		"notify-url": "generic+" + srv.URL + "/hook?pw=" + notifySecret + "\n",
		"token":      token + "\n",
	} {
		if err := os.WriteFile(filepath.Join(creds, name), []byte(content), 0o400); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(creds, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(creds, 0o700) })
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, "")
	writeConfig(t, cfg, fmt.Sprintf(`workspace: %s
pulse: {interval: 200ms}
schedule: {every: 0s}
thresholds: {inactivity_warning: 1s, inactivity_error: 2s}
healthcheck: {url_file: "${CREDENTIALS_DIRECTORY}/hc-url", interval: 1s}
http: {listen: %q, token_file: "${CREDENTIALS_DIRECTORY}/token"}
alerts:
  notify:
    - {url_file: "${CREDENTIALS_DIRECTORY}/notify-url", min_level: warning, min_interval: 1s}
`, ws.Root, addr))
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = append(os.Environ(), "CREDENTIALS_DIRECTORY="+creds)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	p := testutil.Start(t, cmd)
	waitUntil(t, "a ping and a notification with the secrets from the files", 20*time.Second, func() bool {
		select {
		case <-p.Done():
			t.Fatalf("watchdog run ended: %v\n%s", p.Wait(), stderr.String())
		default:
		}
		mu.Lock()
		defer mu.Unlock()
		return pinged && notified
	})
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/api/v1/agents/ai-works/pause", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("pause with the token from the credential file = %d, want 200", resp.StatusCode)
	}
	if os.Geteuid() != 0 {
		return // the watchdog is non-dumpable: only root reads its environ
	}
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{hcSecret, notifySecret, token} {
		if strings.Contains(string(env), s) {
			t.Errorf("the watchdog's environment holds %q", s)
		}
	}
	if !strings.Contains(string(env), "CREDENTIALS_DIRECTORY="+creds) {
		t.Errorf("read the wrong process's environment? no CREDENTIALS_DIRECTORY in it")
	}
}
