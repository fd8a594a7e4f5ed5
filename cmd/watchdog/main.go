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
	"syscall"

	"github.com/ai-heart/ai-heart/internal/termsafe"
	"github.com/ai-heart/ai-heart/internal/version"
)

// command is one subcommand: it returns the process exit code.
type command struct {
	name, usage string
	run         func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = []command{
	{"init", "init DIR          lay out a workspace (never overwrites)", runInit},
	{"run", "run [-c FILE]      the daemon", runRun},
	{"check", "check [-c FILE]    one scan now; exit 0 ok, 1 warning, 2 error", runCheck},
	{"status", "status [-c FILE] [--mqtt URL]  ID, last proof, deep work, chambers, cap, breaker; --mqtt: every agent on the broker", runStatus},
	{"fleet", "fleet --mqtt URL [--http 127.0.0.1:9478] [-c FILE]  the page and /metrics for every agent on the broker", runFleet},
	{"pause", "pause [-c FILE] [--agent NAME] [--for 2h | --until 2026-11-23T09:00] [--reason TEXT]  no wakeups until resumed", runPause},
	{"resume", "resume [-c FILE] [--agent NAME]  end a pause", runResume},
	{"migrate", "migrate [-c FILE] DIR  move stats/extended_processing to stats/deep_work", runMigrate},
	{"demo", "demo [--keep] [DIR]  a scripted agent's day, narrated, with the status page (DIR: ./ai-heart-demo)", runDemo},
	{"demo-agent", "", runDemoAgent}, // the demo's scripted agent, started by its exec delivery
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
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
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
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: watchdog COMMAND [ARGS]   (watchdog --version: the version, commit and build date)")
	for _, c := range commands {
		if c.usage != "" {
			fmt.Fprintln(w, "  watchdog "+c.usage)
		}
	}
}
