package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// testWiring is a workspace and user config folder in t.TempDir(), with
// paths that need quoting.
func testWiring(t *testing.T) Wiring {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "ai works")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The rules CLAUDE.md and AGENTS.md lead to, as Init lays them out.
	if err := os.WriteFile(filepath.Join(dir, "GEMINI.md"), []byte("# the rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return Wiring{
		Dir:           dir,
		MCPHeart:      "/opt/ai heart/mcp-heart",
		HeartHook:     "/opt/ai heart/heart-hook",
		UserConfigDir: filepath.Join(root, "config"),
	}
}

// readJSON decodes a file of the wiring into generic values.
func readJSON(t *testing.T, p string) any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", p, err, b)
	}
	return v
}

// mustJSON decodes a JSON literal of a test.
func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("test JSON: %v\n%s", err, s)
	}
	return v
}

// q is a JSON string literal.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// groups is the JSON of one heart-hook group per event, each with the
// handler JSON h and the matcher of matchers (none when absent).
func groups(events []string, matchers map[string]string, h func(event string) string) string {
	var parts []string
	for _, ev := range events {
		m := ""
		if mt, ok := matchers[ev]; ok {
			m = `"matcher": ` + q(mt) + `, `
		}
		parts = append(parts, fmt.Sprintf(`%q: [{%s"hooks": [%s]}]`, ev, m, h(ev)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// expectedFiles is what each client writes in a fresh workspace: path
// (relative to w.Dir, or absolute) -> JSON, or the exact text for .toml.
// instructionsFile is the file each client reads its instructions from,
// a link to GEMINI.md (Gemini CLI reads GEMINI.md itself).
var instructionsFile = map[string]string{ClientClaudeCode: "CLAUDE.md", ClientCodex: "AGENTS.md"}

func expectedFiles(w Wiring, client string) map[string]string {
	server := `{"command": ` + q(w.MCPHeart) + `, "args": ["--workspace", ` + q(w.Dir) + `]}`
	cmd := func(c string) string {
		return q(shQuote(w.HeartHook) + ` --client ` + c + ` --workspace ` + shQuote(w.Dir) + ` || true`)
	}
	handler := func(c string, timeout int) string {
		return fmt.Sprintf(`{"type": "command", "command": %s, "timeout": %d}`, cmd(c), timeout)
	}
	switch client {
	case ClientGemini:
		return map[string]string{
			".gemini/settings.json": `{"mcpServers": {"mcp-heart": {"command": ` + q(w.MCPHeart) + `, "args": ["--workspace", ` + q(w.Dir) + `], "trust": true}},
				"hooks": ` + groups([]string{"SessionStart", "BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "Notification", "PreCompress", "SessionEnd"},
				map[string]string{"BeforeTool": "*", "AfterTool": "*"},
				func(string) string {
					return `{"name": "heart-hook", "type": "command", "command": ` + cmd("gemini") + `, "timeout": 5000}`
				}) + `}`,
		}
	case ClientClaudeCode:
		return map[string]string{
			".mcp.json": `{"mcpServers": {"mcp-heart": ` + server + `}}`,
			".claude/settings.json": `{"enabledMcpjsonServers": ["mcp-heart"], "hooks": ` + groups(
				[]string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "StopFailure", "PermissionRequest", "PermissionDenied", "Notification", "PreCompact", "SessionEnd"},
				map[string]string{"PreToolUse": "*", "PostToolUse": "*", "PostToolUseFailure": "*", "PermissionRequest": "*", "PermissionDenied": "*"},
				func(ev string) string {
					if ev == "PermissionRequest" {
						return handler("claude-code", 86400)
					}
					return handler("claude-code", 5)
				}) + `,
				"statusLine": {"type": "command", "command": ` + q(shQuote(w.HeartHook)+` --client claude-code --statusline --workspace `+shQuote(w.Dir)) + `, "padding": 0}}`,
		}
	case ClientClaudeDesktop:
		return map[string]string{
			filepath.Join(w.UserConfigDir, "Claude", "claude_desktop_config.json"): `{"mcpServers": {"mcp-heart": ` + server + `}}`,
		}
	case ClientAgy:
		h := handler("agy", 5)
		return map[string]string{
			".agents/mcp_config.json": `{"mcpServers": {"mcp-heart": ` + server + `}}`,
			".agents/hooks.json": `{"heart-hook": {"SessionStart": [` + h + `], "PreInvocation": [` + h + `],
				"PostInvocation": [` + h + `], "Stop": [` + h + `],
				"PreToolUse": [{"matcher": "*", "hooks": [` + h + `]}], "PostToolUse": [{"matcher": "*", "hooks": [` + h + `]}]}}`,
		}
	case ClientCodex:
		return map[string]string{
			".codex/config.toml": "[mcp_servers.mcp-heart]\ncommand = '" + w.MCPHeart + "'\nargs = ['--workspace', '" + w.Dir + "']\n",
			".codex/hooks.json": `{"hooks": ` + groups(
				[]string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "PreCompact", "Stop", "SessionEnd"}, nil,
				func(ev string) string {
					if ev == "SessionEnd" {
						return handler("codex", 3)
					}
					return handler("codex", 5)
				}) + `}`,
		}
	}
	return nil
}

// abs is the absolute path of a file of expectedFiles.
func (w Wiring) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return w.in(p)
}

// TestWireFresh: in an empty workspace each client gets exactly its files,
// with exactly mcp-heart and the heart-hook hooks in them.
func TestWireFresh(t *testing.T) {
	for _, client := range ClientNames() {
		t.Run(client, func(t *testing.T) {
			w := testWiring(t)
			files := expectedFiles(w, client)
			wrote, _, err := Wire(w, []string{client})
			if err != nil {
				t.Fatalf("Wire(%s) = %v", client, err)
			}
			var got, want []string
			for _, f := range wrote {
				if !f.Changed {
					t.Errorf("Wire(%s) reports %s unchanged in a fresh workspace", client, f.Path)
				}
				if target, err := os.Readlink(w.abs(f.Path)); err == nil {
					if target != "GEMINI.md" || f.Path != instructionsFile[client] {
						t.Errorf("Wire(%s) linked %s to %s", client, f.Path, target)
					}
					continue
				}
				got = append(got, f.Path)
			}
			if name := instructionsFile[client]; name != "" && !slices.ContainsFunc(wrote, func(f Wrote) bool { return f.Path == name }) {
				t.Errorf("Wire(%s) wrote no %s", client, name)
			}
			for p := range files {
				want = append(want, p)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("Wire(%s) wrote %q, want %q", client, got, want)
			}
			for p, content := range files {
				if strings.HasSuffix(p, ".toml") {
					if b, _ := os.ReadFile(w.abs(p)); string(b) != content {
						t.Errorf("%s =\n%s\nwant\n%s", p, b, content)
					}
					continue
				}
				if got, want := readJSON(t, w.abs(p)), mustJSON(t, content); !reflect.DeepEqual(got, want) {
					gb, _ := json.MarshalIndent(got, "", " ")
					t.Errorf("%s =\n%s\nwant\n%s", p, gb, content)
				}
			}
		})
	}
}

// foreignFiles holds, per client, files as an operator may already have
// them: other servers, other hooks on the same events, other settings.
var foreignFiles = map[string]map[string]string{
	ClientGemini: {".gemini/settings.json": `{"security": {"auth": {"selectedType": "gemini-api-key"}},
		"mcpServers": {"other": {"command": "x"}},
		"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./audit.sh"}]}]},
		"hooksConfig": {"notifications": false}}`},
	ClientClaudeCode: {
		".mcp.json": `{"mcpServers": {"other": {"command": "x", "args": []}}}`,
		".claude/settings.json": `{"permissions": {"allow": ["Bash(ls)"]}, "enabledMcpjsonServers": ["other"],
			"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 10}]}]}}`,
	},
	ClientClaudeDesktop: {"@desktop": `{"globalShortcut": "Ctrl+Space", "mcpServers": {"other": {"command": "x", "env": {"K": "v"}}}}`},
	ClientAgy: {
		".agents/mcp_config.json": `{"mcpServers": {"other": {"command": "x"}}}`,
		".agents/hooks.json":      `{"linter": {"PostToolUse": [{"matcher": "run_command", "hooks": [{"command": "./lint.sh"}]}]}}`,
	},
	ClientCodex: {
		".codex/config.toml": "# mine\nmodel = \"o3\" # pinned\n\n[mcp_servers.other]\ncommand = \"x\"\n",
		".codex/hooks.json":  `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}`,
	},
}

// path resolves a foreignFiles key: "@desktop" is Claude Desktop's file.
func (w Wiring) path(key string) string {
	if key == "@desktop" {
		return filepath.Join(w.UserConfigDir, "Claude", "claude_desktop_config.json")
	}
	return w.abs(key)
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// covers reports whether got holds everything in orig: every key of an
// object, and the elements of an array in order (others may be added).
func covers(got, orig any) bool {
	switch o := orig.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range o {
			if !covers(g[k], v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok {
			return false
		}
		i := 0
		for _, e := range g {
			if i < len(o) && covers(e, o[i]) {
				i++
			}
		}
		return i == len(o)
	default:
		return reflect.DeepEqual(got, orig)
	}
}

// TestWireKeepsForeignEntries: files that exist keep every key, server
// and hook init does not own, and get init's entries once each, as a
// fresh workspace does.
func TestWireKeepsForeignEntries(t *testing.T) {
	for _, client := range ClientNames() {
		t.Run(client, func(t *testing.T) {
			w := testWiring(t)
			for key, content := range foreignFiles[client] {
				writeFile(t, w.path(key), content)
			}
			if _, _, err := Wire(w, []string{client}); err != nil {
				t.Fatalf("Wire(%s) = %v", client, err)
			}
			for key, content := range foreignFiles[client] {
				p := w.path(key)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v, want the 0600 it had", key, fi.Mode().Perm())
				}
				wantOurs, server := 0, false
				for fp, fc := range expectedFiles(w, client) {
					if w.abs(fp) == p {
						wantOurs = strings.Count(fc, "--client "+client)
						server = strings.Contains(fc, `"mcp-heart"`)
					}
				}
				if n := strings.Count(string(b), "--client "+client); n != wantOurs {
					t.Errorf("%s holds %d heart-hook entries, want %d:\n%s", key, n, wantOurs, b)
				}
				if strings.HasSuffix(key, ".toml") {
					for _, line := range strings.Split(content, "\n") {
						if !strings.Contains(string(b), line) {
							t.Errorf("%s lost the line %q:\n%s", key, line, b)
						}
					}
					if !strings.Contains(string(b), "[mcp_servers.mcp-heart]") {
						t.Errorf("%s has no mcp-heart table:\n%s", key, b)
					}
					continue
				}
				if got := readJSON(t, p); !covers(got, mustJSON(t, content)) {
					t.Errorf("%s lost foreign entries:\n%s\nhad\n%s", key, b, content)
				}
				if server && !strings.Contains(string(b), `"mcp-heart"`) {
					t.Errorf("%s does not name mcp-heart:\n%s", key, b)
				}
			}
		})
	}
}

// snapshotFiles maps every file under the roots to its content and mtime.
func snapshotFiles(t *testing.T, roots ...string) map[string]string {
	out := map[string]string{}
	for _, r := range roots {
		if _, err := os.Stat(r); err != nil {
			continue
		}
		for k, v := range testutil.Snapshot(t, r) {
			out[r+"|"+k] = v
		}
	}
	return out
}

// TestWireTwice: a second run over the first (fresh or merged) changes no
// byte and no mtime, and says so; a run with heart-hook moved updates the
// entries in place instead of adding new ones.
func TestWireTwice(t *testing.T) {
	for _, foreign := range []bool{false, true} {
		t.Run(fmt.Sprintf("foreign=%v", foreign), func(t *testing.T) {
			w := testWiring(t)
			if foreign {
				for _, c := range ClientNames() {
					for key, content := range foreignFiles[c] {
						writeFile(t, w.path(key), content)
					}
				}
			}
			first, _, err := Wire(w, ClientNames())
			if err != nil {
				t.Fatal(err)
			}
			before := snapshotFiles(t, w.Dir, w.UserConfigDir)
			second, _, err := Wire(w, ClientNames())
			if err != nil {
				t.Fatalf("second Wire() = %v", err)
			}
			if len(second) != len(first) {
				t.Errorf("second Wire() listed %v, first %v", second, first)
			}
			for _, f := range second {
				if f.Changed {
					t.Errorf("second Wire() rewrote %s", f.Path)
				}
			}
			if after := snapshotFiles(t, w.Dir, w.UserConfigDir); !reflect.DeepEqual(before, after) {
				t.Errorf("second Wire() changed files")
			}

			moved := w
			moved.HeartHook = "/usr/lib/ai-heart/heart-hook"
			moved.MCPHeart = "/usr/lib/ai-heart/mcp-heart"
			if _, _, err := Wire(moved, ClientNames()); err != nil {
				t.Fatalf("Wire() with moved binaries = %v", err)
			}
			for _, c := range ClientNames() {
				for p, content := range expectedFiles(moved, c) {
					b, _ := os.ReadFile(moved.abs(p))
					if strings.Contains(string(b), "/opt/ai heart/") {
						t.Errorf("%s still names the old binaries:\n%s", p, b)
					}
					if got, want := strings.Count(string(b), "/usr/lib/ai-heart/heart-hook"), strings.Count(content, "/usr/lib/ai-heart/heart-hook"); got != want {
						t.Errorf("%s names heart-hook %d times, want %d:\n%s", p, got, want, b)
					}
				}
			}
		})
	}
}

// TestWireRefusesBrokenFiles: a file that is not JSON (or TOML), or whose
// entries init owns have the wrong type, is an error naming it, and is
// left byte for byte.
func TestWireRefusesBrokenFiles(t *testing.T) {
	tests := []struct {
		client, key, content string
	}{
		{ClientGemini, ".gemini/settings.json", `{"mcpServers": {}, // a comment` + "\n}"},
		{ClientGemini, ".gemini/settings.json", `{"mcpServers": []}`},
		{ClientGemini, ".gemini/settings.json", `{"hooks": {"BeforeTool": {"matcher": "*"}}}`},
		{ClientGemini, ".gemini/settings.json", `["not", "an", "object"]`},
		{ClientClaudeCode, ".mcp.json", `{"mcpServers": {"mcp-heart": "nope"}}`},
		{ClientClaudeCode, ".claude/settings.json", `{"enabledMcpjsonServers": "mcp-heart"}`},
		{ClientClaudeCode, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": {}}]}}`},
		{ClientClaudeDesktop, "@desktop", `{"mcpServers": {"a": 1},}`},
		{ClientAgy, ".agents/mcp_config.json", `{`},
		{ClientAgy, ".agents/hooks.json", `{"heart-hook": []}`},
		{ClientCodex, ".codex/config.toml", "model = \n"},
		{ClientCodex, ".codex/config.toml", "mcp_servers = { other = { command = \"x\" } }\n"},
		{ClientCodex, ".codex/hooks.json", `{"hooks": {"Stop": [1, 2,]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.client+" "+tt.key+" "+tt.content, func(t *testing.T) {
			w := testWiring(t)
			p := w.path(tt.key)
			writeFile(t, p, tt.content)
			_, _, err := Wire(w, []string{tt.client})
			if err == nil {
				t.Fatalf("Wire(%s) over %s = nil, want an error", tt.client, tt.content)
			}
			if !strings.Contains(err.Error(), w.show(p)) {
				t.Errorf("Wire() = %v, want it to name %s", err, w.show(p))
			}
			if b, _ := os.ReadFile(p); string(b) != tt.content {
				t.Errorf("%s was rewritten to\n%s", tt.key, b)
			}
		})
	}
}

func TestParseClients(t *testing.T) {
	tests := []struct {
		in      []string
		want    []string
		wantErr bool
	}{
		{nil, []string{"gemini"}, false},
		{[]string{"codex"}, []string{"codex"}, false},
		{[]string{"claude-code", "gemini", "claude-code"}, []string{"claude-code", "gemini"}, false},
		{[]string{"claude"}, nil, true},
		{[]string{""}, nil, true},
		{[]string{"gemini", "Gemini"}, nil, true},
	}
	for _, tt := range tests {
		got, err := ParseClients(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("ParseClients(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && (!errors.Is(err, ErrUnknownClient) || !strings.Contains(err.Error(), strings.Join(ClientNames(), ", "))) {
			t.Errorf("ParseClients(%q) = %v, want ErrUnknownClient listing the clients", tt.in, err)
		}
	}
}

// TestWireWithoutHeartHook: with no heart-hook, each client gets mcp-heart
// and no hook at all (a hook whose program is missing blocks Gemini CLI's
// agent); the hook files are not even created.
func TestWireWithoutHeartHook(t *testing.T) {
	for _, client := range ClientNames() {
		t.Run(client, func(t *testing.T) {
			w := testWiring(t)
			w.HeartHook = ""
			wrote, _, err := Wire(w, []string{client})
			if err != nil {
				t.Fatalf("Wire(%s) = %v", client, err)
			}
			var got []string
			for _, f := range wrote {
				if f.Path == instructionsFile[client] {
					continue
				}
				got = append(got, f.Path)
				b, err := os.ReadFile(w.abs(f.Path))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), "--client") || strings.Contains(string(b), `"hooks"`) {
					t.Errorf("%s wires hooks without heart-hook:\n%s", f.Path, b)
				}
				if !strings.Contains(string(b), "mcp-heart") {
					t.Errorf("%s does not register mcp-heart:\n%s", f.Path, b)
				}
			}
			for p := range expectedFiles(w, client) {
				if strings.Contains(p, "hooks.json") && slices.Contains(got, p) {
					t.Errorf("Wire(%s) wrote %s without heart-hook", client, p)
				}
			}
		})
	}
}

// TestWireThroughSymlink: a client file that is a link (to a dotfiles
// repository, say) is merged into its target and stays a link.
func TestWireThroughSymlink(t *testing.T) {
	w := testWiring(t)
	target := filepath.Join(t.TempDir(), "dotfiles", "claude_desktop_config.json")
	writeFile(t, target, `{"globalShortcut": "Ctrl+Space"}`)
	link := w.path("@desktop")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if _, _, err := Wire(w, []string{ClientClaudeDesktop}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a link (err %v)", link, err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"mcp-heart"`) || !strings.Contains(string(b), "Ctrl+Space") {
		t.Errorf("the link's target was not merged into:\n%s", b)
	}
}

// TestWireAsks: with the watchdog's asks socket, the hooks of a client
// that can answer a permission request (Claude Code) name it; the others'
// do not, since they would hold for nothing.
func TestWireAsks(t *testing.T) {
	for _, c := range []struct {
		client, file string
		asks         bool
	}{{ClientClaudeCode, ".claude/settings.json", true}, {ClientGemini, ".gemini/settings.json", false}, {ClientCodex, ".codex/hooks.json", false}} {
		t.Run(c.client, func(t *testing.T) {
			w := testWiring(t)
			w.Asks = "/home/a b/.local/state/ai-heart/luna-12345678/asks.sock"
			if _, _, err := Wire(w, []string{c.client}); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(w.abs(c.file))
			want := q(` --asks ` + shQuote(w.Asks) + ` || true`)
			if got := strings.Contains(string(b), want[1:len(want)-1]); got != c.asks {
				t.Fatalf("%s names the asks socket: %v, want %v:\n%s", c.file, got, c.asks, b)
			}
		})
	}
}
