package metrics

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/fleet"
)

// fakePublisher stands for a *fleet.Publisher.
type fakePublisher struct {
	connected func() bool
	counts    func() fleet.Counts
}

var _ Publisher = (*fakePublisher)(nil)

func (f *fakePublisher) Connected() bool      { return f.connected() }
func (f *fakePublisher) Counts() fleet.Counts { return f.counts() }

func TestPublisherMetrics(t *testing.T) {
	tests := []struct {
		name      string
		connected bool
		counts    fleet.Counts
		want      []string
	}{
		{"connected", true, fleet.Counts{States: 7, Alerts: 2, Connects: 1}, []string{
			"watchdog_mqtt_connected 1",
			`watchdog_mqtt_published_total{kind="state"} 7`,
			`watchdog_mqtt_published_total{kind="alert"} 2`,
			`watchdog_mqtt_dropped_total{kind="state"} 0`,
			"watchdog_mqtt_connects_total 1",
		}},
		{"away", false, fleet.Counts{States: 7, DroppedStates: 3, DroppedAlerts: 4, Connects: 2}, []string{
			"watchdog_mqtt_connected 0",
			`watchdog_mqtt_dropped_total{kind="state"} 3`,
			`watchdog_mqtt_dropped_total{kind="alert"} 4`,
			"watchdog_mqtt_connects_total 2",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(states{}, nil)
			m.AddPublisher(&fakePublisher{
				connected: func() bool { return tt.connected },
				counts:    func() fleet.Counts { return tt.counts },
			})
			body := string(scrape(t, m))
			for _, want := range tt.want {
				if !strings.Contains(body, want+"\n") {
					t.Errorf("scrape has no line %q", want)
				}
			}
		})
	}
}
