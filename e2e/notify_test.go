package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
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
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// inbox is a local notification receiver: it records each request and
// when it arrived.
type inbox struct {
	*httptest.Server
	mu   sync.Mutex
	msgs []received
}

type received struct {
	at           time.Time
	title, text  string
	path, header string
}

func newInbox(t *testing.T, hang <-chan struct{}) *inbox {
	in := &inbox{}
	in.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		m := received{at: time.Now(), path: r.URL.Path, header: r.Header.Get("Title"), text: string(b)}
		var js map[string]string
		if json.Unmarshal(b, &js) == nil {
			m.title, m.text = js["title"], js["message"]
		}
		in.mu.Lock()
		in.msgs = append(in.msgs, m)
		in.mu.Unlock()
		if hang != nil {
			<-hang
		}
		io.WriteString(w, `{"id":"1","event":"message"}`)
	}))
	t.Cleanup(in.Close)
	return in
}

func (in *inbox) find(what string) (received, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, m := range in.msgs {
		if strings.Contains(m.title+"\n"+m.text, what) {
			return m, true
		}
	}
	return received{}, false
}

func (in *inbox) all() []received {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]received(nil), in.msgs...)
}

// alertSeen waits for an alert line for check at level.
func alertSeen(t *testing.T, alerts, check, level string) {
	t.Helper()
	waitUntil(t, check+" "+level+" in the alerts file", 15*time.Second, func() bool {
		b, _ := os.ReadFile(alerts)
		return strings.Contains(string(b), fmt.Sprintf(`"level":%q,"agent":"nia","check":%q`, level, check))
	})
}

// Notifications on state change reach a JSON webhook (URL from a file) and
// an ntfy server (URL with ${ENV}), one message per pulse, with no secret in
// the log; the alert also reaches the page's event stream.
func TestE2ENotificationsReachLocalReceivers(t *testing.T) {
	hook, ntfy := newInbox(t, nil), newInbox(t, nil)
	dir := t.TempDir()
	urlFile := filepath.Join(dir, "hook.url")
	os.WriteFile(urlFile, []byte("generic+"+hook.URL+"/hooks/S3CRET-path?template=json\n"), 0o600)
	addr := freeAddr(t)
	ws, cfg, alerts := initWorkspace(t, "")
	writeConfig(t, cfg, fmt.Sprintf(`workspace: %s
name: nia
pulse: {interval: 200ms}
schedule: {every: 0s}
thresholds: {inactivity_warning: 1s, inactivity_error: 2s, introspection: 1h}
http: {listen: %q}
alerts:
  file: %s
  notify:
    - {url_file: %q, min_level: warning, min_interval: 100ms}
    - {url: "ntfy://%s/${AIHEART_NTFY_TOPIC}?scheme=http", min_level: error}
`, ws.Root, addr, alerts, urlFile, strings.TrimPrefix(ntfy.URL, "http://")))
	writeProof(t, ws) // inactivity counts from a first proof
	var stderr strings.Builder
	var mu sync.Mutex
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = append(os.Environ(), "AIHEART_NTFY_TOPIC=topic-T0PSECRET")
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	testutil.Start(t, cmd)

	// The page's event stream, read from the start.
	var sseErr, changed time.Time // when the event arrived; the alert's own time
	sseDone := make(chan struct{})
	waitUntil(t, "the http server", 10*time.Second, func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	resp, err := http.Get("http://" + addr + "/api/v1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	go func() {
		defer close(sseDone)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		alertEvent := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "event: alert":
				alertEvent = true
			case alertEvent && strings.HasPrefix(line, "data:") && strings.Contains(line, `"check":"inactivity"`) && strings.Contains(line, `"level":"error"`):
				sseErr = time.Now()
				var a struct{ Time time.Time }
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data:")), &a) == nil {
					changed = a.Time
				}
				return
			case line == "":
				alertEvent = false
			}
		}
	}()

	alertSeen(t, alerts, "inactivity", "error")
	var toHook, toNtfy received
	waitUntil(t, "the error at both receivers", 15*time.Second, func() bool {
		var ok1, ok2 bool
		toHook, ok1 = hook.find("ERROR inactivity")
		toNtfy, ok2 = ntfy.find("ERROR inactivity")
		return ok1 && ok2
	})
	select {
	case <-sseDone:
	case <-time.After(10 * time.Second):
		t.Fatal("no inactivity error on the event stream")
	}
	if toHook.title != "ai-heart: nia ERROR" && !strings.HasPrefix(toHook.title, "ai-heart: nia") {
		t.Fatalf("webhook title %q", toHook.title)
	}
	if toHook.path != "/hooks/S3CRET-path" || toNtfy.path != "/topic-T0PSECRET" || !strings.HasPrefix(toNtfy.header, "ai-heart: nia") {
		t.Fatalf("receivers got %+v and %+v", toHook, toNtfy)
	}
	// The warning went to the warning target only.
	if _, ok := hook.find("WARNING inactivity"); !ok {
		t.Fatal("the webhook had no warning")
	}
	if _, ok := ntfy.find("WARNING inactivity"); ok {
		t.Fatal("the error-only target got a warning")
	}
	t.Logf("level change -> SSE alert event: %v; -> webhook: %v; -> ntfy: %v (from the alert's time, taken at the pulse's start)",
		sseErr.Sub(changed).Round(time.Millisecond), toHook.at.Sub(changed).Round(time.Millisecond), toNtfy.at.Sub(changed).Round(time.Millisecond))

	// Back to ok after a log: the agent is fine again, and the warning
	// target hears it.
	writeProof(t, ws)
	deadline := time.Now().Add(15 * time.Second)
	for _, ok := hook.find("OK inactivity"); !ok; _, ok = hook.find("OK inactivity") {
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(alerts)
			t.Fatalf("no back to OK at the webhook; it got %+v\nalerts:\n%s", hook.all(), b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	logs := stderr.String()
	mu.Unlock()
	for _, secret := range []string{"S3CRET", "T0PSECRET"} {
		if strings.Contains(logs, secret) {
			t.Fatalf("%s reached the log", secret)
		}
	}
	if !strings.Contains(logs, `"notify":"generic+http://127.0.0.1`) {
		t.Fatalf("the start-up line does not name the target:\n%s", logs)
	}
}

// A notification endpoint that never answers costs the pulse nothing: the
// pulses stay on time while every send hangs until its timeout.
func TestE2EAHungReceiverLeavesThePulseOnTime(t *testing.T) {
	hang := make(chan struct{})
	hung := newInbox(t, hang)
	t.Cleanup(func() { close(hang) })
	ws, cfg, _ := initWorkspace(t, "")
	writeConfig(t, cfg, fmt.Sprintf(`workspace: %s
name: nia
pulse: {interval: 200ms}
schedule: {every: 0s}
thresholds: {inactivity_warning: 600ms, inactivity_error: 1200ms, introspection: 1h}
alerts: {notify: [{url: "generic+%s/hang", min_level: info, min_interval: 1ms}]}
`, ws.Root, hung.URL))
	writeProof(t, ws)
	startRun(t, cfg)
	waitUntil(t, "a send hanging at the receiver", 10*time.Second, func() bool {
		hung.mu.Lock()
		defer hung.mu.Unlock()
		return len(hung.msgs) > 0
	})
	// Pulses, counted from the state file, go on while the send hangs.
	var started float64
	waitUntil(t, "the state file", 5*time.Second, func() bool { started = counterOf(readState(t, ws), "pulses"); return started > 0 })
	waitUntil(t, "15 more pulses during the hang", 20*time.Second, func() bool {
		return counterOf(readState(t, ws), "pulses") >= started+15
	})
	st := readState(t, ws)
	p, _ := st["pulse"].(map[string]any)
	late, _ := p["max_late_ms"].(float64)
	// A pulse that waited on the send would be late by the send's 10 s
	// timeout at least.
	if late >= 5000 {
		t.Fatalf("a pulse was %v ms late while the receiver hung", late)
	}
	hung.mu.Lock()
	sends := len(hung.msgs)
	hung.mu.Unlock()
	t.Logf("pulse 200ms, receiver hung on %d sends: %v pulses, the latest pulse at most %v ms late (pulse gaps <= interval + that)",
		sends, counterOf(st, "pulses"), late)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// writeProof writes an activity log now, as an agent would.
func writeProof(t *testing.T, ws *workspace.Workspace) {
	t.Helper()
	theme := workspace.Theme{StartID: workspace.NewID(time.Now()), Part: "x"}
	id := workspace.NewID(time.Now())
	if err := ws.WriteFile(theme.HistoriesDir()+"/"+string(id)+".md", workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"working"}}.Format(id, "")); err != nil {
		t.Fatal(err)
	}
}
