package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

var binDir string

func TestMain(m *testing.M) {
	if os.Getenv(hogEnv) == "1" {
		spin() // a CPU hog for BenchmarkHookLatency, ended by its kill
	}
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/heart-hook", "github.com/ai-heart/ai-heart/cmd/mcp-heart"))
}

// runHook runs the real binary with stdin and returns its exit code,
// stdout and stderr.
func runHook(t testing.TB, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "heart-hook"), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func spool(t *testing.T, ws string) []hook.Event {
	t.Helper()
	tl := hook.NewTail(ws)
	evs, err := tl.Read(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// The hook never fails the client and never speaks on stdout, whatever it
// is given; what it can read it records, and nothing of the input's text.
func TestHookNeverFailsTheClient(t *testing.T) {
	ws := t.TempDir()
	secret := "rm -rf /home/alice/secret-project"
	cases := []struct {
		name, stdin string
		args        []string
		wantErr     string // on stderr
		recorded    bool
	}{
		{"tool call", `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + secret + `"}}`, []string{"--client", "claude-code", "--workspace", ws}, "", true},
		{"codex notify", "", []string{"--client", "codex", "--workspace", ws, `{"type":"agent-turn-complete","thread-id":"t1","last-assistant-message":"` + secret + `"}`}, "", true},
		{"not JSON", "garbage", []string{"--client", "gemini", "--workspace", ws}, "hook input from gemini", false},
		{"no event", `{"session_id":"s1"}`, []string{"--client", "gemini", "--workspace", ws}, "no event name", false},
		{"unknown client", `{}`, []string{"--client", "vim", "--workspace", ws}, `--client "vim"`, false},
		{"no workspace", `{}`, []string{"--client", "gemini"}, "--workspace is required", false},
		{"workspace missing", `{"hook_event_name":"Stop"}`, []string{"--client", "claude-code", "--workspace", filepath.Join(ws, "nope", "deeper")}, "", true},
		{"bad flag", `{}`, []string{"--frobnicate"}, "flag provided but not defined", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runHook(t, tc.stdin, tc.args...)
			if code != 0 || stdout != "" {
				t.Fatalf("exit %d, stdout %q: want 0 and nothing", code, stdout)
			}
			if tc.wantErr != "" && !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr %q, want it to say %q", stderr, tc.wantErr)
			}
			if tc.wantErr == "" && stderr != "" {
				t.Errorf("stderr %q, want nothing", stderr)
			}
		})
	}
	evs := spool(t, ws)
	if len(evs) != 2 || evs[0].Kind != hook.Tool || evs[0].Tool != "Bash" || evs[0].Input == "" || evs[1].Kind != hook.TurnEnd || evs[1].Session != "t1" {
		t.Fatalf("spool = %+v, want the tool call and Codex's turn end", evs)
	}
	b, _ := os.ReadFile(filepath.Join(ws, filepath.FromSlash(hook.SpoolFile(time.Now()))))
	if strings.Contains(string(b), "secret") || strings.Contains(string(b), "rm -rf") {
		t.Fatalf("the spool keeps the input's text: %s", b)
	}
	if evs := spool(t, filepath.Join(ws, "nope", "deeper")); len(evs) != 1 {
		t.Errorf("a missing stats/hooks folder is made: %v", evs)
	}
}

// A client that never closes the hook's stdin does not hold it: the hook
// gives up after a second, exit 0.
func TestHookGivesUpOnAnOpenStdin(t *testing.T) {
	ws := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.WriteString(`{"hook_event_name":"Stop"}`)
	cmd := exec.Command(filepath.Join(binDir, "heart-hook"), "--client", "claude-code", "--workspace", ws)
	cmd.Stdin = r
	start := time.Now()
	p := testutil.Start(t, cmd)
	if err := p.Wait(); err != nil {
		t.Fatalf("heart-hook: %v", err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("heart-hook took %s with its stdin held open", took)
	}
	if evs := spool(t, ws); len(evs) != 0 {
		t.Fatalf("spool = %+v, want nothing from an event that never ended", evs)
	}
}

// BenchmarkHookLatency is what a hook adds to each of the agent's tool
// calls: the real binary started, fed a PreToolUse event of a realistic
// size on stdin, and waited for, as the client does, with the budget gate
// open and closed (then it reads the gate and prints the refusal, the
// worst case of the pre-tool hook). Beside it, fed the same, the floors any
// hook pays: a bare spawn of /bin/true, and dd reading its stdin to the end
// as a hook must (it waits for the client's write). The four take turns in
// one loop, so each sees the same moments of the machine's load, on an
// idle machine and under load (a process per CPU spinning while it
// measures, as when the agent's own build or tests run).
// p50 and p99 are reported; the goal is p99 under 5 ms when idle.
//
//	go test ./cmd/heart-hook -run '^$' -bench HookLatency -benchtime 2000x -v
func BenchmarkHookLatency(b *testing.B) {
	ws := b.TempDir()
	payload := `{"session_id":"5f0e7f71-9be3-4895-a93f-242cf5655998","transcript_path":"/home/u/.claude/projects/x/5f0e7f71.jsonl","cwd":"/home/u/ai-works","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", 2000) + `"},"tool_use_id":"toolu_01"}`
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average before: %s", strings.TrimSpace(string(la)))
	}
	// A workspace whose budget gate is closed.
	gated := b.TempDir()
	t0 := time.Now()
	gate, _ := json.Marshal(hook.Gate{Spent: true, Written: t0, Expires: t0.Add(time.Hour), Until: t0.Add(2 * time.Hour), Reason: "today's budget is spent; write your activity log and stop"})
	os.MkdirAll(filepath.Join(gated, "stats"), 0o755)
	os.WriteFile(filepath.Join(gated, filepath.FromSlash(hook.GateFile)), gate, 0o644)
	bare, err := exec.LookPath("true")
	if err != nil {
		b.Fatal(err)
	}
	dd, err := exec.LookPath("dd")
	if err != nil {
		b.Fatal(err)
	}
	runs := []struct {
		name string
		argv []string
		says bool // prints a decision
	}{
		{"heart-hook", []string{filepath.Join(binDir, "heart-hook"), "--client", "claude-code", "--workspace", ws}, false},
		{"gate-closed", []string{filepath.Join(binDir, "heart-hook"), "--client", "claude-code", "--workspace", gated}, true},
		{"true", []string{bare}, false},
		{"dd", []string{dd, "of=/dev/null", "status=none"}, false},
	}
	for _, load := range []string{"idle", "load"} {
		b.Run(load, func(b *testing.B) {
			if load == "load" {
				defer hog(b, runtime.NumCPU())()
			}
			took := make([][]time.Duration, len(runs))
			for b.Loop() {
				for i, run := range runs {
					start := time.Now()
					if code, out, errs := spawn(b, payload, run.argv...); code != 0 || (out != "") != run.says || errs != "" {
						b.Fatalf("%s: exit %d stdout %q stderr %q", run.name, code, out, errs)
					}
					took[i] = append(took[i], time.Since(start))
				}
			}
			for i, run := range runs {
				t := took[i]
				slices.Sort(t)
				b.ReportMetric(float64(t[len(t)/2].Microseconds())/1000, run.name+"-p50-ms")
				b.ReportMetric(float64(t[len(t)*99/100].Microseconds())/1000, run.name+"-p99-ms")
			}
			b.ReportMetric(0, "ns/op") // the mean hides the tail the percentiles show
		})
	}
}

// spawn runs argv with stdin and returns its exit code, stdout and stderr.
func spawn(b *testing.B, stdin string, argv ...string) (int, string, string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		b.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// hogEnv makes this test binary a CPU hog (hog).
const hogEnv = "AIHEART_HEART_HOOK_HOG"

// hog starts n processes that each keep a CPU busy (this test binary,
// spinning), as the agent's own build or tests would; stop kills and
// reaps them. Processes, not goroutines: spinning goroutines here would
// starve this process's own pipe to the hook, not the machine.
func hog(b *testing.B, n int) (stop func()) {
	var procs []*exec.Cmd
	stop = func() {
		for _, c := range procs {
			c.Process.Kill()
			c.Wait()
		}
	}
	for range n {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), hogEnv+"=1", "GOMAXPROCS=1")
		if err := c.Start(); err != nil {
			stop()
			b.Fatal(err)
		}
		procs = append(procs, c)
	}
	time.Sleep(200 * time.Millisecond) // the hogs are spinning, not starting
	return stop
}

// spin keeps one CPU busy until the process is killed.
func spin() {
	x := 0
	for {
		x++
	}
}

// A day's spool the agent filled with 64 MiB of junk does not refuse the
// client's real events for the rest of the day (it did: "the hooks' spool
// is flooded" on every event), and the day file stays within its bound.
func TestHookWritesPastAJunkDay(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, filepath.FromSlash(hook.SpoolFile(time.Now())))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Repeat([]byte("junk"), 1024), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, hook.MaxDay); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runHook(t, `{"session_id":"s1","hook_event_name":"Stop"}`, "--client", "claude-code", "--workspace", ws)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q: want 0 and nothing", code, stdout, stderr)
	}
	if evs := spool(t, ws); len(evs) != 1 || evs[0].Kind != hook.TurnEnd {
		t.Fatalf("spool = %+v, want the real turn end", evs)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() > hook.MaxDay {
		t.Fatalf("day file %v, %v: want at most %d bytes", fi.Size(), err, hook.MaxDay)
	}
}
