package deadman

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// A service that hangs never slows a beat: the queue holds one ping and
// the rest are dropped, each beat returning at once.
func TestBeatNeverWaits(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	t.Cleanup(func() { close(release); srv.Close() })
	p := New(Options{URL: srv.URL + "/ping/secret-uuid", Method: http.MethodGet, Every: time.Nanosecond, Timeout: time.Minute, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go p.Run(ctx)
	start := time.Now()
	for i := range 10000 {
		p.Beat(start.Add(time.Duration(i+1) * time.Millisecond))
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("10,000 beats against a hanging service took %s", took)
	}
}

// Pings go at most once an interval, to url/fail while a check is at
// error when fail is on; a failing service is logged once, without the URL.
func TestPingsFailAndSecret(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	got := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/fail") {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		got <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	var logs bytes.Buffer
	var logMu sync.Mutex
	log := zerolog.New(zerolog.SyncWriter(&lockedWriter{w: &logs, mu: &logMu}))
	p := New(Options{URL: srv.URL + "/ping/secret-uuid", Method: http.MethodPost, Every: time.Minute, Fail: true, Timeout: 5 * time.Second, Log: log})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go p.Run(ctx)
	t0 := time.Now()
	wait := func() {
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			t.Fatal("no ping")
		}
	}
	p.Observe("luna", false)
	p.Beat(t0)
	wait()
	p.Beat(t0.Add(30 * time.Second)) // within the interval: none
	p.Observe("luna", true)
	p.Beat(t0.Add(61 * time.Second))
	wait()
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(paths, ", ") != "POST /ping/secret-uuid, POST /ping/secret-uuid/fail" {
		t.Fatalf("pings %v", paths)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		logMu.Lock()
		l := logs.String()
		logMu.Unlock()
		if strings.Contains(l, "healthcheck ping failed") {
			if strings.Contains(l, "secret-uuid") {
				t.Fatalf("the log shows the secret URL: %s", l)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log of the refused ping: %q", l)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A URL with a query string (healthchecks.io's ?create=1, a token) gets
// /fail on its path, before the query: appended to the end it landed in
// the query, and the service saw a success.
func TestFailGoesInThePathBeforeTheQuery(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.URL.Path + "?" + r.URL.RawQuery
	}))
	t.Cleanup(srv.Close)
	p := New(Options{URL: srv.URL + "/ping/secret-uuid?create=1&rid=a%2Fb", Method: http.MethodGet, Every: time.Minute, Fail: true, Timeout: 5 * time.Second, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go p.Run(ctx)
	p.Observe("a", true)
	p.Beat(time.Now())
	select {
	case u := <-got:
		if u != "/ping/secret-uuid/fail?create=1&rid=a%2Fb" {
			t.Fatalf("pinged %q, want /fail on the path and the query kept as it was", u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no ping")
	}
}
