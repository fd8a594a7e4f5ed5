package fleet

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ai-heart/ai-heart/internal/config"
)

func TestCollectorShowsPresence(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	tp := Topics{Prefix: "heart"}
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }})
	for _, p := range []Pulse{
		{Agent: "gone", Host: "h1", Watchdog: "h1/1", Time: now.Add(-time.Hour), PulseInterval: config.Duration(10 * time.Second), Worst: "ok"},
		{Agent: "live", Host: "h2", Watchdog: "h2/1", Time: now, PulseInterval: config.Duration(10 * time.Second), Worst: "ok"},
	} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		v.Handle(tp.State(p.Agent), b, true)
	}
	reg := prometheus.NewPedanticRegistry() // also checks Collect against Describe
	reg.MustRegister(v.Collector())
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			key := mf.GetName()
			for _, l := range m.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			got[key] = m.GetGauge().GetValue()
		}
	}
	want := map[string]float64{
		"watchdog_fleet_agent_online agent=gone host=h1": 0,
		"watchdog_fleet_agent_online agent=live host=h2": 1,
	}
	if len(got) != len(want) {
		t.Errorf("gathered %v, want %v", got, want)
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s = %v (present %v), want %v", k, g, ok, w)
		}
	}
}
