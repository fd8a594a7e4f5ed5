package asks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv runs this test binary as a peer of the socket it names (see
// TestMain's helper below).
const helperEnv = "ASKS_TEST_PEER"

func TestMain(m *testing.M) {
	if sock := os.Getenv(helperEnv); sock != "" {
		peer(sock)
		return
	}
	os.Exit(m.Run())
}

// peer is the other user: it lists, answers and asks, and prints what came
// of each as JSON.
func peer(sock string) {
	out := map[string]string{}
	note := func(k string, err error) {
		out[k] = "ok"
		if err != nil {
			out[k] = err.Error()
		}
	}
	_, err := Call(sock, Request{Op: OpList}, 2*time.Second)
	note("list", err)
	_, err = Call(sock, Request{Op: OpAnswer, ID: os.Getenv("ASKS_TEST_ID"), Allow: true}, 2*time.Second)
	note("answer", err)
	_, err = Call(sock, Request{Op: OpTell, Text: "hi"}, 2*time.Second)
	note("tell", err)
	_, _, err = Hold(sock, Ask{Tool: "Bash", Workspace: "/ws"}, 300*time.Millisecond)
	note("ask", err)
	b, _ := json.Marshal(out)
	os.Stdout.Write(b)
}

// Run as its own user, the watchdog takes questions from the agent's user
// (its hooks), never answers: a process of another user that can reach
// the socket may ask, but listing, answering and telling are refused, and
// the refused answer is recorded.
func TestAnotherUserMayAskButNotAnswer(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a peer as another user")
	}
	if !Supported {
		t.Skip("asks need Linux")
	}
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := dir; d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // the other user reaches the socket's folder
	}
	d := &desk{t: t, ws: "/ws", sock: filepath.Join(dir, "asks.sock"), asked: make(chan Question, 8)}
	d.book = NewBook("luna", time.Minute, nil)
	d.book.Subscribe(func(c Change) {
		if c.Record == nil {
			d.asked <- c.Question
			return
		}
		d.mu.Lock()
		d.records = append(d.records, *c.Record)
		d.mu.Unlock()
	})
	d.srv = &Server{Book: d.book, Workspace: d.ws, Tell: func(string, bool, Credential) (string, error) { return "x", nil }}
	if err := d.srv.Listen(d.sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.srv.Close)
	os.Chmod(d.sock, 0o666)
	real, out := d.hold(d.ask("Bash", `{"command":"rm -rf ~"}`), time.Minute)

	// The test binary, where the other user can run it.
	bin := filepath.Join(dir, "peer")
	self, _ := os.ReadFile(os.Args[0])
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+d.sock, "ASKS_TEST_ID="+real.ID)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("the peer: %v\n%s", err, b)
	}
	var got map[string]string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("the peer said %q", b)
	}
	for _, op := range []string{"list", "answer", "tell"} {
		if !strings.Contains(got[op], ErrNotYours.Error()) {
			t.Errorf("%s by another user: %q, want refused", op, got[op])
		}
	}
	if got["ask"] != "ok" {
		t.Errorf("ask by another user: %q, want held (and no decision)", got["ask"])
	}
	select {
	case h := <-out:
		t.Fatalf("the real hook got %+v from another user's answer", h)
	default:
	}
	if r := d.last(); r.Outcome != Withdrawn && r.Outcome != Refused {
		t.Fatalf("last record %+v", r)
	}
	refused := false
	d.mu.Lock()
	for _, r := range d.records {
		refused = refused || (r.Outcome == Refused && r.ID == real.ID && r.By == "uid 65534" && strings.Contains(r.Why, "watchdog's user"))
	}
	d.mu.Unlock()
	if !refused {
		t.Fatalf("the other user's answer is not recorded as refused: %+v", d.records)
	}
	if _, err := d.book.Answer(real.ID, Decision{Allow: false}, Credential{Via: "cli"}, 5*time.Second); err != nil {
		t.Fatalf("the watchdog's own user answering after it: %v", err)
	}
	if h := wait(t, out); h.dec == nil || h.dec.Allow {
		t.Fatalf("the real hook got %+v", h)
	}
}
