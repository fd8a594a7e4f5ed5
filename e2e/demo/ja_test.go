package demo

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// A scripted day in a ja workspace, as the agent meets it:
// every text the demo agent received (each heartbeat prompt with its
// notices, the recovery notice, each tool's reply) is Japanese: no English
// sentence, no Go duration, no ASCII quotes.
func TestDemoJapaneseDayTellsTheAgentOnlyJapanese(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo takes about two minutes")
	}
	dir := filepath.Join(t.TempDir(), "demo-ja")
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "demo", "--lang", "ja", dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	p := testutil.Start(t, cmd)
	done := make(chan error, 1)
	go func() { done <- p.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("demo --lang ja: %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Minute):
		t.Fatalf("the demo did not end by itself:\n%s", out.String())
	}

	f, err := os.Open(filepath.Join(dir, "stats", "demo_received.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		texts = append(texts, s)
	}
	all := strings.Join(texts, "\n")
	// The day reached the texts that matter most.
	for _, w := range []string{"回復通知（1回目／全3回）", "] introspection: 内省しないまま、作業時間で", "深い作業を宣言しました", "テーマを終えました"} {
		if !strings.Contains(all, w) {
			t.Errorf("no text the agent received says %q", w)
		}
	}
	if len(texts) < 20 {
		t.Errorf("only %d texts received", len(texts))
	}
	for _, s := range texts {
		testutil.CheckJapanese(t, "text the agent received", s)
	}
	// The narration is Japanese too, but for the alert lines, which are
	// what machines read and stay English.
	for _, w := range []string{"ai-heart デモ", "#1 定期の起動", "tool      start_theme 「", "応答：", "まとめ：起動"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the narration lacks %q", w)
		}
	}
	timeline := regexp.MustCompile(`^\d\d:\d\d:\d\d  (\S+)\s+(.*)$`)
	for _, l := range strings.Split(out.String(), "\n") {
		m := timeline.FindStringSubmatch(l)
		if m == nil || m[1] == "alert" || m[1] == "recovery" || m[1] == "watchdog" {
			continue
		}
		testutil.CheckJapanese(t, "narration", m[2])
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("the demo's output:\n%s\nwhat the agent received:\n%s", out.String(), all)
	}
}
