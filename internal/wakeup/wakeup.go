// Package wakeup is a wakeup's life as one pure machine: asked for by a
// chamber, coalesced into the flight in progress or taking over from it,
// passed or refused by the gate's facts, delivered, answered, and its fate;
// recovery's life beside it (opened, attempted, held, ended, given up,
// resumed: internal/recovery is its inner step), and the agent's
// working-versus-waiting stretch. Step takes the last state, one event and
// now, and returns the next state and what to do. It does no I/O and reads
// no clock: the daemon evaluates the facts (the checks, the pause, active
// hours, the daily cap, the circuit breaker, the budget, the service and
// rate-limit holds), steps the machine and carries out the effects.
//
// Its promises:
//   - at most one flight is current, and a flight is ended at most once;
//   - every wakeup asked for gets exactly one fate: refused, coalesced,
//     or admitted and then refused at the gate, or delivered and ended;
//   - a wakeup the gate refuses never takes from the daily cap;
//   - a takeover ends the flight it replaces, and its run starts only once
//     the replaced run is gone;
//   - a recovery attempt is the takeover wakeup it asks for: one the gate
//     refuses, or that never reaches the agent, is no attempt and is not
//     counted towards giving up;
//   - while recovery has given up, no wakeup is delivered, whatever asked;
//   - what the agent is owed (a give-up that ended, a quiet spell of the
//     model's service) is carried by exactly one delivered wakeup;
//   - working begins at a delivery and ends only by an answer (a
//     successful run, a turn begun after the wakeup, a log) or by a wait
//     for the model's service.
package wakeup

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/recovery"
)

// The chambers that ask for wakeups.
const (
	Schedule = "schedule"
	Idle     = "idle"
	Recovery = "recovery"
	Feedback = "feedback" // an urgent (interrupt.) feedback item
)

// Config is what the machine knows of the agent, fixed while it runs.
type Config struct {
	// Scheduled: a schedule or the idle chamber wakes the agent (else it
	// is always working).
	Scheduled bool
	// RunIsTheWork: the delivery is the agent's whole turn (exec): the run
	// starts the working stretch and its successful end answers it.
	RunIsTheWork bool
	// Holds: a delivered wakeup stays in flight until the agent answers
	// it (tmux).
	Holds bool
	// Recovery is how recovery attempts and gives up.
	Recovery recovery.Config
}

// Phase is where a flight is in its life.
type Phase int

// The phases.
const (
	Queued  Phase = iota // admitted; waits for the run it replaces to be gone
	Running              // past the gate, or on its way to it
	Held                 // delivered; waits for the agent's answer (tmux)
)

// Flight is one admitted wakeup, from admission to its answer or its end.
type Flight struct {
	N      int // its number, naming it in events and effects
	Source string
	At     time.Time // when its wakeup began
	Phase  Phase
	Prev   int // the flight whose run must be gone before this one starts (0: none)
	// Attempt is the recovery attempt this flight is (0: none): one that
	// never reaches the agent is taken back.
	Attempt int
	Passed  bool // past the gate: delivered, or being delivered
}

// State is the machine's state.
type State struct {
	Cfg        Config
	Cur        *Flight   // the newest flight, until answered or ended
	LastN      int       // the last flight number handed out
	Idle       bool      // an idle wakeup was delivered and no proof came since but its answer
	IdleAnswer time.Time // the log that answered the idle wakeup (zero: none yet)
	LastIdle   bool      // the last delivered wakeup was an idle one
	LastWakeup time.Time // when the last delivered wakeup began
	Work       Work
	Rec        recovery.State // recovery, as the state file shows it (its Owed: the give-up owed)
	Quiet      *Quiet         // the model's service's hold, owed to the agent
	Closed     bool           // shut down, or handing over to a reloaded agent: admits nothing
	Stopped    bool           // shut down: every flight is ended
}

// New is the machine at the start: waiting, counting work from started.
func New(cfg Config, started time.Time) State {
	return State{Cfg: cfg, Work: Work{scheduled: cfg.Scheduled, countedTo: started}}
}

// Carry is s for a reloaded agent of configuration cfg: the wakeup history
// and the working stretch go on (a wakeup still unanswered is still owed,
// whatever the new config schedules); the old machine's flight does not.
func (s State) Carry(cfg Config) State {
	n := New(cfg, s.Work.countedTo)
	n.Idle, n.IdleAnswer, n.LastIdle, n.LastWakeup, n.LastN = s.Idle, s.IdleAnswer, s.LastIdle, s.LastWakeup, s.LastN
	n.Work, n.Rec, n.Quiet = s.Work, s.Rec, s.Quiet
	n.Work.scheduled = cfg.Scheduled
	return n
}

// Kind is what an effect asks the driver to do.
type Kind int

// The effects.
const (
	Count    Kind = iota // count Outcome under Source (and mark it on the day)
	Admit                // count an admitted wakeup; start flight N's run after flight Prev's is gone
	End                  // end flight N's run (SIGTERM for exec): Outcome says why
	Skip                 // the open breaker counts a skipped wakeup
	Drop                 // the daily cap counts a dropped wakeup (the first of a day alerts)
	Book                 // take one from the daily cap, then ask the breaker (a probe when half-open)
	Deliver              // deliver flight N's wakeup now
	Answered             // flight N's wakeup, begun At, was answered by the agent
	Woke                 // the agent stopped being idle
	Worked               // the working stretch changed: the state file shows it
	Spent                // the budget refused a wakeup: check it (its alert)
	// Recovery's decisions, each read with the recovery state of the step.
	Attempted // recovery attempts: the takeover wakeup was asked for
	Waits     // recovery waits (a person is asked, or the gate would refuse): say so once
	Recovered // no recoverable check at error: recovery ended
	GaveUp    // attempts exhausted: no wakeup is delivered until it ends
	Back      // a give-up ended: waking resumes
)

var kindNames = [...]string{"count", "admit", "end", "skip", "drop", "book", "deliver", "answered", "woke", "worked", "spent",
	"attempted", "waits", "recovered", "gave_up", "back"}

func (k Kind) String() string { return kindNames[k] }

// EndStopped is why an End effect ends a run when the watchdog stops (a
// takeover's End says state.OutcomeTakenOver).
const EndStopped = "stopped"

// Effect is one thing the driver does after a step, in order.
type Effect struct {
	Kind    Kind
	N       int
	Prev    int // Admit: the flight whose run must be gone first
	Source  string
	Outcome string    // Count: the fate; End: why
	At      time.Time // Answered: when the wakeup began
	Owed    Owed      // Deliver: what the wakeup carries to the agent
}

// Event is what happens to the machine.
type Event interface{ event() }

// Ask: a chamber asks for a wakeup; Takeover ends the flight in progress
// (recovery, urgent feedback). The facts are read when it is asked.
type Ask struct {
	Source   string
	Takeover bool
	Outside  bool // outside active hours
	Paused   bool // the operator's pause
	// Spent and CapFull, for a takeover that must not end the flight in
	// progress for nothing (recovery): refused before it ends anything.
	// The gate weighs them again when the flight reaches it.
	Spent, CapFull bool
}

// Facts are the gate's facts as the flight reaches it.
type Facts struct {
	Held        bool // the model's service or rate limit holds wakeups
	Spread      bool // a scheduled wakeup waits to spread a rate limit's rest
	BreakerOpen bool // the breaker is open and its cooldown not over
	ProbeOut    bool // the breaker is half-open and its one probe is out
	Spent       bool // today's token or money budget is spent
	CapFull     bool // the daily cap allows no more today
}

// Pass: flight N reaches the gate (its replaced run is gone, and a
// scheduled wakeup has waited for its pulse).
type Pass struct {
	N      int
	Source string
	Facts  Facts
}

// Ran: flight N's delivery returned, begun at Start, ended as Result says;
// Cut is what ended an exec run early (zero: it failed by itself). Owed is
// what its wakeup carried (its Deliver's): told, if delivered.
type Ran struct {
	N      int
	Source string
	Start  time.Time
	Result Result
	Cut    checks.RunEnd
	Owed   Owed
}

// Result is how a delivery ended.
type Result int

// The results.
const (
	OK          Result = iota
	Failed             // the delivery or the run failed
	ToolCapped         // the run was ended at the tool cap
	TokenCapped        // the run was ended at the token cap
	Refused            // the client refused every call: the run did nothing
	TakenOver          // a takeover ended the run
	Stopped            // the watchdog stopped and ended the run
	Moot               // its cause was gone once it could go in: nothing was sent
)

// Pulse: what a pulse saw, for the working stretch and the answers.
type Pulse struct {
	Now               time.Time
	Paused            bool
	DeepWork          bool      // deep work is declared: introspection's working time pauses
	Asking            bool      // a person is being asked: their minutes are not the agent's working time
	LastLog           time.Time // the newest activity log (zero: none)
	LastIntrospection time.Time
	NewestProof       time.Time
}

// Turn: the client's hooks said a turn begun at Begun ended at End.
type Turn struct{ Begun, End time.Time }

// Proof: a proof of activity (a tool call the hooks saw) at At.
type Proof struct{ At time.Time }

// Release: the held flight is over whatever its answer (recovery ended, or
// the turn failed on the model's service).
type Release struct{}

// Wait: the agent waits for the model's service or its rate limit from
// now, not for its own work: the working stretch ends. Quiet, if set, is
// the service's hold, owed to the agent until a wakeup carries it.
type Wait struct{ Quiet *Quiet }

// Close: the machine admits nothing more (shutdown, or a reload's drain);
// Stop also ends the flight in progress.
type Close struct{ Stop bool }

func (Ask) event()     {}
func (Pass) event()    {}
func (Ran) event()     {}
func (Pulse) event()   {}
func (Turn) event()    {}
func (Proof) event()   {}
func (Release) event() {}
func (Wait) event()    {}
func (Close) event()   {}
func (Beat) event()    {}
