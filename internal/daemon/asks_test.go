package daemon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/lang"
)

type holdResult struct {
	id  string
	dec *asks.Decision
	err error
}

// hookAsks asks the agent's watchdog as heart-hook does, in the background.
func hookAsks(cfg *config.Config, session, tool, input string) <-chan holdResult {
	out := make(chan holdResult, 1)
	a := cfg.AgentConfigs()[0]
	go func() {
		id, dec, err := asks.Hold(a.AsksSocket(), asks.Ask{Client: "claude-code", Event: "PermissionRequest", Session: session,
			Tool: tool, Input: json.RawMessage(input), Workspace: a.Workspace}, time.Minute)
		out <- holdResult{id, dec, err}
	}()
	return out
}

// listening waits for the agent's asks socket.
func listening(h *harness) {
	h.t.Helper()
	h.waitFor("the asks socket", 5*time.Second, func() bool {
		_, err := os.Stat(h.cfg.AgentConfigs()[0].AsksSocket())
		return err == nil
	})
}

func answersOf(t *testing.T, cfg *config.Config) []asks.Record {
	b, _ := os.ReadFile(filepath.Join(cfg.AgentConfigs()[0].StateDir(), asks.AuditFile))
	var out []asks.Record
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r asks.Record
		if json.Unmarshal([]byte(l), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

func pendingID(h *harness) string {
	qs := h.d.Asks()
	if len(qs) != 1 {
		return ""
	}
	return qs[0].ID
}

// A question the client's hook holds is offered (Asks, the state file),
// answered once through the daemon, recorded in the state folder's record
// and on the day strip; a denial carries the agent's words in its language.
func TestAsksAnsweredThroughTheDaemon(t *testing.T) {
	if !asks.Supported {
		t.Skip("asks need Linux")
	}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Language = l
			h := startWith(t, cfg, Options{Asks: true})
			listening(h)
			out := hookAsks(cfg, "s1", "Bash", `{"command":"git push --force"}`)
			h.waitFor("the question offered", 5*time.Second, func() bool { return pendingID(h) != "" })
			id := pendingID(h)
			h.waitFor("the question in the state file", 5*time.Second, func() bool {
				s, err := h.tryState()
				return err == nil && s.Asks != nil && len(s.Asks.Pending) == 1 && s.Asks.Pending[0].ID == id &&
					strings.Contains(s.Asks.Pending[0].Input, "git push --force")
			})
			by := asks.Credential{Via: "page", By: "the page's token", From: "127.0.0.1:5000"}
			if _, err := h.d.Answer("", id, asks.Decision{Message: "not on main"}, by); err != nil {
				t.Fatal(err)
			}
			r := <-out
			if r.err != nil || r.dec == nil || r.dec.Allow {
				t.Fatalf("the hook got %+v", r)
			}
			want := []string{"The user denied this call from afar, through the watchdog (the page).", "not on main"}
			if l == lang.Japanese {
				want = []string{"ユーザーが watchdog を通じて、離れた場所からこの呼び出しを拒否しました（ページから）。", "「not on main」"}
			}
			for _, w := range want {
				if !strings.Contains(r.dec.Message, w) {
					t.Fatalf("the model reads %q, lacking %q", r.dec.Message, w)
				}
			}
			if _, err := h.d.Answer("", id, asks.Decision{Allow: true}, by); !errors.Is(err, asks.ErrAnswered) {
				t.Fatalf("a second answer: %v, want ErrAnswered", err)
			}
			recs := answersOf(t, cfg)
			if len(recs) != 2 || recs[0].Outcome != asks.Delivered || recs[0].Decision != "deny" || recs[0].From != "127.0.0.1:5000" ||
				recs[1].Outcome != asks.Refused {
				t.Fatalf("record %+v: want the delivered denial with its credential, then the refused second answer", recs)
			}
			marks, _ := day.Read(cfg.AgentConfigs()[0].StateDir(), time.Now().Format(time.DateOnly))
			found := false
			for _, m := range marks {
				found = found || (m.Kind == day.KindAnswer && m.Outcome == asks.Delivered && m.Source == "page")
			}
			if !found {
				t.Fatalf("no answer on the day strip: %+v", marks)
			}
			h.waitFor("the answer in the state file", 5*time.Second, func() bool {
				s, _ := h.tryState()
				return s.Asks != nil && len(s.Asks.Pending) == 0 && len(s.Asks.Recent) == 2 && s.Asks.Today == 1
			})
		})
	}
}

// The client's hooks saying the call ran (answered at the terminal), or
// the turn moved on, withdraw the question: its hook exits undecided.
func TestAsksWithdrawnWhenTheClientMovesOn(t *testing.T) {
	if !asks.Supported {
		t.Skip("asks need Linux")
	}
	cfg := testConfig(t)
	h := startWith(t, cfg, Options{Asks: true})
	listening(h)
	other := hookAsks(cfg, "s2", "Bash", `{"command":"ls"}`)
	out := hookAsks(cfg, "s1", "Bash", `{"command":"make"}`)
	h.waitFor("two questions", 5*time.Second, func() bool { return len(h.d.Asks()) == 2 })
	time.Sleep(10 * time.Millisecond) // the hook's event is dated after the question
	spool := filepath.Join(cfg.Workspace, "stats", "hooks", time.Now().UTC().Format("20060102")+".jsonl")
	os.MkdirAll(filepath.Dir(spool), 0o755)
	line, _ := json.Marshal(map[string]any{"t": time.Now().UTC(), "client": "claude-code", "event": "PostToolUse", "kind": "tool_done", "tool": "Bash", "session": "s1"})
	if err := os.WriteFile(spool, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-out:
		if r.dec != nil || r.err != nil {
			t.Fatalf("the withdrawn question's hook got %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not withdrawn when its call ran")
	}
	if qs := h.d.Asks(); len(qs) != 1 || qs[0].Session != "s2" {
		t.Fatalf("pending %+v: want the other session's question alone", qs)
	}
	h.stop()
	if r := <-other; r.dec != nil {
		t.Fatalf("a stopped watchdog decided %+v", r.dec)
	}
}

// tell puts a person's words where the agent reads feedback, urgent ones
// with the interrupt. prefix, and records them.
func TestTellWritesAFeedbackItem(t *testing.T) {
	cfg := testConfig(t)
	h := startWith(t, cfg, Options{})
	by := asks.Credential{Via: "cli", By: "uid 1000"}
	f, err := h.d.Tell("", "Please stop the refactor and write the report.", false, by)
	if err != nil || !strings.HasPrefix(f, "feedbackbox/from-user-") {
		t.Fatalf("Tell = %q, %v", f, err)
	}
	b, _ := os.ReadFile(filepath.Join(cfg.Workspace, f))
	if !strings.Contains(string(b), "Please stop the refactor") || !strings.Contains(string(b), "through the watchdog") {
		t.Fatalf("%s = %q", f, b)
	}
	u, err := h.d.Tell("tester", "Now, please.", true, by)
	if err != nil || !strings.HasPrefix(u, "feedbackbox/interrupt.from-user-") {
		t.Fatalf("urgent Tell = %q, %v", u, err)
	}
	if _, err := h.d.Tell("tester", "  ", false, by); err == nil {
		t.Fatal("an empty text was told")
	}
	if _, err := h.d.Tell("nobody", "hi", false, by); !errors.Is(err, ErrNoAgent) {
		t.Fatalf("Tell to an unknown agent: %v", err)
	}
	if recs := answersOf(t, cfg); len(recs) != 2 || recs[0].Outcome != asks.Told || recs[1].File != u || !recs[1].Urgent {
		t.Fatalf("record %+v", recs)
	}
}
