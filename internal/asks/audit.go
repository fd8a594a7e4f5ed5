package asks

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// AuditFile is the answers' record in the agent's state folder: one JSON
// line per answer, withdrawal, refused answer and word to the agent, 0600.
const AuditFile = "answers.jsonl"

// Append writes r as one line to the record at path.
func Append(path string, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return safeopen.Append(path, append(b, '\n'), 0o600)
}
