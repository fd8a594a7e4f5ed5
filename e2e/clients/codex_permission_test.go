package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Why Codex's questions are not offered afar: interactive Codex 0.169 runs
// its PermissionRequest hook before it draws its own approval, and waits
// for it. A hook that holds 8 s (then allows) keeps the approval off the
// screen for those 8 s, so the person at the terminal could not answer
// while a watchdog held; the hook's allow (Claude Code's format) runs the
// escalated call.
func TestCodexPermissionHookHidesItsApproval(t *testing.T) {
	w := newHookedWorld(t, "codex")
	marks := filepath.Join(t.TempDir(), "hook.marks")
	outside := filepath.Join(w.home, "outside.txt")
	hook := fmt.Sprintf(`sh -c 'cat >/dev/null; echo start >> %s; sleep 8; echo end >> %s; echo "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}"'`, marks, marks)
	hooksFile := filepath.Join(w.ws, ".codex", "hooks.json")
	b, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	// init's PermissionRequest entry runs the probe instead of heart-hook.
	s := string(b)
	at := strings.Index(s, `"PermissionRequest"`)
	from := at + strings.Index(s[at:], `"command": "`) + len(`"command": "`)
	to := from + strings.Index(s[from:], `",`)
	s = s[:from] + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(hook) + strings.Replace(s[to:], `"timeout": 5`, `"timeout": 60`, 1)
	if err := os.WriteFile(hooksFile, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := &script{Final: "ran it", Calls: []call{{Builtin: "exec_command", Args: map[string]any{"cmd": "touch " + outside,
		"sandbox_permissions": "require_escalated", "justification": "Touch a file outside the workspace?"}}}}
	codex, codexHome := w.codexSignIn(sc, codexModel)
	cfg := filepath.Join(codexHome, "config.toml")
	c, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append([]byte("approval_policy = \"on-request\"\n"), c...), 0o600)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	t.Cleanup(func() { testutil.StopCodexDaemon(codex, codexHome, w.env) })
	sock, pane := w.startInTmux(codex, "CODEX_HOME="+codexHome, "OPENAI_API_KEY=standin")
	w.waitFor("Codex's input box, its hooks trusted", 60*time.Second, func() bool {
		testutil.AnswerCodexHookReview(sock)
		b, _ := os.ReadFile(cfg)
		p := pane()
		return strings.Count(string(b), "trusted_hash") >= codexHookCount && !strings.Contains(p, "Hooks need review") && strings.Contains(p, "Ask Codex to do anything")
	})
	exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "-l", "please run it").Run()
	w.waitFor("the prompt typed", 10*time.Second, func() bool { return strings.Contains(pane(), "please run it") })
	exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").Run()
	held := func() string { b, _ := os.ReadFile(marks); return string(b) }
	w.waitFor("the hook holding", 60*time.Second, func() bool { return held() == "start\n" })
	for held() == "start\n" { // while the hook holds, Codex shows no approval of its own
		if p := pane(); strings.Contains(p, "Would you like") || strings.Contains(p, "Yes, proceed") || strings.Contains(p, "Approve") {
			t.Fatalf("Codex now shows its approval while the hook holds (offering its questions afar can be reconsidered):\n%s", p)
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.waitFor("the call the hook allowed run", 30*time.Second, func() bool { _, err := os.Stat(outside); return err == nil })
	t.Logf("Codex 0.169 held its approval until the hook's allow:\n%s", pane())
}
