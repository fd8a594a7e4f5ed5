// Package daemon is the watchdog's engine: for every supervised agent it runs
// the three chambers of the Heart design as independent loops.
//
//   - pulse (no LLM, ever), in this order: mint the heartbeat ID, scan, run
//     the pure checks, apply their renames, alert on level changes, drive
//     recovery, persist the state file; then ping systemd (pulse.go);
//   - schedule: budgeted wakeups on an interval or cron;
//   - idle: a wakeup when nothing has happened for a while, and at once when
//     a themebox or feedbackbox item arrives while idle.
//
// The schedule and idle loops are in chambers.go; the state file's content
// is assembled in state.go.
//
// Wakeups go through one gate per agent (gate.go), which owns a wakeup's
// whole life: at most one run of the agent is alive at a time. A wakeup due
// while one is in flight is coalesced; a takeover (recovery, urgent feedback)
// ends the run it replaces and starts once that run is gone; every
// invocation is gated by the circuit breaker and the daily cap (wakeup.go).
// A delivery that hangs or fails never delays a pulse: deliveries run on
// their own goroutine and the pulse never waits for them.
//
// Working versus waiting (work.go): only a successful exec run answers its
// wakeup; a failed, timed-out, capped or ended one leaves the agent working.
package daemon
