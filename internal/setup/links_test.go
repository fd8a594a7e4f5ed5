package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plantLink makes a symbolic link at the workspace-relative name, as an
// agent that writes its workspace can, skipping where links cannot be made.
func plantLink(t *testing.T, dir, rel, target string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlink: %v", err)
	}
}

// TestInitRefusesLinksOutOfWorkspace: a link the agent planted in its
// workspace, leading out of it, never carries init's writes there: init
// stops with a message naming the link and where it leads, and the
// outside stays exactly as it was (before, .claude/settings.json pointing
// at an outside file had that file rewritten, and .codex pointing at an
// outside folder had init's files created in it).
func TestInitRefusesLinksOutOfWorkspace(t *testing.T) {
	for _, tt := range []struct {
		name, client, link string
		file               bool // the link leads to a file, not a folder
	}{
		{"claude settings file", ClientClaudeCode, ".claude/settings.json", true},
		{"claude folder", ClientClaudeCode, ".claude", false},
		{"mcp.json", ClientClaudeCode, ".mcp.json", true},
		{"codex folder", ClientCodex, ".codex", false},
		{"codex config", ClientCodex, ".codex/config.toml", true},
		{"gemini folder", ClientGemini, ".gemini", false},
		{"agents folder", ClientAgy, ".agents", false},
		{"a template folder", ClientGemini, "artifacts", false},
		{"a template file's folder", ClientGemini, "ai-docs", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ai-works")
			outside := filepath.Join(t.TempDir(), "outside")
			target := outside
			if tt.file {
				target = filepath.Join(outside, "victim.json")
				writeFile(t, target, `{"keep": "me"}`)
			} else if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			plantLink(t, dir, tt.link, target)
			before := snapshotFiles(t, outside)
			_, err := Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), HeartHook: fakeBinary(t, "heart-hook"),
				Clients: []string{tt.client}, AgentHome: t.TempDir()})
			if err == nil {
				t.Fatalf("Init wrote through %s -> %s without a word", tt.link, target)
			}
			for _, want := range []string{tt.link, target, "outside the workspace"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q: %v", want, err)
				}
			}
			if after := snapshotFiles(t, outside); !mapsEqual(before, after) {
				t.Errorf("init wrote outside the workspace: before %v, after %v", before, after)
			}
			if entries, _ := os.ReadDir(outside); !tt.file && len(entries) > 0 {
				t.Errorf("init created %d entries in the outside folder", len(entries))
			}
		})
	}
}

// TestInitFollowsLinksInsideWorkspace: a link that stays inside the
// workspace (a shared .claude folder kept under another name) is followed,
// and init says which link it followed and where it led.
func TestInitFollowsLinksInsideWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	if err := os.MkdirAll(filepath.Join(dir, "shared", "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	plantLink(t, dir, ".claude", "shared/claude")
	res, err := Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), HeartHook: fakeBinary(t, "heart-hook"),
		Clients: []string{ClientClaudeCode}, AgentHome: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "shared", "claude", "settings.json"))
	if err != nil || !strings.Contains(string(b), "enabledMcpjsonServers") {
		t.Fatalf("the link's target was not written: %v\n%s", err, b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".claude")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf(".claude is no longer a link (%v)", err)
	}
	said := false
	for _, w := range res.Wrote {
		if w.Path == ".claude/settings.json" {
			said = strings.Contains(strings.Join(w.Via, "\n"), ".claude") && strings.Contains(strings.Join(w.Via, "\n"), "shared/claude")
		}
	}
	if !said {
		t.Errorf("init did not say it followed .claude to shared/claude: %+v", res.Wrote)
	}
}

// TestWireKeepsUserValues: an mcp-heart entry the user set up by hand
// keeps its command, args and env, and Gemini's explicit "trust": false
// stays false; init says what differs from its own and how to change it.
// Before, init replaced the args and set trust to true.
func TestWireKeepsUserValues(t *testing.T) {
	w := testWiring(t)
	userArgs := `["--workspace", ` + q(w.Dir) + `, "--lang", "ja"]`
	writeFile(t, w.in(SettingsFile), `{"mcpServers": {"mcp-heart": {"command": "/usr/local/bin/heart-wrapper", "args": `+userArgs+`, "env": {"X": "1"}, "trust": false}}}`)
	writeFile(t, w.in(".mcp.json"), `{"mcpServers": {"mcp-heart": {"command": "mcp-heart", "args": `+userArgs+`}}}`)
	writeFile(t, w.in(".codex/config.toml"), "[mcp_servers.mcp-heart]\ncommand = \"/usr/local/bin/heart-wrapper\"\nargs = [\"--workspace\", "+q(w.Dir)+", \"--lang\", \"ja\"]\n")
	wrote, _, err := Wire(w, []string{ClientGemini, ClientClaudeCode, ClientCodex})
	if err != nil {
		t.Fatal(err)
	}
	server := func(p string) map[string]any {
		return readJSON(t, w.in(p)).(map[string]any)["mcpServers"].(map[string]any)[ServerName].(map[string]any)
	}
	g := server(SettingsFile)
	if g["command"] != "/usr/local/bin/heart-wrapper" || !covers(g["args"], mustJSON(t, userArgs)) || g["trust"] != false || g["env"] == nil {
		t.Errorf("Gemini's entry lost the user's values: %v", g)
	}
	c := server(".mcp.json")
	if c["command"] != w.MCPHeart || !covers(c["args"], mustJSON(t, userArgs)) {
		t.Errorf(".mcp.json: %v; want init's command (a bare mcp-heart is init's to update) and the user's args", c)
	}
	if b, _ := os.ReadFile(w.in(".codex/config.toml")); !strings.Contains(string(b), "heart-wrapper") || !strings.Contains(string(b), `"--lang"`) {
		t.Errorf("Codex's table lost the user's values:\n%s", b)
	}
	notes := map[string]string{}
	for _, wr := range wrote {
		notes[wr.Path] = strings.Join(wr.Notes, "\n")
	}
	for path, want := range map[string][]string{
		SettingsFile:         {"heart-wrapper", "--lang", `"trust": false`, "ask"},
		".mcp.json":          {"--lang"},
		".codex/config.toml": {"heart-wrapper", "--lang"},
	} {
		for _, s := range want {
			if !strings.Contains(notes[path], s) {
				t.Errorf("%s: the notes do not say %q: %q", path, s, notes[path])
			}
		}
	}
	// Init's own values (an old binary, the bare name) are still updated
	// in place, and a second run changes nothing more.
	again, _, err := Wire(w, []string{ClientGemini, ClientClaudeCode, ClientCodex})
	if err != nil {
		t.Fatal(err)
	}
	for _, wr := range again {
		if wr.Changed {
			t.Errorf("the second run rewrote %s", wr.Path)
		}
	}
}
