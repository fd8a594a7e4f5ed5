package clients

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// README's quick start, followed word for word: its config saved as
// watchdog.yaml, its commands run in that folder by a shell, in a fresh
// home where the client is installed and signed in (its model a stand-in
// on loopback). The only step that is not README's is the one that makes
// the test quick: a person's urgent note in the feedback box wakes the
// agent now instead of at the next half hour.

// quickStart returns the yaml and sh blocks of README's quick start for
// client (the "### name" subsection under "## Quick start").
func quickStart(t *testing.T, name string) (yaml, sh string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Quick start\n")
	if !ok {
		t.Fatal("README has no ## Quick start")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, sub, ok := strings.Cut(section, "\n### "+name+"\n")
	if !ok {
		t.Fatalf("README's quick start has no ### %s", name)
	}
	sub, _, _ = strings.Cut(sub, "\n### ")
	blocks := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(sub))
	var lang string
	var body strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case lang == "" && strings.HasPrefix(line, "```"):
			lang = strings.TrimPrefix(line, "```")
			body.Reset()
		case lang != "" && line == "```":
			if _, seen := blocks[lang]; !seen {
				blocks[lang] = body.String()
			}
			lang = ""
		case lang != "":
			body.WriteString(line + "\n")
		}
	}
	if blocks["yaml"] == "" || blocks["sh"] == "" {
		t.Fatalf("README's quick start for %s lacks a yaml or an sh block: %v", name, blocks)
	}
	return blocks["yaml"], blocks["sh"]
}

// followQuickStart saves the config, runs the sh block's commands but the
// last (which must be `watchdog run -c watchdog.yaml`), leaves an urgent
// note, then starts that last command. env is the signed-in client's.
func followQuickStart(t *testing.T, name string, env []string) (folder string) {
	t.Helper()
	yaml, sh := quickStart(t, name)
	lines := strings.Split(strings.TrimSpace(sh), "\n")
	last := strings.Fields(lines[len(lines)-1])
	if strings.Join(last, " ") != "watchdog run -c watchdog.yaml" {
		t.Fatalf("README's %s quick start ends with %q, not watchdog run -c watchdog.yaml", name, lines[len(lines)-1])
	}
	folder = t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "watchdog.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	// A person pasting the commands: each runs in that folder, in order,
	// and one that fails stops the rest.
	script := "set -e\n" + strings.Join(lines[:len(lines)-1], "\n") + "\n"
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Env = folder, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README's %s commands failed: %v\n%s", name, err, out)
	} else {
		t.Logf("README's %s commands:\n%s", name, tail(string(out), 3000))
	}
	note := filepath.Join(folder, "ai-works", "feedbackbox", "interrupt.001_hello.md")
	if err := os.WriteFile(note, []byte("Hello: check in once, please.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(pathIn(env, "watchdog"), last[1:]...)
	run.Dir, run.Env = folder, env
	log, _ := os.Create(filepath.Join(t.TempDir(), "watchdog.log"))
	run.Stdout, run.Stderr = log, log
	p := testutil.Start(t, run)
	t.Cleanup(func() {
		p.Signal(syscall.SIGTERM)
		p.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(log.Name())
			t.Logf("watchdog log:\n%s", tail(string(b), 4000))
		}
	})
	return folder
}

// pathIn finds a program on the PATH of env.
func pathIn(env []string, name string) string {
	for _, e := range env {
		if dirs, ok := strings.CutPrefix(e, "PATH="); ok {
			for _, d := range filepath.SplitList(dirs) {
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
					return filepath.Join(d, name)
				}
			}
		}
	}
	return ""
}

// userEnv is a fresh user's environment: a new home, and on PATH the
// ai-heart binaries and the installed clients.
func userEnv(t *testing.T, clientBins ...string) (home string, env []string) {
	home = t.TempDir()
	path := binDir
	for _, b := range clientBins {
		path += string(filepath.ListSeparator) + filepath.Dir(b)
	}
	path += string(filepath.ListSeparator) + os.Getenv("PATH")
	env = append(os.Environ(), "HOME="+home, "PATH="+path, "NO_COLOR=1", "CI=true",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	return home, env
}

// quickStartWorked waits for the run the note woke, then checks what
// README promises: mcp-heart's calls ran with no refusal, the run's tokens
// were counted, and the page answers.
func quickStartWorked(t *testing.T, folder string, s *script) cost.Cell {
	t.Helper()
	ws := filepath.Join(folder, "ai-works")
	var c cost.Cell
	deadline := time.Now().Add(150 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(ws, "stats", "watchdog_state.json")); err == nil {
			var st struct {
				Cost *cost.Summary `json:"cost"`
			}
			if json.Unmarshal(b, &st) == nil && st.Cost != nil {
				c = cost.Cell{}
				for _, outcomes := range st.Cost.Today.By {
					for _, cell := range outcomes {
						c = c.Add(cell)
					}
				}
			}
		}
		if c.Runs >= 1 && len(s.seen()) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no run booked with its tool calls in 150s (cost today %+v, tool results %d)", c, len(s.seen()))
		}
		time.Sleep(200 * time.Millisecond)
	}
	seen := strings.Join(s.seen(), "\n")
	if r := refusal(seen); r != "" {
		t.Fatalf("the client refused an mcp-heart call: %s", r)
	}
	if !strings.Contains(seen, "stats/checkpoints/") {
		t.Fatalf("the model never saw the checkpoint's reply: %s", tail(seen, 2000))
	}
	if c.Unknown != 0 || c.Tokens.Total() == 0 {
		t.Fatalf("cost today %+v: want the run's tokens counted", c)
	}
	resp, err := http.Get("http://127.0.0.1:9477/")
	if err != nil {
		t.Fatalf("the page README names: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the page answers %s", resp.Status)
	}
	return c
}

// Not parallel: README's page is on one port.
func TestQuickStartClaudeCode(t *testing.T) {
	claude := client(t, "claude")
	s := idleScript()
	_, env := userEnv(t, claude)
	env = append(env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+claudeStandIn(t, s))
	folder := followQuickStart(t, "Claude Code", env)
	c := quickStartWorked(t, folder, s)
	if c.Unpriced != 0 || c.USD <= 0 {
		t.Fatalf("cost today %+v: want Claude Code's own price", c)
	}
	t.Logf("cost today %+v", c)
}

func TestQuickStartGeminiCLI(t *testing.T) {
	gemini := client(t, "gemini")
	s := idleScript()
	home, env := userEnv(t, gemini)
	// Signed in with an API key, as Gemini CLI's own setup leaves it.
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env = append(env, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+geminiStandIn(t, s))
	folder := followQuickStart(t, "Gemini CLI", env)
	c := quickStartWorked(t, folder, s)
	t.Logf("cost today %+v", c)
}

func TestQuickStartCodex(t *testing.T) {
	codex := client(t, "codex")
	s := idleScript()
	home, env := userEnv(t, codex)
	// Signed in: the user's config names their provider (here the stand-in,
	// over plain HTTP); init appends the workspace's trust after it.
	cfg := fmt.Sprintf("model = %q\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"stand-in\"\nbase_url = %q\n"+
		"env_key = \"OPENAI_API_KEY\"\nwire_api = \"responses\"\nsupports_websockets = false\n", codexModel, codexStandIn(t, s)+"/v1")
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "OPENAI_API_KEY=standin")
	folder := followQuickStart(t, "Codex", env)
	c := quickStartWorked(t, folder, s)
	t.Logf("cost today %+v", c)
}
