package delivery

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxTranscriptTail is how much of a client's session transcript is read
// for one turn's usage: its end, where the turn just finished.
const maxTranscriptTail = 8 << 20

// TurnUsage sums what one interactive turn used, from the session
// transcript its client keeps (the Stop hook names it): Claude Code writes
// each assistant message with its usage and a timestamp, once per content
// block, so messages are counted once by id. Only messages between from and
// to count. nil means unknown: another client, no file, or no message.
// The path comes from the agent's side, so the file is opened without
// blocking, only if regular, and read from its last 8 MiB.
func TurnUsage(client, path string, from, to time.Time) (*cost.Usage, error) {
	if client != "claude-code" || path == "" {
		return nil, nil
	}
	b, err := workspace.ReadAgentFileTail(path, maxTranscriptTail)
	if err != nil {
		return nil, err
	}
	type entry struct {
		Type      string    `json:"type"`
		Timestamp time.Time `json:"timestamp"`
		Message   struct {
			ID    string       `json:"id"`
			Model string       `json:"model"`
			Usage *claudeUsage `json:"usage"`
		} `json:"message"`
	}
	byID := map[string]entry{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxTranscriptTail)
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
		byID[id] = e // the last block carries the message's final usage
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	if len(order) == 0 {
		return nil, nil
	}
	u := &cost.Usage{Models: map[string]cost.Tokens{}}
	for _, id := range order {
		e := byID[id]
		t := e.Message.Usage.tokens()
		u.Tokens = u.Tokens.Add(t)
		u.Models[e.Message.Model] = u.Models[e.Message.Model].Add(t)
	}
	return u, nil
}
