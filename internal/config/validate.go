package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

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

func (a *AgentConfig) validate(key string, p *problems) {
	bad := func(field, format string, args ...any) { p.addf(key+field, format, args...) }
	if a.Workspace == "" {
		bad("workspace", "must not be empty")
	}
	switch {
	case a.Pulse.Interval <= 0:
		bad("pulse.interval", "must be positive, got %s", a.Pulse.Interval.D())
	case a.Pulse.Interval.D() < MinPulseInterval:
		// 1ns was accepted and pulsed ~900 times a second, each one writing
		// the ID and the state file.
		bad("pulse.interval", "must be at least %s, got %s (the default is 60s)", MinPulseInterval, a.Pulse.Interval.D())
	}
	if a.Language == "" {
		a.Language = workspace.RecordedLanguage(a.Workspace)
	}
	if l, err := lang.Parse(string(a.Language)); err != nil {
		bad("language", "%v", err)
	} else {
		a.Language = l
	}
	a.Thresholds.check(key, p)
	switch {
	case a.Schedule.Every < 0:
		bad("schedule.every", "must not be negative (0 turns it off)")
	case a.Schedule.Every > 0 && a.Schedule.Every.D() < a.MinEvery():
		// 1ns was accepted and made 624 exec runs in 4 s.
		bad("schedule.every", "must be 0 (off) or at least %s, got %s: a wakeup starts a turn of the model, which takes seconds", a.MinEvery(), a.Schedule.Every.D())
	}
	if a.Idle.After < 0 {
		bad("idle.after", "must not be negative (0 turns it off)")
	}
	if a.Idle.ParkedMax < 0 {
		bad("idle.parked_max", "must not be negative (0: the client's word that it is parked is not believed)")
	}
	if a.Idle.SelfWakeupMargin < 0 {
		bad("idle.self_wakeup_margin", "must not be negative")
	}
	if a.DailyCap < 0 {
		bad("daily_cap", "must not be negative (0 = unlimited)")
	}
	if a.CircuitBreaker.Failures < 1 {
		bad("circuit_breaker.failures", "must be at least 1")
	}
	if a.CircuitBreaker.Cooldown <= 0 {
		bad("circuit_breaker.cooldown", "must be positive")
	} else if a.CircuitBreaker.MaxCooldown < a.CircuitBreaker.Cooldown {
		bad("circuit_breaker.max_cooldown", "must be at least cooldown (%s)", a.CircuitBreaker.Cooldown.D())
	}
	if a.Recovery.MaxAttempts < 1 {
		bad("recovery.max_attempts", "must be at least 1")
	}
	if a.Recovery.MaxWaitCycles < 1 {
		bad("recovery.max_wait_cycles", "must be at least 1")
	}
	if a.Recovery.ResumeAfter < 0 {
		bad("recovery.resume_after", "must be 0 (off) or positive")
	}
	if a.Restrictions.Cooldown <= 0 || a.Restrictions.Lock <= 0 {
		bad("restrictions", "cooldown and lock must be positive")
	}
	if a.Agent.Timeout <= 0 {
		bad("agent.timeout", "must be positive")
	}
	if a.Agent.RetryWaitMax < 0 {
		bad("agent.retry_wait_max", "must not be negative (0: a client's announced retry waits are not believed)")
	}
	if a.Agent.StopGrace <= 0 {
		bad("agent.stop_grace", "must be positive")
	}
	a.Budget.check(key, p)
	a.RateLimit.check(key, p)
	a.Progress.check(key, p)
	a.Asks.check(key, p)
	if a.Budget.PerWakeupTokens > 0 && (a.Agent.Delivery != DeliveryExec || a.Agent.Output != OutputStreamJSON) {
		bad("budget.per_wakeup_tokens", "needs exec delivery with agent.output: stream-json: only the client's stream-json events report usage while the run goes on")
	}
	if a.Schedule.Cron != "" {
		if _, err := ParseCron(a.Schedule.Cron); err != nil {
			bad("schedule.cron", "%v", err)
		}
	}
	for i, x := range a.Schedule.Extra {
		if _, err := ParseCron(x.Cron); err != nil {
			bad(fmt.Sprintf("schedule.extra[%d].cron", i), "%v", err)
		}
		if strings.TrimSpace(x.Prompt) == "" {
			bad(fmt.Sprintf("schedule.extra[%d].prompt", i), "must not be empty")
		}
	}
	for i, h := range a.Schedule.ActiveHours {
		if _, err := ParseHours(h); err != nil {
			bad(fmt.Sprintf("schedule.active_hours[%d]", i), "%v", err)
		}
	}
	if prompt := strings.TrimSpace(a.Idle.Prompt); prompt == "" || slices.Contains(defaultIdlePrompts, prompt) {
		a.Idle.Prompt = IdlePrompt(a.Agent.Delivery, a.Language)
	}
	if a.Agent.TelemetryGrace < 0 || a.Agent.TelemetryGrace.D() > 10*time.Minute {
		bad("agent.telemetry_grace", "must be between 0s and 10m")
	}
	switch a.Agent.Delivery {
	case DeliveryInbox:
	case DeliveryTmux:
		if a.Agent.TmuxTarget == "" {
			bad("agent.tmux_target", "must not be empty with tmux delivery")
		}
		if a.Agent.TmuxLook <= 0 || a.Agent.TmuxConfirm <= 0 {
			bad("agent.tmux_look", "agent.tmux_look and agent.tmux_confirm must be positive")
		}
	case DeliveryExec:
		if len(a.Agent.Command) == 0 || a.Agent.Command[0] == "" {
			bad("agent.command", "must name a program with exec delivery, like [gemini, -p, \"{prompt}\"]")
		}
	default:
		bad("agent.delivery", "%q is not one of inbox, tmux, exec", a.Agent.Delivery)
	}
	switch a.Agent.Output {
	case "", OutputText, OutputStreamJSON:
	default:
		bad("agent.output", "%q is not one of text, stream-json", a.Agent.Output)
	}
	switch {
	case a.Agent.MaxToolCalls < 0:
		bad("agent.max_tool_calls", "must not be negative (0 = off)")
	case a.Agent.MaxToolCalls > 0 && (a.Agent.Delivery != DeliveryExec || a.Agent.Output != OutputStreamJSON):
		bad("agent.max_tool_calls", "needs exec delivery with agent.output: stream-json: only the client's stream-json events (Gemini CLI and Claude Code: --output-format stream-json) show each tool call as it happens")
	}
}

// CheckClients refuses an agent.client that is none of known, the clients
// with hooks (heart-hook's --client names): the registry knows them and
// config does not import it, so the command that loads the config passes
// them, and the problems read as Load's.
func (c *Config) CheckClients(known []string) error {
	var p problems
	check := func(key, name string) {
		if name != "" && !slices.Contains(known, name) {
			p.addf(key+"agent.client", "%q is not one of %s (or empty: the client the hooks name)", name, strings.Join(known, ", "))
		}
	}
	check("", c.Agent.Client)
	for i, a := range c.Agents {
		check(fmt.Sprintf("agents[%d].", i), a.Agent.Client)
	}
	return p.err()
}
