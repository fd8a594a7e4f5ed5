package fleet

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
)

// A pause travels with who, why and until, so a fleet view's card says
// what the agent's own page says; what the operator typed is cut short.
func TestPulseCarriesThePause(t *testing.T) {
	until := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	st := state.State{Agent: "luna", Pause: &pause.Pause{Since: until.Add(-2 * time.Hour), Until: until, By: "ops", Reason: "model migration " + strings.Repeat("x", 500)}}
	b, err := json.Marshal(FromState(st, "host", "host/watchdog", 1))
	if err != nil {
		t.Fatal(err)
	}
	var p Pulse
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	got := p.State().Pause
	if got == nil || !got.Until.Equal(until) || got.By != "ops" || !strings.HasPrefix(got.Reason, "model migration") || len(got.Reason) > maxActivity+len("…") {
		t.Fatalf("the view's pause %+v", got)
	}
	if st.Pause.Reason == got.Reason {
		t.Error("the agent's own pause was cut in place")
	}
	// An older watchdog's pulse says only paused.
	if got := (Pulse{Agent: "luna", Paused: true}).State().Pause; got == nil || !got.Until.IsZero() {
		t.Errorf("paused without details: %+v", got)
	}
}
