// Package testutil holds the helpers the tests of several packages share:
// a workspace in a temp folder, time zones, and real binaries built once per
// test run. Only tests import it. (The workspace package's own tests cannot:
// this package imports workspace.)
package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Workspace is an empty workspace in a fresh temp folder (symlinks resolved,
// so paths compare equal to what the code computes), reading IDs in loc.
func Workspace(t testing.TB, loc *time.Location) *workspace.Workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(root, loc)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Loc loads an IANA time zone or fails the test.
func Loc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("LoadLocation(%q): %v", name, err)
	}
	return loc
}

// RunWithBinaries is a TestMain body: it builds each Go package (an import
// path or a path relative to the test's folder) into a temp folder, sets
// *dir to that folder, runs the tests and removes the folder. The binaries
// are named after the packages' last path element. It returns the exit code.
func RunWithBinaries(m *testing.M, dir *string, pkgs ...string) int {
	d, err := os.MkdirTemp("", "aiheart-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(d)
	if err := IsolateState(d); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, p := range pkgs {
		if err := Build(p, filepath.Join(d, path.Base(p))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	*dir = d
	return m.Run()
}

// RunIsolated is a TestMain body: the tests run with their state_dir and
// home in a temp folder of their own (IsolateState), removed afterwards.
// It returns the exit code.
func RunIsolated(m *testing.M) int {
	dir, err := os.MkdirTemp("", "aiheart-test-state-")
	if err == nil {
		err = IsolateState(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	return m.Run()
}

// IsolateState points the default state_dir (the pause files) of this test
// binary and every process it starts at a folder under dir, so no test
// reads or writes the machine's ~/.local/state, or another run's. HOME goes
// there too, so what `watchdog init` writes in the agent's home (the
// clients' user settings) lands in dir/home, never in the machine's; the
// Go toolchain keeps its caches where they were.
func IsolateState(dir string) error {
	state := filepath.Join(dir, "state")
	home := filepath.Join(dir, "home")
	for _, d := range []string{state, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if i < len(vals) && vals[i] != "" {
			if err := os.Setenv(k, vals[i]); err != nil {
				return err
			}
		}
	}
	if err := os.Setenv("HOME", home); err != nil {
		return err
	}
	if err := os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config")); err != nil {
		return err
	}
	return os.Setenv("XDG_STATE_HOME", state)
}

// Build compiles the Go package pkg to the binary out.
func Build(pkg, out string) error {
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: %v\n%s", pkg, err, b)
	}
	return nil
}
