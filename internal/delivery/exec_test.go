package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

func TestSubstitute(t *testing.T) {
	tests := []struct {
		name   string
		argv   []string
		prompt string
		want   []string
	}{
		{name: "whole element", argv: []string{"gemini", "-p", "{prompt}"}, prompt: "a b", want: []string{"gemini", "-p", "a b"}},
		{name: "inside element", argv: []string{"--prompt={prompt}"}, prompt: "x", want: []string{"--prompt=x"}},
		{name: "twice in one element", argv: []string{"{prompt}|{prompt}"}, prompt: "x", want: []string{"x|x"}},
		{name: "no placeholder", argv: []string{"agent", "--headless"}, prompt: "x", want: []string{"agent", "--headless"}},
		{name: "prompt holding the placeholder is not expanded again", argv: []string{"{prompt}"}, prompt: "{prompt}", want: []string{"{prompt}"}},
		{name: "empty prompt", argv: []string{"-p", "{prompt}"}, prompt: "", want: []string{"-p", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Substitute(tt.argv, tt.prompt); !slices.Equal(got, tt.want) {
				t.Errorf("Substitute(%q, %q) = %q, want %q", tt.argv, tt.prompt, got, tt.want)
			}
		})
	}
}

func TestExecArguments(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	prompts := []struct {
		name   string
		prompt string
	}{
		{name: "spaces", prompt: "Heartbeat: 20250101120000 please continue"},
		{name: "newlines", prompt: "Heartbeat: 1\n\nWarning: no activity log for 6m.\n"},
		{name: "quotes and shell syntax", prompt: `"dq" 'sq' ; $(touch /tmp/pwned) ` + "`id`" + ` $HOME && exit 1 | cat > x`},
		{name: "leading dash", prompt: "--help"},
		{name: "japanese", prompt: "ハートビート: 内省の時間です"},
	}
	for _, tt := range prompts {
		t.Run(tt.name, func(t *testing.T) {
			e := NewExec([]string{agent, "args", "{prompt}", "--msg={prompt}!", "fixed"}, 10*time.Second)
			res, err := e.Deliver(context.Background(), tt.prompt)
			if err != nil {
				t.Fatalf("Deliver: %v", err)
			}
			var got []string
			if err := json.Unmarshal([]byte(res.Reply), &got); err != nil {
				t.Fatalf("reply %q: %v", res.Reply, err)
			}
			want := []string{tt.prompt, "--msg=" + tt.prompt + "!", "fixed"}
			if !slices.Equal(got, want) {
				t.Errorf("agent got argv %q, want %q", got, want)
			}
			if res.ExitCode != 0 {
				t.Errorf("ExitCode = %d, want 0", res.ExitCode)
			}
		})
	}
}

func TestExecOutcomes(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	tests := []struct {
		name      string
		argv      []string
		wantReply string
		wantCode  int
		wantErr   []string // substrings of the error; nil = success
		check     func(t *testing.T, res Result, err error)
	}{
		{name: "reply exactly", argv: []string{agent, "reply", "[IDLE]\n"}, wantReply: "[IDLE]\n"},
		{name: "empty reply", argv: []string{agent, "reply", ""}, wantReply: ""},
		{
			name: "non-zero exit", argv: []string{agent, "exit", "3", "quota exceeded\n"}, wantCode: 3,
			wantErr: []string{"exit code 3", "quota exceeded"},
			check: func(t *testing.T, _ Result, err error) {
				if errors.Is(err, ErrTimeout) {
					t.Errorf("error %q wraps ErrTimeout", err)
				}
			},
		},
		{
			name: "large output is bounded", argv: []string{agent, "flood", fmt.Sprint(3 * MaxReply)}, wantCode: 1,
			wantErr: []string{"exit code 1", "eeeEND"},
			check: func(t *testing.T, res Result, err error) {
				if len(res.Reply) != MaxReply || !res.Truncated {
					t.Errorf("reply of %d bytes, truncated %v; want %d bytes, truncated", len(res.Reply), res.Truncated, MaxReply)
				}
				if len(err.Error()) > MaxStderr+200 {
					t.Errorf("error message is %d bytes, want at most about %d", len(err.Error()), MaxStderr)
				}
			},
		},
		{
			name: "ended by a signal", argv: []string{agent, "selfkill"}, wantCode: -1,
			wantErr: []string{"ended by signal SIGKILL"},
			check: func(t *testing.T, res Result, _ error) {
				if res.Signal != "SIGKILL" {
					t.Errorf("Signal = %q, want SIGKILL", res.Signal)
				}
			},
		},
		{name: "program missing", argv: []string{"ai-heart-no-such-agent", "{prompt}"}, wantCode: -1, wantErr: []string{"ai-heart-no-such-agent", "absolute path"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewExec(tt.argv, 20*time.Second).Deliver(context.Background(), "Heartbeat: 1")
			if tt.wantErr == nil && err != nil {
				t.Fatalf("Deliver: %v", err)
			}
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("Deliver succeeded, want an error mentioning %q", tt.wantErr)
				}
				for _, s := range tt.wantErr {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", abbrev([]byte(err.Error())), s)
					}
				}
			}
			if tt.check == nil && res.Reply != tt.wantReply {
				t.Errorf("Reply = %q, want %q", res.Reply, tt.wantReply)
			}
			if res.ExitCode != tt.wantCode {
				t.Errorf("ExitCode = %d, want %d", res.ExitCode, tt.wantCode)
			}
			if tt.check != nil {
				tt.check(t, res, err)
			}
		})
	}
}

// TestExecTimeout runs an agent that starts a child and hangs: the timeout
// must return ErrTimeout promptly and leave neither process alive.
func TestExecTimeout(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks processes through /proc")
	}
	agent := buildHelper(t, "fakeagent")
	pidFile := filepath.Join(t.TempDir(), "pids")
	const timeout = 1500 * time.Millisecond
	res, err := NewExec([]string{agent, "hang", pidFile}, timeout).Deliver(context.Background(), "x")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Deliver = %v, want ErrTimeout", err)
	}
	// Duration is measured from the process start, a moment after the
	// timeout's context began: allow that much below the timeout.
	if res.Duration < timeout-100*time.Millisecond || res.Duration > timeout+killGrace {
		t.Errorf("Duration = %s, want between %s and %s", res.Duration, timeout-100*time.Millisecond, timeout+killGrace)
	}
	if res.ExitCode != -1 {
		t.Errorf("ExitCode = %d, want -1 (killed)", res.ExitCode)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the agent never wrote its pids: %v", err)
	}
	var pids [2]int
	if _, err := fmt.Sscan(string(b), &pids[0], &pids[1]); err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	for _, pid := range pids {
		deadline := time.Now().Add(3 * time.Second)
		for testutil.Alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still running after the timeout", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestExecCancelledIsNotTimeout(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := NewExec([]string{agent, "sleep"}, time.Minute).Deliver(ctx, "x")
	if err == nil || errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Deliver(cancelled ctx) = %v, want the context's error, not ErrTimeout", err)
	}
}

func TestExecEnvironment(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	t.Setenv("NOTIFY_SOCKET", "/run/systemd/notify")
	t.Setenv("WATCHDOG_USEC", "180000000")
	t.Setenv("WATCHDOG_PID", fmt.Sprint(os.Getpid()))
	t.Setenv("AI_HEART_KEEP", "kept")
	res, err := NewExec([]string{agent, "env"}, 10*time.Second).Deliver(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	if err := json.Unmarshal([]byte(res.Reply), &env); err != nil {
		t.Fatalf("reply %q: %v", res.Reply, err)
	}
	tests := []struct {
		name    string
		kv      string
		present bool
	}{
		{name: "NOTIFY_SOCKET dropped", kv: "NOTIFY_SOCKET=/run/systemd/notify"},
		{name: "WATCHDOG_USEC dropped", kv: "WATCHDOG_USEC=180000000"},
		{name: "WATCHDOG_PID dropped", kv: "WATCHDOG_PID=" + fmt.Sprint(os.Getpid())},
		{name: "other variables kept", kv: "AI_HEART_KEEP=kept", present: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := slices.Contains(env, tt.kv); got != tt.present {
				t.Errorf("child environment has %q = %v, want %v", tt.kv, got, tt.present)
			}
		})
	}
}

func TestChildEnv(t *testing.T) {
	in := []string{"PATH=/bin", "NOTIFY_SOCKET=/x", "WATCHDOG_USEC=1", "WATCHDOG_PID=2", "WATCHDOG_ANY=3", "MY_WATCHDOG_USEC=4", "NOTIFY_SOCKETX=5"}
	want := []string{"PATH=/bin", "MY_WATCHDOG_USEC=4", "NOTIFY_SOCKETX=5"}
	if got := ChildEnv(in); !slices.Equal(got, want) {
		t.Errorf("ChildEnv(%q) = %q, want %q", in, got, want)
	}
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name        string
		writes      []string
		want        string
		wantDropped bool
	}{
		{name: "under max", writes: []string{"ab", "cd"}, want: "abcd"},
		{name: "exactly max", writes: []string{"abcdef"}, want: "abcdef"},
		{name: "over max in pieces", writes: []string{"abcd", "efgh"}, want: "cdefgh", wantDropped: true},
		{name: "one big write", writes: []string{"0123456789"}, want: "456789", wantDropped: true},
		{name: "big write after small", writes: []string{"x", "abcdef"}, want: "abcdef", wantDropped: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &tailBuffer{max: 6}
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if b.String() != tt.want || b.dropped != tt.wantDropped {
				t.Errorf("tail = %q dropped %v, want %q dropped %v", b.String(), b.dropped, tt.want, tt.wantDropped)
			}
		})
	}
}

// readPID waits for the agent to write its pid to path.
func readPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		var pid int
		if err == nil {
			if _, err := fmt.Sscan(string(b), &pid); err == nil {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent never wrote its pid to %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestExecEndedRunGetsSIGTERMFirst: a run whose context ends is sent SIGTERM,
// so a client can save its session and leave cleanly, well before the grace.
func TestExecEndedRunGetsSIGTERMFirst(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals and /proc")
	}
	agent := buildHelper(t, "fakeagent")
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	e := NewExec([]string{agent, "polite", pidFile}, time.Minute)
	e.StopGrace = time.Minute // only SIGTERM can end it before the test's deadline
	done := make(chan error, 1)
	go func() { _, err := e.Deliver(ctx, "x"); done <- err }()
	readPID(t, pidFile)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Deliver = %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end on SIGTERM")
	}
	if b, err := os.ReadFile(pidFile + ".term"); err != nil || string(b) != "term" {
		t.Errorf("the agent never saw SIGTERM (%q, %v)", b, err)
	}
}

// TestExecStubbornRunIsKilledAfterGrace: a run that ignores SIGTERM is
// killed with its group once the grace has passed, and Deliver returns.
func TestExecStubbornRunIsKilledAfterGrace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("signals and /proc")
	}
	agent := buildHelper(t, "fakeagent")
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	const grace = 300 * time.Millisecond
	e := NewExec([]string{agent, "stubborn", pidFile}, time.Minute)
	e.StopGrace = grace
	done := make(chan error, 1)
	go func() { _, err := e.Deliver(ctx, "x"); done <- err }()
	pid := readPID(t, pidFile)
	ended := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Deliver = %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a run that ignores SIGTERM was never killed")
	}
	if took := time.Since(ended); took < grace {
		t.Errorf("killed %s after the end, before the grace of %s: SIGTERM was not given its time", took, grace)
	}
	if testutil.Alive(pid) {
		t.Errorf("process %d outlived Deliver", pid)
	}
}

// TestWithheldEnv: a variable the watchdog's config reads (a notify URL's
// secret) is dropped from every child's environment.
func TestWithheldEnv(t *testing.T) {
	in := []string{"PATH=/bin", "AIHEART_TEST_WITHHELD=secret", "HOME=/h"}
	Withhold("AIHEART_TEST_WITHHELD")
	if got, want := ChildEnv(in), []string{"PATH=/bin", "HOME=/h"}; !slices.Equal(got, want) {
		t.Errorf("ChildEnv(%q) = %q, want %q", in, got, want)
	}
}
