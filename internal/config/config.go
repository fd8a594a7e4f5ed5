// Package config reads the one YAML file that the watchdog and mcp-heart
// share, so tool messages and watchdog alerts use the same thresholds.
// Every duration is a Go duration string ("90s", "5m", "2h").
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	"go.yaml.in/yaml/v3"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// Duration is a time.Duration read from a Go duration string.
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// UnmarshalYAML reads "90s", "5m", "0".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(strings.TrimSpace(n.Value))
	if err != nil {
		return &durationError{line: n.Line, column: n.Column, value: n.Value}
	}
	*d = Duration(v)
	return nil
}

// durationError is a bad duration at a position; strict names its key.
type durationError struct {
	line, column int
	value        string
}

func (e *durationError) Error() string {
	return fmt.Sprintf("line %d: %q is not a Go duration (like 90s, 5m, 2h)", e.line, e.value)
}

// MarshalYAML writes the duration string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// MarshalText writes the duration string (for JSON state files).
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads the duration string (for JSON state files).
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
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
	MaxWaitCycles int `yaml:"max_wait_cycles"` // pulses to wait for all-ok (5)
}

// Delivery methods.
const (
	DeliveryInbox = "inbox"
	DeliveryTmux  = "tmux"
	DeliveryExec  = "exec"
)

// Agent says how the agent is woken.
type Agent struct {
	Delivery   string   `yaml:"delivery"`    // inbox | tmux | exec (inbox)
	TmuxTarget string   `yaml:"tmux_target"` // tmux -t target (agent)
	TmuxSocket string   `yaml:"tmux_socket"` // tmux -S socket, for units with PrivateTmp ("")
	Command    []string `yaml:"command"`     // exec argv; "{prompt}" is replaced
	Timeout    Duration `yaml:"timeout"`     // exec timeout (600s)
	// Output is how an exec agent's stdout is read: "text" (the reply) or
	// "stream-json" (the client's --output-format stream-json events: the
	// final text is the reply, tool calls are counted as they happen).
	Output string `yaml:"output"`
	// MaxToolCalls caps the tool calls of one exec run (0 = off, the Heart
	// paper's seed_tool_cap): at call N+1 the run is ended and discarded,
	// and the breaker counts a failure. Needs output: stream-json.
	MaxToolCalls int `yaml:"max_tool_calls"`
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
}

// AgentConfig is everything that belongs to one supervised agent.
type AgentConfig struct {
	Workspace string `yaml:"workspace"`
	Name      string `yaml:"name"`
	// Language is what the agent reads: docs, tool texts, notices (en).
	// Alert lines, JSON field names and check names stay English.
	Language       lang.Lang      `yaml:"language"`
	Pulse          Pulse          `yaml:"pulse"`
	Thresholds     Thresholds     `yaml:"thresholds"`
	Schedule       Schedule       `yaml:"schedule"`
	Idle           Idle           `yaml:"idle"`
	DailyCap       int            `yaml:"daily_cap"`
	CircuitBreaker CircuitBreaker `yaml:"circuit_breaker"`
	Recovery       Recovery       `yaml:"recovery"`
	Restrictions   Restrictions   `yaml:"restrictions"`
	Agent          Agent          `yaml:"agent"`
}

// Config is the whole file. The top-level agent fields describe the single
// agent, and are the defaults every entry of Agents starts from.
type Config struct {
	AgentConfig `yaml:",inline"`
	Timezone    string `yaml:"timezone"`
	Alerts      Alerts `yaml:"alerts"`
	HTTP        HTTP   `yaml:"http"`
	MQTT        MQTT   `yaml:"mqtt"`
	// Agents, when non-empty, is the fleet this process supervises.
	Agents []AgentConfig `yaml:"-"`

	loc *time.Location
}

// DefaultIdlePrompt is sent by the idle chamber when idle.prompt is empty.
// What answers it depends on the delivery: a headless run's reply ends
// with the run, so "[IDLE]" alone answers it (a ghost); in a terminal or
// through the inbox only an activity log does.
const DefaultIdlePrompt = "Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity. If there is nothing worth doing now, reply with just [IDLE]."

// DefaultIdlePromptLog is DefaultIdlePrompt for tmux and inbox delivery.
const DefaultIdlePromptLog = "Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity. If there is nothing worth doing now, write a short activity log saying so (activity_type other) and wait for the next heartbeat."

// DefaultIdlePromptJa is DefaultIdlePrompt for language: ja.
const DefaultIdlePromptJa = "しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。今やる価値のあることがなければ、`[IDLE]` とだけ答えてください。"

// DefaultIdlePromptLogJa is DefaultIdlePromptLog for language: ja.
const DefaultIdlePromptLogJa = "しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。今やる価値のあることがなければ、そう書いた短い活動ログ（activity_type は other）を残して、次のハートビートを待ってください。"

// IdlePrompt is the built-in idle prompt for a delivery and a language.
func IdlePrompt(delivery string, l lang.Lang) string {
	exec := delivery == DeliveryExec
	switch {
	case l == lang.Japanese && exec:
		return DefaultIdlePromptJa
	case l == lang.Japanese:
		return DefaultIdlePromptLogJa
	case exec:
		return DefaultIdlePrompt
	}
	return DefaultIdlePromptLog
}

// defaultIdlePrompts are the built-in idle prompts, any of which a config
// may repeat and still get the one that fits its delivery and language.
var defaultIdlePrompts = []string{DefaultIdlePrompt, DefaultIdlePromptLog, DefaultIdlePromptJa, DefaultIdlePromptLogJa,
	// The prompts before [IDLE] was mentioned, as older configs may hold them.
	"Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity.",
	"しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。"}

// Defaults returns the built-in configuration (docs/design.md section 5).
func Defaults() Config {
	return Config{
		AgentConfig: AgentConfig{
			Workspace: "./ai-works",
			Language:  lang.Default,
			Pulse:     Pulse{Interval: Duration(60 * time.Second)},
			Thresholds: Thresholds{
				InactivityWarning: Duration(5 * time.Minute),
				InactivityError:   Duration(10 * time.Minute),
				Introspection:     Duration(30 * time.Minute),
				MaxStrictDeepWork: Duration(30 * time.Minute),
			},
			Schedule:       Schedule{Every: Duration(60 * time.Second)},
			Idle:           Idle{Prompt: DefaultIdlePromptLog},
			CircuitBreaker: CircuitBreaker{Failures: 3, Cooldown: Duration(15 * time.Minute), MaxCooldown: Duration(2 * time.Hour)},
			Recovery:       Recovery{MaxAttempts: 3, MaxWaitCycles: 5},
			Restrictions:   Restrictions{Cooldown: Duration(10 * time.Minute), Lock: Duration(60 * time.Minute)},
			Agent: Agent{
				Delivery:   DeliveryInbox,
				TmuxTarget: "agent",
				Command:    []string{"gemini", "-p", "{prompt}"},
				Timeout:    Duration(600 * time.Second),
			},
		},
		Timezone: "Local",
		loc:      time.Local,
	}
}

// Load reads path over the defaults and validates the result. An empty path
// means no file: the defaults alone. Unknown keys and bad values are errors
// that name the key. Relative workspaces are taken from the file's folder.
func Load(path string) (*Config, error) {
	c := Defaults()
	if path == "" {
		if err := c.finish(""); err != nil {
			return nil, err
		}
		return &c, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if err := c.parse(b); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if err := c.finish(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &c, nil
}

// Parse reads YAML text over the defaults and validates it; relative
// workspaces stay relative to the working directory.
func Parse(b []byte) (*Config, error) {
	c := Defaults()
	if err := c.parse(b); err != nil {
		return nil, err
	}
	if err := c.finish(""); err != nil {
		return nil, err
	}
	return &c, nil
}

// file is the document shape: the config plus the raw fleet entries, which
// are decoded one by one over the top-level values.
type file struct {
	*Config `yaml:",inline"`
	Agents  []yaml.Node `yaml:"agents"`
}

func (c *Config) parse(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	f := file{Config: c}
	if err := strict(b, &f); err != nil {
		return err
	}
	for i, n := range f.Agents {
		a := c.AgentConfig
		a.Schedule.Extra = append([]ExtraWakeup(nil), a.Schedule.Extra...)
		a.Name, a.Workspace = "", ""
		raw, err := yaml.Marshal(&n)
		if err != nil {
			return fmt.Errorf("agents[%d]: %w", i, err)
		}
		if err := strict(raw, &a); err != nil {
			return fmt.Errorf("agents[%d]: %w", i, err)
		}
		c.Agents = append(c.Agents, a)
	}
	return nil
}

// strict decodes with unknown keys refused.
func strict(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // only comments: no document
		}
		var de *durationError
		if errors.As(err, &de) {
			if key := keyAt(b, de.line, de.column); key != "" {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s", strings.Join(te.Errors, "; "))
		}
		return err
	}
	return nil
}

// keyAt names the key (dotted, [i] for list items) whose value is at
// line:column of the YAML text b, or "".
func keyAt(b []byte, line, column int) string {
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil {
		return ""
	}
	var find func(n *yaml.Node, path string) string
	find = func(n *yaml.Node, path string) string {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if k := find(c, path); k != "" {
					return k
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p, v := n.Content[i].Value, n.Content[i+1]
				if path != "" {
					p = path + "." + p
				}
				if v.Line == line && v.Column == column {
					return p
				}
				if k := find(v, p); k != "" {
					return k
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if k := find(c, fmt.Sprintf("%s[%d]", path, i)); k != "" {
					return k
				}
			}
		}
		return ""
	}
	return find(&doc, "")
}

// finish resolves relative paths against base, applies derived defaults and
// validates.
func (c *Config) finish(base string) error {
	loc, err := LoadLocation(c.Timezone)
	if err != nil {
		return err
	}
	c.loc = loc
	if base != "" {
		c.Workspace = absUnder(base, c.Workspace)
		for i := range c.Agents {
			c.Agents[i].Workspace = absUnder(base, c.Agents[i].Workspace)
		}
		if c.Alerts.File != "" {
			c.Alerts.File = absUnder(base, c.Alerts.File)
		}
		if c.HTTP.TokenFile != "" {
			c.HTTP.TokenFile = absUnder(base, c.HTTP.TokenFile)
		}
		m := &c.MQTT
		for _, f := range []*string{&m.PasswordFile, &m.TLS.CAFile, &m.TLS.CertFile, &m.TLS.KeyFile} {
			if *f != "" {
				*f = absUnder(base, *f)
			}
		}
		for i := range c.Alerts.Notify {
			if f := c.Alerts.Notify[i].URLFile; f != "" {
				c.Alerts.Notify[i].URLFile = absUnder(base, f)
			}
		}
	}
	if err := c.AgentConfig.validate(""); err != nil {
		return err
	}
	if err := c.validateWindow(); err != nil {
		return err
	}
	if err := c.validateMQTT(); err != nil {
		return err
	}
	names, spaces := map[string]int{}, map[string]int{}
	for i := range c.Agents {
		a := &c.Agents[i]
		key := fmt.Sprintf("agents[%d].", i)
		if a.Workspace == "" {
			return fmt.Errorf("%sworkspace: required for each agent of a fleet", key)
		}
		if err := a.validate(key); err != nil {
			return err
		}
		if j, dup := names[a.DisplayName()]; dup {
			return fmt.Errorf("%sname: %q is also agents[%d]; give each agent its own name", key, a.DisplayName(), j)
		}
		names[a.DisplayName()] = i
		ws, _ := filepath.Abs(a.Workspace)
		if j, dup := spaces[ws]; dup {
			return fmt.Errorf("%sworkspace: %q is also agents[%d]'s; agents share nothing", key, a.Workspace, j)
		}
		spaces[ws] = i
	}
	return nil
}

func absUnder(base, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// cronParser reads 5-field specs and descriptors such as @hourly.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// ParseCron parses a schedule spec. Specs with a TZ= or CRON_TZ= prefix are
// refused (robfig/cron panics on some of them; the timezone key applies).
func ParseCron(spec string) (cron.Schedule, error) {
	s := strings.TrimSpace(spec)
	if strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=") {
		return nil, fmt.Errorf("%q: a TZ= prefix is not allowed; set the timezone key instead", spec)
	}
	sched, err := cronParser.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", spec, err)
	}
	return sched, nil
}

func (a *AgentConfig) validate(key string) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%s%s: %s", key, field, fmt.Sprintf(format, args...))
	}
	switch {
	case a.Workspace == "":
		return bad("workspace", "must not be empty")
	case a.Pulse.Interval <= 0:
		return bad("pulse.interval", "must be positive, got %s", a.Pulse.Interval.D())
	}
	l, err := lang.Parse(string(a.Language))
	if err != nil {
		return bad("language", "%v", err)
	}
	a.Language = l
	if err := a.Thresholds.Validate(); err != nil {
		return fmt.Errorf("%s%w", key, err)
	}
	switch {
	case a.Schedule.Every < 0:
		return bad("schedule.every", "must not be negative (0 turns it off)")
	case a.Idle.After < 0:
		return bad("idle.after", "must not be negative (0 turns it off)")
	case a.DailyCap < 0:
		return bad("daily_cap", "must not be negative (0 = unlimited)")
	case a.CircuitBreaker.Failures < 1:
		return bad("circuit_breaker.failures", "must be at least 1")
	case a.CircuitBreaker.Cooldown <= 0:
		return bad("circuit_breaker.cooldown", "must be positive")
	case a.CircuitBreaker.MaxCooldown < a.CircuitBreaker.Cooldown:
		return bad("circuit_breaker.max_cooldown", "must be at least cooldown (%s)", a.CircuitBreaker.Cooldown.D())
	case a.Recovery.MaxAttempts < 1:
		return bad("recovery.max_attempts", "must be at least 1")
	case a.Recovery.MaxWaitCycles < 1:
		return bad("recovery.max_wait_cycles", "must be at least 1")
	case a.Restrictions.Cooldown <= 0 || a.Restrictions.Lock <= 0:
		return bad("restrictions", "cooldown and lock must be positive")
	case a.Agent.Timeout <= 0:
		return bad("agent.timeout", "must be positive")
	}
	if a.Schedule.Cron != "" {
		if _, err := ParseCron(a.Schedule.Cron); err != nil {
			return bad("schedule.cron", "%v", err)
		}
	}
	for i, x := range a.Schedule.Extra {
		if _, err := ParseCron(x.Cron); err != nil {
			return bad(fmt.Sprintf("schedule.extra[%d].cron", i), "%v", err)
		}
		if strings.TrimSpace(x.Prompt) == "" {
			return bad(fmt.Sprintf("schedule.extra[%d].prompt", i), "must not be empty")
		}
	}
	for i, h := range a.Schedule.ActiveHours {
		if _, err := ParseHours(h); err != nil {
			return bad(fmt.Sprintf("schedule.active_hours[%d]", i), "%v", err)
		}
	}
	if p := strings.TrimSpace(a.Idle.Prompt); p == "" || slices.Contains(defaultIdlePrompts, p) {
		a.Idle.Prompt = IdlePrompt(a.Agent.Delivery, a.Language)
	}
	switch a.Agent.Delivery {
	case DeliveryInbox:
	case DeliveryTmux:
		if a.Agent.TmuxTarget == "" {
			return bad("agent.tmux_target", "must not be empty with tmux delivery")
		}
	case DeliveryExec:
		if len(a.Agent.Command) == 0 || a.Agent.Command[0] == "" {
			return bad("agent.command", "must name a program with exec delivery, like [gemini, -p, \"{prompt}\"]")
		}
	default:
		return bad("agent.delivery", "%q is not one of inbox, tmux, exec", a.Agent.Delivery)
	}
	switch a.Agent.Output {
	case "", OutputText, OutputStreamJSON:
	default:
		return bad("agent.output", "%q is not one of text, stream-json", a.Agent.Output)
	}
	switch {
	case a.Agent.MaxToolCalls < 0:
		return bad("agent.max_tool_calls", "must not be negative (0 = off)")
	case a.Agent.MaxToolCalls > 0 && (a.Agent.Delivery != DeliveryExec || a.Agent.Output != OutputStreamJSON):
		return bad("agent.max_tool_calls", "needs exec delivery with agent.output: stream-json: only the client's stream-json events (Gemini CLI and Claude Code: --output-format stream-json) show each tool call as it happens")
	}
	return nil
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

// Fleet lists the agents this process supervises: the agents list, or the
// single top-level agent.
func (c *Config) Fleet() []AgentConfig {
	if len(c.Agents) > 0 {
		return c.Agents
	}
	return []AgentConfig{c.AgentConfig}
}
