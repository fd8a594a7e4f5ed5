package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/notify"
)

// A question is notified once at once, and once more after asks.remind
// while it still waits; an answered one is not reminded of.
func TestAQuestionIsRemindedOnceWhileItWaits(t *testing.T) {
	var mu sync.Mutex
	var titles []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		mu.Lock()
		titles = append(titles, r.Header.Get("Title"))
		mu.Unlock()
		io.WriteString(w, `{"id":"x","event":"message"}`)
	}))
	defer srv.Close()
	n, err := notify.New([]notify.Target{{URL: "ntfy://" + strings.TrimPrefix(srv.URL, "http://") + "/t?scheme=http", MinLevel: checks.Warning, MinInterval: time.Millisecond}}, notify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(time.Second)
	cfg := config.Defaults()
	cfg.Name = "luna"
	cfg.Asks.Remind = config.Duration(200 * time.Millisecond)
	h := newAsked(&cfg, nil, n)
	now := time.Now()
	waiting := asks.Question{ID: "waits0001", Agent: "luna", Tool: "Bash", Since: now, Hold: now.Add(time.Hour)}
	answered := asks.Question{ID: "answered1", Agent: "luna", Tool: "Edit", Since: now, Hold: now.Add(time.Hour)}
	var pmu sync.Mutex
	pending := []asks.Question{waiting, answered}
	h.pending = func() []asks.Question {
		pmu.Lock()
		defer pmu.Unlock()
		return append([]asks.Question(nil), pending...)
	}
	h.changed(asks.Change{Question: waiting})
	h.changed(asks.Change{Question: answered})
	pmu.Lock()
	pending = pending[:1]
	pmu.Unlock()
	h.changed(asks.Change{Question: answered, Record: &asks.Record{Agent: "luna", ID: answered.ID, Outcome: asks.Delivered, Decision: "allow"}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(titles, "|")
		mu.Unlock()
		if strings.Count(got, "still waits") == 1 && strings.Count(got, "asks to run") == 2 {
			if !strings.Contains(got, "ai-heart: luna still waits for you (Bash)") {
				t.Fatalf("titles %q: want the reminder of the Bash question", got)
			}
			// Reminders are one-shot timers: the one that fired is gone, the
			// answered question's was stopped, so none is left to fire.
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.timers) != 0 {
				t.Fatalf("reminders left: %v", h.timers)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("titles %q: want two questions and one reminder", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
