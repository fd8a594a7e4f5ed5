package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
)

// Asker answers the questions the agents' clients wait on (package asks):
// the daemon. A fleet view has none.
type Asker interface {
	Asks() []asks.Question
	Answer(agent, id string, d asks.Decision, by asks.Credential) (asks.Question, error)
	Tell(agent, text string, urgent bool, by asks.Credential) (string, error)
}

// maxAnswerBody bounds an answer's or a word's body.
const maxAnswerBody = 32 << 10

// routeAsks adds the questions' endpoints: the list (a read), the page's
// answers and words (changes: the token), and a notification's link (its
// own single-use credential, a GET that only shows and a POST that
// answers).
func (s *Server) routeAsks() {
	s.mux.Handle("GET /api/v1/asks", s.read(http.HandlerFunc(s.asksList)))
	s.mux.Handle("POST /api/v1/asks/{id}/answer", s.write(http.HandlerFunc(s.answerByToken)))
	s.mux.Handle("POST /api/v1/agents/{name}/tell", s.write(http.HandlerFunc(s.tell)))
	s.mux.HandleFunc("GET /answer/{token}", s.linkPage)
	s.mux.HandleFunc("POST /answer/{token}", s.linkAnswer)
}

// PublishAsks sends every page the questions pending now (an "asks"
// event), when one is offered, answered or withdrawn.
func (s *Server) PublishAsks() {
	if s.opts.Asker == nil {
		return
	}
	s.hub.send(event{name: "asks", data: mustJSON(map[string]any{"asks": s.opts.Asker.Asks()})})
}

func (s *Server) asksList(w http.ResponseWriter, r *http.Request) {
	if s.opts.Asker == nil {
		writeJSON(w, http.StatusOK, map[string]any{"asks": []asks.Question{}, "answerable": false})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"asks": s.opts.Asker.Asks(), "answerable": true})
}

// answerBody is an answer as the page posts it.
type answerBody struct {
	Decision string `json:"decision"`
	Message  string `json:"message"`
	Agent    string `json:"agent"`
}

func (s *Server) answerByToken(w http.ResponseWriter, r *http.Request) {
	var b answerBody
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAnswerBody)).Decode(&b); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body: " + err.Error()})
		return
	}
	s.answer(w, r, b.Agent, r.PathValue("id"), b, asks.Credential{Via: "page", By: "the page's token", From: r.RemoteAddr})
}

// answer hands the decision to the Asker and says what came of it.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, agent, id string, b answerBody, by asks.Credential) {
	if s.opts.Asker == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source answers no questions"})
		return
	}
	allow, err := asks.ParseWord(b.Decision)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "decision: " + err.Error()})
		return
	}
	q, err := s.opts.Asker.Answer(agent, id, asks.Decision{Allow: allow, Message: b.Message}, by)
	code := http.StatusOK
	switch {
	case errors.Is(err, asks.ErrUnknown):
		code = http.StatusNotFound
	case errors.Is(err, asks.ErrAnswered):
		code = http.StatusConflict
	case errors.Is(err, asks.ErrGone):
		code = http.StatusGone
	case err != nil:
		code = http.StatusInternalServerError
	}
	if err != nil {
		writeJSON(w, code, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, code, map[string]any{"ok": true, "question": q, "decision": b.Decision})
}

func (s *Server) tell(w http.ResponseWriter, r *http.Request) {
	if s.opts.Asker == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source writes nothing for the agents"})
		return
	}
	var b struct {
		Text   string `json:"text"`
		Urgent bool   `json:"urgent"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAnswerBody)).Decode(&b); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body: " + err.Error()})
		return
	}
	f, err := s.opts.Asker.Tell(r.PathValue("name"), b.Text, b.Urgent, asks.Credential{Via: "page", By: "the page's token", From: r.RemoteAddr})
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "file": f})
}

// linkQuestion is the question a link's token is for, if it verifies and
// the question is still pending.
func (s *Server) linkQuestion(token string) (agent, id string, q *asks.Question, err error) {
	if s.opts.Asker == nil || s.opts.Links == nil {
		return "", "", nil, asks.ErrLink
	}
	agent, id, err = s.opts.Links.Verify(token, s.opts.Now())
	if err != nil {
		return "", "", nil, err
	}
	for _, p := range s.opts.Asker.Asks() {
		if p.Agent == agent && p.ID == id {
			return agent, id, &p, nil
		}
	}
	return agent, id, nil, nil
}

// linkPage shows the question a link is for, with Allow and Deny: a GET
// changes nothing (a link previewer, a prefetch, a crawler answer
// nothing).
func (s *Server) linkPage(w http.ResponseWriter, r *http.Request) {
	_, _, q, err := s.linkQuestion(r.PathValue("token"))
	d := linkView{Lang: "en"}
	switch {
	case err != nil:
		d.Error = err.Error()
	case q == nil:
		d.Error = asks.ErrAnswered.Error()
	default:
		var in bytes.Buffer
		if json.Indent(&in, q.Input, "", "  ") != nil {
			in.Reset()
			in.Write(q.Input)
		}
		d.Q, d.Input, d.Since, d.Hold = q, in.String(), q.Since.Format(time.TimeOnly), q.Hold.Format(time.TimeOnly)
	}
	s.linkHTML(w, http.StatusOK, d)
}

// linkAnswer answers the question a link is for: from its confirm page (a
// form), or a notification's button (ntfy posts "allow" or "deny").
// A post from another site's page is refused (its Origin is not this
// one's): the token is the credential, and no page but the confirm one
// may spend it.
func (s *Server) linkAnswer(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	html := strings.Contains(r.Header.Get("Accept"), "text/html")
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		if u, err := url.Parse(o); err != nil || u.Host != r.Host {
			writeJSON(w, http.StatusForbidden, map[string]any{"error": "a post from another site's page"})
			return
		}
	}
	agent, id, q, err := s.linkQuestion(token)
	if err != nil {
		writeJSON(w, http.StatusForbidden, map[string]any{"error": err.Error()})
		return
	}
	b, err := linkBody(w, r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
		return
	}
	by := asks.Credential{Via: "link", By: "a notification's link", From: r.RemoteAddr}
	if !html {
		s.answer(w, r, agent, id, b, by)
		return
	}
	d := linkView{Lang: "en", Q: q, Done: b.Decision}
	if allow, perr := asks.ParseWord(b.Decision); perr != nil {
		d.Error = perr.Error()
	} else if _, err := s.opts.Asker.Answer(agent, id, asks.Decision{Allow: allow, Message: b.Message}, by); err != nil {
		d.Error = err.Error()
	}
	s.linkHTML(w, http.StatusOK, d)
}

// linkBody reads a link's answer: a form (decision, message), JSON, or a
// bare word.
func linkBody(w http.ResponseWriter, r *http.Request) (answerBody, error) {
	var b answerBody
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	body := http.MaxBytesReader(w, r.Body, maxAnswerBody)
	switch ct {
	case "application/x-www-form-urlencoded":
		r.Body = body
		if err := r.ParseForm(); err != nil {
			return b, err
		}
		return answerBody{Decision: r.PostForm.Get("decision"), Message: r.PostForm.Get("message")}, nil
	case "application/json":
		return b, json.NewDecoder(body).Decode(&b)
	}
	raw, err := io.ReadAll(body)
	return answerBody{Decision: strings.TrimSpace(string(raw))}, err
}

// linkView is what the link's page shows.
type linkView struct {
	Lang               string
	Q                  *asks.Question
	Input, Since, Hold string
	Done, Error        string
}

func (s *Server) linkHTML(w http.ResponseWriter, code int, d linkView) {
	h := w.Header()
	// The confirm page's own form posts to itself; nothing else changes.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = linkTmpl.Execute(w, d)
}

var linkTmpl = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>ai-heart: a question</title><link rel="stylesheet" href="/style.css"></head>
<body class="answer"><main>
{{if .Error}}<h1>Nothing to answer</h1><p class="err" role="alert">{{.Error}}</p>
{{else if .Done}}<h1>{{if eq .Done "allow"}}Allowed{{else}}Denied{{end}}</h1><p role="status">{{.Q.Agent}}: {{.Q.Tool}} — handed to the client's hook.</p>
{{else}}<h1>{{.Q.Agent}} asks to run {{.Q.Tool}}</h1>
<pre class="input">{{.Input}}</pre>
<p>Waiting since {{.Since}}; offered until {{.Hold}}, then only the client's own dialog answers.</p>
<form method="post">
<label>Words for the agent, with a denial <input name="message" maxlength="2000" autocomplete="off"></label>
<p><button name="decision" value="allow" type="submit">Allow</button> <button name="decision" value="deny" type="submit">Deny</button></p>
</form>
<p class="small">This link answers this one question, once.</p>{{end}}
</main></body></html>
`))
