package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ai-heart/ai-heart/internal/migrate"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runMigrate moves an old workspace's stats/extended_processing to
// stats/deep_work (docs/design.md section 3) and builds the latest-proof index. Exit
// 0 ok (also when there is nothing to migrate), 2 usage or not a workspace,
// 1 conflicts or failure. Heartbeat IDs are read in the timezone of the
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
		fmt.Fprintf(stderr, "watchdog migrate: %d conflict(s): a file of that name already exists in %s with other content.\n"+
			"  Nothing was replaced and %s was left in place. Compare the files, move one aside, and run migrate again.\n",
			n, workspace.DeepWorkDir, workspace.LegacyDeepWorkDir)
		return 1
	}
	return 0
}

// isDir reports whether p is an existing folder.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
