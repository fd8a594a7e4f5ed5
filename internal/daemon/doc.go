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
// Wakeups go through one gate per agent (gate.go): never two in flight (a wakeup due
// while one runs is coalesced), gated by the daily cap and the circuit
// breaker. A delivery that hangs or fails never delays a pulse: deliveries
// run on their own goroutine and the pulse never waits for them.
package daemon
