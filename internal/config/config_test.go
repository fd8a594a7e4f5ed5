package config

import (
	"errors"
	"github.com/ai-heart/ai-heart/internal/lang"

	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatalf("Load(\"\") = %v", err)
	}
	// docs/design.md section 5, every field.
	want := Config{
		AgentConfig: AgentConfig{
			Workspace: "./ai-works",
			Name:      "",
			Pulse:     Pulse{Interval: Duration(60 * time.Second)},
			Thresholds: Thresholds{
				InactivityWarning: Duration(5 * time.Minute),
				InactivityError:   Duration(10 * time.Minute),
				Introspection:     Duration(30 * time.Minute),
				MaxStrictDeepWork: Duration(30 * time.Minute),
				ToolLoop:          8,
				ChannelSilent:     Duration(15 * time.Minute),
			},
			// Language is left out: the workspace's recorded one, else en, at load.
			Schedule:       Schedule{Every: Duration(60 * time.Second)},
			Idle:           Idle{After: 0, Prompt: DefaultIdlePromptLog, ParkedMax: Duration(2 * time.Hour), SelfWakeupMargin: Duration(5 * time.Minute)},
			DailyCap:       0,
			CircuitBreaker: CircuitBreaker{Failures: 3, Cooldown: Duration(15 * time.Minute), MaxCooldown: Duration(2 * time.Hour)},
			Recovery:       Recovery{MaxAttempts: 3, MaxWaitCycles: 5, ResumeAfter: Duration(time.Hour)},
			Budget:         Budget{WarnAt: 0.8, MaxReportTokens: 1_000_000_000, MaxReportUSD: 10_000},
			RateLimit:      RateLimit{HoldUntilReset: true, SpreadAt: 0.8, SpreadMax: Duration(time.Hour), ClientResumes: true, ResumeMargin: Duration(5 * time.Minute)},
			Progress:       Progress{After: 3},
			Asks:           Asks{Hold: Duration(30 * time.Minute), Remind: Duration(10 * time.Minute)},
			Restrictions:   Restrictions{Cooldown: Duration(10 * time.Minute), Lock: Duration(60 * time.Minute)},
			Agent: Delivery{
				Delivery:   DeliveryInbox,
				TmuxTarget: "agent",
				Command:    []string{"gemini", "-p", "{prompt}"},
				Timeout:    Duration(600 * time.Second), RetryWaitMax: Duration(time.Hour),
				StopGrace: Duration(5 * time.Second),
				TmuxLook:  Duration(time.Second), TmuxConfirm: Duration(15 * time.Second), TelemetryGrace: Duration(10 * time.Second),
			},
		},
		Timezone:    "Local",
		Alerts:      Alerts{File: ""},
		FleetBudget: Budget{WarnAt: 0.8},
		loc:         time.Local,
	}
	state, err := DefaultStateDir()
	if err != nil {
		t.Fatal(err)
	}
	want.StateDir, want.StateRoot = state, state
	want.Language = lang.English // ./ai-works records none
	if !reflect.DeepEqual(*c, want) {
		t.Fatalf("Load(\"\") = %+v, want %+v", *c, want)
	}
	if c.Location() != time.Local {
		t.Fatalf("Location() = %v, want Local", c.Location())
	}
	if got := c.DisplayName(); got != "ai-works" {
		t.Fatalf("DisplayName() = %q, want ai-works", got)
	}
	want.StateDir, want.StateRoot = "", "" // resolved at load
	want.Language = ""                     // resolved at load
	if d := Defaults(); !reflect.DeepEqual(d, want) {
		t.Fatalf("Defaults() = %+v, want %+v", d, want)
	}
}

func TestEmptyFiles(t *testing.T) {
	for name, body := range map[string]string{
		"empty":         "",
		"blank":         "\n  \n",
		"comments only": "# watchdog config\n# workspace: ./ai-works\n",
		"document mark": "---\n",
		"null":          "null\n",
		"empty agents":  "agents: []\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "watchdog.yml")
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(path)
			if err != nil {
				t.Fatalf("Load(%q) = %v, want the defaults", body, err)
			}
			want := Defaults()
			want.Workspace = filepath.Join(dir, "ai-works")
			want.Language = lang.English // none recorded in the workspace
			state, err := DefaultStateDir()
			if err != nil {
				t.Fatal(err)
			}
			want.StateDir, want.StateRoot = state, state
			if !reflect.DeepEqual(*c, want) {
				t.Fatalf("Load(%q) = %+v, want %+v", body, *c, want)
			}
		})
	}
}

func TestLoadFull(t *testing.T) {
	c, err := Load("testdata/full.yml")
	if err != nil {
		t.Fatalf("Load(full.yml) = %v", err)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	want := AgentConfig{
		Workspace: filepath.Join("testdata", "agent-a"),
		Name:      "alice",
		Language:  lang.Japanese,
		Pulse:     Pulse{Interval: Duration(30 * time.Second)},
		Thresholds: Thresholds{
			InactivityWarning: Duration(4 * time.Minute),
			InactivityError:   Duration(9 * time.Minute),
			Introspection:     Duration(45 * time.Minute),
			ToolLoop:          8,
			MaxStrictDeepWork: Duration(20 * time.Minute),
			ChannelSilent:     Duration(15 * time.Minute),
		},
		Schedule: Schedule{Every: 0, Cron: "*/30 * * * *", Extra: []ExtraWakeup{
			{Cron: "0 9 * * *", Prompt: "Good morning."},
			{Cron: "@hourly", Prompt: "Hourly check."},
		}},
		Idle:           Idle{After: Duration(2 * time.Hour), Prompt: "Anything new?", ParkedMax: Duration(2 * time.Hour), SelfWakeupMargin: Duration(5 * time.Minute)},
		DailyCap:       100,
		CircuitBreaker: CircuitBreaker{Failures: 5, Cooldown: Duration(10 * time.Minute), MaxCooldown: Duration(time.Hour)},
		Recovery:       Recovery{MaxAttempts: 2, MaxWaitCycles: 7, ResumeAfter: Duration(time.Hour)},
		Restrictions:   Restrictions{Cooldown: Duration(5 * time.Minute), Lock: Duration(30 * time.Minute)},
		Budget:         Budget{WarnAt: 0.8, MaxReportTokens: 1_000_000_000, MaxReportUSD: 10_000},
		RateLimit:      RateLimit{HoldUntilReset: true, SpreadAt: 0.8, SpreadMax: Duration(time.Hour), ClientResumes: true, ResumeMargin: Duration(5 * time.Minute)},
		Progress:       Progress{After: 3},
		Asks:           Asks{Hold: Duration(30 * time.Minute), Remind: Duration(10 * time.Minute)},
		Agent: Delivery{
			Delivery: DeliveryExec, TmuxTarget: "work", TmuxSocket: "/tmp/tmux.sock",
			Command: []string{"claude", "-p", "{prompt}"}, Timeout: Duration(90 * time.Second), RetryWaitMax: Duration(time.Hour), StopGrace: Duration(2 * time.Second), TmuxLook: Duration(time.Second), TmuxConfirm: Duration(15 * time.Second), TelemetryGrace: Duration(10 * time.Second),
		},
		StateRoot: mustAbs(t, "state"),
	}
	if !reflect.DeepEqual(c.AgentConfig, want) {
		t.Fatalf("Load(full.yml).AgentConfig = %+v, want %+v", c.AgentConfig, want)
	}
	if c.Timezone != "Asia/Tokyo" || c.Location().String() != tokyo.String() {
		t.Fatalf("timezone = %q, %v, want Asia/Tokyo", c.Timezone, c.Location())
	}
	if want := filepath.Join("testdata", "alerts.jsonl"); c.Alerts.File != want {
		t.Fatalf("alerts.file = %q, want %q (relative to the config's folder)", c.Alerts.File, want)
	}
	if len(c.Agents) != 0 || len(c.AgentConfigs()) != 1 || c.AgentConfigs()[0].Name != "alice" {
		t.Fatalf("AgentConfigs() = %+v, want the one top-level agent", c.AgentConfigs())
	}
}

func TestRelativeWorkspace(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, yml, want, parsed string // parsed: what Parse (no file) keeps
	}{
		{"dot relative", "workspace: ./ws\n", filepath.Join(dir, "ws"), "./ws"},
		{"bare relative", "workspace: ws\n", filepath.Join(dir, "ws"), "ws"},
		{"parent relative", "workspace: ../ws\n", filepath.Join(filepath.Dir(dir), "ws"), "../ws"},
		{"absolute kept", "workspace: /srv/ws\n", "/srv/ws", "/srv/ws"},
		{"default", "name: x\n", filepath.Join(dir, "ai-works"), "./ai-works"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "c.yml")
			if err := os.WriteFile(path, []byte(tt.yml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(path)
			if err != nil || c.Workspace != tt.want {
				t.Fatalf("Load(%q).Workspace = %v, want %q", tt.yml, errOr(c, err), tt.want)
			}
			p, err := Parse([]byte(tt.yml))
			if err != nil || p.Workspace != tt.parsed {
				t.Fatalf("Parse(%q).Workspace = %v, want %q", tt.yml, errOr(p, err), tt.parsed)
			}
		})
	}
}

func errOr(c *Config, err error) any {
	if err != nil {
		return err
	}
	return c.Workspace
}

func TestFleet(t *testing.T) {
	c, err := Load("testdata/fleet.yml")
	if err != nil {
		t.Fatalf("Load(fleet.yml) = %v", err)
	}
	fleet := c.AgentConfigs()
	if len(fleet) != 2 || !reflect.DeepEqual(fleet, c.Agents) {
		t.Fatalf("AgentConfigs() = %+v, want the 2 agents", fleet)
	}
	a, b := fleet[0], fleet[1]
	if want := filepath.Join("testdata", "a"); a.Workspace != want || a.Name != "" || a.DisplayName() != "a" {
		t.Fatalf("agents[0] workspace %q name %q (%q), want %q, unnamed, a", a.Workspace, a.Name, a.DisplayName(), want)
	}
	if b.Workspace != "/srv/b" || b.DisplayName() != "bee" {
		t.Fatalf("agents[1] workspace %q name %q, want /srv/b, bee", b.Workspace, b.DisplayName())
	}
	// Inherited from the top level.
	for i, x := range fleet {
		if x.Thresholds.InactivityWarning != Duration(3*time.Minute) || x.Thresholds.InactivityError != Duration(6*time.Minute) {
			t.Fatalf("agents[%d].thresholds = %+v, want 3m/6m from the top level", i, x.Thresholds)
		}
		if x.Pulse.Interval != Duration(time.Minute) || x.CircuitBreaker.Failures != 3 {
			t.Fatalf("agents[%d] lost a default: %+v", i, x)
		}
	}
	if a.DailyCap != 50 || a.Agent.Delivery != DeliveryTmux || a.Agent.TmuxTarget != "shared" || a.Thresholds.Introspection != Duration(30*time.Minute) {
		t.Fatalf("agents[0] = %+v, want daily_cap 50, tmux shared, introspection 30m inherited", a)
	}
	// Overridden by the entry, without touching the others or the top level.
	if b.DailyCap != 10 || b.Thresholds.Introspection != Duration(time.Hour) || b.Agent.Delivery != DeliveryExec ||
		!reflect.DeepEqual(b.Agent.Command, []string{"codex", "{prompt}"}) || b.Agent.TmuxTarget != "shared" {
		t.Fatalf("agents[1] = %+v, want its own daily_cap, introspection, exec command; tmux target inherited", b)
	}
	if c.DailyCap != 50 || c.Thresholds.Introspection != Duration(30*time.Minute) || !reflect.DeepEqual(c.Agent.Command, []string{"gemini", "-p", "{prompt}"}) {
		t.Fatalf("top level changed by an entry: %+v", c.AgentConfig)
	}
	if c.Location() != time.UTC && c.Location().String() != "UTC" {
		t.Fatalf("Location() = %v, want UTC", c.Location())
	}
}

func TestFleetExtraNotShared(t *testing.T) {
	c, err := Parse([]byte(`
schedule:
  extra: [{cron: "@daily", prompt: top}]
agents:
  - workspace: /a
    schedule:
      extra: [{cron: "@hourly", prompt: mine}]
  - workspace: /b
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Agents[0].Schedule.Extra; len(got) != 1 || got[0].Prompt != "mine" {
		t.Fatalf("agents[0].schedule.extra = %+v, want its own", got)
	}
	if got := c.Agents[1].Schedule.Extra; len(got) != 1 || got[0].Prompt != "top" {
		t.Fatalf("agents[1].schedule.extra = %+v, want the top level's", got)
	}
	if got := c.Schedule.Extra; len(got) != 1 || got[0].Prompt != "top" {
		t.Fatalf("schedule.extra = %+v, changed by an agent", got)
	}
}

func TestInvalid(t *testing.T) {
	tests := map[string]string{
		"unknown-top":              "field workspce not found",
		"unknown-nested":           "field inactivity_warnin not found",
		"unknown-in-agent":         "agents[0]: line 2: field pluse not found",
		"duration-no-unit":         `pulse.interval: line 1: "60" is not a Go duration`,
		"duration-abc":             `thresholds.introspection: line 2: "abc" is not a Go duration`,
		"duration-in-agent":        `agents[0]: agent.timeout: `,
		"zero-interval":            "pulse.interval: must be positive",
		"tiny-interval":            "pulse.interval: must be at least 50ms, got 1ns (the default is 60s)",
		"negative-interval":        "pulse.interval: must be positive",
		"negative-daily-cap":       "daily_cap: must not be negative",
		"negative-idle":            "idle.after: must not be negative",
		"negative-every":           "schedule.every: must not be negative",
		"warning-equals-error":     "thresholds.inactivity_error: must be longer than inactivity_warning (10m0s)",
		"warning-above-error":      "thresholds.inactivity_error: must be longer",
		"zero-warning":             "thresholds.inactivity_warning: must be positive",
		"zero-introspection":       "thresholds.introspection: must be positive",
		"strict-under-minute":      "thresholds.max_strict_deep_work: must be at least 1m",
		"fleet-per-wakeup":         "fleet_budget.per_wakeup_tokens: a run belongs to one agent",
		"fleet-negative":           "fleet_budget.daily_usd: must be a non-negative amount",
		"tool-loop":                "thresholds.tool_loop: must be at least 2",
		"zero-failures":            "circuit_breaker.failures: must be at least 1",
		"zero-cooldown":            "circuit_breaker.cooldown: must be positive",
		"max-cooldown-under":       "circuit_breaker.max_cooldown: must be at least cooldown (15m0s)",
		"zero-attempts":            "recovery.max_attempts: must be at least 1",
		"zero-wait-cycles":         "recovery.max_wait_cycles: must be at least 1",
		"zero-restriction":         "restrictions: cooldown and lock must be positive",
		"zero-timeout":             "agent.timeout: must be positive",
		"tool-cap-without-stream":  "agent.max_tool_calls: needs exec delivery with agent.output: stream-json",
		"bad-output":               `agent.output: "xml" is not one of text, stream-json`,
		"active-hours-format":      `schedule.active_hours[1]: "8-9": "8" is not a time of day HH:MM`,
		"active-hours-clock":       `schedule.active_hours[0]: "25:00-06:00": "25:00" is not a time of day`,
		"active-hours-whole-day":   `schedule.active_hours[0]: "00:00-24:00": an empty or whole-day range`,
		"bad-delivery":             `agent.delivery: "email" is not one of inbox, tmux, exec`,
		"exec-no-command":          "agent.command: must name a program",
		"exec-no-stop-grace":       "agent.stop_grace: must be positive",
		"exec-empty-program":       "agent.command: must name a program",
		"tmux-no-target":           "agent.tmux_target: must not be empty",
		"negative-telemetry-grace": "agent.telemetry_grace: must be between 0s and 10m",
		"bad-cron":                 `schedule.cron: "61 * * * *"`,
		"cron-six-fields":          "schedule.cron: ",
		"cron-tz-prefix":           "schedule.cron: \"TZ=Asia/Tokyo 0 9 * * *\": a TZ= prefix is not allowed",
		"cron-crontz-prefix":       "schedule.cron: \"CRON_TZ=UTC 0 9 * * *\": a TZ= prefix is not allowed",
		"extra-bad-cron":           "schedule.extra[0].cron: ",
		"extra-no-prompt":          "schedule.extra[0].prompt: must not be empty",
		"unknown-timezone":         `timezone: "Mars/Olympus" is not a known time zone`,
		"empty-workspace":          "workspace: must not be empty",
		"agent-no-workspace":       "agents[0].workspace: required",
		"duplicate-agent-names":    `agents[1].name: "same" is also agents[0]`,
		"duplicate-folder-names":   `agents[1].name: "ai-works" is also agents[0]`,
		"duplicate-workspaces":     `agents[1].workspace: "`,
		"agent-bad-value":          "agents[1].daily_cap: must not be negative",
		"not-a-mapping":            "cannot unmarshal",
		"bad-language":             `language: "fr" is not one of en, ja`,
		"agent-bad-language":       `agents[1].language: "jp" is not one of en, ja`,
		"mqtt-scheme":              `mqtt.broker: "http://localhost:1883": the scheme must be tcp://, ssl://, ws:// or wss://`,
		"mqtt-keepalive":           "mqtt.keepalive: 500ms is not between 1s and 65535s",
		"mqtt-tls-pair":            "mqtt.tls: give both cert_file and key_file",
		"mqtt-password-no-user":    "mqtt.password_file: needs mqtt.username",
		"mqtt-credentials-in-url":  "mqtt.broker: \"tcp://localhost:1883\": no credentials in the URL",
		"mqtt-tls-on-tcp":          "mqtt.tls: set, but mqtt.broker",
		"mqtt-prefix":              `mqtt.topic_prefix: "heart/#" must not hold + or #`,
		"asks-hold":                "asks.hold: must be from 0 (off) to 24h, got 48h0m0s",
		"asks-socket":              `asks.socket: "run/asks.sock": give an absolute path`,
		"public-url":               `http.public_url: "ftp://x": want an http or https URL`,
	}
	files, err := filepath.Glob("testdata/invalid-*.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(tests) {
		t.Fatalf("%d testdata/invalid-*.yml files, %d expectations: keep them in step", len(files), len(tests))
	}
	for _, path := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "invalid-"), ".yml")
		t.Run(name, func(t *testing.T) {
			want, ok := tests[name]
			if !ok {
				t.Fatalf("no expected error for %s", path)
			}
			c, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%q) = %+v, nil, want an error containing %q", path, c, want)
			}
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Load(%q) = %q, want it to name the file and contain %q", path, err, want)
			}
			// Each file has one bad key: checking on after it finds no other.
			if strings.Contains(err.Error(), "keys need fixing") {
				t.Fatalf("Load(%q) = %q, want only the one bad key", path, err)
			}
		})
	}
}

// TestInvalidTellsEveryKey: a config with several bad keys is refused with
// every one of them, each with its reason in the words it has alone, so the
// operator fixes them in one go.
func TestInvalidTellsEveryKey(t *testing.T) {
	c, err := Parse([]byte(`
workspace: ai-works
pulse: {interval: 1ns}
daily_cap: -1
language: fr
thresholds: {inactivity_warning: 10m, inactivity_error: 5m, tool_loop: 1}
agent: {delivery: email}
budget: {daily_usd: -3}
`))
	if err == nil {
		t.Fatalf("Parse = %+v, nil, want the bad keys", c)
	}
	want := `7 keys need fixing:
  pulse.interval: must be at least 50ms, got 1ns (the default is 60s)
  language: "fr" is not one of en, ja
  thresholds.inactivity_error: must be longer than inactivity_warning (10m0s)
  thresholds.tool_loop: must be at least 2 (calls in a row)
  daily_cap: must not be negative (0 = unlimited)
  budget.daily_usd: must be a non-negative amount (0 = off), got -3
  agent.delivery: "email" is not one of inbox, tmux, exec`
	if err.Error() != want {
		t.Fatalf("Parse = %s\nwant %s", err, want)
	}
	var one *Error
	if !errors.As(err, &one) || len(one.All) != 7 {
		t.Fatalf("Parse = %#v, want an *Error of 7", err)
	}
}

// TestBoundaries checks each threshold just at and just past its limit.
func TestBoundaries(t *testing.T) {
	tests := []struct {
		name, yml string
		ok        bool
	}{
		{"error just over warning", "thresholds: {inactivity_warning: 5m, inactivity_error: 5m0.000000001s}", true},
		{"error equal to warning", "thresholds: {inactivity_warning: 5m, inactivity_error: 5m}", false},
		{"interval 1ns", "pulse: {interval: 1ns}", false},
		{"interval just under the minimum", "pulse: {interval: 49ms}", false},
		{"interval at the minimum", "pulse: {interval: 50ms}", true},
		{"interval 0", "pulse: {interval: 0s}", false},
		{"deep work 1m", "thresholds: {max_strict_deep_work: 1m}", true},
		{"deep work 59.999s", "thresholds: {max_strict_deep_work: 59.999s}", false},
		{"daily cap 0", "daily_cap: 0", true},
		{"daily cap -1", "daily_cap: -1", false},
		{"schedule every 0", "schedule: {every: 0s}", true},
		{"schedule every -1ns", "schedule: {every: -1ns}", false},
		{"idle 0", "idle: {after: 0}", true},
		{"idle -1ns", "idle: {after: -1ns}", false},
		{"failures 1", "circuit_breaker: {failures: 1}", true},
		{"failures 0", "circuit_breaker: {failures: 0}", false},
		{"max cooldown equal", "circuit_breaker: {cooldown: 1h, max_cooldown: 1h}", true},
		{"max cooldown 1ns under", "circuit_breaker: {cooldown: 1h, max_cooldown: 59m59.999999999s}", false},
		{"max attempts 1", "recovery: {max_attempts: 1, max_wait_cycles: 1}", true},
		{"duration with spaces", "pulse: {interval: ' 90s '}", true},
		{"duration 0 without unit", "idle: {after: 0}", true},
		{"duration 1 without unit", "idle: {after: 1}", false},
		{"cron descriptor", "schedule: {cron: '@every 5m'}", true},
		{"cron leading spaces before TZ", "schedule: {cron: '  TZ=UTC 0 9 * * *'}", false},
		{"exec with command", "agent: {delivery: exec}", true},
		{"tmux default target", "agent: {delivery: tmux}", true},
		{"timezone UTC", "timezone: UTC", true},
		{"timezone empty means Local", "timezone: ''", true},
		{"empty idle prompt gets default", "idle: {prompt: '  '}", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.yml + "\n"))
			if (err == nil) != tt.ok {
				t.Fatalf("Parse(%q) = %v, want ok %v", tt.yml, err, tt.ok)
			}
			if err == nil && c.Idle.Prompt == "" {
				t.Fatalf("Parse(%q).Idle.Prompt is empty, want the default", tt.yml)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.yml")
	if c, err := Load(path); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Fatalf("Load(%q) = %+v, %v, want a not-exist error", path, c, err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func TestParseCron(t *testing.T) {
	at := time.Date(2025, 1, 1, 8, 59, 0, 0, time.UTC)
	tests := []struct {
		spec string
		next time.Time // zero = refused
	}{
		{"0 9 * * *", time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)},
		{"*/30 * * * *", time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)},
		{"@hourly", time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)},
		{" 0 9 * * * ", time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)},
		{"TZ=UTC 0 9 * * *", time.Time{}},
		{"CRON_TZ=UTC 0 9 * * *", time.Time{}},
		{"TZ=", time.Time{}},
		{"0 0 9 * * *", time.Time{}},
		{"", time.Time{}},
		{"60 * * * *", time.Time{}},
		{"* 24 * * *", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := ParseCron(tt.spec)
			if tt.next.IsZero() {
				if err == nil {
					t.Fatalf("ParseCron(%q) = nil error, want refused", tt.spec)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCron(%q) = %v", tt.spec, err)
			}
			if got := s.Next(at); !got.Equal(tt.next) {
				t.Fatalf("ParseCron(%q).Next(%v) = %v, want %v", tt.spec, at, got, tt.next)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	var d Duration
	if err := d.UnmarshalText([]byte("1h30m")); err != nil || d.D() != 90*time.Minute {
		t.Fatalf("UnmarshalText(1h30m) = %v, %v, want 1h30m", d.D(), err)
	}
	if b, err := d.MarshalText(); err != nil || string(b) != "1h30m0s" {
		t.Fatalf("MarshalText() = %q, %v, want 1h30m0s", b, err)
	}
	if v, err := d.MarshalYAML(); err != nil || v != "1h30m0s" {
		t.Fatalf("MarshalYAML() = %v, %v, want 1h30m0s", v, err)
	}
	if err := d.UnmarshalText([]byte("90")); err == nil {
		t.Fatalf("UnmarshalText(90) = nil, want an error")
	}
}

// TestActiveHours: ranges in wall-clock time, wrapping midnight, just inside
// and just outside each edge, and across New York's DST changes.
func TestActiveHours(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, ny)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	day := Schedule{ActiveHours: []string{"08:00-23:00"}}
	night := Schedule{ActiveHours: []string{"22:00-06:00"}}
	two := Schedule{ActiveHours: []string{"06:00-07:00", "19:00-24:00"}}
	for _, tc := range []struct {
		name string
		s    Schedule
		t    string
		want bool
	}{
		{"all day without ranges", Schedule{}, "2026-06-01 03:00", true},
		{"day, 07:59", day, "2026-06-01 07:59", false},
		{"day, 08:00", day, "2026-06-01 08:00", true},
		{"day, 22:59", day, "2026-06-01 22:59", true},
		{"day, 23:00", day, "2026-06-01 23:00", false},
		{"night wraps, 21:59", night, "2026-06-01 21:59", false},
		{"night wraps, 22:00", night, "2026-06-01 22:00", true},
		{"night wraps, 00:30", night, "2026-06-02 00:30", true},
		{"night wraps, 05:59", night, "2026-06-02 05:59", true},
		{"night wraps, 06:00", night, "2026-06-02 06:00", false},
		{"two ranges, 06:30", two, "2026-06-01 06:30", true},
		{"two ranges, 12:00", two, "2026-06-01 12:00", false},
		{"two ranges, 23:59", two, "2026-06-01 23:59", true},
		// 2026-03-08: clocks jump from 02:00 to 03:00; 2026-11-01: 02:00 to 01:00.
		{"spring forward, 07:59", day, "2026-03-08 07:59", false},
		{"spring forward, 08:00", day, "2026-03-08 08:00", true},
		{"fall back, 07:59", day, "2026-11-01 07:59", false},
		{"fall back, 08:00", day, "2026-11-01 08:00", true},
		{"night across spring forward, 03:30", night, "2026-03-08 03:30", true},
		{"night across fall back, 01:30", night, "2026-11-01 01:30", true},
	} {
		if got := tc.s.Active(at(tc.t)); got != tc.want {
			t.Errorf("%s: Active(%s) = %v, want %v", tc.name, tc.t, got, tc.want)
		}
	}
	// The second 01:30 of the fall-back day (EST) is still night.
	second := at("2026-11-01 00:30").Add(2 * time.Hour)
	if second.Hour() != 1 || !night.Active(second) {
		t.Errorf("Active(%v) = false, want the repeated hour inside the night range", second)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
