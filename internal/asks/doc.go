// Package asks is how a person answers the agent's client from afar: the
// book of questions the client waits on (a permission request), and the one
// channel a decision travels by, a Unix socket the watchdog listens on.
//
// The client's hook (heart-hook, run by the client on its PermissionRequest
// event) connects, says what is asked (ask.Hold), and waits. The watchdog gives
// the question an ID, offers it (the page, `watchdog asks`, a notification)
// and, when a person answers, writes the decision back on that same
// connection, to that one waiting process; the hook prints it in the
// client's own decision format and exits. With no answer within the hold,
// the watchdog closes the connection and the hook exits printing nothing:
// the client's own dialog stands. Nothing is ever allowed by default or by
// a timeout.
//
// What holds, and against whom:
//
//   - A decision goes only to the process that asked, over its own
//     connection. A question the agent forges (running heart-hook itself,
//     or speaking to the socket) gets its answer in its own process, which
//     the client never reads: nothing is allowed by it.
//   - Nothing in the workspace is read as a question or an answer.
//   - Asking is open to whoever can reach the socket; answering (list,
//     answer, tell) only to a peer whose uid is the watchdog's own or root
//     (SO_PEERCRED). Where the watchdog runs as the agent's user, the agent
//     has that uid: the socket then keeps out other users, not the agent.
//   - The hook talks only to a socket owned by the user whose process
//     listens on it (SO_PEERCRED), in folders that only that user or root
//     can change. Run as another user, the watchdog's socket is out of the
//     agent's reach to replace.
//
// An agent that can run programs of its own as its user can write an allow
// into its client's hook pipe or change its client's settings: no hook of
// that user binds it, with or without this package. See docs/security.md.
//
// The protocol and the hook's side (Hold) are package ask, which heart-hook
// links without this package's net.
package asks
