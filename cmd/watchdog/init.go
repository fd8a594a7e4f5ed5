package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/setup"
)

// runInit lays out a workspace from the embedded template (never
// overwriting) and prints the next steps. Exit 0 ok, 2 usage, 1 failure.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("init", flag.ContinueOnError)
	fl.SetOutput(stderr)
	mcpHeart := fl.String("mcp-heart", "", "path of the mcp-heart binary to register (default: next to watchdog, else on PATH)")
	langFlag := fl.String("lang", string(lang.Default), "language of GEMINI.md and ai-docs/: en or ja (set the same `language` in the config)")
	userUnit := fl.Bool("systemd-user", false, "also write a systemd user unit (systemctl --user) and its config for this workspace, under $XDG_CONFIG_HOME (default ~/.config)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: watchdog init [--mcp-heart PATH] [--lang en|ja] [--systemd-user] DIR")
		fmt.Fprintln(stderr, "Lays out the workspace DIR (GEMINI.md, ai-docs/, folders, .gemini/settings.json); never overwrites a file.")
		fl.PrintDefaults()
	}
	rest, code := parseInterspersed(fl, args)
	if code >= 0 {
		return code
	}
	if len(rest) != 1 {
		fl.Usage()
		return 2
	}
	dir := rest[0]
	l, err := lang.Parse(*langFlag)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init: --lang: %v\n", err)
		return 2
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		fmt.Fprintf(stderr, "watchdog init: %s is a file, not a folder\n", dir)
		return 2
	}
	res, err := setup.Init(dir, setup.Options{MCPHeart: *mcpHeart, Language: l})
	if res.Dir != "" {
		fmt.Fprintf(stdout, "watchdog init: workspace %s\n", res.Dir)
	}
	for _, c := range res.Created {
		fmt.Fprintf(stdout, "  created  %s\n", c)
	}
	for _, k := range res.Kept {
		fmt.Fprintf(stdout, "  kept     %s (exists; left as it is)\n", k)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init: %v\n", err)
		return 1
	}
	m := res.MCPHeart
	switch {
	case m.Found:
		fmt.Fprintf(stdout, "mcp-heart: %s (%s)\n", m.Path, m.Via)
	case m.Via != "":
		fmt.Fprintf(stderr, "watchdog init: warning: --mcp-heart %s does not exist (yet); it is registered anyway\n", m.Path)
	default:
		fmt.Fprintf(stderr, "watchdog init: WARNING: mcp-heart was found neither next to the watchdog binary nor on PATH.\n"+
			"  .gemini/settings.json registers the bare command %q, which works only if it is on the PATH\n"+
			"  of the program that starts it. Install mcp-heart and put its absolute path in that file,\n"+
			"  or delete the file and rerun: watchdog init --mcp-heart /path/to/mcp-heart %s\n", m.Path, dir)
	}
	if slices.Contains(res.Kept, setup.SettingsFile) {
		fmt.Fprintf(stdout, "note: %s was kept: check that it registers mcp-heart as shown below.\n", setup.SettingsFile)
	}
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, setup.NextSteps(res))
	if *userUnit {
		return initUserUnit(dir, l, stdout, stderr)
	}
	return 0
}

// initUserUnit writes the user unit and its config for dir, then says how
// to start it.
func initUserUnit(dir string, l lang.Lang, stdout, stderr io.Writer) int {
	home, err := os.UserConfigDir()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init --systemd-user: %v\n", err)
		return 1
	}
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init --systemd-user: find the watchdog binary: %v\n", err)
		return 1
	}
	us, err := setup.WriteUserService(home, self, dir, string(l))
	for _, c := range us.Created {
		fmt.Fprintf(stdout, "  created  %s\n", c)
	}
	for _, k := range us.Kept {
		fmt.Fprintf(stdout, "  kept     %s (exists; left as it is)\n", k)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init --systemd-user: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nThe watchdog as a user service (it runs %s):\n"+
		"  systemctl --user daemon-reload\n"+
		"  systemctl --user enable --now %s\n"+
		"  journalctl --user -u %s -f\n"+
		"  loginctl enable-linger \"$USER\"   # keep it running with nobody logged in\n", self, setup.UserUnitName, setup.UserUnitName)
	return 0
}

// parseInterspersed parses flags placed before or after the positional
// arguments (flag stops at the first non-flag). It returns the positional
// arguments and -1, or an exit code: 0 for -h, 2 for a bad flag.
func parseInterspersed(fl *flag.FlagSet, args []string) ([]string, int) {
	var rest []string
	for {
		if err := fl.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, 0
			}
			return nil, 2
		}
		args = fl.Args()
		if len(args) == 0 {
			return rest, -1
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), -1
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}
