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
// Wakeups pass one gate per agent (gate.go): at most one run of the agent is
// alive at a time. A wakeup due while one is in flight is coalesced; a
// takeover (recovery, urgent feedback) ends the run it replaces and starts
// once that run is gone; every invocation is gated by the circuit breaker,
// the daily cap and the day's budget. What a wakeup does once it passes
// (compose, deliver, account, book its cost) is in wakeup.go and spend.go;
// what answers it in work.go and hooks.go. A delivery that hangs or fails
// never delays a pulse: deliveries run on their own goroutine and the pulse
// never waits for them.
//
// Working versus waiting (work.go): a successful exec run answers its
// wakeup, and for tmux and inbox an activity log after it or the client's
// end-of-turn hook does; a failed, timed-out, capped or ended exec run leaves
// the agent working.
package daemon
