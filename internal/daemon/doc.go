// Package daemon is the watchdog's engine: for every supervised agent it runs
// the three chambers of the Heart design as independent loops.
//
//   - pulse (no LLM, ever): mint the heartbeat ID, scan, run the pure checks,
//     alert on level changes, apply renames, drive recovery, write the state
//     file, ping systemd;
//   - schedule: budgeted wakeups on an interval or cron;
//   - idle: a wakeup when nothing has happened for a while, and at once when
//     a themebox or feedbackbox item arrives while idle.
//
// Wakeups go through one gate per agent: never two in flight (a wakeup due
// while one runs is coalesced), gated by the daily cap and the circuit
// breaker. A delivery that hangs or fails never delays a pulse: deliveries
// run on their own goroutine and the pulse never waits for them.
package daemon
