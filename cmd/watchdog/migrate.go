package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/migrate"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runMigrate moves an old workspace's stats/extended_processing to
// stats/deep_work (docs/design.md section 3), moves the watchdog's own state
// that older versions kept in stats/ to the agent's state folder, and builds
// the latest-proof index. Exit 0 ok (also when there is nothing to migrate),
// 2 usage or not a workspace, 1 conflicts, a running watchdog or failure. Heartbeat IDs are read in the timezone of the
// config (-c FILE, default ./watchdog.yaml if present, else Local), as the
// daemon and the tools read them.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	load := configFlag(fl)
	rest, code := parseInterspersed(fl, args)
	if code >= 0 {
		return code
	}
	if len(rest) != 1 {
		fl.Usage()
		return 2
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog migrate: %v\n", err)
		return 2
	}
	dir := rest[0]
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "watchdog migrate: %s is not a folder\n", dir)
		return 2
	}
	ws, err := workspace.New(dir, cfg.Location())
	if err != nil {
		fmt.Fprintf(stderr, "watchdog migrate: %v\n", err)
		return 2
	}
	if !isDir(ws.Path(workspace.StatsDir)) && !isDir(ws.Path(workspace.ArtifactsDir)) {
		fmt.Fprintf(stderr, "watchdog migrate: %s does not look like an ai-works folder (no stats/ or artifacts/)\n", ws.Root)
		return 2
	}
	ac := agentOf(cfg, ws.Root)
	if state.Held(ac.StateDir()) {
		fmt.Fprintf(stderr, "watchdog migrate: a watchdog is running on %s: stop it first (it writes %s itself)\n", ws.Root, ac.StateDir())
		return 1
	}
	rep, err := migrate.Run(ws)
	fmt.Fprintf(stdout, "watchdog migrate: workspace %s\n", ws.Root)
	if !rep.Found {
		fmt.Fprintf(stdout, "  nothing to migrate: no %s/\n", workspace.LegacyDeepWorkDir)
	}
	for _, s := range rep.Steps {
		fmt.Fprintf(stdout, "  %s\n", s)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog migrate: %v\n", err)
		return 1
	}
	moved, err := migrate.StateFiles(ws, ac.StateDir())
	fmt.Fprintf(stdout, "the watchdog's state (out of the agent's reach in %s):\n", ac.StateDir())
	if len(moved) == 0 && err == nil {
		fmt.Fprintf(stdout, "  nothing to move: no daily_cap.json, circuit_breaker.json, cost.json or day/ in %s/\n", workspace.StatsDir)
	}
	for _, s := range moved {
		fmt.Fprintf(stdout, "  %s\n", s)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog migrate: %v\n", err)
		return 1
	}
	rep.Steps = append(rep.Steps, moved...) // conflicts are counted below
	l := rep.Latest
	fmt.Fprintf(stdout, "latest-proof index (%s):\n", workspace.LatestFile)
	for _, p := range []struct {
		what  string
		proof *workspace.Proof
	}{{"activity log", l.Log}, {"introspection", l.Introspection}, {"checkpoint", l.Checkpoint}} {
		if p.proof == nil {
			fmt.Fprintf(stdout, "  %-13s none\n", p.what)
			continue
		}
		fmt.Fprintf(stdout, "  %-13s %s\n", p.what, p.proof.Path)
	}
	if n := rep.Conflicts(); n > 0 {
		fmt.Fprintf(stderr, "watchdog migrate: %d conflict(s): a file of that name already exists (in %s or the state folder) with other content.\n"+
			"  Nothing was replaced and the old files were left in place. Compare the files, move one aside, and run migrate again.\n",
			n, workspace.DeepWorkDir)
		return 1
	}
	return 0
}

// agentOf is the config's agent whose workspace is root, or the config's
// own agent on root when none is (its state folder is then named after
// root's folder, as a config with that workspace and no name would have it).
func agentOf(cfg *config.Config, root string) config.AgentConfig {
	for _, a := range cfg.AgentConfigs() {
		if abs, err := filepath.Abs(a.Workspace); err == nil && abs == root {
			return a
		}
	}
	a := cfg.AgentConfig
	a.Workspace, a.Name = root, ""
	return a
}

// isDir reports whether p is an existing folder.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
