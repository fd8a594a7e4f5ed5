// Package state owns the watchdog's state file: what its pulse knows,
// written every pulse to the agent's state folder (config state_dir, out of
// the agent's reach) and read from there by `watchdog status`, `watchdog
// check` and dashboards; and the copy published for the agent's tools at
// stats/watchdog_state.json, which mcp-heart reads (an agent that forges it
// fools only itself). It is its own package (not internal/workspace) because
// the schema holds config and budget types that themselves build on the
// workspace.
package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/statefile"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// State is the state file: what the pulse knows, for `watchdog status`,
// dashboards, and (through the published copy) mcp-heart (which reads timezone and thresholds so
// its messages agree with the alerts). A state older than two pulses means
// the watchdog is not running.
type State struct {
	Version       int             `json:"version"`
	Agent         string          `json:"agent"`
	PID           int             `json:"pid"`
	StartedAt     time.Time       `json:"started_at"`
	PulseAt       time.Time       `json:"pulse_at"`
	PulseInterval config.Duration `json:"pulse_interval"`
	HeartbeatID   workspace.ID    `json:"heartbeat_id"`
	Timezone      string          `json:"timezone"`
	// Language is what the agent reads (en or ja): mcp-heart speaks it.
	Language     lang.Lang             `json:"language,omitempty"`
	Thresholds   config.Thresholds     `json:"thresholds"`
	Restrictions config.Restrictions   `json:"restrictions"`
	Delivery     string                `json:"delivery"`
	Checks       map[string]CheckState `json:"checks"`
	LastProof    *workspace.Proof      `json:"last_proof,omitempty"`
	LastLog      *workspace.Proof      `json:"last_log,omitempty"`
	LastIntro    *workspace.Proof      `json:"last_introspection,omitempty"`
	LastCheck    *workspace.Proof      `json:"last_checkpoint,omitempty"`
	DeepWork     []DeepWork            `json:"deep_work"`
	Recovery     Recovery              `json:"recovery"`
	Chambers     Chambers              `json:"chambers"`
	DailyCap     budget.CapState       `json:"daily_cap"`
	Breaker      budget.BreakerState   `json:"circuit_breaker"`
	Counters     Counters              `json:"counters"`
	Work         Work                  `json:"work"`
	// Notices are the paragraphs the next heartbeat would carry (recovery
	// and each non-ok check's advice), whatever the delivery: mcp-heart
	// reads them here, so agents under tmux and exec see them too.
	Notices []string `json:"notices"`
	// Pause is the pause in force (pause.json under state_dir), if any: no wakeups,
	// and no inactivity or introspection alerts.
	Pause *pause.Pause `json:"pause,omitempty"`
	// Cost is what the agent's wakeups used (today, yesterday, the last 7
	// days, and totals since the ledger began), from the cost ledger.
	Cost *cost.Summary `json:"cost,omitempty"`
	// Client is what the agent's client said through its hooks; absent
	// where no hook has spoken since the watchdog started.
	Client *Client `json:"client,omitempty"`
	// Theme is the theme the newest theme record names; absent before the
	// first start_theme.
	Theme *Theme `json:"theme,omitempty"`
	// Channels is when each channel of the client last spoke (hooks,
	// telemetry, exec, transcript); absent for one that has not.
	Channels Channels `json:"channels,omitempty"`
	// Progress is what the agent's work showed around its last answered
	// wakeups; absent while progress.after is 0.
	Progress *Progress `json:"progress,omitempty"`
	// Asks are the questions a person may answer from afar; absent while
	// asks.hold is 0 or nothing can be held here.
	Asks *Asks `json:"asks,omitempty"`
}

// Progress is the agent's work as the watchdog sees it change.
type Progress struct {
	// Watched are the folders whose changes are its progress.
	Watched []string `json:"watched"`
	// After is progress.after; Unchanged the answered wakeups in a row
	// (ghost replies aside) that changed nothing there.
	After     int `json:"after"`
	Unchanged int `json:"unchanged"`
	// Recent are the last answered wakeups' work, newest last (at most 10).
	Recent []WakeupWork `json:"recent,omitempty"`
}

// WakeupWork is what one answered wakeup changed, beside what the agent
// said of it.
type WakeupWork struct {
	Time   time.Time `json:"time"` // when the answer came
	Source string    `json:"source"`
	// What changed in the folders watched: files, and in git work trees
	// the commits made and their lines.
	Files   int `json:"files"`
	Commits int `json:"commits,omitempty"`
	Added   int `json:"lines_added,omitempty"`
	Removed int `json:"lines_removed,omitempty"`
	// Said is the agent's own newest activity log line since the wakeup
	// ("" when it wrote none): its word beside its work.
	Said string `json:"said,omitempty"`
}

// Channels maps a channel's name to when it last spoke.
type Channels map[string]time.Time

// Client modes, from the hooks: in a turn, waiting for the next prompt, or
// waiting for a person to answer a permission prompt or a question.
const (
	ClientInTurn        = "in_turn"
	ClientWaiting       = "waiting"
	ClientWaitingForYou = "waiting_for_you"
)

// Client is the hooks' view of the agent.
type Client struct {
	Mode  string     `json:"mode"`
	Since *time.Time `json:"since,omitempty"` // the turn's start, or the question's
	// LastEvent is the newest hook event's time.
	LastEvent time.Time `json:"last_event"`
	// LastTool and LastToolAt are the newest tool call; ToolCalls those
	// begun in the last 5 minutes (the busy window).
	LastTool   string     `json:"last_tool,omitempty"`
	LastToolAt *time.Time `json:"last_tool_at,omitempty"`
	// Running is set while that call has not ended (it began at LastToolAt).
	Running   bool `json:"running,omitempty"`
	ToolCalls int  `json:"tool_calls_5m"`
	// Repeats is the run of the same call (or two alternating), of LoopTools.
	Repeats   int    `json:"repeats,omitempty"`
	LoopTools string `json:"loop_tools,omitempty"`
	// Asking says what the agent waits for a person about; Answered is
	// when a person last answered (inactivity counts again from there).
	Asking   string     `json:"asking,omitempty"`
	Answered *time.Time `json:"answered,omitempty"`
	// Failure is the model service's last failure type (rate_limit, ...)
	// until a turn starts after it.
	Failure string `json:"failure,omitempty"`
}

// Work modes: always working (no schedule, no idle chamber), working (a
// wakeup is unanswered) or waiting (every wakeup answered; healthy).
const (
	WorkAlways  = "always"
	WorkWorking = "working"
	WorkWaiting = "waiting"
)

// Work is working versus waiting, as the checks judge it.
type Work struct {
	Mode string `json:"mode"`
	// Since is when the unanswered wakeup was delivered (working only).
	Since *time.Time `json:"since,omitempty"`
	// WorkedSinceIntrospection is the working time introspection is owed on.
	WorkedSinceIntrospection config.Duration `json:"worked_since_introspection"`
	// Baseline is what the checks count from when nothing is newer (the
	// watchdog's start, or a pause's end); StrictEnded is the deadline of
	// the last strict deep work that expired, from which inactivity counts.
	// mcp-heart measures with them, so its replies agree with the checks.
	Baseline    *time.Time `json:"baseline,omitempty"`
	StrictEnded *time.Time `json:"strict_ended,omitempty"`
}

// CheckState is one check's current level and message.
type CheckState struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// Theme is the agent's theme as its newest record says: started (Name
// from the start record's heading) or Ended.
type Theme struct {
	StartID workspace.ID `json:"start_id,omitempty"`
	Dir     string       `json:"dir"` // the folder part after the start ID
	Name    string       `json:"name,omitempty"`
	Ended   bool         `json:"ended,omitempty"`
	Record  string       `json:"record"` // the record's workspace-relative path
}

// DeepWork is an active declaration as the state shows it.
type DeepWork struct {
	ID       workspace.ID   `json:"id"`
	Mode     workspace.Mode `json:"mode"`
	Activity string         `json:"activity"`
	Deadline *time.Time     `json:"deadline,omitempty"`
}

// Chambers shows what each chamber is doing.
type Chambers struct {
	Pulse    PulseChamber    `json:"pulse"`
	Schedule ScheduleChamber `json:"schedule"`
	Idle     IdleChamber     `json:"idle"`
}

// PulseChamber shows the pulse's timing.
type PulseChamber struct {
	Count       int64  `json:"count"`
	LastTookMS  int64  `json:"last_took_ms"`
	MaxLateMS   int64  `json:"max_late_ms"`
	LastError   string `json:"last_error,omitempty"`
	ScanHealthy bool   `json:"scan_healthy"`
	// ScanFallback is why the scanner polls instead of following the
	// workspace with inotify (the kernel's watch limit); "" while it follows.
	ScanFallback string `json:"scan_fallback,omitempty"`
	// WriteFailures counts the watchdog's writes that failed since it
	// started (heartbeat ID, state, ledger, day strip, alerts file...).
	WriteFailures int64 `json:"write_failures"`
	// WritesFailing is the spell of failing writes in progress (a full
	// disk, say); absent once a pulse's writes succeed again.
	WritesFailing *WriteOutage `json:"writes_failing,omitempty"`
	// HooksUnread is why the hooks' spool cannot be read (a FIFO or a
	// folder at the day's file, the folder linked out of the workspace):
	// the client's hooks are not heard. Absent while it reads.
	HooksUnread string `json:"hooks_unread,omitempty"`
}

// WriteOutage is a spell of the watchdog's writes failing.
type WriteOutage struct {
	Since time.Time `json:"since"`
	What  string    `json:"what"`  // the first write that failed
	Error string    `json:"error"` // why
}

// ScheduleChamber shows the next wakeup and the one in flight.
type ScheduleChamber struct {
	NextWakeup     *time.Time `json:"next_wakeup,omitempty"`
	NextSource     string     `json:"next_source,omitempty"`
	InFlight       bool       `json:"in_flight"`
	InFlightSource string     `json:"in_flight_source,omitempty"`
	InFlightSince  *time.Time `json:"in_flight_since,omitempty"`
	LastWakeup     *time.Time `json:"last_wakeup,omitempty"`
	Stopped        bool       `json:"stopped"` // recovery gave up: no wakeups
	// OutsideActiveHours is true while schedule.active_hours keeps the
	// schedule and idle chambers silent.
	OutsideActiveHours bool `json:"outside_active_hours"`
	// HeldUntil is when the model service's hold ends (rate limit,
	// overload): wakeups wait until then.
	HeldUntil *time.Time `json:"held_until,omitempty"`
	// HeldFor says what holds it ("5-hour limit, 100 % used", a failure's
	// word).
	HeldFor string `json:"held_for,omitempty"`
	// Blocked is why no wakeup can reach the agent (Blocking at the
	// pulse); NextWakeup is absent while it lasts.
	Blocked *Blocked `json:"blocked,omitempty"`
	// HeldLimit: the hold is a rate limit's (`watchdog resume` ends it).
	HeldLimit bool `json:"held_limit,omitempty"`
	// Spread is the spreading of the schedule's wakeups in force, past
	// rate_limit.spread_at of a limit; absent when none.
	Spread *Spread `json:"spread,omitempty"`
	// Dismissed are the rate limits' windows `watchdog resume` ended, until
	// their reset: no report of them is believed before it (kept across a
	// restart: the spool's tail is read again).
	Dismissed map[string]time.Time `json:"limits_dismissed,omitempty"`
}

// Spread is the schedule's wakeups spread out to make a rate limit last.
type Spread struct {
	Window string    `json:"window"` // the client's window: five_hour, seven_day
	Why    string    `json:"why"`    // "7-day limit, 99 % used"
	Until  time.Time `json:"until"`  // the window's reset
	// MaxGap is rate_limit.spread_max: the widest gap it makes.
	MaxGap config.Duration `json:"max_gap"`
}

// IdleChamber shows the idle chamber.
type IdleChamber struct {
	After  config.Duration `json:"after"`
	Idle   bool            `json:"idle"`
	WakeAt *time.Time      `json:"wake_at,omitempty"`
}

// Counters are running totals since the watchdog started.
type Counters struct {
	Pulses           int64 `json:"pulses"`
	Wakeups          int64 `json:"wakeups"`
	Delivered        int64 `json:"delivered"`
	DeliveryFailures int64 `json:"delivery_failures"`
	Ghosts           int64 `json:"ghosts"`
	ToolCapped       int64 `json:"tool_capped"`    // exec runs ended at agent.max_tool_calls
	TokenCapped      int64 `json:"token_capped"`   // exec runs ended at budget.per_wakeup_tokens
	ToolRefused      int64 `json:"tool_refused"`   // exec runs whose every tool call the client refused
	DroppedBudget    int64 `json:"dropped_budget"` // wakeups dropped: the daily budget was spent
	Dropped          int64 `json:"dropped"`        // over the daily cap
	Skipped          int64 `json:"skipped"`        // circuit breaker open
	HeldService      int64 `json:"held_service"`   // the model's service failed: held until its probe
	GaveUp           int64 `json:"gave_up"`        // not sent: recovery gave up, the agent is not woken
	TakenOver        int64 `json:"taken_over"`     // runs ended unanswered by recovery or urgent feedback
	Coalesced        int64 `json:"coalesced"`      // due while another was in flight
	// OutsideActiveHours counts scheduled wakeups (and idle spells) held
	// back by schedule.active_hours.
	OutsideActiveHours int64 `json:"outside_active_hours"`
	Alerts             int64 `json:"alerts"`
	SweptTempFiles     int64 `json:"swept_temp_files"` // stale renameio temp files removed
	Paused             int64 `json:"paused"`           // wakeups not sent because the agent is paused
	// Telemetry's usage reports counted apart, never charged: those that
	// belonged to no run or turn of the agent's (another agent's, a
	// stranger's, never taken), and those refused as implausible.
	TelemetryUnmatched int64 `json:"telemetry_unmatched,omitempty"`
	TelemetryRefused   int64 `json:"telemetry_refused,omitempty"`
	// TelemetryUnkeyed counts posts refused for want of the agent's key.
	TelemetryUnkeyed int64 `json:"telemetry_unkeyed,omitempty"`
	// Answered wakeups (ghost replies aside) whose work changed something
	// in the folders progress watches, and those that changed nothing.
	WorkChanged   int64 `json:"work_changed,omitempty"`
	WorkUnchanged int64 `json:"work_unchanged,omitempty"`
	// BySource splits the wakeups' fates by the chamber that asked:
	// source (schedule, idle, recovery, feedback) -> outcome -> count.
	BySource map[string]map[string]int64 `json:"wakeups_by_source,omitempty"`
}

// The fates of a wakeup, as wakeups_by_source and the metrics spell them.
const (
	OutcomeDelivered     = "delivered"
	OutcomeGhost         = "ghost"
	OutcomeFailed        = "failed"
	OutcomeToolCapped    = "tool_capped"
	OutcomeTokenCapped   = "token_capped"
	OutcomeToolRefused   = "tool_refused"
	OutcomeDroppedBudget = "dropped_budget"
	OutcomeDroppedCap    = "dropped_cap"
	OutcomeSkipped       = "skipped_breaker"
	OutcomeHeldService   = "held_service"
	OutcomeGaveUp        = "skipped_gave_up"
	OutcomeTakenOver     = "taken_over"
	OutcomeCoalesced     = "coalesced"
	OutcomeMoot          = "moot" // its cause was gone once the pane let it in: not sent
	OutcomePaused        = "paused"
	OutcomeOutsideHrs    = "outside_active_hours"
)

// Wakeup counts one wakeup's fate, in its total and under its source.
func (c *Counters) Wakeup(source, outcome string) {
	switch outcome {
	case OutcomeDelivered:
		c.Delivered++
	case OutcomeGhost:
		c.Ghosts++
	case OutcomeFailed:
		c.DeliveryFailures++
	case OutcomeToolCapped:
		c.ToolCapped++
	case OutcomeTokenCapped:
		c.TokenCapped++
	case OutcomeToolRefused:
		c.ToolRefused++
	case OutcomeDroppedBudget:
		c.DroppedBudget++
	case OutcomeDroppedCap:
		c.Dropped++
	case OutcomeSkipped:
		c.Skipped++
	case OutcomeHeldService:
		c.HeldService++
	case OutcomeGaveUp:
		c.GaveUp++
	case OutcomeTakenOver:
		c.TakenOver++
	case OutcomeCoalesced:
		c.Coalesced++
	case OutcomePaused:
		c.Paused++
	case OutcomeOutsideHrs:
		c.OutsideActiveHours++
	}
	if c.BySource == nil {
		c.BySource = map[string]map[string]int64{}
	}
	if c.BySource[source] == nil {
		c.BySource[source] = map[string]int64{}
	}
	c.BySource[source][outcome]++
}

// Clone copies the counters, maps included, for a state that leaves the
// agent's lock.
func (c Counters) Clone() Counters {
	if c.BySource != nil {
		by := make(map[string]map[string]int64, len(c.BySource))
		for src, m := range c.BySource {
			by[src] = maps.Clone(m)
		}
		c.BySource = by
	}
	return c
}

// File is the state file, in the agent's state folder.
const File = "state.json"

// Load reads the state file in the agent's state folder dir: the one status,
// check and dashboards believe. No file is an error wrapping
// os.ErrNotExist (no watchdog ever ran for the agent).
func Load(dir string) (State, error) {
	var s State
	p := filepath.Join(dir, File)
	found, err := statefile.Read(p, &s)
	if err == nil && !found {
		err = fmt.Errorf("read state %s: %w", p, os.ErrNotExist)
	}
	return s, err
}

// ReadPublished reads the copy published in the workspace for the agent's
// tools. The agent can write it: it says what the agent's own tools should
// show, and never decides anything for the watchdog, status or the page.
func ReadPublished(ws *workspace.Workspace) (State, error) {
	var s State
	var perr error
	for range 2 { // once more when torn (see workspace.WritePulseFile)
		b, err := ws.ReadFile(workspace.StateFile, workspace.MaxTextFile)
		if err != nil {
			return s, fmt.Errorf("read state: %w", err)
		}
		s = State{}
		if perr = json.Unmarshal(b, &s); perr == nil {
			return s, nil
		}
	}
	return s, fmt.Errorf("read state %s: %w", workspace.StateFile, perr)
}

// Running reports whether the state was written by a live watchdog: its last
// pulse is no older than two pulse intervals.
func (s State) Running(now time.Time) bool {
	iv := s.PulseInterval.D()
	if iv <= 0 || s.PulseAt.IsZero() {
		return false
	}
	return now.Sub(s.PulseAt) <= 2*iv
}

// Recovery is the recovery state of one agent (docs/design.md section 5, Recovery).
type Recovery = recovery.State
