package claudecode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// TurnUsage sums what one turn used from the end of a session transcript
// (the Stop hook names it): Claude Code writes each assistant message with
// its usage and a timestamp, once per content block, so messages are
// counted once by id, the last block's usage being the message's final
// one. Only messages between from and to count; nil when none does.
func TurnUsage(tail []byte, from, to time.Time) *tokens.Usage {
	type entry struct {
		Type      string    `json:"type"`
		Timestamp time.Time `json:"timestamp"`
		Message   struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage *usage `json:"usage"`
		} `json:"message"`
	}
	byID := map[string]entry{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(tail))
	sc.Buffer(nil, max(len(tail)+1, bufio.MaxScanTokenSize))
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type != "assistant" || e.Message.Usage == nil {
			continue
		}
		if e.Timestamp.Before(from) || e.Timestamp.After(to) {
			continue
		}
		id := e.Message.ID
		if id == "" {
			id = e.Timestamp.String()
		}
		if _, seen := byID[id]; !seen {
			order = append(order, id)
		}
		byID[id] = e
	}
	if len(order) == 0 {
		return nil
	}
	u := &tokens.Usage{Models: map[string]tokens.Tokens{}}
	for _, id := range order {
		e := byID[id]
		t := e.Message.Usage.tokens()
		u.Tokens = u.Tokens.Add(t)
		u.Models[e.Message.Model] = u.Models[e.Message.Model].Add(t)
	}
	return u
}
