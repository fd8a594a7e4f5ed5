package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
)

// fakeAsker keeps one agent's pending questions and what was answered.
type fakeAsker struct {
	mu       sync.Mutex
	pending  map[string]asks.Question
	answered []string // "id decision via"
	told     []string
}

var _ Asker = (*fakeAsker)(nil)

func newAsker(ids ...string) *fakeAsker {
	f := &fakeAsker{pending: map[string]asks.Question{}}
	for _, id := range ids {
		f.pending[id] = asks.Question{ID: id, Agent: "luna", Tool: "Bash", Input: json.RawMessage(`{"command":"touch <b>x</b>"}`),
			Since: time.Now(), Hold: time.Now().Add(time.Hour)}
	}
	return f
}

func (f *fakeAsker) Asks() []asks.Question {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []asks.Question{}
	for _, q := range f.pending {
		out = append(out, q)
	}
	return out
}

func (f *fakeAsker) Answer(agent, id string, d asks.Decision, by asks.Credential) (asks.Question, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q, ok := f.pending[id]
	if !ok {
		return asks.Question{}, asks.ErrAnswered
	}
	delete(f.pending, id)
	f.answered = append(f.answered, id+" "+d.Word()+" "+by.Via)
	return q, nil
}

func (f *fakeAsker) Tell(agent, text string, urgent bool, by asks.Credential) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.told = append(f.told, agent+": "+text)
	return "feedbackbox/from-user-x.md", nil
}

func (f *fakeAsker) log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.answered...)
}

func ask(s http.Handler, method, target, body string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = "127.0.0.1:9477"
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// The page answers with its token only, by POST: no token, a wrong one, or
// none configured changes nothing.
func TestPageAnswersNeedTheToken(t *testing.T) {
	a := newAsker("q1", "q2")
	s := New(newFake("luna"), Options{Token: "secret", Asker: a, Links: asks.NewLinks()})
	body := `{"decision":"allow"}`
	if w := ask(s, "POST", "/api/v1/asks/q1/answer", body); w.Code != http.StatusUnauthorized {
		t.Fatalf("no token: %d", w.Code)
	}
	if w := ask(s, "POST", "/api/v1/asks/q1/answer", body, "Authorization", "Bearer wrong"); w.Code != http.StatusUnauthorized {
		t.Fatalf("a wrong token: %d", w.Code)
	}
	if w := ask(s, "GET", "/api/v1/asks/q1/answer?decision=allow", "", "Authorization", "Bearer secret"); w.Code == http.StatusOK {
		t.Fatalf("a GET answered: %d", w.Code)
	}
	if got := a.log(); len(got) != 0 {
		t.Fatalf("answered without the token: %v", got)
	}
	if w := ask(s, "POST", "/api/v1/asks/q1/answer", body, "Authorization", "Bearer secret"); w.Code != http.StatusOK {
		t.Fatalf("with the token: %d %s", w.Code, w.Body)
	}
	if w := ask(s, "POST", "/api/v1/asks/q1/answer", body, "Authorization", "Bearer secret"); w.Code != http.StatusConflict {
		t.Fatalf("answered twice: %d", w.Code)
	}
	if got := a.log(); len(got) != 1 || got[0] != "q1 allow page" {
		t.Fatalf("answers %v", got)
	}
	if w := ask(New(newFake("luna"), Options{Asker: a}), "POST", "/api/v1/asks/q2/answer", body, "Authorization", "Bearer "); w.Code != http.StatusForbidden {
		t.Fatalf("no token configured: %d", w.Code)
	}
	if w := ask(s, "POST", "/api/v1/agents/luna/tell", `{"text":"hi"}`, "Authorization", "Bearer secret"); w.Code != http.StatusOK || len(a.told) != 1 {
		t.Fatalf("tell: %d %s", w.Code, w.Body)
	}
	if w := ask(s, "POST", "/api/v1/agents/luna/tell", `{"text":"hi"}`); w.Code != http.StatusUnauthorized {
		t.Fatalf("tell without the token: %d", w.Code)
	}
}

// A link shows its question on a GET and changes nothing; its POST answers
// that one question once; a link that does not verify, has expired, or
// is spent by another site's page answers nothing. It needs no page
// token, even where reads do.
func TestLinkAnswersItsQuestionOnce(t *testing.T) {
	a := newAsker("q1", "q2")
	links := asks.NewLinks()
	s := New(newFake("luna"), Options{Token: "secret", ReadAuth: true, Asker: a, Links: links})
	tok := links.Mint("luna", "q1", time.Now().Add(time.Hour))
	w := ask(s, "GET", "/answer/"+tok, "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "luna asks to run Bash") ||
		!strings.Contains(w.Body.String(), "touch &lt;b&gt;x&lt;/b&gt;") || !strings.Contains(w.Body.String(), `<form method="post">`) {
		t.Fatalf("GET the link: %d\n%s", w.Code, w.Body)
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self'") || strings.Contains(csp, "script-src") {
		t.Fatalf("the confirm page's CSP %q", csp)
	}
	if got := a.log(); len(got) != 0 {
		t.Fatalf("a GET answered: %v", got)
	}
	form := url.Values{"decision": {"deny"}, "message": {"not now"}}.Encode()
	if w := ask(s, "POST", "/answer/"+tok, form, "Content-Type", "application/x-www-form-urlencoded", "Origin", "https://evil.example"); w.Code != http.StatusForbidden {
		t.Fatalf("another site's post: %d", w.Code)
	}
	bad := tok[:len(tok)-2] + "AA"
	if w := ask(s, "POST", "/answer/"+bad, "allow"); w.Code != http.StatusForbidden {
		t.Fatalf("a tampered link: %d", w.Code)
	}
	old := links.Mint("luna", "q2", time.Now().Add(-time.Second))
	if w := ask(s, "POST", "/answer/"+old, "allow"); w.Code != http.StatusForbidden {
		t.Fatalf("an expired link: %d", w.Code)
	}
	w = ask(s, "POST", "/answer/"+tok, form, "Content-Type", "application/x-www-form-urlencoded", "Origin", "http://127.0.0.1:9477", "Accept", "text/html")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Denied") {
		t.Fatalf("the confirm page's post: %d\n%s", w.Code, w.Body)
	}
	if w := ask(s, "POST", "/answer/"+tok, "allow"); w.Code != http.StatusConflict && w.Code != http.StatusNotFound {
		t.Fatalf("the link spent again: %d %s", w.Code, w.Body)
	}
	if got := a.log(); len(got) != 1 || got[0] != "q1 deny link" {
		t.Fatalf("answers %v: want q1 denied once, q2 untouched", got)
	}
	// ntfy's button posts a bare word.
	tok2 := links.Mint("luna", "q2", time.Now().Add(time.Hour))
	if w := ask(s, "POST", "/answer/"+tok2, "allow"); w.Code != http.StatusOK {
		t.Fatalf("a button's post: %d %s", w.Code, w.Body)
	}
	if got := a.log(); len(got) != 2 || got[1] != "q2 allow link" {
		t.Fatalf("answers %v", got)
	}
}
