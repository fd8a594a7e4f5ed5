package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestLoadSettings(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	writeFile := func(p, s string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	single := writeFile(filepath.Join(t.TempDir(), "single.yaml"), "timezone: Asia/Tokyo\nlanguage: ja\nthresholds: {inactivity_warning: 2m, inactivity_error: 4m}\n")
	fleet := writeFile(filepath.Join(t.TempDir(), "fleet.yaml"), "timezone: UTC\nagents:\n  - {workspace: "+other+", name: a}\n  - {workspace: "+root+", name: b, language: ja, thresholds: {inactivity_warning: 3m, inactivity_error: 7m, max_strict_deep_work: 45m}}\n")
	noMatch := writeFile(filepath.Join(t.TempDir(), "nomatch.yaml"), "agents:\n  - {workspace: "+other+", name: a}\n")

	// now is the clock LoadSettings reads; live states pulsed a second ago.
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const liveMark = "live:"
	live := func(fields string) string {
		return liveMark + `{"pulse_at":"2025-12-31T23:59:59Z","pulse_interval":"1s",` + fields + "}"
	}
	forged := func(fields string) string {
		return `{"pulse_at":"2025-12-31T23:59:59Z","pulse_interval":"1s",` + fields + "}"
	}
	if err := os.MkdirAll(filepath.Join(root, "stats"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		state   string // stats/watchdog_state.json content, "" for none
		config  string
		warn    time.Duration
		maxDeep time.Duration
		tz      string
		wantErr string
		lang    lang.Lang
	}{
		{"defaults", "", "", 5 * time.Minute, 30 * time.Minute, "Local", "", lang.English},
		{"state file", live(`"timezone":"Europe/Paris","thresholds":{"inactivity_warning":"1m0s","inactivity_error":"2m0s","introspection":"30m0s","max_strict_deep_work":"50m0s","tool_loop":8}`), "", time.Minute, 50 * time.Minute, "Europe/Paris", "", lang.English},
		{"state in japanese", live(`"timezone":"UTC","language":"ja"`), "", 5 * time.Minute, 30 * time.Minute, "UTC", "", lang.Japanese},
		{"state with unknown language", live(`"timezone":"UTC","language":"fr"`), "", 5 * time.Minute, 30 * time.Minute, "UTC", "", lang.English},
		{"torn state file", `{"timezone":"Eur`, "", 5 * time.Minute, 30 * time.Minute, "Local", "", lang.English},
		{"state without thresholds", live(`"timezone":"UTC"`), "", 5 * time.Minute, 30 * time.Minute, "UTC", "", lang.English},
		{"state with partial thresholds", live(`"timezone":"UTC","thresholds":{"inactivity_warning":"1m0s"}`), "", 5 * time.Minute, 30 * time.Minute, "UTC", "", lang.English},
		{"state with unknown timezone", live(`"timezone":"Mars/Olympus"`), "", 5 * time.Minute, 30 * time.Minute, "Local", "", lang.English},
		// The agent can write the published copy: with times no watchdog
		// writes it is not believed; with fresh ones it fools only the
		// agent's own tools (the watchdog reads its state folder).
		{"forged state, no watchdog", forged(`"timezone":"UTC","thresholds":{"inactivity_warning":"1m0s","inactivity_error":"2m0s","introspection":"30m0s","max_strict_deep_work":"5h0m0s"}`), "", 5 * time.Minute, 30 * time.Minute, "UTC", "", lang.English}, // thresholds no config allows fall back
		{"stale state", `{"pulse_at":"2025-12-31T23:00:00Z","pulse_interval":"1s","timezone":"UTC","language":"ja"}`, "", 5 * time.Minute, 30 * time.Minute, "Local", "", lang.English},
		{"state from the future", `{"pulse_at":"2099-01-01T00:00:00Z","pulse_interval":"1s","timezone":"UTC","language":"ja"}`, "", 5 * time.Minute, 30 * time.Minute, "Local", "", lang.English},
		{"config beats state", `{"timezone":"Europe/Paris"}`, single, 2 * time.Minute, 30 * time.Minute, "Asia/Tokyo", "", lang.Japanese},
		{"fleet picks this workspace", "", fleet, 3 * time.Minute, 45 * time.Minute, "UTC", "", lang.Japanese},
		{"fleet without this workspace", "", noMatch, 0, 0, "", "no agent whose workspace", ""},
		{"missing config", "", filepath.Join(root, "nope.yaml"), 0, 0, "", "read config", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := filepath.Join(root, "stats", "watchdog_state.json")
			os.Remove(state)
			if content, ok := strings.CutPrefix(tc.state, liveMark); ok {
				tc.state = content // a running watchdog published it
			}
			if tc.state != "" {
				writeFile(state, tc.state)
			}
			s, err := loadSettings(root, tc.config, now)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadSettings = %v, want error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Thresholds.InactivityWarning.D() != tc.warn || s.Thresholds.MaxStrictDeepWork.D() != tc.maxDeep || s.Location.String() != tc.tz || s.Language != tc.lang {
				t.Errorf("LoadSettings = warn %s max %s tz %s lang %s (%s), want %s %s %s %s", s.Thresholds.InactivityWarning.D(), s.Thresholds.MaxStrictDeepWork.D(), s.Location, s.Language, s.Source, tc.warn, tc.maxDeep, tc.tz, tc.lang)
			}
		})
	}
}
