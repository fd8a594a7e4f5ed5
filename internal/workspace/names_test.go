package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckPart(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" = refused
	}{
		{"plain", "my-theme", "my-theme"},
		{"japanese", "日本語のテーマ", "日本語のテーマ"},
		{"inner space", "two words", "two words"},
		{"spaces trimmed", "  padded\t", "padded"},
		{"ideographic space trimmed", "\u3000テーマ\u3000", "テーマ"},
		{"inner dot", "v1.2", "v1.2"},
		{"underscore and dash", "a_b-c", "a_b-c"},
		{"empty", "", ""},
		{"only spaces", "   ", ""},
		{"slash", "a/b", ""},
		{"backslash", `a\b`, ""},
		{"dot dot", "..", ""},
		{"dot", ".", ""},
		{"dot dot slash", "../x", ""},
		{"dot dot backslash", `..\x`, ""},
		{"inner dot dot", "a..b", ""},
		{"leading dot", ".hidden", ""},
		{"trailing dot", "name.", ""},
		{"trailing dot before space", "name. ", ""},
		{"NUL", "a\x00b", ""},
		{"newline", "a\nb", ""},
		{"carriage return", "a\rb", ""},
		{"tab inside", "a\tb", ""},
		{"escape", "a\x1bb", ""},
		{"DEL", "a\x7fb", ""},
		{"right-to-left override", "evil\u202etxt", ""},
		{"left-to-right isolate", "a\u2066b", ""},
		{"windows device con", "con", ""},
		{"windows device with extension", "Aux.md", ""},
		{"windows device com1", "COM1", ""},
		{"windows device lpt9", "lpt9", ""},
		{"not a device: console", "console", "console"},
		{"not a device: com10", "com10", "com10"},
		{"C1 control", "a\u0085b", ""},
		{"colon", "a:b", ""},
		{"star", "a*b", ""},
		{"question", "a?b", ""},
		{"quote", `a"b`, ""},
		{"less than", "a<b", ""},
		{"greater than", "a>b", ""},
		{"pipe", "a|b", ""},
		{"invalid utf-8", "a\xffb", ""},
		{"100 bytes", strings.Repeat("a", MaxPartLen), strings.Repeat("a", MaxPartLen)},
		{"101 bytes", strings.Repeat("a", MaxPartLen+1), ""},
		{"99 bytes japanese", strings.Repeat("あ", 33), strings.Repeat("あ", 33)},
		{"102 bytes japanese", strings.Repeat("あ", 34), ""},
		{"100 bytes after trim", " " + strings.Repeat("a", MaxPartLen) + " ", strings.Repeat("a", MaxPartLen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckPart(tt.in)
			if tt.want == "" {
				if !errors.Is(err, ErrBadName) || got != "" {
					t.Fatalf("CheckPart(%q) = %q, %v, want ErrBadName", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("CheckPart(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello", "hello"},
		{"japanese", "日本語", "日本語"},
		{"LF", "a\nb", "a b"},
		{"CRLF", "a\r\nb", "a  b"},
		{"CR", "a\rb", "a b"},
		{"line separator", "a\u2028b", "a b"},
		{"paragraph separator", "a\u2029b", "a b"},
		{"NEL", "a\u0085b", "a b"},
		{"tab", "a\tb", "a b"},
		{"NUL", "a\x00b", "a b"},
		{"escape", "a\x1b[31mb", "a [31mb"},
		{"DEL", "a\x7fb", "a b"},
		{"forged key", "x\nmode: strict", "x mode: strict"},
		{"outer newlines trimmed", "\n\nx\n", "x"},
		{"only control", "\n\r\t", ""},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OneLine(tt.in); got != tt.want {
				t.Fatalf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// newWS makes a workspace in a temp folder whose root path has no symlinks.
func newWS(t testing.TB) *Workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func mkdir(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestNewRelative(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	w, err := New("ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(w.Root) || w.Loc == nil {
		t.Fatalf("New(%q) = {%q, %v}, want an absolute root and Local", "ws", w.Root, w.Loc)
	}
	if got := w.Rel(w.Path("artifacts/a", "histories")); got != "artifacts/a/histories" {
		t.Fatalf("Rel(Path(...)) = %q, want artifacts/a/histories", got)
	}
}

func TestThemeDir(t *testing.T) {
	parent := Theme{StartID: "20250101120000", Part: "main"}
	sub := Theme{StartID: "20250102120000", Part: "sub", Parent: &parent}
	subsub := Theme{StartID: "20250103120000", Part: "leaf", Parent: &sub}
	tests := []struct {
		name string
		th   Theme
		want string
	}{
		{"top", parent, "artifacts/20250101120000_main"},
		{"sub", sub, "artifacts/20250101120000_main/subthemes/20250102120000_sub"},
		{"subsub", subsub, "artifacts/20250101120000_main/subthemes/20250102120000_sub/subthemes/20250103120000_leaf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.th.Dir(); got != tt.want {
				t.Fatalf("Dir() = %q, want %q", got, tt.want)
			}
			if got := tt.th.HistoriesDir(); got != tt.want+"/histories" {
				t.Fatalf("HistoriesDir() = %q, want %q", got, tt.want+"/histories")
			}
		})
	}
}

func TestCurrentID(t *testing.T) {
	w := newWS(t)
	if _, err := w.ReadCurrentID(); !errors.Is(err, ErrNoCurrentID) {
		t.Fatalf("ReadCurrentID() on empty workspace error = %v, want ErrNoCurrentID", err)
	}
	if err := w.WriteCurrentID("20250101120000"); err != nil {
		t.Fatal(err)
	}
	if id, err := w.ReadCurrentID(); err != nil || id != "20250101120000" {
		t.Fatalf("ReadCurrentID() = %q, %v, want 20250101120000", id, err)
	}
	for name, body := range map[string]string{"garbage": "hello\n", "13 digits": "2025010112000\n", "empty": ""} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(w.Path(CurrentIDFile), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if id, err := w.ReadCurrentID(); !errors.Is(err, ErrNoCurrentID) {
				t.Fatalf("ReadCurrentID() with %q = %q, %v, want ErrNoCurrentID", body, id, err)
			}
		})
	}
}

func TestEnsureSkeleton(t *testing.T) {
	w := newWS(t)
	for i := 0; i < 2; i++ {
		if err := w.EnsureSkeleton(); err != nil {
			t.Fatalf("EnsureSkeleton() #%d = %v", i, err)
		}
	}
	for _, d := range Skeleton {
		if fi, err := os.Stat(w.Path(d)); err != nil || !fi.IsDir() {
			t.Fatalf("after EnsureSkeleton, %s: %v", d, err)
		}
	}
}

// TestCheckPartSaysWhatIsWrong: the reason is the one an agent can act on
// ("../cache" is a path, not a name that starts with a dot).
func TestCheckPartSaysWhatIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		"../cache": "path separator",
		`..\cache`: "path separator",
		"a..b":     "contains ..",
		"..":       "cannot be a name", // "\"..\" contains .." says it of itself
		".hidden":  "starts with a dot",
		"name.":    "ends with a dot",
	} {
		_, err := CheckPart(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckPart(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}
