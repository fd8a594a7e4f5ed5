package daemon

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The client's telemetry stops while its hooks go on reporting turns: a
// channel_silent warning once a turn ends past the grace, ok again when
// the telemetry speaks; the state file shows when each channel last spoke.
func TestChannelSilentWhenTelemetryStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Thresholds.ChannelSilent = config.Duration(time.Minute)
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		usage := []telemetry.Report{{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: "k1"}}
		turn := func() {
			said(t, ws, hook.Event{Kind: hook.TurnStart})
			said(t, ws, hook.Event{Kind: hook.TurnEnd})
		}
		time.Sleep(200 * time.Millisecond)
		turn()
		if err := h.d.Telemetry("", usage); err != nil {
			t.Fatal(err)
		}
		if err := h.d.Telemetry("nobody", usage); !errors.Is(err, ErrUnknownAgent) {
			t.Fatalf("telemetry for an agent not run here: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		if st.Channels["hooks"].IsZero() || st.Channels["telemetry"].IsZero() {
			t.Fatalf("channels %v: want hooks and telemetry", st.Channels)
		}
		// Two minutes on, a turn through the hooks alone.
		time.Sleep(2 * time.Minute)
		turn()
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("channel_silent", "warning") {
			t.Fatalf("no channel_silent warning; checks %v", h.state().Checks["channel_silent"])
		}
		if msg := h.state().Checks["channel_silent"].Message; !strings.Contains(msg, "telemetry (last at") {
			t.Fatalf("message %q: want it to name the telemetry", msg)
		}
		h.d.Telemetry("tester", usage)
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if c := h.state().Checks["channel_silent"]; c.Level != "ok" {
			t.Fatalf("channel_silent %+v after the telemetry spoke, want ok", c)
		}
	})
}
