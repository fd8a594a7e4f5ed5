package daemon

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxTell bounds a person's words for the agent.
const maxTell = 16 << 10

// tell writes a person's words for the agent as a feedback item, where the
// agent already reads them: feedbackbox/from-user-<time>.md, or with the
// interrupt. prefix when urgent (which wakes the agent as any urgent item
// does). The item is created whole, under a name nothing holds, and
// recorded with who sent it.
func (a *agent) tell(text string, urgent bool, by asks.Credential) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", errors.New("nothing to tell: the text is empty")
	case len(text) > maxTell:
		return "", fmt.Errorf("the text is %d bytes, more than %d", len(text), maxTell)
	}
	now := a.clock.Now()
	l := a.cfg.Language
	body := "# " + ja.F(l, "From the user, through the watchdog (%s, %s)", now.In(a.loc).Format(time.DateTime), channel(by.Via, l)) + "\n\n" + text + "\n"
	stamp := now.In(a.loc).Format("20060102-150405")
	for i := 1; i <= 9; i++ {
		name := "from-user-" + stamp
		if i > 1 {
			name += fmt.Sprintf("-%d", i)
		}
		name += ".md"
		if urgent {
			name = "interrupt." + name
		}
		rel := workspace.FeedbackboxDir + "/" + name
		err := a.ws.CreateNew(rel, []byte(body), time.Time{})
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("write %s: %w", rel, err)
		}
		r := asks.Record{Time: now, Agent: a.name, Outcome: asks.Told, File: rel, Urgent: urgent, Credential: by}
		a.asked(asks.Change{Record: &r})
		return rel, nil
	}
	return "", fmt.Errorf("feedbackbox/ already holds items named from-user-%s", stamp)
}

// denial is what the model reads when a person denies its call from afar
// (the client hands it over as the call's error).
func (a *agent) denial(d asks.Decision, by asks.Credential) string {
	l := a.cfg.Language
	s := ja.F(l, "The user denied this call from afar, through the watchdog (%s).", channel(by.Via, l))
	if m := strings.TrimSpace(d.Message); m != "" {
		s += " " + ja.F(l, "Their words: %s", oneLine(m, 2000))
	}
	return s + " " + ja.T(l, "Do not repeat the same call: choose another way, or write in your activity log what you need.")
}

// channel names how a person's answer or words came, for the agent.
func channel(via string, l lang.Lang) string {
	switch via {
	case "page":
		return ja.T(l, "the page")
	case "link":
		return ja.T(l, "a notification's link")
	case "cli":
		return ja.T(l, "the command line")
	}
	return via
}
