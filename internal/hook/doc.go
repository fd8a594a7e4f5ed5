// Package hook is what the agents' clients tell the watchdog through their
// own hooks (Claude Code, Gemini CLI, Antigravity CLI, Codex): each turn,
// tool call, question to the user and service failure, at zero tokens.
//
// heart-hook (cmd/heart-hook) runs on the agent's critical path, before and
// after every tool call, so this package is the standard library alone (a
// start in about a millisecond) and its writing side does one thing: Parse
// the client's JSON into an Event and Append it as one line to the day's
// spool file, stats/hooks/YYYYMMDD.jsonl (UTC days). It keeps no secret:
// the event's kind, the tool's name, the time, the session and a hash of the
// tool's input; never the input, output, prompt or transcript.
//
// The watchdog's side, a Tail, reads the lines added since its last pulse
// (no scan of the history) and folds them into an Activity: in a turn or
// waiting, busy with tools, asking the user, going round in circles, or
// stopped by the model's service.
//
// The agent can run heart-hook itself, or write the spool: what it reports
// is believed as much as an activity log is. Reading is bounded (regular
// files only, opened without blocking, at most MaxRead a pulse, lines over
// MaxLine skipped), so a forged spool cannot hang or flood the pulse.
package hook
