package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	mkdir(t, w.Path("artifacts/inner"))
	mkdir(t, w.Path("projects"))
	symlink(t, outside, w.Path("artifacts/out"))
	symlink(t, w.Path("projects"), w.Path("artifacts/in"))
	symlink(t, "../projects", w.Path("artifacts/relin"))
	symlink(t, "../../..", w.Path("artifacts/inner/up"))
	symlink(t, filepath.Join(outside, "nowhere"), w.Path("artifacts/dangling"))

	tests := []struct {
		name string
		rel  string
		want string // workspace-relative result; "" = refused
	}{
		{"plain", "artifacts/inner/x.md", "artifacts/inner/x.md"},
		{"root", ".", "."},
		{"not yet existing deep", "artifacts/new/a/b/c.md", "artifacts/new/a/b/c.md"},
		{"dot segments", "artifacts/./inner/x.md", "artifacts/inner/x.md"},
		{"backslash inside", `artifacts\inner\x.md`, "artifacts/inner/x.md"},
		{"symlink inside workspace", "artifacts/in/x.md", "projects/x.md"},
		{"relative symlink inside workspace", "artifacts/relin/a/b.md", "projects/a/b.md"},
		{"empty", "", ""},
		{"absolute", "/etc/passwd", ""},
		{"absolute backslash", `\etc\passwd`, ""},
		{"dot dot", "..", ""},
		{"dot dot prefix", "../x", ""},
		{"dot dot middle", "artifacts/../../x", ""},
		{"dot dot backslash", `artifacts\..\..\x`, ""},
		{"dot dot harmless", "artifacts/../stats/x", ""},
		{"NUL", "artifacts/a\x00b", ""},
		{"symlink outside", "artifacts/out", ""},
		{"through symlink outside", "artifacts/out/x.md", ""},
		{"deep not existing under symlink outside", "artifacts/out/a/b/c/d.md", ""},
		{"symlink climbing out", "artifacts/inner/up/x", ""},
		{"dangling symlink outside", "artifacts/dangling/x.md", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := w.Resolve(tt.rel)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, nil, want an error", tt.rel, got)
				}
				return
			}
			if err != nil || got != w.Path(tt.want) {
				t.Fatalf("Resolve(%q) = %q, %v, want %q", tt.rel, got, err, w.Path(tt.want))
			}
		})
	}
}

func TestResolveOutsideIsErrOutside(t *testing.T) {
	w := newWS(t)
	symlink(t, t.TempDir(), w.Path("out"))
	for _, rel := range []string{"/abs", "../x", "a\x00", "out/x", ""} {
		t.Run(rel, func(t *testing.T) {
			if _, err := w.Resolve(rel); !errors.Is(err, ErrOutside) {
				t.Fatalf("Resolve(%q) error = %v, want ErrOutside", rel, err)
			}
		})
	}
	// Through a symlink, the error says where the path really leads, so a
	// reply can say it in the agent's words instead of quoting this one.
	_, err := w.Resolve("out/x")
	var oe *OutsideError
	if !errors.As(err, &oe) || oe.Rel != "out/x" || !filepath.IsAbs(oe.Target) {
		t.Fatalf("Resolve(out/x) error = %#v, want an OutsideError naming the target", err)
	}
}

func TestResolveSymlinkedRoot(t *testing.T) {
	real := newWS(t)
	mkdir(t, real.Path("artifacts"))
	link := filepath.Join(t.TempDir(), "ws")
	symlink(t, real.Root, link)
	w, err := New(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Resolve("artifacts/x.md")
	if want := real.Path("artifacts/x.md"); err != nil || got != want {
		t.Fatalf("Resolve(%q) via symlinked root = %q, %v, want %q", "artifacts/x.md", got, err, want)
	}
	if err := w.WriteFile("artifacts/y.md", []byte("y")); err != nil {
		t.Fatalf("WriteFile via symlinked root = %v", err)
	}
	if b, err := os.ReadFile(real.Path("artifacts/y.md")); err != nil || string(b) != "y" {
		t.Fatalf("read back = %q, %v, want y", b, err)
	}
}
