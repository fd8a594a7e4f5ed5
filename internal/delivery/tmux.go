package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// DefaultEnterDelay is the pause between the text and its Enter, and between
// the two Escapes of an interrupt.
const DefaultEnterDelay = 300 * time.Millisecond

// MaxSendKeys is the longest prompt sent with `send-keys -l`; longer text is
// pasted from a buffer (tmux refuses commands over about 16 KiB).
const MaxSendKeys = 4096

// Errors a caller (or a person reading the log) can act on.
var (
	// ErrTmuxMissing reports that the tmux program could not be run.
	ErrTmuxMissing = errors.New("tmux is not installed")
	// ErrTmuxTarget reports that the tmux server, session, window or pane
	// named by the target does not exist.
	ErrTmuxTarget = errors.New("tmux target not found")
)

// Tmux types the prompt into a tmux pane.
type Tmux struct {
	// Target is the pane to type into (tmux -t): a session, "session:window"
	// or "session:window.pane".
	Target string
	// Socket is the tmux server's socket (tmux -S); "" means tmux's default,
	// /tmp/tmux-<uid>/default, which a unit with PrivateTmp cannot see.
	Socket string
	// EnterDelay is the pause before Enter, so the TUI has taken the text as
	// typed before the Enter arrives (default DefaultEnterDelay).
	EnterDelay time.Duration
	// Program is the tmux binary (default "tmux", looked up in PATH).
	Program string
	// Look, when set, is asked before any key goes to the pane, with the
	// pane's screen: see Looking. Unset, keys go without a look.
	Look Look
	// LookEvery is how often the pane is looked at again while a key
	// waits (default DefaultLookEvery).
	LookEvery time.Duration
	// Confirm is how long a typed wakeup has to show as received (default
	// DefaultConfirm): see ErrNotReceived.
	Confirm time.Duration
	// Waits, when set, hears each new reason a key waits for, and "" when
	// it may go.
	Waits func(why string)
	// Heard, when set, reports whether the client's hooks said a prompt
	// reached it at or after since: a receipt when the pane shows none.
	Heard func(since time.Time) bool
	// Refused, when set, hears each command not run because the socket is
	// not the watchdog's own (ErrTmuxUnsafe), for an alert.
	Refused func(err error)

	mu sync.Mutex // one key sequence at a time per pane
}

// Look decides whether purpose may be sent to a pane showing screen.
type Look func(screen string, purpose pane.Purpose) pane.Verdict

// Defaults of the look.
const (
	DefaultLookEvery = time.Second
	DefaultConfirm   = 15 * time.Second
)

// ErrNotReceived reports a wakeup typed into the pane that the client did
// not show as received (no message with its first line in the pane, no
// prompt from its hooks): it is no delivery, and is not typed again
// blindly (the next wakeup looks first).
var ErrNotReceived = errors.New("the client did not show the wakeup as received")

var (
	_ Deliverer   = (*Tmux)(nil)
	_ Interrupter = (*Tmux)(nil)
)

// bufferSeq makes paste buffer names unique within the process.
var bufferSeq atomic.Uint64

// NewTmux returns a deliverer that types into target on the tmux server at
// socket ("" for the default server).
func NewTmux(target, socket string) *Tmux {
	return &Tmux{Target: target, Socket: socket, EnterDelay: DefaultEnterDelay, Program: "tmux"}
}

// Method returns "tmux".
func (t *Tmux) Method() string { return config.DeliveryTmux }

// Traits: the prompt is typed into a live session, which must answer it
// before the next one is typed.
func (t *Tmux) Traits() Traits { return Traits{Holds: true} }

// Deliver types prompt into the pane, pauses EnterDelay and sends Enter as a
// separate call. The agent receives exactly the prompt, then one Enter (CR).
func (t *Tmux) Deliver(ctx context.Context, prompt string) (Result, error) {
	start := time.Now()
	if strings.TrimSpace(prompt) == "" {
		return Result{}, errors.New("deliver to tmux: empty prompt")
	}
	// Agent-written names reach the prompt: no escape sequence in them may
	// end a bracketed paste early and type keys into the pane.
	prompt = termsafe.Text(prompt)
	first, _, _ := strings.Cut(prompt, "\n")
	typed, seen, err := t.typeWakeup(ctx, prompt, strings.TrimSpace(first))
	if err != nil {
		return Result{}, fmt.Errorf("deliver to tmux: %w", err)
	}
	if err := t.received(ctx, strings.TrimSpace(first), seen, typed); err != nil {
		return Result{}, fmt.Errorf("deliver to tmux: %w", err)
	}
	return Result{Duration: time.Since(start), Sent: typed}, nil
}

// typeWakeup types prompt once the look allows it and presses Enter once
// the look allows that too. It reports when it began typing and how often
// the pane's history held the prompt's first line before.
func (t *Tmux) typeWakeup(ctx context.Context, prompt, first string) (typed time.Time, seen int, err error) {
	for {
		if err := t.Await(ctx, pane.Type); err != nil {
			return typed, 0, err
		}
		t.mu.Lock()
		// Looked at again under the lock: another key sequence may have
		// gone between.
		if v, err := t.look(ctx, pane.Type); err != nil || v.OK {
			if err != nil {
				t.mu.Unlock()
				return typed, 0, err
			}
			break
		}
		t.mu.Unlock()
	}
	defer t.mu.Unlock()
	if t.Look != nil {
		h, err := t.capture(ctx, true)
		if err != nil {
			return typed, 0, err
		}
		seen = strings.Count(h, first)
	}
	typed = time.Now()
	if err := t.typeText(ctx, prompt); err != nil {
		return typed, 0, err
	}
	if err := t.pause(ctx); err != nil {
		return typed, 0, err
	}
	// A dialog that came up while the text went in must not get its
	// Enter: it waits until the dialog is answered, the text still in the
	// input line.
	if err := t.Await(ctx, pane.Submit); err != nil {
		return typed, 0, err
	}
	if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "Enter"); err != nil {
		return typed, 0, fmt.Errorf("send Enter: %w", err)
	}
	return typed, seen, nil
}

// Interrupt sends Escape, pauses, and sends Escape again: Gemini CLI cancels
// the running turn on the first and clears the input on the second.
func (t *Tmux) Interrupt(ctx context.Context) error {
	if err := t.Await(ctx, pane.Keys); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "Escape"); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	if err := t.pause(ctx); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "Escape"); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	return nil
}

// Cancel sends Escape once.
func (t *Tmux) Cancel(ctx context.Context) error {
	if err := t.Await(ctx, pane.Keys); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "Escape"); err != nil {
		return fmt.Errorf("interrupt agent: %w", err)
	}
	return nil
}

// SaveChat types "/chat save NAME", pauses and sends Enter. name must be one
// word of printable characters (Gemini CLI's chat tag).
func (t *Tmux) SaveChat(ctx context.Context, name string) error {
	if name == "" || strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return fmt.Errorf("save chat: name %q must be one word of printable characters", name)
	}
	if err := t.Await(ctx, pane.Type); err != nil {
		return fmt.Errorf("save chat: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.typeText(ctx, "/chat save "+name); err != nil {
		return fmt.Errorf("save chat: %w", err)
	}
	if err := t.pause(ctx); err != nil {
		return fmt.Errorf("save chat: %w", err)
	}
	if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "Enter"); err != nil {
		return fmt.Errorf("save chat: send Enter: %w", err)
	}
	return nil
}

// typeText puts text into the pane: typed literally when it is one short
// line of printable characters, otherwise as a (bracketed) paste.
func (t *Tmux) typeText(ctx context.Context, text string) error {
	if len(text) <= MaxSendKeys && strings.IndexFunc(text, unicode.IsControl) < 0 {
		// "--" ends tmux's options, so text starting with "-" stays text.
		if err := t.run(ctx, nil, "send-keys", "-t", t.Target, "-l", "--", text); err != nil {
			return fmt.Errorf("type text: %w", err)
		}
		return nil
	}
	buf := fmt.Sprintf("ai-heart-%d-%d", os.Getpid(), bufferSeq.Add(1))
	if err := t.run(ctx, strings.NewReader(text), "load-buffer", "-b", buf, "-"); err != nil {
		return fmt.Errorf("load paste buffer: %w", err)
	}
	// -p: bracketed paste if the application enabled it; -r: keep LF as LF
	// (tmux would turn it into CR, which is Enter); -d: delete the buffer.
	if err := t.run(ctx, nil, "paste-buffer", "-p", "-r", "-d", "-b", buf, "-t", t.Target); err != nil {
		_ = t.run(context.WithoutCancel(ctx), nil, "delete-buffer", "-b", buf)
		return fmt.Errorf("paste text: %w", err)
	}
	return nil
}

// pause waits EnterDelay or until ctx is done.
func (t *Tmux) pause(ctx context.Context) error {
	d := t.EnterDelay
	if d <= 0 {
		d = DefaultEnterDelay
	}
	return t.sleep(ctx, d)
}

// sleep waits d or until ctx is done.
func (t *Tmux) sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run runs one tmux command with stdin, and turns its failures into errors
// that say what to do.
func (t *Tmux) run(ctx context.Context, stdin io.Reader, args ...string) error {
	return t.runOut(ctx, stdin, nil, args...)
}

// runOut is run with stdout kept in out (nil: discarded).
func (t *Tmux) runOut(ctx context.Context, stdin io.Reader, out io.Writer, args ...string) error {
	prog := t.Program
	if prog == "" {
		prog = "tmux"
	}
	argv := make([]string, 0, len(args)+2)
	if sock := socketFor(t.Socket); sock != "" {
		real, err := checkSocket(sock, os.Geteuid())
		switch {
		case errors.Is(err, ErrTmuxUnsafe):
			if t.Refused != nil {
				t.Refused(err)
			}
			return fmt.Errorf("%w; nothing was sent to the agent's pane: start its tmux server as the watchdog's user, or use inbox delivery", err)
		case errors.Is(err, ErrTmuxTarget):
			return t.noTarget("no such socket")
		case err != nil:
			return err
		}
		argv = append(argv, "-S", real) // as checked: a link swapped since leads nowhere
	}
	argv = append(argv, args...)
	cmd := exec.CommandContext(ctx, prog, argv...)
	cmd.Stdin, cmd.Stdout = stdin, out
	// Should this call start a tmux server, its panes must not inherit the
	// daemon's systemd notify socket.
	cmd.Env = ChildEnv(os.Environ())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		return nil
	}
	msg := strings.TrimSpace(stderr.String())
	var exitErr *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("run %s: %w (%v); install tmux or put it in the daemon's PATH", prog, ErrTmuxMissing, err)
	case ctx.Err() != nil:
		return fmt.Errorf("run %s %s: %w", prog, args[0], ctx.Err())
	case errors.As(err, &exitErr) && isMissingTarget(msg):
		return t.noTarget("tmux: " + msg)
	case msg != "":
		return fmt.Errorf("run %s %s: %w: %s", prog, args[0], err, msg)
	default:
		return fmt.Errorf("run %s %s: %w", prog, args[0], err)
	}
}

// noTarget is ErrTmuxTarget for the pane, saying how to start it; why is
// what tmux (or the socket's check) said.
func (t *Tmux) noTarget(why string) error {
	return fmt.Errorf("%w: %q on %s (%s); start the agent with `tmux%s new-session -d -s NAME ...` or set agent.tmux_target and agent.tmux_socket to where it runs",
		ErrTmuxTarget, t.Target, t.server(), why, t.socketFlag())
}

// isMissingTarget recognises tmux's messages for a missing server, session,
// window or pane.
func isMissingTarget(msg string) bool {
	for _, s := range []string{"can't find", "no server running", "error connecting to", "no current"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// server names the tmux server for messages.
func (t *Tmux) server() string {
	if t.Socket == "" {
		return "the default tmux server"
	}
	return "tmux server " + t.Socket
}

func (t *Tmux) socketFlag() string {
	if t.Socket == "" {
		return ""
	}
	return " -S " + t.Socket
}
