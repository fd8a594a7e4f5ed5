// Command mcp-heart is the MCP server (stdio) an agent registers to prove it
// is consciously active: activity logs, checkpoints, deep work, themes.
//
//	mcp-heart [--workspace DIR] [--config FILE]
//
// stdout carries JSON-RPC only; logs go to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/tools"
	"github.com/ai-heart/ai-heart/internal/version"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run wires flags, the tools and the stdio transport. It returns when stdin
// reaches EOF or ctx ends: 0 then, 2 for a bad command line or workspace.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-heart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("workspace", "", "the ai-works folder (default: $AI_WORKS_DIR, else the working directory)")
	cfgPath := fs.String("config", "", "the watchdog's YAML config, for thresholds and timezone (default: the state a running watchdog publishes in stats/watchdog_state.json, else built-in defaults)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcp-heart [--workspace DIR] [--config FILE]\n\nMCP server over stdio for the ai-heart tools. Flags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *showVersion {
		// No server runs: stdout is free, and a person or a script reads
		// the version there, as from the other binaries.
		fmt.Fprintln(stdout, "mcp-heart", version.Get())
		return 0
	}
	logger := zerolog.New(stderr).With().Timestamp().Str("component", "mcp-heart").Logger()

	root := *dir
	if root == "" {
		root = os.Getenv("AI_WORKS_DIR")
	}
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			logger.Error().Err(err).Msg("find working directory")
			return 2
		}
		root = wd
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		logger.Error().Str("workspace", root).Msg("workspace folder does not exist; pass --workspace DIR or set AI_WORKS_DIR (create one with `watchdog init DIR`)")
		return 2
	}
	settings, err := tools.LoadSettings(root, *cfgPath)
	if err != nil {
		logger.Error().Err(err).Msg("load settings")
		return 2
	}
	ws, err := workspace.New(root, settings.Location)
	if err != nil {
		logger.Error().Err(err).Msg("open workspace")
		return 2
	}
	logger = logger.With().Str("workspace", ws.Root).Logger()
	logger.Info().Str("version", version.Get().String()).Str("settings", settings.Source).Str("timezone", ws.Loc.String()).Str("language", string(settings.Language)).Msg("serving on stdio")

	t := tools.New(ws, settings.Thresholds, logger)
	t.Restrictions, t.Lang, t.Pulse = settings.Restrictions, settings.Language, settings.Pulse
	t.FollowWatchdog = *cfgPath == ""
	stdio := server.NewStdioServer(tools.NewServer(t, version.Get().Short()))
	stdio.SetErrorLogger(log.New(logger, "", 0))
	d := newDrain(stdin, stdout) // EOF waits for the replies still owed
	d.known, d.unknown = t.Names(), func(name string) string { return tools.UnknownTool(t.Lang, name) }
	if err := stdio.Listen(ctx, d, d); err != nil && !errors.Is(err, context.Canceled) {
		logger.Error().Err(err).Msg("stdio transport")
		return 1
	}
	logger.Info().Msg("stdin closed; exiting")
	return 0
}
