// Command watchdog keeps an autonomous agent healthy: it mints heartbeat IDs,
// checks the workspace, raises alerts, wakes and recovers the agent. It runs
// no shell: every external program is started as argv.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ai-heart/ai-heart/internal/termsafe"
	"github.com/ai-heart/ai-heart/internal/version"
)

// timeNow is the time status and check judge by. Tests set it, so their
// output can be compared byte for byte (golden_test.go); nothing else does.
var timeNow = time.Now

// command is one subcommand: it returns the process exit code.
type command struct {
	name string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = []command{
	{"init", runInit}, {"run", runRun}, {"check", runCheck}, {"status", runStatus}, {"fleet", runFleet},
	{"pause", runPause}, {"resume", runResume}, {"asks", runAsks}, {"answer", runAnswer}, {"tell", runTell},
	{"migrate", runMigrate}, {"demo", runDemo},
	{"demo-agent", runDemoAgent}, // the demo's scripted agent, started by its exec delivery
}

// about is each command's positional arguments and what it does, for its
// -h and watchdog --help; the flags are read from its flag set (help.go).
// A command without an entry is not listed.
var about = map[string][2]string{
	"init":    {"DIR", "lay out a workspace (never overwrites), wire mcp-heart and the hooks into each client's files, and in the agent's home grant mcp-heart's tools (Claude Code) or trust DIR (Gemini CLI, Codex)"},
	"run":     {"", "the daemon"},
	"check":   {"", "one scan now; exit 0 ok, 1 warning, 2 error"},
	"status":  {"", "ID, last proof, deep work, chambers, cap, breaker, cost; --mqtt: every agent on the broker"},
	"fleet":   {"", "the page and /metrics for every agent on the broker"},
	"pause":   {"", "no wakeups until resumed"},
	"resume":  {"", "end a pause"},
	"asks":    {"", "the questions the agents' clients wait on (a permission request), offered to you"},
	"answer":  {"ID allow|deny", "answer a question: the pending call runs, or is refused with a message the model reads"},
	"tell":    {"TEXT", "put your words where the agent reads feedback (--urgent: wake it at once)"},
	"migrate": {"DIR", "copy stats/extended_processing to stats/deep_work (never deletes or overwrites)"},
	"demo":    {"[DIR]", "a scripted agent's day, narrated, with the status page (DIR: ./ai-heart-demo)"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Fprintln(stdout, "watchdog", version.Get())
		return 0
	}
	if len(args) == 0 {
		usage(ctx, stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(ctx, stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			if c.name != "run" && c.name != "fleet" && c.name != "demo-agent" {
				// What a person reads (status, check, the demo's timeline)
				// carries agent-written names: no escape sequence acts.
				stdout = termsafe.Writer(stdout)
			}
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "watchdog: unknown command %q\n", args[0])
	usage(ctx, stderr)
	return 2
}

// usage lists every command with its flags: each command's own -h,
// printed by its flag set, so the list cannot drift from the code.
func usage(ctx context.Context, w io.Writer) {
	fmt.Fprintln(w, "usage: watchdog COMMAND [FLAGS] [ARGS]   (watchdog --version: the version, commit and build date)")
	for _, c := range commands {
		if _, ok := about[c.name]; !ok {
			continue
		}
		var help strings.Builder
		c.run(ctx, []string{"-h"}, io.Discard, &help)
		fmt.Fprint(w, "  "+strings.TrimPrefix(help.String(), "usage: "))
	}
}
