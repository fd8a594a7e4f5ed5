// Package delivery wakes an agent with a heartbeat prompt. Three methods
// share one small interface, Deliverer:
//
//   - inbox: nothing is run; the prompt is written atomically to
//     stats/heartbeat_prompt.md for agents that pull it.
//   - tmux: the prompt is typed into the agent's pane, then Enter is sent as
//     a separate tmux call after a pause, because terminal UIs swallow an
//     Enter that arrives in the same burst as the text.
//   - exec: the agent command runs once per wakeup with "{prompt}"
//     substituted inside argv elements; its stdout is the reply.
//
// No shell is involved anywhere: every program runs as an argv.
//
// Caveats:
//   - tmux: a prompt that is one line of printable text is sent with
//     `send-keys -l`. Anything else (several lines, tabs or other control
//     characters, or more than MaxSendKeys bytes) is loaded into a tmux
//     buffer through stdin and pasted with `paste-buffer -p -r`: a
//     bracketed paste when the application asked for one (Gemini CLI,
//     Claude Code and most modern TUIs and shells do), so newlines inside
//     the prompt are inserted as text and do not submit it early. A line
//     feed typed with `send-keys` reaches a TUI as Ctrl-J, which some
//     applications (readline among them) take as "submit". An application
//     that does not enable bracketed paste receives the bare text, newlines
//     as LF bytes, and may still submit at the first one.
//   - tmux: the text, the pause and the Enter are serialized per Tmux
//     value, so an Interrupt never lands between a prompt and its Enter.
//   - exec: on unix the command runs in its own process group. A run that
//     is ended (its timeout, or its context: a takeover or shutdown) gets
//     SIGTERM to the whole group (the agent and everything it started), so
//     a client can save its session, then SIGKILL after StopGrace.
//     Elsewhere only the direct child is killed, at once.
//   - exec: the child's environment has no NOTIFY_SOCKET and no WATCHDOG_*
//     variables, so an agent can never ping the daemon's systemd watchdog.
package delivery
