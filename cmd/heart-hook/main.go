// Command heart-hook is the hook the agent's client runs at each turn, tool
// call, question and error: it records the event for the watchdog in the
// workspace's spool (package hook) and gets out of the way.
//
//	heart-hook --client claude-code|gemini|agy|codex --workspace DIR [--mcp-heart PATH] [--asks SOCKET] [JSON]
//	heart-hook --client claude-code --statusline --workspace DIR [-- COMMAND ARGS...]
//	heart-hook --version
//
// The event is read from stdin (Claude Code, Gemini CLI, Antigravity CLI),
// or from the last argument (Codex's notify). It runs on the agent's
// critical path, so it never fails the client: it always exits 0, gives up
// reading after a second, and says what went wrong on stderr only. It
// writes on stdout only a hook decision: while the watchdog's budget gate
// (hook.GateFile) is closed, a pre-tool event that is not a call of
// mcp-heart's tools gets the client's refusal (its adapter's Deny), so the
// agent can still write its activity log. mcp-heart is known by the
// program its client runs for it, not by the name (heart.go): the one next
// to heart-hook, or --mcp-heart (init gives it when the mcp-heart it
// registered is elsewhere). A missing, garbled or stale gate allows: the
// hook never blocks when the watchdog is down; something in the gate's
// place that is no file refuses, saying so (the budget is enforced). After a
// tool call it hands the running turn, once, the word the watchdog keeps
// for it (hook.WordFile: the inactivity notice that stands), where the
// client's hooks can add context.
//
// With --asks, a question the client waits on that its adapter can answer
// (Claude Code's PermissionRequest) is also offered to a person through the
// watchdog's socket (package asks): the hook holds, and prints the person's
// decision in the client's format if one comes within the hold; else it
// prints nothing and the client's own dialog stands. The event is recorded
// first, so the watchdog shows the question at once.
//
// With --statusline it is Claude Code's status line: it records the rate
// limits the input carries (a rate_limit event, only when they changed)
// and prints a short status, or hands the input to COMMAND (a status line
// of the user's own) and prints what that prints.
// `watchdog init --client` wires it. Each client's hooks are read by its
// adapter (internal/clients/<name>), which links little more than the
// standard library and the hook package: the hook starts in about a
// millisecond.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks/ask"
	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/version"
)

// maxInput bounds what is read of the client's event: a tool's input and
// output can be large, and only the first fields matter.
const maxInput = 4 << 20

func main() {
	// The one run that writes on stdout: a person asked, no client did.
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println("heart-hook", version.Get())
		os.Exit(0)
	}
	if err := run(os.Args[1:], os.Stdin, os.Stdout, time.Now()); err != nil {
		fmt.Fprintln(os.Stderr, "heart-hook:", err)
	}
	os.Exit(0)
}

func run(args []string, stdin io.Reader, stdout io.Writer, now time.Time) error {
	fl := flag.NewFlagSet("heart-hook", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	client := fl.String("client", "", "the client that runs the hook")
	ws := fl.String("workspace", "", "the agent's workspace (ai-works)")
	statusline := fl.Bool("statusline", false, "be the client's status line")
	mcpHeart := fl.String("mcp-heart", "", "the mcp-heart init registered, when not the one next to heart-hook")
	asksSock := fl.String("asks", "", "the watchdog's asks socket: offer the client's questions to a person there")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *statusline {
		return statusLine(*client, *ws, fl.Args(), stdin, stdout, now)
	}
	dialect := clients.Dialect(*client)
	if dialect == nil {
		return fmt.Errorf("--client %q: want one of %v", *client, clients.Hooked())
	}
	if *ws == "" {
		return fmt.Errorf("--workspace is required")
	}
	var data []byte
	if fl.NArg() > 0 {
		data = []byte(fl.Arg(fl.NArg() - 1))
	} else {
		var err error
		if data, err = readBounded(stdin, maxInput, time.Second); err != nil {
			return err
		}
	}
	e, in, err := hook.ParseInput(*dialect, data, now)
	if err != nil {
		return err
	}
	switch e.Kind {
	case hook.Ask:
		if *asksSock != "" {
			if err := hook.Append(*ws, e); err != nil {
				return err
			}
			return hold(*client, *ws, *asksSock, e, in, stdout)
		}
	case hook.Tool:
		deny(*client, *ws, in.Tool, *mcpHeart, stdout, now)
	case hook.ToolDone:
		if id := tell(*client, *ws, stdout, now); id != "" {
			e.Detail = hook.ToldPrefix + id // the watchdog learns the turn was told
		}
	}
	return hook.Append(*ws, e)
}

// hold offers the question the client waits on to a person through the
// watchdog at sock and prints their decision in the client's format, if
// its adapter can answer that event and one comes within the hold.
func hold(client, ws, sock string, e hook.Event, in hook.Input, stdout io.Writer) error {
	a := clients.Lookup(client)
	if a == nil || a.Decide(in.Event, true, "") == nil || !ask.Supported {
		return nil
	}
	q := ask.Ask{Client: client, Event: in.Event, Session: e.Session, Tool: e.Tool, Input: in.ToolInput, InputHash: hook.InputHash(in.ToolInput), Workspace: ws}
	_, d, err := ask.Hold(sock, q, ask.MaxHold)
	if err != nil || d == nil {
		return err
	}
	out := a.Decide(in.Event, d.Allow, d.Message)
	_, err = stdout.Write(append(out, '\n'))
	return err
}

// tell hands the running turn the watchdog's word (hook.WordFile) after a
// tool call, once per word, where the client's hooks can; it returns the
// word's ID when it did.
func tell(client, ws string, stdout io.Writer, now time.Time) string {
	a := clients.Lookup(client)
	if a == nil {
		return ""
	}
	w := hook.ReadWord(ws)
	if !w.Live(now) || w.ID == hook.Told(ws) {
		return ""
	}
	out := a.Context(w.Text)
	if out == nil {
		return ""
	}
	if _, err := stdout.Write(append(out, '\n')); err != nil {
		return ""
	}
	if err := hook.MarkTold(ws, w.ID); err != nil {
		fmt.Fprintln(os.Stderr, "heart-hook: note the word told:", err)
	}
	return w.ID
}

// deny prints the client's refusal of a call of tool (its name as the
// client gives it) when the budget gate is closed, or cannot be read. The
// real mcp-heart's tools always pass: the agent writes its activity log
// with them.
func deny(client, ws, tool, mcpHeart string, stdout io.Writer, now time.Time) {
	a := clients.Lookup(client)
	if a == nil {
		return
	}
	m := a.MCP() // nil: a client whose hooks refuse nothing
	if m == nil {
		return
	}
	g, err := hook.ReadGate(ws)
	var reason string
	switch ge := (*hook.GateError)(nil); {
	case errors.As(err, &ge):
		if namedHeart(m, tool) && realHeart(m, ws, tool, hearts(mcpHeart), os.Getenv) == nil {
			return
		}
		fmt.Fprintln(os.Stderr, "heart-hook: the budget gate:", err)
		reason = tellGate(ge, language(ws))
	case !g.Closed(now):
		return
	case underHeart(m, tool):
		// Named under mcp-heart's name: the agent is told why it is not
		// mcp-heart's, where the server so registered is not mcp-heart.
		n := realHeart(m, ws, tool, hearts(mcpHeart), os.Getenv)
		if n == nil && namedHeart(m, tool) {
			return
		}
		reason = g.Reason
		if n != nil {
			fmt.Fprintln(os.Stderr, "heart-hook:", n)
			reason = then(reason, n.tell(language(ws)))
		}
	default:
		reason = g.Reason
	}
	stdout.Write(append(a.Deny(reason), '\n'))
}

// then is the sentence b after the text a: a closed with a full stop, and
// in Japanese no space between them.
func then(a, b string) string {
	a = strings.TrimRight(a, " ")
	if strings.HasSuffix(a, "。") {
		return a + b
	}
	if !strings.HasSuffix(a, ".") {
		a += "."
	}
	return a + " " + b
}

// readBounded reads r to its end, at most max bytes, giving up after
// timeout: a client that never closes the pipe must not hold the hook. A
// pipe inherited as stdin is blocking, so no read deadline would work: the
// read runs aside and is abandoned (the process exits right after).
func readBounded(r io.Reader, max int64, timeout time.Duration) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, max))
		done <- result{b, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read the event: %w", res.err)
		}
		return res.b, nil
	case <-t.C:
		return nil, fmt.Errorf("read the event: stdin still open after %s", timeout)
	}
}
