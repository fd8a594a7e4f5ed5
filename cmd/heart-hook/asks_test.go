package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// permissionRequest is Claude Code 2.1.197's PermissionRequest input (its
// bundled code: the common fields, tool_name, tool_input,
// permission_suggestions).
const permissionRequest = `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default",` +
	`"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"touch approved.txt","description":"Touch"},` +
	`"permission_suggestions":[]}`

type hookRun struct {
	code     int
	out, err string
}

// askDesk is a watchdog's socket for the workspace ws, its questions
// heard on asked.
func askDesk(t *testing.T, ws string, hold time.Duration) (*asks.Book, string, chan asks.Question) {
	t.Helper()
	if !asks.Supported {
		t.Skip("asks need Linux")
	}
	b := asks.NewBook("luna", hold, nil)
	asked := make(chan asks.Question, 8)
	b.Subscribe(func(c asks.Change) {
		if c.Record == nil {
			asked <- c.Question
		}
	})
	sock := filepath.Join(t.TempDir(), "asks.sock")
	s := &asks.Server{Book: b, Workspace: ws}
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return b, sock, asked
}

func holdHook(t *testing.T, ws, sock, input string) <-chan hookRun {
	out := make(chan hookRun, 1)
	go func() {
		code, o, e := runHook(t, input, "--client", "claude-code", "--workspace", ws, "--asks", sock)
		out <- hookRun{code, o, e}
	}()
	return out
}

func waitHook(t *testing.T, c <-chan hookRun) hookRun {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the hook still holds")
	}
	return hookRun{}
}

// Claude Code's PermissionRequest is offered through the socket, recorded
// in the spool first, and a person's answer comes out in Claude Code's own
// decision format: the pending call, no changed input, no new rule.
func TestHookHoldsForAPersonsAnswer(t *testing.T) {
	for _, c := range []struct {
		allow bool
		want  string
	}{
		{true, `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`},
		{false, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on main"},"hookEventName":"PermissionRequest"}}`},
	} {
		t.Run(asks.Decision{Allow: c.allow}.Word(), func(t *testing.T) {
			ws := t.TempDir()
			b, sock, asked := askDesk(t, ws, time.Minute)
			run := holdHook(t, ws, sock, permissionRequest)
			var q asks.Question
			select {
			case q = <-asked:
			case r := <-run:
				t.Fatalf("the hook did not hold: %+v", r)
			case <-time.After(10 * time.Second):
				t.Fatal("no question reached the watchdog")
			}
			if q.Tool != "Bash" || q.Session != "s1" || string(q.Input) != `{"command":"touch approved.txt","description":"Touch"}` {
				t.Fatalf("question %+v", q)
			}
			if evs := spool(t, ws); len(evs) != 1 || evs[0].Kind != hook.Ask {
				t.Fatalf("spool %+v: want the ask recorded while the hook holds", evs)
			}
			if _, err := b.Answer(q.ID, asks.Decision{Allow: c.allow, Message: "not on main"}, asks.Credential{Via: "cli"}, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			r := waitHook(t, run)
			var got, want any
			json.Unmarshal([]byte(r.out), &got)
			json.Unmarshal([]byte(c.want), &want)
			if r.code != 0 || !equalJSON(got, want) {
				t.Fatalf("hook = %+v, want exit 0 and %s", r, c.want)
			}
		})
	}
}

// With no answer within the hold, the hook prints nothing: the client's
// own dialog stands.
func TestHookUnansweredPrintsNothing(t *testing.T) {
	ws := t.TempDir()
	_, sock, _ := askDesk(t, ws, 500*time.Millisecond)
	r := waitHook(t, holdHook(t, ws, sock, permissionRequest))
	if r.code != 0 || r.out != "" {
		t.Fatalf("hook = %+v, want exit 0 and nothing on stdout", r)
	}
}

// A watchdog that is not there holds nothing, and the event is still
// recorded; a client whose hook cannot answer is never held.
func TestHookWithoutAWatchdogGetsOutOfTheWay(t *testing.T) {
	ws := t.TempDir()
	start := time.Now()
	r := waitHook(t, holdHook(t, ws, filepath.Join(t.TempDir(), "none.sock"), permissionRequest))
	if r.code != 0 || r.out != "" || time.Since(start) > 5*time.Second {
		t.Fatalf("hook = %+v after %s, want a quick exit 0 with nothing on stdout", r, time.Since(start))
	}
	if evs := spool(t, ws); len(evs) != 1 || evs[0].Kind != hook.Ask {
		t.Fatalf("spool %+v: want the ask recorded", evs)
	}
	_, sock, asked := askDesk(t, ws, time.Minute)
	code, out, _ := runHook(t, `{"hook_event_name":"Notification","notification_type":"ToolPermission","session_id":"g"}`,
		"--client", "gemini", "--workspace", ws, "--asks", sock)
	if code != 0 || out != "" || len(asked) != 0 {
		t.Fatalf("gemini's notification: exit %d, %q, %d questions; want none held", code, out, len(asked))
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
