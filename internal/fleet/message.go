package fleet

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Pulse is the compact state an agent publishes each pulse: what a fleet
// view draws, not the whole state file (no thresholds, notices or proofs).
type Pulse struct {
	Agent string `json:"agent"`
	Host  string `json:"host"`
	// Watchdog names the publishing process as its presence topic does
	// ("<host>/<name>"), so a last will marks its agents offline.
	Watchdog      string            `json:"watchdog"`
	HeartbeatID   workspace.ID      `json:"heartbeat_id"`
	PulseInterval config.Duration   `json:"pulse_interval"`
	Worst         string            `json:"worst"`
	Checks        map[string]string `json:"checks"`
	DeepWork      []state.DeepWork  `json:"deep_work,omitempty"`
	NextWakeup    *time.Time        `json:"next_wakeup,omitempty"`
	NextSource    string            `json:"next_source,omitempty"`
	Cap           Cap               `json:"cap"`
	Breaker       string            `json:"breaker"`
	Paused        bool              `json:"paused"`
	// Pause says until when, by whom and why (the operator's or the
	// watchdog's words, cut to maxActivity), so a fleet view shows what
	// the agent's own page does.
	Pause *pause.Pause `json:"pause,omitempty"`
	// Work (working, waiting, always), Client (the hooks' in_turn, waiting,
	// waiting_for_you) and BudgetSpent are what a fleet page sorts its
	// tiles by: which agent needs a person, works, or can spend no more.
	Work        string `json:"work,omitempty"`
	Client      string `json:"client,omitempty"`
	BudgetSpent bool   `json:"budget_spent,omitempty"`
	// Mode is the agent's mode on the day strip (working, waiting,
	// waiting_for_you, paused, outside_active_hours): a fleet view keeps
	// the day from it.
	Mode   string `json:"mode,omitempty"`
	Pulses int64  `json:"pulses"` // since the watchdog started, for /metrics
	// Language is the agent's (en, ja): the fleet page labels its card in it.
	Language lang.Lang `json:"language,omitempty"`
	// CostToday is what today's runs used, by source and outcome
	// (worked, ghost, failed, capped).
	CostToday cost.Split `json:"cost_today,omitempty"`
	// Seq counts this process's publishes for the agent, from 1: a view
	// sees a restart (it starts again) and gaps.
	Seq  uint64    `json:"seq"`
	Time time.Time `json:"time"` // the pulse's time
}

// Cap is the daily cap's use.
type Cap struct {
	Used  int `json:"used"`
	Limit int `json:"limit"`
}

// Alert is one alert as published.
type Alert struct {
	Time        time.Time `json:"time"`
	Agent       string    `json:"agent"`
	Host        string    `json:"host"`
	Level       string    `json:"level"`
	Check       string    `json:"check"`
	Message     string    `json:"message"`
	HeartbeatID string    `json:"heartbeat_id,omitempty"`
}

// Presence payloads on the watchdog topic.
const (
	Online  = "online"
	Offline = "offline"
)

// FromState makes the published pulse of a state.
func FromState(st state.State, host, watchdog string, seq uint64) Pulse {
	p := Pulse{
		Agent: st.Agent, Host: host, Watchdog: watchdog, HeartbeatID: st.HeartbeatID,
		PulseInterval: st.PulseInterval, Checks: make(map[string]string, len(st.Checks)),
		DeepWork:   trimDeepWork(st.DeepWork),
		NextWakeup: st.Chambers.Schedule.NextWakeup, NextSource: st.Chambers.Schedule.NextSource,
		Cap:     Cap{Used: st.DailyCap.Used, Limit: st.DailyCap.Limit},
		Breaker: st.Breaker.State, Paused: st.Pause != nil, Pulses: st.Counters.Pulses, Language: st.Language, Seq: seq, Time: st.PulseAt,
		Work: st.Work.Mode, Mode: day.ModeOf(st),
	}
	if st.Client != nil {
		p.Client = st.Client.Mode
	}
	if st.Pause != nil {
		pp := *st.Pause
		pp.Reason, pp.By = workspace.Clip(pp.Reason, maxActivity), workspace.Clip(pp.By, maxActivity)
		p.Pause = &pp
	}
	worst := checks.OK
	for name, c := range st.Checks {
		p.Checks[name] = c.Level
		if l, err := checks.ParseLevel(c.Level); err == nil && l > worst {
			worst = l
		}
	}
	p.Worst = worst.String()
	if st.Cost != nil {
		p.CostToday = st.Cost.Today.By
		p.BudgetSpent = st.Cost.Budget != nil && st.Cost.Budget.Spent
	}
	if p.Breaker == "" {
		p.Breaker = budget.Closed
	}
	return p
}

// What of the agent's own writing a pulse carries: enough for a card, and
// little enough that the pulse stays far under a view's MaxPayload.
const (
	maxDeepWork = 8
	maxActivity = 200 // bytes
)

func trimDeepWork(dw []state.DeepWork) []state.DeepWork {
	if len(dw) == 0 {
		return dw
	}
	out := slices.Clone(dw[:min(len(dw), maxDeepWork)])
	for i := range out {
		out[i].Activity = workspace.Clip(out[i].Activity, maxActivity)
	}
	return out
}

// State turns a received pulse back into the state shape the page and
// /metrics read; what the pulse does not carry stays empty.
func (p Pulse) State() state.State {
	st := state.State{
		Agent: p.Agent, PulseAt: p.Time, PulseInterval: p.PulseInterval, HeartbeatID: p.HeartbeatID,
		Checks: make(map[string]state.CheckState, len(p.Checks)), DeepWork: p.DeepWork,
		DailyCap: budget.CapState{Used: p.Cap.Used, Limit: p.Cap.Limit},
		Breaker:  budget.BreakerState{State: p.Breaker},
		Counters: state.Counters{Pulses: p.Pulses}, Language: p.Language, Work: state.Work{Mode: p.Work},
	}
	if p.Client != "" {
		st.Client = &state.Client{Mode: p.Client} // what it runs and since when stay on the agent's machine
	}
	for name, l := range p.Checks {
		st.Checks[name] = state.CheckState{Level: l}
	}
	st.Chambers.Schedule.NextWakeup, st.Chambers.Schedule.NextSource = p.NextWakeup, p.NextSource
	st.Chambers.Schedule.OutsideActiveHours = p.Mode == day.Outside
	switch {
	case p.Pause != nil:
		pp := *p.Pause
		st.Pause = &pp
	case p.Paused:
		st.Pause = &pause.Pause{} // an older watchdog's pulse says only that
	}
	if p.CostToday != nil || p.BudgetSpent {
		st.Cost = &cost.Summary{Today: cost.Period{By: p.CostToday}}
	}
	if p.BudgetSpent {
		st.Cost.Budget = &cost.BudgetState{Spent: true}
	}
	return st
}

// Topics builds and parses the topic names under one prefix.
type Topics struct{ Prefix string }

// State is the agent's retained state topic.
func (t Topics) State(agent string) string { return t.Prefix + "/" + TopicLevel(agent) + "/state" }

// Alerts is the agent's alert topic.
func (t Topics) Alerts(agent string) string { return t.Prefix + "/" + TopicLevel(agent) + "/alerts" }

// Watchdog is the process's presence topic (its last will).
func (t Topics) Watchdog(id string) string { return t.Prefix + "/_watchdog/" + id }

// All is the filter a view subscribes to.
func (t Topics) All() string { return t.Prefix + "/#" }

// Topic kinds Parse tells apart.
const (
	KindOther = iota
	KindState
	KindAlerts
	KindWatchdog
)

// Parse says what a topic is: for state and alerts the agent's topic
// level, for a watchdog its ID ("<host>/<name>").
func (t Topics) Parse(topic string) (kind int, name string) {
	rest, ok := strings.CutPrefix(topic, t.Prefix+"/")
	if !ok {
		return KindOther, ""
	}
	if id, ok := strings.CutPrefix(rest, "_watchdog/"); ok {
		return KindWatchdog, id
	}
	agent, leaf, ok := strings.Cut(rest, "/")
	switch {
	case !ok || strings.Contains(leaf, "/"):
		return KindOther, ""
	case leaf == "state":
		return KindState, agent
	case leaf == "alerts":
		return KindAlerts, agent
	}
	return KindOther, ""
}

// TopicLevel makes a name safe as one topic level, and keeps names apart:
// MQTT's wildcards, its level separator, control characters and % itself
// are percent-encoded ("team/+x" is "team%2F%2Bx"). Replacing them with _
// made "team/+x", "team_#x" and "team__x" one topic, so one agent's state
// overwrote another's.
func TopicLevel(name string) string {
	if !strings.ContainsFunc(name, topicUnsafe) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if topicUnsafe(r) {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func topicUnsafe(r rune) bool {
	return r == '+' || r == '#' || r == '/' || r == '%' || r < 0x20 || r == 0x7f
}
