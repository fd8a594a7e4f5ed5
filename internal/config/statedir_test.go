package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The pause lives outside the workspace, in a folder of the agent's own
// under state_dir; a state_dir inside a workspace is refused.
func TestStateDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_STATE_HOME", xdg)
	dir := t.TempDir()
	write := func(yaml string) string {
		p := filepath.Join(dir, "watchdog.yaml")
		if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	c, err := Load(write("name: alice\nworkspace: ai-works\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.AgentConfigs()[0].PauseFile()
	if want := filepath.Join(xdg, "ai-heart") + string(filepath.Separator) + "alice-"; !strings.HasPrefix(got, want) || filepath.Base(got) != "pause.json" {
		t.Fatalf("default pause file %s, want under %s…", got, want)
	}

	c, err = Load(write("state_dir: state\nagents:\n  - {name: alice, workspace: a}\n  - {name: bob, workspace: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.AgentConfigs()[0].StateDir(), c.AgentConfigs()[1].StateDir()
	if filepath.Dir(a) != filepath.Join(dir, "state") || a == b {
		t.Fatalf("fleet state dirs %s and %s, want two folders in %s", a, b, filepath.Join(dir, "state"))
	}
	// The same name in another workspace is another folder.
	other := c.AgentConfigs()[0]
	other.Workspace = filepath.Join(dir, "elsewhere")
	if other.StateDir() == a {
		t.Fatal("two workspaces of one name share a state folder")
	}

	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/ann")
	if d, _ := DefaultStateDir(); d != "/home/ann/.local/state/ai-heart" {
		t.Fatalf("without XDG_STATE_HOME the default is %s", d)
	}

	for _, yaml := range []string{
		"workspace: ai-works\nstate_dir: ai-works/stats\n",
		"workspace: ai-works\nstate_dir: ai-works\n",
		"state_dir: a/x\nagents:\n  - {name: alice, workspace: a}\n",
	} {
		if _, err := Load(write(yaml)); err == nil || !strings.Contains(err.Error(), "state_dir") || !strings.Contains(err.Error(), "inside the workspace") {
			t.Errorf("%q: %v, want state_dir refused inside the workspace", yaml, err)
		}
	}
	if _, err := Load(write("workspace: ai-works\nstate_dir: ai-works-state\n")); err != nil {
		t.Errorf("a sibling folder whose name starts like the workspace's was refused: %v", err)
	}
}
