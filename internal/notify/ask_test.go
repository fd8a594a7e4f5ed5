package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
)

// A question goes out at once to every target that hears warnings: on
// ntfy with an Allow and a Deny button that post to the answer URL and a
// click that opens the confirm page; elsewhere with the link in the text.
// While it is offered, the agent's waiting_for_you alert is not sent
// again; afterwards it is.
func TestAQuestionIsNotifiedWithItsLink(t *testing.T) {
	hook, ntfy, quiet := newReceiver(t, 200), newReceiver(t, 200), newReceiver(t, 200)
	res := newResults()
	n, err := New([]Target{
		{URL: "generic+" + hook.URL + "/hook?template=json", MinLevel: checks.Warning, MinInterval: time.Millisecond},
		{URL: "ntfy://" + host(ntfy) + "/topic?scheme=http", MinLevel: checks.Warning, MinInterval: time.Millisecond},
		{URL: "generic+" + quiet.URL + "/hook?template=json", MinLevel: checks.Error, MinInterval: time.Millisecond},
	}, Options{OnResult: res.on})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(time.Second)
	now := time.Now()
	n.Asking("ada", true, now)
	n.Asked(Question{Agent: "ada", ID: "abcd2345", Tool: "Bash", Input: `{"command":"touch x"}`, Since: now,
		Link: "http://127.0.0.1:9477/answer/TOKEN", Answer: "http://127.0.0.1:9477/api/v1/answer/TOKEN"})
	hook.wait(t, 1)
	ntfy.wait(t, 1)
	var payload map[string]string
	json.Unmarshal([]byte(hook.body[0]), &payload)
	if payload["title"] != "ai-heart: ada asks to run Bash" || !strings.Contains(payload["message"], "allow or deny: http://127.0.0.1:9477/answer/TOKEN") ||
		!strings.Contains(payload["message"], "watchdog answer abcd2345 allow|deny") {
		t.Fatalf("webhook payload %v", payload)
	}
	h := ntfy.got[0]
	if h.Get("Click") != "http://127.0.0.1:9477/answer/TOKEN" ||
		h.Get("Actions") != "http, Allow, http://127.0.0.1:9477/api/v1/answer/TOKEN, method=POST, body=allow, clear=true; http, Deny, http://127.0.0.1:9477/api/v1/answer/TOKEN, method=POST, body=deny, clear=true" {
		t.Fatalf("ntfy headers Click %q Actions %q", h.Get("Click"), h.Get("Actions"))
	}
	// The waiting_for_you warning of the same question is left out.
	n.Add("ada", Change{Time: now, Level: checks.Warning, Check: checks.WaitingForYou, Message: "waiting for you"})
	n.Add("ada", Change{Time: now, Level: checks.Warning, Check: "introspection", Message: "due"})
	n.Flush("ada")
	hook.wait(t, 1)
	if b := hook.body[1]; strings.Contains(b, "waiting_for_you") || !strings.Contains(b, "introspection") {
		t.Fatalf("the flush after the question sent %s", b)
	}
	n.Asking("ada", false, now)
	n.Add("ada", Change{Time: now.Add(askQuiet + time.Second), Level: checks.Warning, Check: checks.WaitingForYou, Message: "waiting again"})
	n.flushAt("ada", now.Add(askQuiet+time.Second))
	hook.wait(t, 1)
	if b := hook.body[2]; !strings.Contains(b, "waiting again") {
		t.Fatalf("a later waiting_for_you was not sent: %s", b)
	}
	if len(quiet.body) != 0 {
		t.Fatalf("a target of errors only heard the question: %v", quiet.body)
	}
}
