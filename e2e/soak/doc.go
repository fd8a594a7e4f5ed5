// Package soak is `make soak`: the real watchdog and mcp-heart, built by
// the test, run for SOAK_DURATION (default 10m) on scaled time (an agent
// hour is a few seconds, so ten minutes are a week of wakeups) beside a
// random stand-in agent (this test binary again, run by exec delivery:
// Claude Code stream-json on stdout, mcp-heart over stdio) and a seeded
// timetable of chaos: reloads and kill -9 restarts with runs in flight,
// full disks, pauses, failure bursts and a broker outage. At the end it
// checks the invariants and prints the field's numbers. Its files build
// only with the tag soak (go test -tags soak ./e2e/soak/), so make test
// never runs it.
package soak
