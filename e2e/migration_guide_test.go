package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestMigrationGuide follows docs/migrating-from-ai-heartbeat.md on a copy
// of a workspace as the old system leaves it: migrate, init, then the
// guide's own watchdog.yaml (only workspace changed) with `watchdog check`.
func TestMigrationGuide(t *testing.T) {
	guide, err := os.ReadFile("../docs/migrating-from-ai-heartbeat.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) != 1 {
		t.Fatalf("the guide has %d yaml blocks, want the one config", len(blocks))
	}
	dir := filepath.Join(t.TempDir(), "ai-works")
	testutil.CopyTree(t, "../internal/migrate/testdata/legacy", dir)
	run := func(args ...string) (string, int) {
		out, err := exec.Command(filepath.Join(binDir, "watchdog"), args...).CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := run("migrate", dir); code != 0 {
		t.Fatalf("watchdog migrate = %d\n%s", code, out)
	}
	oldRules, _ := os.ReadFile(filepath.Join(dir, "GEMINI.md"))
	if out, code := run("init", "--lang", "ja", dir); code != 0 || !strings.Contains(out, "kept") {
		t.Fatalf("watchdog init on the old workspace = %d\n%s", code, out)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "GEMINI.md")); string(now) != string(oldRules) {
		t.Fatal("init overwrote the old GEMINI.md; the guide says it keeps existing files")
	}
	// What the guide says migrate does, and does not touch.
	for _, p := range []string{"stats/deep_work", "stats/extended_processing.migrated", "artifacts/20250720090000_ai_music/histories/20250720094500.md", "themebox/processed.001_ai_music.md", ".gemini/settings.json"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("after the guide's steps %s is missing: %v", p, err)
		}
	}
	cfgYAML := regexp.MustCompile(`(?m)^workspace: .*$`).ReplaceAllString(blocks[0][1], "workspace: "+dir)
	if c, err := config.Parse([]byte(cfgYAML)); err != nil || c.Language != lang.Japanese {
		t.Fatalf("the guide's watchdog.yaml does not load with language ja: %v", err)
	}
	// The docs init added (the old workspace had no ai-docs/) are Japanese.
	if b, err := os.ReadFile(filepath.Join(dir, "ai-docs", "deep-work.md")); err != nil || !strings.Contains(string(b), "深い作業") {
		t.Errorf("init --lang ja did not add the Japanese ai-docs (err %v)", err)
	}
	cfg := filepath.Join(t.TempDir(), "watchdog.yaml")
	if err := os.WriteFile(cfg, []byte(cfgYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := run("check", "-c", cfg)
	if code > 2 || !strings.Contains(out, "inactivity") {
		t.Fatalf("watchdog check with the guide's config = %d\n%s", code, out)
	}
}
