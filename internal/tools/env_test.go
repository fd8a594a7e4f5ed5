package tools

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// testID is the current heartbeat ID of every test workspace; testTheme is
// the theme that exists in it.
const (
	testID        = workspace.ID("20250102030405")
	testThemeID   = "20250101000000"
	testThemePart = "research"
	testThemeHist = "artifacts/20250101000000_research/histories"
)

// env is a real workspace in a temp folder with a fake clock.
type env struct {
	t   *testing.T
	ws  *workspace.Workspace
	tl  *Tools
	clk *clock.Fake
}

// newEnv lays out a workspace with the current ID and one theme; the clock
// reads 10 s after the ID was minted.
func newEnv(t *testing.T) *env {
	t.Helper()
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteCurrentID(testID); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ws.Path(testThemeHist), 0o755); err != nil {
		t.Fatal(err)
	}
	idt, _ := testID.Time(time.UTC)
	clk := clock.NewFake(idt.Add(10 * time.Second))
	tl := &Tools{WS: ws, Thresholds: config.Defaults().Thresholds, Clock: clk, Log: zerolog.Nop()}
	return &env{t: t, ws: ws, tl: tl, clk: clk}
}

// now is the fake clock's time.
func (e *env) now() time.Time { return e.clk.Now() }

// write puts a file into the workspace with the given modification time.
func (e *env) write(rel, content string, mtime time.Time) {
	e.t.Helper()
	p := e.ws.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		e.t.Fatal(err)
	}
}

// read returns a workspace file's content.
func (e *env) read(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.ws.Path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// exists reports whether a workspace file exists.
func (e *env) exists(rel string) bool {
	_, err := os.Lstat(e.ws.Path(rel))
	return err == nil
}

// snapshot maps every file and folder of the workspace to its content, to
// prove a bad call wrote nothing. Lock files are left out: taking a lock is
// not a write of content.
func (e *env) snapshot() map[string]string {
	e.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(e.ws.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(e.ws.Root, p)
		if strings.HasSuffix(rel, ".lock") {
			return nil
		}
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// sameSnapshot fails the test when the workspace changed.
func (e *env) sameSnapshot(before map[string]string) {
	e.t.Helper()
	after := e.snapshot()
	var diff []string
	for k, v := range after {
		if w, ok := before[k]; !ok || w != v {
			diff = append(diff, "+"+k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			diff = append(diff, "-"+k)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		e.t.Errorf("a bad call changed the workspace: %v", diff)
	}
}

// args decodes JSON the way the MCP transport does.
func args(t *testing.T, s string) map[string]any {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return a
}

// wantInputError checks err is an InputError naming field and containing
// every word in want.
func wantInputError(t *testing.T, err error, field string, want ...string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want an InputError on %q", err, field)
	}
	if ie.Field != field {
		t.Errorf("InputError field = %q, want %q (%v)", ie.Field, field, ie)
	}
	if ie.Fix.empty() {
		t.Errorf("InputError %v has no fix", ie)
	}
	// The same error reaches a Japanese agent in Japanese, naming the same
	// field.
	ja := ie.In(lang.Japanese)
	if !japanese(ja) || (field != "" && !strings.HasPrefix(ja, field+": ")) {
		t.Errorf("InputError in Japanese = %q, want Japanese words after %q", ja, field+": ")
	}
	// Tests pass the values agents do, English ones among them.
	testutil.CheckJapanese(t, "InputError in Japanese", ja, "quota exceeded", "some tool", "reading notes", "Creation", "thinking hard")
	for _, w := range want {
		if !strings.Contains(ie.Error(), w) {
			t.Errorf("InputError %q does not mention %q", ie.Error(), w)
		}
	}
}
