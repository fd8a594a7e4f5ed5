package metrics

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/state"
)

// BenchmarkScrape50Agents is one /metrics scrape of a process running 50
// agents with every check, through the real handler (text format, no
// compression). It reports the page's size.
func BenchmarkScrape50Agents(b *testing.B) {
	now := time.Now()
	src := agentStates(50, now)
	for i := range src {
		src[i].Checks = map[string]state.CheckState{}
		for _, c := range checks.Names {
			src[i].Checks[c] = state.CheckState{Level: "ok"}
		}
	}
	m := New(src, func() time.Time { return now })
	for i := range 50 {
		m.Pulse(src[i].Agent, time.Millisecond)
		m.Alert(src[i].Agent, "inactivity", "warning")
	}
	h := m.Handler()
	var size int
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/scrape")
}
