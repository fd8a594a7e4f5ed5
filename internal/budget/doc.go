// Package budget holds the two guards every agent wakeup passes before it is
// delivered: the daily cap (a hard limit on wakeups per local day, shared by
// the schedule and idle chambers) and the circuit breaker (no wakeups after
// consecutive delivery failures, with a cooldown, one probe and backoff).
//
// Both are small state machines that take the time as an argument, so tests
// control it exactly, and both persist their state in the agent's state
// folder (config state_dir, outside the workspace the agent writes) through
// package statefile, so a restart neither refills a spent budget nor forgets
// an open breaker, and the agent can neither rewrite nor remove them.
//
// Caveats:
//   - The state is shared within one process (a mutex, not a file lock): run
//     one watchdog per workspace.
//   - The in-memory state is authoritative. When persisting fails the decision
//     still stands and the write error is returned for the caller to log; the
//     daily cap goes into its reserve (statefile.WriteKept), read at the next
//     start, and the file catches up on the next successful write.
//   - A state file that cannot be parsed is not fatal: Open* starts from a
//     fresh state (the daily cap: the day counted as spent) and returns a
//     usable value together with an error wrapping statefile.ErrCorrupt (log
//     it and carry on). The file is overwritten on the next
//     write.
//   - Files are written only when there is something to keep: the breaker
//     when its state changed, the daily cap only when it has a limit. An
//     unlimited cap counts in memory, so after a restart that sets a limit the
//     day is counted from the last persisted count (0 if none).
//   - Days are calendar dates in the configured location, so the cap resets at
//     local midnight whatever the length of the day (23 or 25 hours around DST).
//     A wall clock stepping back across midnight does not reopen a spent day:
//     wakeups are counted against the newest day seen.
package budget
