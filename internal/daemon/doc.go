// Package daemon is the watchdog's engine: for every supervised agent it
// runs four independent loops (agent.run in agent.go), the three chambers of
// the Heart design and a housekeeping sweep:
//
//   - pulse (no LLM, ever), in this order: mint the heartbeat ID, read the
//     pause, scan, read the hook spool, run the pure checks (every one of
//     checks.Names), apply their renames, record the latest proof and the
//     held notices, alert on level changes, drive recovery, persist the
//     state file (pulse.go); once every agent has pulsed, the daemon pings
//     systemd (daemon.go);
//   - schedule: budgeted wakeups on an interval or cron (chambers.go);
//   - idle: a wakeup when nothing has happened for a while, and at once when
//     a themebox or feedbackbox item arrives while idle (chambers.go);
//   - sweep: the temp files of killed writers, removed at start and then
//     every workspace.TempMaxAge (housekeeping.go).
//
// The state file's content is assembled in state.go.
//
// Every wakeup's life, and recovery's, is decided by the wakeup machine
// (internal/wakeup): at most one run of the agent is alive at a time; a
// wakeup due while one is in flight is coalesced; a takeover (recovery,
// urgent feedback) ends the run it replaces and starts once that run is
// gone; every invocation is gated by a give-up, the holds, the circuit
// breaker, the day's budget and the daily cap. The agent drives it: the gate
// (gate.go) reads the facts, steps the machine and runs its flights;
// wakeup.go carries out the effects (compose, deliver, count, book the cap;
// the cost in spend.go), recovery.go says what recovery decided; hooks.go
// and pulse.go feed it what answers a wakeup (a turn's end, a log, a proof)
// and each pulse's verdict for recovery. A delivery that
// hangs or fails never delays a pulse: deliveries run on their own goroutine
// and the pulse never waits for them.
//
// Working versus waiting is the machine's too: a successful exec run answers
// its wakeup, and for tmux and inbox an activity log after it or the
// client's end-of-turn hook does; a failed, timed-out, capped or ended exec
// run leaves the agent working.
package daemon
