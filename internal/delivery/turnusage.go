package delivery

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxTranscriptTail is how much of a client's session transcript is read
// for one turn's usage: its end, where the turn just finished.
const maxTranscriptTail = 8 << 20

// TurnUsage is what one interactive turn used, between from and to, as the
// session transcript its client keeps says (the turn's end hook names it),
// read by the client's adapter (Claude Code's: internal/clients/claudecode).
// nil means unknown: a client whose transcripts carry no usage, no file, or
// no message. The path comes from the agent's side, so the file is opened
// without blocking, only if regular, and read from its last 8 MiB.
func TurnUsage(client, path string, from, to time.Time) (*cost.Usage, error) {
	a := clients.Lookup(client)
	if a == nil || a.Transcripts() == nil || path == "" {
		return nil, nil
	}
	b, err := workspace.ReadAgentFileTail(path, maxTranscriptTail)
	if err != nil {
		return nil, err
	}
	return a.Transcripts()(b, from, to), nil
}
