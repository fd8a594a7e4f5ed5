package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/setup"
	"github.com/ai-heart/ai-heart/internal/telemetry"
)

// runInit lays out a workspace from the embedded template (never
// overwriting), wires the clients named by --client (gemini by default)
// and prints the next steps. Exit 0 ok, 2 usage, 1 failure.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("init", flag.ContinueOnError)
	fl.SetOutput(stderr)
	mcpHeart := fl.String("mcp-heart", "", "the mcp-heart binary to register, at `PATH` (default: next to watchdog, else on $PATH)")
	heartHook := fl.String("heart-hook", "", "the heart-hook binary the client's hooks run, at `PATH` (default: next to watchdog, else on $PATH)")
	var clientNames []string
	fl.Func("client", "the client to wire, by `NAME`, repeatable: "+strings.Join(setup.ClientNames(), ", ")+" (default gemini)", func(s string) error {
		clientNames = append(clientNames, s)
		return nil
	})
	langFlag := fl.String("lang", string(lang.Default), "the `LANG` of GEMINI.md and ai-docs/: en or ja (recorded in the workspace: mcp-heart and the watchdog speak it unless their config says language:)")
	agentHome := fl.String("agent-home", "", "the home `DIR` of the user the agent runs as: init grants mcp-heart's tools there, in the clients' user settings (default: your home)")
	cfgPath := fl.String("c", "", "the watchdog's config `FILE`: the clients' telemetry goes to its http.listen, with the agent's key (default: ./watchdog.yaml when it exists)")
	telemetryOn := fl.Bool("telemetry", true, "turn the clients' OpenTelemetry on towards the watchdog (no prompt text); --telemetry=false leaves it as it is")
	userUnit := fl.Bool("systemd-user", false, "also write a systemd user unit (systemctl --user) and its config for this workspace, under $XDG_CONFIG_HOME (default ~/.config)")
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
	clients, err := setup.ParseClients(clientNames)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init: --client: %v\n", err)
		return 2
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		fmt.Fprintf(stderr, "watchdog init: %s is a file, not a folder\n", dir)
		return 2
	}
	// The watchdog's config: -c, else ./watchdog.yaml when it is there.
	// Only a config of the caller's own (or root's) is taken unasked:
	// root running init in a folder another user writes would otherwise
	// make the key and the socket wherever that user's config says.
	path := *cfgPath
	if fi, err := os.Lstat(defaultConfig); path == "" && err == nil && fi.Mode().IsRegular() && ownedBySelfOrRoot(fi) {
		path = defaultConfig
		fmt.Fprintf(stdout, "watchdog init: the watchdog's config: ./%s (the clients' telemetry goes to its window)\n", defaultConfig)
	}
	var otlp string
	if *telemetryOn {
		switch otlp, err = telemetryURL(path, dir); {
		case err != nil:
			fmt.Fprintf(stderr, "watchdog init: %s: %v\n", path, err)
			return 2
		case otlp == "" && path != "":
			fmt.Fprintf(stderr, "watchdog init: warning: %s has no http.listen, so no client telemetry is turned on (set http.listen and run init again)\n", path)
		}
	}
	sock, err := asksSocket(path, dir)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init: %v\n", err)
		return 2
	}
	res, err := setup.Init(dir, setup.Options{MCPHeart: *mcpHeart, HeartHook: *heartHook, Clients: clients, Language: l, AgentHome: *agentHome, Telemetry: otlp, Asks: sock})
	if res.Dir != "" {
		fmt.Fprintf(stdout, "watchdog init: workspace %s\n", res.Dir)
	}
	for _, c := range res.Created {
		fmt.Fprintf(stdout, "  created  %s\n", c)
	}
	for _, k := range res.Kept {
		fmt.Fprintf(stdout, "  kept     %s (exists; left as it is)\n", k)
	}
	for _, l := range res.Followed {
		fmt.Fprintf(stdout, "  followed the link %s (inside the workspace)\n", l)
	}
	for _, w := range res.Wrote {
		switch {
		case w.Kept != "":
			fmt.Fprintf(stdout, "  kept     %s (%s)\n", w.Path, w.Kept)
		case w.Changed:
			fmt.Fprintf(stdout, "  wrote    %s\n", w.Path)
		default:
			fmt.Fprintf(stdout, "  kept     %s (already wired)\n", w.Path)
		}
		for _, l := range w.Via {
			fmt.Fprintf(stdout, "           through the link %s\n", l)
		}
		for _, n := range w.Notes {
			fmt.Fprintf(stdout, "           note: %s\n", n)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog init: %v\n", err)
		return 1
	}
	reportMCPHeart(res.MCPHeart, dir, stdout, stderr)
	reportHeartHook(res.HeartHook, dir, stdout, stderr)
	if !*userUnit {
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, setup.NextSteps(res, ""))
		return 0
	}
	return initUserUnit(res, stdout, stderr)
}

// ownedBySelfOrRoot reports a file of the caller's own, or root's.
func ownedBySelfOrRoot(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Geteuid() || st.Uid == 0)
}

// existingAncestor is the nearest folder of dir's path that exists.
func existingAncestor(dir string) string {
	for {
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return dir
		}
		dir = filepath.Dir(dir)
	}
}

// giveToOwnerOf hands what root made below anc (path and its folders up to
// anc) to anc's owner: the watchdog's user must own its key and state
// folder. Run as anyone else, it does nothing.
func giveToOwnerOf(anc, path string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(anc)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return nil
	}
	for p := path; p != anc && strings.HasPrefix(p, anc); p = filepath.Dir(p) {
		if err := os.Lchown(p, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
	}
	return nil
}

// defaultConfig is the config init reads when -c names none: the one the
// quick start writes beside the workspace.
const defaultConfig = "watchdog.yaml"

// telemetryURL is where the clients of the workspace dir send their
// telemetry: the window of the config at path (its http.listen), under
// /otlp/<agent>/<key> for the config's agent with that workspace, whose
// key lives in its state folder (made there when missing; as root only
// read, so the watchdog's user keeps owning it). No config, or one without
// http.listen, gives "": nothing would receive it.
func telemetryURL(path, dir string) (string, error) {
	if path == "" {
		return "", nil
	}
	cfg, err := config.Load(path)
	if err != nil {
		return "", err
	}
	if cfg.HTTP.Listen == "" {
		return "", nil
	}
	abs, _ := filepath.Abs(dir)
	for _, a := range cfg.AgentConfigs() {
		if w, _ := filepath.Abs(a.Workspace); w != abs {
			continue
		}
		keyFile := filepath.Join(a.StateDir(), telemetry.KeyFile)
		anc := existingAncestor(filepath.Dir(keyFile))
		key, err := telemetry.LoadKey(keyFile, true)
		if err == nil {
			err = giveToOwnerOf(anc, keyFile)
		}
		if err != nil {
			return "", fmt.Errorf("agent %s: %w (or pass --telemetry=false)", a.DisplayName(), err)
		}
		return setup.TelemetryURL(cfg.HTTP.Listen, a.DisplayName(), key), nil
	}
	return "", fmt.Errorf("names no agent with the workspace %s (its workspace: is another folder)", abs)
}

// asksSocket is where the workspace dir's watchdog takes its client's
// questions: the agent's asks socket in the config at path, or with none, the default one of an
// agent of dir under the default state folder. "" when asks.hold is 0.
func asksSocket(path, dir string) (string, error) {
	abs, _ := filepath.Abs(dir)
	if path == "" {
		root, err := config.DefaultStateDir()
		if err != nil {
			return "", nil // no home: nothing offered, the dialogs stand
		}
		a := config.Defaults().AgentConfig
		a.Workspace, a.StateRoot = abs, root
		return a.AsksSocket(), nil
	}
	cfg, err := config.Load(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for _, a := range cfg.AgentConfigs() {
		if w, _ := filepath.Abs(a.Workspace); w == abs {
			if a.Asks.Hold == 0 {
				return "", nil
			}
			return a.AsksSocket(), nil
		}
	}
	return "", nil // another workspace's config: telemetry says so
}

// reportMCPHeart says where mcp-heart was found, or warns that it was not.
func reportMCPHeart(b setup.Binary, dir string, stdout, stderr io.Writer) {
	switch {
	case b.Found:
		fmt.Fprintf(stdout, "mcp-heart: %s (%s)\n", b.Path, b.Via)
	case b.Via != "":
		fmt.Fprintf(stderr, "watchdog init: warning: --mcp-heart %s does not exist (yet); it is registered anyway\n", b.Path)
	default:
		fmt.Fprintf(stderr, "watchdog init: WARNING: mcp-heart was found neither next to the watchdog binary nor on PATH.\n"+
			"  The client files register the bare command %q, which works only if it is on the PATH\n"+
			"  of the program that starts it. Install mcp-heart and rerun init with its path:\n"+
			"  watchdog init --mcp-heart /path/to/mcp-heart %s (the entries are updated in place)\n", b.Path, dir)
	}
}

// reportHeartHook says where heart-hook was found, or warns that without
// it no hooks were wired: a hook whose program is missing blocks Gemini
// CLI's agent, so init writes none.
func reportHeartHook(b setup.Binary, dir string, stdout, stderr io.Writer) {
	if b.Found {
		fmt.Fprintf(stdout, "heart-hook: %s (%s)\n", b.Path, b.Via)
		return
	}
	where := "was found neither next to the watchdog binary nor on PATH"
	if b.Via != "" {
		where = b.Path + " does not exist"
	}
	fmt.Fprintf(stderr, "watchdog init: warning: heart-hook %s, so no hooks were wired\n"+
		"  (mcp-heart was). A hook whose program is missing fails every event, and Gemini CLI then\n"+
		"  blocks the agent. Install heart-hook and rerun: watchdog init --heart-hook /path/to/heart-hook %s\n", where, dir)
}

// initUserUnit writes the user unit and its config for the workspace of
// res, then gives the next steps naming that config and says how to start
// the unit.
func initUserUnit(res setup.Result, stdout, stderr io.Writer) int {
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
	us, err := setup.WriteUserService(home, self, res)
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
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, setup.NextSteps(res, us.Config))
	fmt.Fprintf(stdout, "The watchdog as a user service (it runs %s):\n"+
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
	fl.Usage = helpFor(fl)
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
