// Package config reads the one YAML file that the watchdog and mcp-heart
// share, so tool messages and watchdog alerts use the same thresholds.
// Every duration is a Go duration string ("90s", "5m", "2h").
package config

import (
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// MinPulseInterval is the shortest pulse.interval accepted: tests run at
// 100ms; anything much shorter only burns the disk.
const MinPulseInterval = 50 * time.Millisecond

// MinScheduleEvery is the shortest schedule.every (but 0, off) with a pulse
// of at least as long.
const MinScheduleEvery = time.Second

// MinEvery is the shortest schedule.every the agent accepts: a second, or
// its pulse interval where that is shorter (a test's fast setup, whose
// wakeups are as fast as its pulse).
func (a AgentConfig) MinEvery() time.Duration {
	return min(MinScheduleEvery, a.Pulse.Interval.D())
}

// Pulse configures the pulse chamber.
type Pulse struct {
	// Interval between pulses (default 60s).
	Interval Duration `yaml:"interval" json:"interval"`
}

// Thresholds are the limits the checks and the tools' messages share.
type Thresholds struct {
	// InactivityWarning: time without proof of activity before a warning (5m).
	// It is also the cycle length at which tools add a "notice".
	InactivityWarning Duration `yaml:"inactivity_warning" json:"inactivity_warning"`
	// InactivityError: time without proof before an error and recovery (10m).
	// It is also the cycle length at which tools recommend splitting work.
	InactivityError Duration `yaml:"inactivity_error" json:"inactivity_error"`
	// Introspection: time without an introspection log before an error (30m);
	// info at 1/2 of it, warning at 2/3.
	Introspection Duration `yaml:"introspection" json:"introspection"`
	// MaxStrictDeepWork: the longest strict declaration allowed (30m).
	MaxStrictDeepWork Duration `yaml:"max_strict_deep_work" json:"max_strict_deep_work"`
	// ToolLoop: the same tool call (same tool, same input) this many times
	// in a row, or two calls alternating this many times, is a tool_loop
	// warning; twice as many an error with recovery (8). Seen through the
	// clients' hooks only.
	ToolLoop int `yaml:"tool_loop" json:"tool_loop"`
	// ChannelSilent: how long a channel that spoke before (hooks,
	// telemetry, exec output) may stay silent after another reported a
	// turn of the same client, before a channel_silent warning (15m).
	ChannelSilent Duration `yaml:"channel_silent" json:"channel_silent"`
}

// ExtraWakeup is an additional scheduled wakeup with its own prompt.
type ExtraWakeup struct {
	Cron   string `yaml:"cron"`
	Prompt string `yaml:"prompt"`
}

// Schedule configures the schedule chamber: every Every, or on Cron when set.
type Schedule struct {
	// Every is the wakeup period (default 60s, the old heartbeat.sh rhythm); 0 = off.
	Every Duration `yaml:"every"`
	// Cron replaces Every when set (robfig/cron, 5 fields, in the timezone).
	Cron string `yaml:"cron"`
	// Extra wakeups, each with its own cron spec and prompt.
	Extra []ExtraWakeup `yaml:"extra"`
	// ActiveHours are the "HH:MM-HH:MM" ranges, in the timezone, when the
	// schedule and idle chambers may wake the agent (a range may wrap
	// midnight); empty = all day. Checks and recovery are not affected.
	ActiveHours []string `yaml:"active_hours"`
}

// Idle configures the idle chamber.
type Idle struct {
	// After is how long nothing must happen before the idle wakeup; 0 = off.
	After Duration `yaml:"after"`
	// Prompt is the idle wakeup's text (default: a short nudge).
	Prompt string `yaml:"prompt"`
	// ParkedMax is the longest the client's word that the session is
	// parked on its own background work or scheduled wakeup (Claude
	// Code's Stop hook) holds the idle wakeup off (2h; 0: not believed).
	ParkedMax Duration `yaml:"parked_max"`
	// SelfWakeupMargin is how late the client's own scheduled wakeup may
	// fire before it is missed: alerted, and delivered by the watchdog
	// (5m: the client's jitter and clocks that disagree).
	SelfWakeupMargin Duration `yaml:"self_wakeup_margin"`
}

// CircuitBreaker stops wakeups after consecutive delivery failures.
type CircuitBreaker struct {
	Failures    int      `yaml:"failures"`     // consecutive failures that open it (3)
	Cooldown    Duration `yaml:"cooldown"`     // first wait before a probe (15m)
	MaxCooldown Duration `yaml:"max_cooldown"` // cap of the doubling wait (2h)
}

// Recovery configures recovery after an error.
type Recovery struct {
	MaxAttempts   int `yaml:"max_attempts"`    // failed recoveries before gave_up (3)
	MaxWaitCycles int `yaml:"max_wait_cycles"` // pulses to wait between attempts (5)
	// ResumeAfter ends a give-up by itself, so a stall the agent's next
	// act alone could clear never keeps it asleep for ever (1h; 0: only
	// `watchdog resume` or the checks going back to ok end it).
	ResumeAfter Duration `yaml:"resume_after"`
}

// Delivery methods.
const (
	DeliveryInbox = "inbox"
	DeliveryTmux  = "tmux"
	DeliveryExec  = "exec"
)

// Delivery says how the agent is woken (the config's agent section).
type Delivery struct {
	Delivery   string `yaml:"delivery"`    // inbox | tmux | exec (inbox)
	TmuxTarget string `yaml:"tmux_target"` // tmux -t target (agent)
	TmuxSocket string `yaml:"tmux_socket"` // tmux -S socket, for units with PrivateTmp ("")
	// TmuxLook is how often the watchdog looks at the pane again while a
	// key waits for it (a dialog, a person's unsent text, a turn running)
	// (1s); TmuxConfirm, how long a typed wakeup has to show in the pane
	// (or reach the hooks) before it is taken as not received (15s).
	TmuxLook    Duration `yaml:"tmux_look"`
	TmuxConfirm Duration `yaml:"tmux_confirm"`
	// TelemetryGrace is how long after a run or turn ends its client's
	// telemetry may still arrive and count for it, once telemetry is
	// wired (10s): Claude Code posts as it exits, Gemini CLI and Codex
	// flush their batches at exit, seconds later. 0 books at once.
	TelemetryGrace Duration `yaml:"telemetry_grace"`
	Command        []string `yaml:"command"` // exec argv; "{prompt}" is replaced
	Timeout        Duration `yaml:"timeout"` // exec timeout (600s)
	// RetryWaitMax is how much longer than timeout an exec run may last,
	// and how long inactivity is held off, while its client announces it
	// waits to retry a failed request (Claude Code's stream-json
	// api_retry; 1h; 0: not believed).
	RetryWaitMax Duration `yaml:"retry_wait_max"`
	// StopGrace is how long an exec run that is ended (its timeout, a
	// takeover by recovery or urgent feedback, shutdown) has between SIGTERM
	// and SIGKILL to its process group (5s).
	StopGrace Duration `yaml:"stop_grace"`
	// Output is how an exec agent's stdout is read: "text" (the reply) or
	// "stream-json" (the client's --output-format stream-json events: the
	// final text is the reply, tool calls are counted as they happen).
	Output string `yaml:"output"`
	// MaxToolCalls caps the tool calls of one exec run (0 = off, the Heart
	// paper's seed_tool_cap): at call N+1 the run is ended and discarded,
	// and the breaker counts a failure. Needs output: stream-json.
	MaxToolCalls int `yaml:"max_tool_calls"`
	// Client names the LLM client in the pane (claude-code, gemini, codex,
	// agy), for the keys that interrupt it and whether it saves its own
	// chat. Empty: the client its hooks name, else a single Escape.
	Client string `yaml:"client"`
}

// Exec agent output formats.
const (
	OutputText       = "text"
	OutputStreamJSON = "stream-json"
)

// Restrictions are how long tool restriction markers (stats/cooldown/<tool>,
// stats/lock/<tool>, mtime = start) stay in force when the marker itself does
// not say ("until: <RFC 3339>" or "duration: <Go duration>" inside it).
type Restrictions struct {
	Cooldown Duration `yaml:"cooldown" json:"cooldown"` // default 10m
	Lock     Duration `yaml:"lock" json:"lock"`         // default 60m
}

// Alerts configures where alert lines go besides stderr.
type Alerts struct {
	File string `yaml:"file"` // JSON lines appended here; "" = stderr only
	// Notify sends alert state changes to services (ntfy, Slack, webhooks...).
	Notify []Notify `yaml:"notify"`
}

// Notify is one notification target. The URL may hold a secret: give it in
// url_file, or as ${ENV} inside url; it is never logged with credentials.
type Notify struct {
	URL         string   `yaml:"url"`
	URLFile     string   `yaml:"url_file"`
	MinLevel    string   `yaml:"min_level"`    // info, warning (default) or error
	MinInterval Duration `yaml:"min_interval"` // per agent between messages (default 5m)
}

// HTTP is the operator's window: the status page, /metrics, /healthz and
// the API. An empty Listen means no server.
type HTTP struct {
	Listen    string `yaml:"listen"`     // e.g. 127.0.0.1:9477
	TokenFile string `yaml:"token_file"` // bearer token for changes (and reads off loopback)
	// MaxConnections bounds the connections served at once, so idle ones
	// cannot take the pulse's file descriptors; 0 = 64.
	MaxConnections int `yaml:"max_connections"`
	// PublicURL is the page's address as a person's phone reaches it, for
	// the links in notifications ("" = http://listen/).
	PublicURL string `yaml:"public_url"`
}

// AgentConfig is everything that belongs to one supervised agent.
type AgentConfig struct {
	Workspace string `yaml:"workspace"`
	Name      string `yaml:"name"`
	// Language is what the agent reads: docs, tool texts, notices. Left
	// out, it is the one `watchdog init --lang` recorded in the workspace
	// (workspace.LanguageFile), else en. Alert lines, JSON field names and
	// check names stay English.
	Language       lang.Lang      `yaml:"language"`
	Pulse          Pulse          `yaml:"pulse"`
	Thresholds     Thresholds     `yaml:"thresholds"`
	Schedule       Schedule       `yaml:"schedule"`
	Idle           Idle           `yaml:"idle"`
	DailyCap       int            `yaml:"daily_cap"`
	CircuitBreaker CircuitBreaker `yaml:"circuit_breaker"`
	Recovery       Recovery       `yaml:"recovery"`
	Restrictions   Restrictions   `yaml:"restrictions"`
	Agent          Delivery       `yaml:"agent"`
	// Budget caps the tokens and money of a day's wakeups.
	Budget Budget `yaml:"budget"`
	// RateLimit is what the client's own rate-limit report does.
	RateLimit RateLimit `yaml:"rate_limit"`
	// Progress is what the agent's work is judged by.
	Progress Progress `yaml:"progress"`
	// Asks is how the client's questions are offered to a person afar.
	Asks Asks `yaml:"asks"`
	// Prices is the config's prices table, copied in at load (the table is
	// the whole config's: models cost the same for every agent).
	Prices map[string]Price `yaml:"-"`
	// StateRoot is the config's state_dir, resolved at load; the agent's
	// own folder in it (StateDir) holds what is the operator's (the pause).
	StateRoot string `yaml:"-"`
}

// Config is the whole file. The top-level agent fields describe the single
// agent, and are the defaults every entry of Agents starts from.
type Config struct {
	AgentConfig `yaml:",inline"`
	Timezone    string `yaml:"timezone"`
	Alerts      Alerts `yaml:"alerts"`
	HTTP        HTTP   `yaml:"http"`
	MQTT        MQTT   `yaml:"mqtt"`
	// Healthcheck is the watchdog's own dead-man's switch (off by default).
	Healthcheck Healthcheck `yaml:"healthcheck"`
	// Prices are USD per million tokens by model, for clients that do not
	// report a run's cost themselves.
	Prices map[string]Price `yaml:"prices"`
	// FleetBudget caps the day's tokens and money of every agent of this
	// config together (0 = off); budget caps each agent's.
	FleetBudget Budget `yaml:"fleet_budget"`
	// StateDir holds the operator's state for every agent, outside their
	// workspaces (default: $STATE_DIRECTORY, $XDG_STATE_HOME/ai-heart or
	// ~/.local/state/ai-heart).
	StateDir string `yaml:"state_dir"`
	// Agents, when non-empty, is the fleet this process supervises.
	Agents []AgentConfig `yaml:"-"`

	loc *time.Location
}

// Defaults returns the built-in configuration (docs/design.md section 5).
func Defaults() Config {
	return Config{
		AgentConfig: AgentConfig{
			Workspace: "./ai-works",
			Pulse:     Pulse{Interval: Duration(60 * time.Second)},
			Thresholds: Thresholds{
				InactivityWarning: Duration(5 * time.Minute),
				InactivityError:   Duration(10 * time.Minute),
				Introspection:     Duration(30 * time.Minute),
				MaxStrictDeepWork: Duration(30 * time.Minute),
				ToolLoop:          8,
				ChannelSilent:     Duration(15 * time.Minute),
			},
			Schedule:       Schedule{Every: Duration(60 * time.Second)},
			Idle:           Idle{Prompt: DefaultIdlePromptLog, ParkedMax: Duration(2 * time.Hour), SelfWakeupMargin: Duration(5 * time.Minute)},
			CircuitBreaker: CircuitBreaker{Failures: 3, Cooldown: Duration(15 * time.Minute), MaxCooldown: Duration(2 * time.Hour)},
			Recovery:       Recovery{MaxAttempts: 3, MaxWaitCycles: 5, ResumeAfter: Duration(time.Hour)},
			Budget:         Budget{WarnAt: 0.8, MaxReportTokens: DefaultMaxReportTokens, MaxReportUSD: DefaultMaxReportUSD},
			RateLimit:      RateLimit{HoldUntilReset: true, SpreadAt: 0.8, SpreadMax: Duration(time.Hour), ClientResumes: true, ResumeMargin: Duration(5 * time.Minute)},
			Progress:       Progress{After: 3},
			Asks:           Asks{Hold: Duration(30 * time.Minute), Remind: Duration(10 * time.Minute)},
			Restrictions:   Restrictions{Cooldown: Duration(10 * time.Minute), Lock: Duration(60 * time.Minute)},
			Agent: Delivery{
				Delivery:       DeliveryInbox,
				TmuxTarget:     "agent",
				TmuxLook:       Duration(time.Second),
				TmuxConfirm:    Duration(15 * time.Second),
				TelemetryGrace: Duration(10 * time.Second),
				Command:        []string{"gemini", "-p", "{prompt}"}, // the default client's (init wires gemini): setup's TestDefaultCommandIsTheDefaultClients
				Timeout:        Duration(600 * time.Second),
				RetryWaitMax:   Duration(time.Hour),
				StopGrace:      Duration(5 * time.Second),
			},
		},
		Timezone:    "Local",
		FleetBudget: Budget{WarnAt: 0.8},
		loc:         time.Local,
	}
}

// Scheduled reports whether a schedule or the idle chamber wakes the agent.
// Without either the agent is always working (the always-on design).
func (a AgentConfig) Scheduled() bool {
	return a.Schedule.Every > 0 || a.Schedule.Cron != "" || len(a.Schedule.Extra) > 0 || a.Idle.After > 0
}

// DisplayName is the agent's name in alerts: name, else the workspace
// folder's name.
func (a AgentConfig) DisplayName() string {
	if a.Name != "" {
		return a.Name
	}
	return filepath.Base(filepath.Clean(a.Workspace))
}

// Location is the configured timezone.
func (c *Config) Location() *time.Location {
	if c.loc == nil {
		return time.Local
	}
	return c.loc
}

// AgentConfigs lists the agents this process supervises: the agents list, or the
// single top-level agent.
func (c *Config) AgentConfigs() []AgentConfig {
	if len(c.Agents) > 0 {
		return c.Agents
	}
	return []AgentConfig{c.AgentConfig}
}
