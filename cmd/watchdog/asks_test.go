package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/config"
)

// askConfig writes a config whose agent's asks socket is in a temp state
// folder, and returns its path and that socket.
func askConfig(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "ai-works")
	os.MkdirAll(ws, 0o755)
	cfg := filepath.Join(root, "watchdog.yaml")
	os.WriteFile(cfg, []byte("workspace: "+ws+"\nname: luna\nstate_dir: "+filepath.Join(root, "state")+"\n"), 0o644)
	c, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sock := c.AgentConfigs()[0].AsksSocket()
	os.MkdirAll(filepath.Dir(sock), 0o700)
	return cfg, sock
}

func runIt(f func(context.Context, []string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := f(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func answerCmd(ctx context.Context, args []string, out, errb *bytes.Buffer) int {
	return runAnswer(ctx, args, out, errb)
}

func asksCmd(ctx context.Context, args []string, out, errb *bytes.Buffer) int {
	return runAsks(ctx, args, out, errb)
}

// Without a running watchdog, asks and answer say so and exit 1; with one,
// asks --json lists the question, an unknown ID exits 1, and the answer
// reaches the hook.
func TestAsksAndAnswerCommands(t *testing.T) {
	if !asks.Supported {
		t.Skip("asks need Linux")
	}
	cfg, sock := askConfig(t)
	if code, _, e := runIt(answerCmd, "-c", cfg, "abcd2345", "allow"); code != 1 || !strings.Contains(e, "no watchdog answers on its asks socket") {
		t.Fatalf("answer without a watchdog: %d %q", code, e)
	}
	if code, _, e := runIt(answerCmd, "-c", cfg, "abcd2345", "maybe"); code != 2 || !strings.Contains(e, "want allow or deny") {
		t.Fatalf("answer maybe: %d %q", code, e)
	}
	b := asks.NewBook("luna", time.Minute, nil)
	c, _ := config.Load(cfg)
	srv := &asks.Server{Book: b, Workspace: c.AgentConfigs()[0].Workspace}
	if err := srv.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	held := make(chan *asks.Decision, 1)
	go func() {
		_, d, _ := asks.Hold(sock, asks.Ask{Client: "claude-code", Tool: "Bash", Input: json.RawMessage(`{"command":"make"}`), Workspace: c.AgentConfigs()[0].Workspace}, time.Minute)
		held <- d
	}()
	var qs []map[string]any
	deadline := time.Now().Add(5 * time.Second)
	for len(qs) == 0 && time.Now().Before(deadline) {
		_, out, _ := runIt(asksCmd, "-c", cfg, "--json")
		json.Unmarshal([]byte(out), &qs)
		time.Sleep(20 * time.Millisecond)
	}
	if len(qs) != 1 || qs[0]["tool"] != "Bash" || qs[0]["agent"] != "luna" || qs[0]["id"] == "" {
		t.Fatalf("asks --json = %v", qs)
	}
	if code, _, e := runIt(answerCmd, "-c", cfg, "zzzzzzzz", "allow"); code != 1 || !strings.Contains(e, "no pending question has this ID") {
		t.Fatalf("answer to an unknown ID: %d %q", code, e)
	}
	id := qs[0]["id"].(string)
	if code, out, e := runIt(answerCmd, "-c", cfg, "--message", "not now", id, "deny"); code != 0 || !strings.Contains(out, "denied Bash for luna") {
		t.Fatalf("answer: %d %q %q", code, out, e)
	}
	if d := <-held; d == nil || d.Allow || d.Message != "not now" {
		t.Fatalf("the hook got %+v", d)
	}
	if code, _, e := runIt(answerCmd, "-c", cfg, id, "allow"); code != 1 || !strings.Contains(e, "already answered") {
		t.Fatalf("a second answer: %d %q", code, e)
	}
}
