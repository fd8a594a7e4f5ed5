package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestWriteUserService: the user unit runs the given watchdog on a config
// that names the workspace; systemd-analyze finds nothing wrong with it; a
// second run keeps both files as they are.
func TestWriteUserService(t *testing.T) {
	home := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "my works")
	res := Result{Dir: dir, Language: "ja", Clients: []string{ClientClaudeCode}}
	// Init recorded the language in the workspace: the config needs none.
	rec := filepath.Join(dir, filepath.FromSlash(workspace.LanguageFile))
	if err := os.MkdirAll(filepath.Dir(rec), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, []byte("ja\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	us, err := WriteUserService(home, self, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(us.Created) != 2 || len(us.Kept) != 0 {
		t.Fatalf("first run: created %v kept %v, want both created", us.Created, us.Kept)
	}
	c, err := config.Load(us.Config)
	if err != nil {
		t.Fatalf("the written config does not load: %v", err)
	}
	if c.Workspace != dir || c.Language != "ja" {
		t.Errorf("config workspace %q language %q, want %q and ja", c.Workspace, c.Language, dir)
	}
	if c.Agent.Delivery != config.DeliveryExec || c.Agent.Output != config.OutputStreamJSON || c.Agent.Command[0] != "claude" {
		t.Errorf("config agent %+v, want headless Claude Code read as stream-json", c.Agent)
	}
	unit, err := os.ReadFile(us.Unit)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ExecStart=" + quoteArg(self) + " run -c " + quoteArg(us.Config) + "\n"; !strings.Contains(string(unit), want) {
		t.Errorf("unit has no %q:\n%s", want, unit)
	}
	if _, err := exec.LookPath("systemd-analyze"); err == nil {
		out, err := exec.Command("systemd-analyze", "verify", "--man=no", us.Unit).CombinedOutput()
		if err != nil || strings.Contains(string(out), UserUnitName) {
			t.Errorf("systemd-analyze verify %s: %v\n%s", us.Unit, err, out)
		}
	}
	os.WriteFile(us.Config, []byte("workspace: /elsewhere\n"), 0o644)
	again, err := WriteUserService(home, self, res)
	if err != nil || len(again.Kept) != 2 || len(again.Created) != 0 {
		t.Fatalf("second run: %+v, %v; want both kept", again, err)
	}
	if b, _ := os.ReadFile(us.Config); string(b) != "workspace: /elsewhere\n" {
		t.Errorf("the second run overwrote the config: %q", b)
	}
}

func TestQuoteArg(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/watchdog":    "/usr/bin/watchdog",
		"/home/a b/watchdog":   `"/home/a b/watchdog"`,
		"/home/50%/w":          `"/home/50%%/w"`,
		"/home/$USER/watchdog": `"/home/$$USER/watchdog"`,
	} {
		if got := quoteArg(in); got != want {
			t.Errorf("quoteArg(%q) = %s, want %s", in, got, want)
		}
	}
}
