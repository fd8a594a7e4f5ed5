package clients

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// progressOf reads the state file's no_progress level and the counts of
// answered wakeups with and without a change.
func (w *world) progressOf() (level string, changed, unchanged int) {
	b, _ := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	var st struct {
		Checks   map[string]struct{ Level string } `json:"checks"`
		Counters struct {
			Changed   int `json:"work_changed"`
			Unchanged int `json:"work_unchanged"`
		} `json:"counters"`
	}
	json.Unmarshal(b, &st)
	return st.Checks["no_progress"].Level, st.Counters.Changed, st.Counters.Unchanged
}

// The agent judged by its work, with the real clients headless against
// the stand-ins (progress.after 2, the repository it works on watched):
// answers of text alone, and activity logs claiming work while the
// repository never changes, each raise no_progress within three wakeups;
// an agent that commits at each wakeup never does.
func TestNoProgressRealClients(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	type run func(w *world, s *script)
	clients := map[string]struct {
		name, shell string
		exec        run
	}{
		"claude-code": {"claude-code", "Bash", func(w *world, s *script) { w.claudeExec(s, []string{"--allowedTools=Bash"}) }},
		"gemini":      {"gemini", "run_shell_command", func(w *world, s *script) { w.geminiExec(s, []string{"--yolo"}) }},
	}
	for cname, c := range clients {
		for _, kind := range []string{"text", "logs", "commits"} {
			t.Run(cname+"/"+kind, func(t *testing.T) {
				t.Parallel() // waits on its schedule; the timing tests run alone
				w := newWorld(t, c.name)
				repo := t.TempDir()
				for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "start"}} {
					if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
				w.more += fmt.Sprintf("progress: {after: 2, paths: [%q]}\n", repo)
				s := &script{Final: "Done: the parser is implemented and committed."}
				switch kind {
				case "logs":
					os.MkdirAll(filepath.Join(w.ws, "artifacts/20250101000000_parser/histories"), 0o755)
					s.Calls = []call{{Tool: "create_activity_log", Args: map[string]any{"activity_type": "creation",
						"activity_content": []string{"Implemented the parser and committed it"}, "theme_start_id": "20250101000000", "theme_directory_part": "parser"}}}
				case "commits":
					s.Calls = []call{{Builtin: c.shell, Args: map[string]any{"command": fmt.Sprintf(
						"cd %s && date +%%s%%N >> steps.txt && git add steps.txt && git -c user.name=a -c user.email=a@b commit -qm step", repo)}}}
				}
				c.exec(w, s)
				if kind == "commits" {
					w.waitFor("four answered wakeups that committed", 180*time.Second, func() bool {
						_, changed, _ := w.progressOf()
						return changed >= 4
					})
					if level, changed, unchanged := w.progressOf(); level != "ok" || unchanged != 0 {
						t.Fatalf("no_progress %q after %d answers that committed (%d without a change)", level, changed, unchanged)
					}
					return
				}
				w.waitFor("no_progress within three wakeups", 120*time.Second, func() bool {
					level, _, _ := w.progressOf()
					return level == "warning" || level == "error"
				})
				if _, changed, unchanged := w.progressOf(); changed != 0 || unchanged < 2 || unchanged > 3 {
					t.Fatalf("no_progress after %d answers without a change and %d with one: want it within 3 wakeups", unchanged, changed)
				}
			})
		}
	}
}
