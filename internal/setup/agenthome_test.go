package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// initIn lays out a workspace wired for clients with the agent's home at
// home, and returns the workspace.
func initIn(t *testing.T, home string, clients ...string) (string, Result) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ai-works")
	res, err := Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), HeartHook: fakeBinary(t, "heart-hook"), Clients: clients, AgentHome: home})
	if err != nil {
		t.Fatalf("Init(%v) = %v", clients, err)
	}
	return res.Dir, res
}

func decodeJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// TestClaudeCodeUserPermission: the agent's ~/.claude/settings.json allows
// mcp-heart's tools by their names and nothing else (not every tool of
// whatever server is registered as mcp-heart: the rule an older init wrote
// goes), merged into what the user has there, once however often init
// runs; the project's settings allow nothing.
func TestClaudeCodeUserPermission(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte(`{"model": "opus", "permissions": {"allow": ["Bash(git status)", "mcp__mcp-heart"], "deny": ["WebFetch"]}}`), 0o600)
	dir, _ := initIn(t, home, ClientClaudeCode)
	initIn(t, home, ClientClaudeCode) // a second workspace: the rule is there once
	var got struct {
		Model       string
		Permissions struct{ Allow, Deny []string }
	}
	decodeJSON(t, user, &got)
	want := []string{"Bash(git status)"}
	for _, tool := range toolnames.All {
		want = append(want, "mcp__mcp-heart__"+tool)
	}
	if !slices.Equal(got.Permissions.Allow, want) || got.Model != "opus" || len(got.Permissions.Deny) != 1 {
		t.Errorf("user settings = %+v, want the user's entries and each of mcp-heart's tools once (%v)", got, want)
	}
	if fi, _ := os.Stat(user); fi.Mode().Perm() != 0o600 {
		t.Errorf("user settings mode %v, want the user's 0600 kept", fi.Mode().Perm())
	}
	var project map[string]any
	decodeJSON(t, filepath.Join(dir, ".claude", "settings.json"), &project)
	if _, ok := project["permissions"]; ok {
		t.Errorf("the project's settings grant permissions: %v", project["permissions"])
	}
}

// TestGeminiTrust: the workspace is trusted in the agent's
// ~/.gemini/trustedFolders.json beside the user's entries; an entry that
// distrusts it is the user's and stops init with a word on what to do.
func TestGeminiTrust(t *testing.T) {
	home := t.TempDir()
	trusted := filepath.Join(home, ".gemini", "trustedFolders.json")
	os.MkdirAll(filepath.Dir(trusted), 0o755)
	os.WriteFile(trusted, []byte(`{"/src/other": "TRUST_PARENT"}`), 0o644)
	dir, _ := initIn(t, home, ClientGemini)
	var got map[string]string
	decodeJSON(t, trusted, &got)
	if got[dir] != "TRUST_FOLDER" || got["/src/other"] != "TRUST_PARENT" || len(got) != 2 {
		t.Errorf("trustedFolders.json = %v, want the workspace trusted beside the user's entry", got)
	}

	refused := filepath.Join(t.TempDir(), "ai-works")
	os.WriteFile(trusted, []byte(`{"`+refused+`": "DO_NOT_TRUST"}`), 0o644)
	_, err := Init(refused, Options{MCPHeart: fakeBinary(t, "mcp-heart"), AgentHome: home})
	if err == nil || !strings.Contains(err.Error(), "DO_NOT_TRUST") || !strings.Contains(err.Error(), "trustedFolders.json") {
		t.Fatalf("Init over a distrusted folder = %v, want an error naming the entry and the file", err)
	}
	if b, _ := os.ReadFile(trusted); !strings.Contains(string(b), "DO_NOT_TRUST") {
		t.Errorf("the user's DO_NOT_TRUST was overruled: %s", b)
	}
}

// TestCodexTrust: the workspace is trusted in the agent's
// ~/.codex/config.toml, the user's text kept byte for byte before it.
func TestCodexTrust(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".codex", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	mine := "# mine\nmodel = \"o3\"\n\n[projects.\"/src/other\"]\ntrust_level = \"trusted\"\n"
	os.WriteFile(cfg, []byte(mine), 0o600)
	dir, _ := initIn(t, home, ClientCodex)
	b, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(b), mine) {
		t.Fatalf("config.toml lost the user's text:\n%s", b)
	}
	var got struct {
		Model    string
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		}
	}
	if err := toml.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Projects[dir].TrustLevel != "trusted" || got.Projects["/src/other"].TrustLevel != "trusted" || got.Model != "o3" {
		t.Errorf("config.toml = %+v, want both folders trusted and the model kept", got)
	}
	again, _, _ := Wire(Wiring{Dir: dir, MCPHeart: "/bin/mcp-heart", Home: home}, []string{ClientCodex})
	for _, w := range again {
		if w.Path == cfg && w.Changed {
			t.Errorf("a second run rewrote %s", cfg)
		}
	}

	os.WriteFile(cfg, []byte("[projects.\""+dir+"\"]\ntrust_level = \"untrusted\"\n"), 0o600)
	if _, _, err := Wire(Wiring{Dir: dir, MCPHeart: "/bin/mcp-heart", Home: home}, []string{ClientCodex}); err == nil || !strings.Contains(err.Error(), "does not trust it") {
		t.Errorf("Wire over an untrusted entry = %v, want it left to the user", err)
	}
}

// TestInstructionLinks: Claude Code's CLAUDE.md and Codex's AGENTS.md lead
// to GEMINI.md, the one copy of the rules, in the workspace's language; a
// file of the user's is kept, with a word on it.
func TestInstructionLinks(t *testing.T) {
	dir, res := initIn(t, t.TempDir(), ClientClaudeCode, ClientCodex)
	rules, _ := os.ReadFile(filepath.Join(dir, "GEMINI.md"))
	for _, name := range []string{"CLAUDE.md", "AGENTS.md"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != string(rules) {
			t.Errorf("%s does not read as GEMINI.md (%v)", name, err)
		}
	}
	for _, w := range res.Wrote {
		if (w.Path == "CLAUDE.md" || w.Path == "AGENTS.md") && !w.Changed {
			t.Errorf("%s not reported as written: %+v", w.Path, w)
		}
	}

	mine := filepath.Join(t.TempDir(), "ai-works")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "CLAUDE.md"), []byte("my own rules\n"), 0o644)
	res, err := Init(mine, Options{MCPHeart: fakeBinary(t, "mcp-heart"), Clients: []string{ClientClaudeCode}, AgentHome: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "CLAUDE.md")); string(b) != "my own rules\n" {
		t.Errorf("the user's CLAUDE.md was replaced: %q", b)
	}
	found := false
	for _, w := range res.Wrote {
		if w.Path == "CLAUDE.md" {
			found = strings.Contains(w.Kept, "GEMINI.md")
		}
	}
	if !found {
		t.Errorf("no word on the kept CLAUDE.md: %+v", res.Wrote)
	}
}

// TestWorkspaceOnly: the demo's init writes nothing in the home.
func TestWorkspaceOnly(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if _, err := Init(filepath.Join(t.TempDir(), "w"), Options{MCPHeart: fakeBinary(t, "mcp-heart"), WorkspaceOnly: true}); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the home holds %v after a workspace-only init", entries)
	}
}

// TestNextStepsPerClient: each client's next steps say what init granted
// where, and end with a config that loads and wakes that client headless,
// read as stream-json so tokens are counted, with a cap, a budget and the
// page; prices are offered where the client reports none.
func TestNextStepsPerClient(t *testing.T) {
	for _, tc := range []struct {
		client string
		want   []string
		argv0  string
	}{
		{ClientClaudeCode, []string{"mcp__mcp-heart__checkpoint", ".claude/settings.json", "trust dialog", "tmux_target: agent"}, "claude"},
		{ClientGemini, []string{"trustedFolders.json", "gemini mcp list", "# prices:"}, "gemini"},
		{ClientCodex, []string{".codex/config.toml", "/hooks", "names no model"}, "codex"},
		{ClientClaudeDesktop, []string{"Claude Desktop: restart it"}, ""},
	} {
		t.Run(tc.client, func(t *testing.T) {
			home := t.TempDir()
			_, res := initIn(t, home, tc.client)
			out := NextSteps(res, "")
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("next steps lack %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "--allowedTools") {
				t.Errorf("next steps ask for a flag init should make needless:\n%s", out)
			}
			c, err := config.Parse([]byte(WatchdogConfig(res)))
			if err != nil {
				t.Fatalf("the config does not load: %v\n%s", err, WatchdogConfig(res))
			}
			if c.DailyCap == 0 || c.HTTP.Listen == "" || (tc.argv0 != "" && !c.Budget.On()) {
				t.Errorf("config %+v: want a daily cap, the page and for a headless client a budget", c)
			}
			if tc.argv0 == "" {
				if c.Agent.Delivery != config.DeliveryInbox {
					t.Errorf("delivery %q, want inbox for a client with no headless mode", c.Agent.Delivery)
				}
				return
			}
			if c.Agent.Delivery != config.DeliveryExec || c.Agent.Output != config.OutputStreamJSON || c.Agent.Command[0] != tc.argv0 {
				t.Errorf("agent %+v, want %s headless, read as stream-json", c.Agent, tc.argv0)
			}
		})
	}
}
