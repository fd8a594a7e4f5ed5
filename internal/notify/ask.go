package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// Question is a question of the agent's client that a person may answer
// from afar: its message goes out at once, with a link (and, on ntfy, an
// Allow and a Deny button that post the answer).
type Question struct {
	Agent string
	ID    string
	Tool  string
	Input string    // the tool's input, on one line
	Since time.Time // when it was asked
	// Link opens the page that confirms the answer; Answer is where the
	// buttons post "allow" or "deny" ("" for none).
	Link, Answer string
	// Reminder: it has waited long (the second and last message).
	Reminder bool
}

// askQuiet is how long after an agent's last question closed its
// waiting_for_you alert is not sent: the question's own message said it.
const askQuiet = 2 * time.Minute

// Asked sends q's message to every target that hears warnings, at once,
// never folded; while the agent has a question offered (Asking), its
// waiting_for_you alert is left to the question's message.
func (n *Notifier) Asked(q Question) {
	title := termsafe.Line(fmt.Sprintf("ai-heart: %s asks to run %s", q.Agent, q.Tool))
	if q.Reminder {
		title = termsafe.Line(fmt.Sprintf("ai-heart: %s still waits for you (%s)", q.Agent, q.Tool))
	}
	input := q.Input
	if len(input) > 500 {
		input = strings.ToValidUTF8(input[:500], "") + "…"
	}
	body := fmt.Sprintf("%s: %s\nwaiting since %s", q.Tool, input, q.Since.Format("15:04:05"))
	if q.Link != "" {
		body += "\nallow or deny: " + q.Link
	}
	body += fmt.Sprintf("\nor at the watchdog's machine: watchdog answer %s allow|deny", q.ID)
	m := message{agent: q.Agent, title: title, body: termsafe.Text(body), link: q.Link, answer: q.Answer}
	dropped := 0
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	for _, t := range n.targets {
		if t.fold.minLevel > checks.Warning {
			continue
		}
		select {
		case t.queue <- m:
		default:
			dropped++
		}
	}
	n.mu.Unlock()
	for range dropped {
		n.result(q.Agent, fmt.Errorf("queue full"))
	}
}

// Asking says whether agent has a question offered now: while it has, and
// for askQuiet after, its waiting_for_you changes are not sent.
func (n *Notifier) Asking(agent string, pending bool, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if pending {
		n.asking[agent] = time.Time{}
		return
	}
	if _, ok := n.asking[agent]; ok {
		n.asking[agent] = now.Add(askQuiet)
	}
}

// quiet drops agent's waiting_for_you changes its question's message
// already said. Called with n.mu held.
func (n *Notifier) quiet(agent string, changes []Change, now time.Time) []Change {
	until, ok := n.asking[agent]
	if !ok {
		return changes
	}
	if !until.IsZero() && now.After(until) {
		delete(n.asking, agent)
		return changes
	}
	out := changes[:0:0]
	for _, c := range changes {
		if c.Check != checks.WaitingForYou {
			out = append(out, c)
		}
	}
	return out
}

// askParams are a question's buttons and click target, for the services
// that take them (ntfy); nil for the others.
func askParams(url string, m message) map[string]string {
	if m.link == "" || !strings.HasPrefix(url, "ntfy://") {
		return nil
	}
	p := map[string]string{"click": m.link}
	if m.answer != "" {
		p["actions"] = fmt.Sprintf("http, Allow, %s, method=POST, body=allow, clear=true; http, Deny, %s, method=POST, body=deny, clear=true", m.answer, m.answer)
	}
	return p
}
