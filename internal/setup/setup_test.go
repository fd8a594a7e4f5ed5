package setup

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	aiheart "github.com/ai-heart/ai-heart"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// settings is the shape of .gemini/settings.json.
type settings struct {
	MCPServers map[string]struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Trust   bool     `json:"trust"`
	} `json:"mcpServers"`
}

func notFound(string) (string, error) { return "", errors.New("not found") }

// fakeBinary makes an executable file named name in a new folder.
func fakeBinary(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/false\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInitLaysOutWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	bin := fakeBinary(t, "mcp-heart")
	res, err := Init(dir, Options{MCPHeart: bin})
	if err != nil {
		t.Fatalf("Init() = %v", err)
	}
	if len(res.Kept) != 0 {
		t.Errorf("Kept = %v, want none on a fresh folder", res.Kept)
	}
	for _, d := range workspace.Skeleton {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || !fi.IsDir() {
			t.Errorf("folder %s missing: %v", d, err)
		}
	}
	want, _ := fs.ReadFile(aiheart.FS(), aiheart.AgentRules)
	got, err := os.ReadFile(filepath.Join(dir, "GEMINI.md"))
	if err != nil || string(got) != string(want) {
		t.Errorf("GEMINI.md differs from the embedded one (err %v)", err)
	}
	docs, _ := fs.Glob(aiheart.FS(), "ai-docs/*.md")
	for _, d := range docs {
		if _, err := os.Stat(filepath.Join(dir, d)); err != nil {
			t.Errorf("doc %s missing: %v", d, err)
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.Name() == aiheart.PlaceholderName || strings.HasPrefix(d.Name(), ".create-")) {
			t.Errorf("%s copied into the workspace", p)
		}
		return nil
	})

	b, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s settings
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("settings.json: %v\n%s", err, b)
	}
	srv, ok := s.MCPServers["mcp-heart"]
	abs, _ := filepath.Abs(dir)
	switch {
	case !ok:
		t.Fatalf("settings.json has no mcp-heart server:\n%s", b)
	case srv.Command != bin:
		t.Errorf("command = %q, want %q", srv.Command, bin)
	case !slices.Equal(srv.Args, []string{"--workspace", abs}):
		t.Errorf("args = %q, want [--workspace %s]", srv.Args, abs)
	case !srv.Trust:
		t.Errorf("trust = false, want true (headless gemini -p denies tools needing approval)")
	}
}

func TestInitTwiceChangesNothing(t *testing.T) {
	dir := t.TempDir()
	opt := Options{MCPHeart: fakeBinary(t, "mcp-heart")}
	first, err := Init(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	before := testutil.Snapshot(t, dir)
	second, err := Init(dir, opt)
	if err != nil {
		t.Fatalf("second Init() = %v", err)
	}
	if len(second.Created) != 0 {
		t.Errorf("second Init created %v, want nothing", second.Created)
	}
	var files []string
	for _, c := range first.Created {
		if !strings.HasSuffix(c, "/") {
			files = append(files, c)
		}
	}
	slices.Sort(files)
	kept := slices.Sorted(slices.Values(second.Kept))
	if !slices.Equal(kept, files) {
		t.Errorf("second Init kept %v, want every file of the first run %v", kept, files)
	}
	if after := testutil.Snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("second Init changed the workspace")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestInitKeepsExistingFiles(t *testing.T) {
	tests := []struct {
		name, rel, content string
	}{
		{"own rules", "GEMINI.md", "# my own rules\n"},
		{"own doc", "ai-docs/deep-work.md", "edited\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, filepath.FromSlash(tt.rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			res, err := Init(dir, Options{LookPath: notFound, Executable: func() (string, error) { return "", errors.New("no") }})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(res.Kept, tt.rel) {
				t.Errorf("Kept = %v, want it to hold %s", res.Kept, tt.rel)
			}
			b, _ := os.ReadFile(p)
			fi, _ := os.Stat(p)
			if string(b) != tt.content || !fi.ModTime().Equal(old) || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s was touched: %q %v %v", tt.rel, b, fi.ModTime(), fi.Mode())
			}
		})
	}
}

func TestInitRefusesFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(p, Options{}); err == nil {
		t.Fatalf("Init(a file) = nil, want an error")
	}
}

func TestFindMCPHeart(t *testing.T) {
	exeDir := t.TempDir()
	watchdog := filepath.Join(exeDir, "watchdog")
	if err := os.WriteFile(watchdog, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	besideDir := t.TempDir()
	beside := filepath.Join(besideDir, "mcp-heart")
	for _, p := range []string{filepath.Join(besideDir, "watchdog"), beside} {
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	onPath := fakeBinary(t, "mcp-heart")
	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	path := func(string) (string, error) { return onPath, nil }
	tests := []struct {
		name       string
		explicit   string
		executable func() (string, error)
		lookPath   func(string) (string, error)
		want       MCPHeart
	}{
		{"explicit wins", onPath, exe(filepath.Join(besideDir, "watchdog")), path, MCPHeart{onPath, "--mcp-heart", true}},
		{"explicit missing", filepath.Join(exeDir, "nope"), exe(watchdog), path, MCPHeart{filepath.Join(exeDir, "nope"), "--mcp-heart", false}},
		{"next to watchdog", "", exe(filepath.Join(besideDir, "watchdog")), path, MCPHeart{beside, "next to watchdog", true}},
		{"on PATH", "", exe(watchdog), path, MCPHeart{onPath, "PATH", true}},
		{"nowhere", "", exe(watchdog), notFound, MCPHeart{"mcp-heart", "", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FindMCPHeart(tt.explicit, tt.executable, tt.lookPath); got != tt.want {
				t.Errorf("FindMCPHeart() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestInitLanguage: the workspace gets GEMINI.md and every ai-docs/ file in
// the chosen language, under the same names, and the language recorded.
func TestInitLanguage(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ai-works")
			res, err := Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), Language: l})
			if err != nil {
				t.Fatal(err)
			}
			names, _ := fs.Glob(aiheart.FS(), aiheart.DocsDir+"/*.md")
			for _, n := range append([]string{aiheart.AgentRules}, names...) {
				want, err := fs.ReadFile(aiheart.FS(), aiheart.Doc(l, n))
				if err != nil {
					t.Fatalf("no %s doc %s: %v", l, n, err)
				}
				got, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil || string(got) != string(want) {
					t.Errorf("Init(%s): %s is not the embedded %s (err %v)", l, n, aiheart.Doc(l, n), err)
				}
				if ja := strings.ContainsRune(string(got), 'の'); ja != (l == lang.Japanese) {
					t.Errorf("Init(%s): %s reads Japanese = %v", l, n, ja)
				}
			}
			if got, _ := fs.Glob(os.DirFS(dir), "ai-docs/*"); len(got) != len(names) {
				t.Errorf("Init(%s) wrote ai-docs %v, want the %d names of the English docs", l, got, len(names))
			}
			// The language is recorded in the workspace: the config needs no
			// second setting.
			if got := workspace.RecordedLanguage(dir); got != l {
				t.Errorf("Init(%s) recorded language %q", l, got)
			}
			if strings.Contains(NextSteps(res, ""), "language:") {
				t.Errorf("NextSteps for %s asks for a second language setting", l)
			}
		})
	}
}
