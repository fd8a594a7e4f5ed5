package setup

import (
	"context"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/config"
)

// withHelp makes every client's --help print help for the test.
func withHelp(t *testing.T, help string) {
	t.Helper()
	old := clientHelp
	clientHelp = func(string) string { return help }
	helps = sync.Map{}
	t.Cleanup(func() { clientHelp, helps = old, sync.Map{} })
}

// init's headless Claude Code command turns a would-be prompt into a
// denial (--permission-prompts none) only where the installed client's
// --help names the flag: 2.1.197 would refuse an unknown option.
func TestHeadlessOptionalFlags(t *testing.T) {
	for _, tc := range []struct {
		name, help string
		want       bool
	}{
		{"2.1.337", "  --permission-mode <mode>   ...\n  --permission-prompts <target>         Who answers permission prompts with\n", true},
		{"2.1.197", "  --permission-mode <mode>   Permission mode to use for the session\n", false},
		{"a longer flag of the same start", "  --permission-prompts-file <x>\n", false},
		{"not installed", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withHelp(t, tc.help)
			c, err := config.Parse([]byte(WatchdogConfig(Result{Dir: t.TempDir(), Clients: []string{claudecode.Name}})))
			if err != nil {
				t.Fatal(err)
			}
			i := slices.Index(c.Agent.Command, "--permission-prompts")
			if got := i > 0 && i+1 < len(c.Agent.Command) && c.Agent.Command[i+1] == "none"; got != tc.want {
				t.Fatalf("command %q: --permission-prompts none %v, want %v", c.Agent.Command, got, tc.want)
			}
		})
	}
}

// The installed Claude Code's --help names --permission-prompts from
// 2.1.259 on (2.1.197: not; 2.1.337: yes).
func TestRealPermissionPromptsFlag(t *testing.T) {
	bin := clientBin(t, "claude")
	out, err := exec.CommandContext(context.Background(), bin, "--version").Output()
	if err != nil {
		t.Skipf("claude --version: %v", err)
	}
	m := regexp.MustCompile(`2\.1\.(\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Skipf("version %q is not a 2.1", out)
	}
	patch := 0
	for _, c := range m[1] {
		patch = patch*10 + int(c-'0')
	}
	helps = sync.Map{}
	t.Cleanup(func() { helps = sync.Map{} })
	h := headless{"Claude Code", claudecode.Adapter{}.Exec()}
	h.Command = append([]string{bin}, h.Command[1:]...)
	got := strings.Contains(strings.Join(h.command(), " "), "--permission-prompts none")
	if want := patch >= 259; got != want {
		t.Fatalf("claude %s: --permission-prompts none added %v, want %v", strings.TrimSpace(string(out)), got, want)
	}
	t.Logf("claude %s: --permission-prompts none added: %v", strings.TrimSpace(string(out)), got)
}
