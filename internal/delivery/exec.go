package delivery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// Output bounds of an exec delivery.
const (
	// MaxReply is the most of the child's stdout kept as the reply.
	MaxReply = 1 << 20
	// MaxStderr is how much of the end of the child's stderr an error quotes.
	MaxStderr = 4 << 10
)

// PromptPlaceholder is replaced by the prompt inside every argv element.
const PromptPlaceholder = "{prompt}"

// killGrace bounds the wait for the child's output pipes once it has exited
// or been killed, in case a grandchild that left the process group holds
// them open.
const killGrace = 2 * time.Second

// DefaultStopGrace is how long a run that is ended (timeout, takeover,
// shutdown) has between SIGTERM and SIGKILL: time for a client to save its
// session and end its tools.
const DefaultStopGrace = 5 * time.Second

// Exec runs the agent command once per wakeup; its stdout is the reply.
type Exec struct {
	// Argv is the command; every "{prompt}" inside an element is replaced by
	// the prompt, and an element stays one element (no shell, no splitting).
	Argv []string
	// Timeout bounds one run; on expiry the child's process group is killed
	// and Deliver returns ErrTimeout.
	Timeout time.Duration
	// Dir is the child's working directory ("" = the daemon's); New sets it
	// to the workspace root.
	Dir string
	// StreamJSON reads stdout as the client's stream-json events: the reply
	// is the final text, and tool calls are counted as they happen.
	StreamJSON bool
	// MaxToolCalls ends the run at call MaxToolCalls+1 with ErrToolCap
	// (0 = no cap; needs StreamJSON).
	MaxToolCalls int
	// MaxTokens ends the run with ErrTokenCap once its running usage passes
	// it (0 = no cap; needs StreamJSON).
	MaxTokens int64
	// StopGrace is the time between SIGTERM and SIGKILL to the run's process
	// group when the run is ended early (0 = DefaultStopGrace).
	StopGrace time.Duration
	// RunFile, when set, records the live run's process group while it
	// runs, so a watchdog restarted after a kill -9 can end what the last
	// one left alive (EndLeftover).
	RunFile string
	// RetryMax is how much longer than Timeout a run may last while its
	// client announces it waits to retry a failed request (needs
	// StreamJSON; 0: announced waits are not believed).
	RetryMax time.Duration

	mu       sync.Mutex
	deadline *runDeadline // the run in flight's
}

// RetryUntil is when the retry wait the running client announced ends
// (zero: none in force), and whether one was cut at RetryMax.
func (e *Exec) RetryUntil(now time.Time) (time.Time, bool) {
	e.mu.Lock()
	d := e.deadline
	e.mu.Unlock()
	return d.waiting(now)
}

var _ Deliverer = (*Exec)(nil)

// NewExec returns a deliverer that runs argv with timeout.
func NewExec(argv []string, timeout time.Duration) *Exec {
	return &Exec{Argv: append([]string(nil), argv...), Timeout: timeout}
}

// Method returns "exec".
func (e *Exec) Method() string { return config.DeliveryExec }

// Traits: the run is the turn.
func (e *Exec) Traits() Traits { return Traits{RunIsTheWork: true} }

// Deliver runs the command with the prompt substituted. A non-zero exit is an
// error quoting the exit code and the end of stderr; a timeout is an error
// wrapping ErrTimeout. The Result carries whatever reply was read either way.
func (e *Exec) Deliver(ctx context.Context, prompt string) (Result, error) {
	if len(e.Argv) == 0 || e.Argv[0] == "" {
		return Result{}, errors.New("run agent command: no command; set agent.command")
	}
	if e.Timeout <= 0 {
		return Result{}, fmt.Errorf("run %s: timeout must be positive, got %s", e.Argv[0], e.Timeout)
	}
	argv := Substitute(e.Argv, prompt)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	dl := newRunDeadline(time.Now(), e.Timeout, e.RetryMax, func() { cancel(ErrTimeout) })
	defer dl.stop()
	e.mu.Lock()
	e.deadline = dl
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.deadline = nil
		e.mu.Unlock()
	}()

	capCtx, capCancel := context.WithCancelCause(runCtx)
	defer capCancel(nil)
	cmd := exec.CommandContext(capCtx, argv[0], argv[1:]...)
	cmd.Dir = e.Dir
	cmd.Env = runEnv(ctx, ChildEnv(os.Environ()))
	stdout := &headBuffer{max: MaxReply}
	stderr := &tailBuffer{max: MaxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	var stream *streamReader
	if e.StreamJSON {
		stream = &streamReader{max: e.MaxToolCalls, onOver: func() { capCancel(ErrToolCap) },
			maxTokens: e.MaxTokens, onTokens: func() { capCancel(ErrTokenCap) },
			onRetry: func(wait time.Duration) { dl.retry(time.Now(), wait) }}
		cmd.Stdout = io.MultiWriter(stdout, stream)
	}
	grace := e.StopGrace
	if grace <= 0 {
		grace = DefaultStopGrace
	}
	exited := make(chan struct{})
	setProcessGroup(cmd, grace, exited)
	// exec's own kill after WaitDelay reaches only the leader; the group's
	// SIGKILL comes first, from setProcessGroup.
	cmd.WaitDelay = grace + killGrace

	start := time.Now()
	err := cmd.Start()
	if err == nil {
		e.noteRun(cmd.Process.Pid)
		err = cmd.Wait()
		e.forgetRun()
	}
	close(exited)
	res := Result{Reply: stdout.String(), Truncated: stdout.truncated, Duration: time.Since(start), ExitCode: -1}
	res.Said = saidIn(res.Reply)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
		res.Signal = signalOf(cmd.ProcessState)
	}
	if stream != nil {
		stream.finish()
		if r := stream.reply(); r != "" || stream.events > 0 {
			res.Reply, res.Said = r, strings.TrimSpace(r)
		}
		res.ToolCalls, _ = stream.toolCalls()
		res.Usage = stream.usage()
		res.ServiceError = stream.serviceFailure()
		res.Refused, res.RefusedCalls = stream.refused()
		c := stream.saidOfSession()
		res.State, res.Ended, res.WritesLost, res.Retries = c.State, c.Ended, c.WritesLost, c.Retries
		_, res.RetryCapped = dl.waiting(time.Now())
	}
	switch context.Cause(capCtx) {
	case ErrToolCap:
		return res, fmt.Errorf("run %s: %w: tool call %d of a cap of %d; the run was ended", argv[0], ErrToolCap, e.MaxToolCalls+1, e.MaxToolCalls)
	case ErrTokenCap:
		used := int64(0)
		if res.Usage != nil {
			used = res.Usage.Tokens.Total()
		}
		return res, fmt.Errorf("run %s: %w: %d tokens used, a cap of %d; the run was ended", argv[0], ErrTokenCap, used, e.MaxTokens)
	}
	if context.Cause(runCtx) == ErrTimeout {
		return res, fmt.Errorf("run %s: %w after %s%s", argv[0], ErrTimeout, e.Timeout, stderrNote(stderr))
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("run %s: %w", argv[0], ctx.Err())
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay) && res.ExitCode == 0:
		if res.ToolCalls > 0 && res.RefusedCalls >= res.ToolCalls {
			return res, fmt.Errorf("run %s: %w: %d of %d (%s)", argv[0], ErrRefused, res.RefusedCalls, res.ToolCalls, strings.Join(res.Refused, ", "))
		}
		return res, nil
	case errors.As(err, &exitErr) && res.Signal != "":
		return res, fmt.Errorf("run %s: ended by signal %s%s", argv[0], res.Signal, stderrNote(stderr))
	case errors.As(err, &exitErr):
		return res, fmt.Errorf("run %s: exit code %d%s", argv[0], res.ExitCode, stderrNote(stderr))
	case errors.Is(err, exec.ErrNotFound):
		return res, fmt.Errorf("run %s: %w; use an absolute path in agent.command or add its folder to the daemon's PATH", argv[0], err)
	default:
		return res, fmt.Errorf("run %s: %w", argv[0], err)
	}
}

// Substitute returns argv with every "{prompt}" inside each element replaced
// by prompt. Elements are never split or joined.
func Substitute(argv []string, prompt string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(a, PromptPlaceholder, prompt)
	}
	return out
}

// withheld are the environment variables the watchdog's own config reads
// (a notify URL's ${NAME}): secrets no agent process inherits.
var withheld struct {
	sync.Mutex
	names map[string]bool
}

// Withhold keeps the named environment variables from every process a
// delivery starts. The environment is the process's, so the list is too.
func Withhold(names ...string) {
	withheld.Lock()
	defer withheld.Unlock()
	if withheld.names == nil {
		withheld.names = map[string]bool{}
	}
	for _, n := range names {
		withheld.names[n] = true
	}
}

// ChildEnv returns env without NOTIFY_SOCKET and WATCHDOG_* (WATCHDOG_USEC,
// WATCHDOG_PID), so an agent can never notify the daemon's systemd unit, and
// without the variables Withhold named.
func ChildEnv(env []string) []string {
	withheld.Lock()
	defer withheld.Unlock()
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "NOTIFY_SOCKET" || strings.HasPrefix(k, "WATCHDOG_") || withheld.names[k] {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// stderrNote formats the end of stderr for an error message.
func stderrNote(b *tailBuffer) string {
	s := strings.TrimSpace(b.String())
	if s == "" {
		return ""
	}
	if b.dropped {
		s = "..." + s
	}
	return ": stderr: " + s
}

// headBuffer keeps the first max bytes written and discards the rest, so a
// chatty child never blocks on a full pipe nor fills memory.
type headBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (h *headBuffer) Write(p []byte) (int, error) {
	room := h.max - len(h.buf)
	if room < len(p) {
		h.truncated = true
		if room > 0 {
			h.buf = append(h.buf, p[:room]...)
		}
		return len(p), nil
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

func (h *headBuffer) String() string { return string(h.buf) }

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf     []byte
	max     int
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.dropped = t.dropped || len(t.buf) > 0 || len(p) > t.max
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.dropped = true
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) String() string { return string(t.buf) }
