package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
)

// receiver is a local endpoint that records what it is sent.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []http.Header
	body []string
	hits chan struct{}
}

func newReceiver(t *testing.T, status int) *receiver {
	r := &receiver{hits: make(chan struct{}, 100)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, req.Header.Clone())
		r.body = append(r.body, string(b))
		r.mu.Unlock()
		w.WriteHeader(status)
		if status < 400 && strings.Contains(req.URL.Path, "topic") {
			io.WriteString(w, `{"id":"x","event":"message"}`) // what ntfy answers
		}
		r.hits <- struct{}{}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) wait(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-r.hits:
		case <-time.After(10 * time.Second):
			t.Fatalf("receiver got %d of %d requests", i, n)
		}
	}
}

func host(r *receiver) string { return strings.TrimPrefix(r.URL, "http://") }

type results struct {
	mu   sync.Mutex
	errs []error
	done chan struct{}
}

func newResults() *results { return &results{done: make(chan struct{}, 100)} }

func (r *results) on(agent string, err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	r.done <- struct{}{}
}

func (r *results) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(20 * time.Second):
		t.Fatal("no result")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errs[len(r.errs)-1]
}

func errorChange(check string) Change {
	return Change{Time: time.Now(), Level: checks.Error, Check: check, Message: check + " went wrong"}
}

// One pulse's changes reach a JSON webhook and an ntfy server as one
// message each, with the agent and the worst level in the title.
func TestNotificationsReachWebhookAndNtfy(t *testing.T) {
	hook, ntfy := newReceiver(t, 200), newReceiver(t, 200)
	res := newResults()
	n, err := New([]Target{
		{URL: "generic+" + hook.URL + "/hook?template=json", MinLevel: checks.Warning, MinInterval: time.Minute},
		{URL: "ntfy://" + host(ntfy) + "/topic?scheme=http", MinLevel: checks.Warning, MinInterval: time.Minute},
	}, Options{OnResult: res.on})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(time.Second)
	n.Add("ada", errorChange("inactivity"))
	n.Add("ada", Change{Time: time.Now(), Level: checks.Warning, Check: "introspection", Message: "no introspection"})
	n.Flush("ada")
	hook.wait(t, 1)
	ntfy.wait(t, 1)
	for range 2 {
		if err := res.wait(t); err != nil {
			t.Fatal(err)
		}
	}
	var payload map[string]string
	if err := json.Unmarshal([]byte(hook.body[0]), &payload); err != nil {
		t.Fatalf("webhook body %q: %v", hook.body[0], err)
	}
	if payload["title"] != "ai-heart: ada ERROR" || !strings.Contains(payload["message"], "ERROR inactivity: inactivity went wrong") ||
		!strings.Contains(payload["message"], "WARNING introspection") {
		t.Fatalf("webhook payload %v", payload)
	}
	if ntfy.got[0].Get("Title") != "ai-heart: ada ERROR" || !strings.Contains(ntfy.body[0], "ERROR inactivity") {
		t.Fatalf("ntfy title %q body %q", ntfy.got[0].Get("Title"), ntfy.body[0])
	}
}

// A failing endpoint is retried, then given up on with a log line that
// names it without its secret.
func TestAFailingEndpointIsRetriedAndLoggedWithoutSecrets(t *testing.T) {
	bad := newReceiver(t, 500)
	var logBuf bytes.Buffer
	var mu sync.Mutex
	res := newResults()
	secret := "generic+" + bad.URL + "/hooks/T0KEN-abc123?template=json"
	n, err := New([]Target{{URL: secret, MinLevel: checks.Warning}},
		Options{Retries: 2, Backoff: time.Millisecond, Log: zerolog.New(lockedWriter{&mu, &logBuf}), OnResult: res.on})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(time.Second)
	n.Add("ada", errorChange("inactivity"))
	n.Flush("ada")
	bad.wait(t, 3)
	if err := res.wait(t); err == nil {
		t.Fatal("a 500 counted as delivered")
	}
	mu.Lock()
	logs := logBuf.String()
	mu.Unlock()
	if strings.Count(logs, "retrying") != 2 || !strings.Contains(logs, "failed after its retries") {
		t.Fatalf("logs:\n%s", logs)
	}
	if strings.Contains(logs, "T0KEN-abc123") {
		t.Fatalf("the secret reached the log:\n%s", logs)
	}
}

// A hung endpoint costs one timeout per attempt on the target's own worker:
// Add and Flush return at once, and the pulse's next flush is not held up.
func TestAHungEndpointNeverBlocksTheCaller(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer hung.Close()
	defer close(release)
	res := newResults()
	n, err := New([]Target{{URL: "generic+" + hung.URL + "/h", MinLevel: checks.Warning}},
		Options{Timeout: 50 * time.Millisecond, Retries: -1, Queue: 2, OnResult: res.on})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(time.Second)
	// Far more messages than the queue holds: the surplus is dropped and
	// reported, never waited for.
	for i := range 20 {
		n.Add("ada", Change{Time: time.Now(), Level: checks.Level(2 + i%2), Check: "c" + string(rune('a'+i)), Message: "x"})
		n.Flush("ada")
	}
	var failed int
	for range 20 {
		if res.wait(t) != nil {
			failed++
		}
	}
	if failed != 20 {
		t.Fatalf("%d of 20 messages failed; want all", failed)
	}
}

func TestNewRefusesAnUnknownServiceWithoutTheSecret(t *testing.T) {
	_, err := New([]Target{{URL: "nosuch://user:hunter22@example.com/x"}}, Options{})
	if err == nil || strings.Contains(err.Error(), "hunter22") || !strings.Contains(err.Error(), "alerts.notify[0]") {
		t.Fatalf("err = %v", err)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Pulses still flushing while the watchdog stops: Close never races a send
// into a closed queue, and Add and Flush after it do nothing.
func TestCloseWhileFlushing(t *testing.T) {
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer hook.Close()
	n, err := New([]Target{{URL: "generic+" + hook.URL + "/h", MinLevel: checks.Info}}, Options{Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n.Add("ada", Change{Time: time.Now(), Level: checks.Level(1 + i%3), Check: fmt.Sprint("c", g, "-", i)})
				n.Flush("ada")
			}
		}()
	}
	n.Close(time.Second)
	wg.Wait()
	n.Add("ada", errorChange("inactivity"))
	n.Flush("ada") // after Close: no panic, nothing sent
}
