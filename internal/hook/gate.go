package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// GateFile is the workspace-relative file the watchdog keeps current while
// a budget that binds inside a turn (budget.enforce: turn) is spent: the
// client's pre-tool hook reads it and refuses the turn's further tool
// calls. The agent can write it; forging it only makes its own calls
// refused, and a missing, garbled or stale file allows every call, so the
// hook never blocks the agent when the watchdog is down.
const GateFile = "stats/budget_gate.json"

// GateMaxAge bounds how long a gate is believed past its writing, whatever
// its Expires says: the watchdog rewrites it every pulse while it holds.
const GateMaxAge = time.Hour

// maxGate bounds what is read of the gate file.
const maxGate = 4 << 10

// Gate is the budget gate's content.
type Gate struct {
	Spent   bool      `json:"spent"`
	Written time.Time `json:"written"`
	// Expires is when the gate stops being believed (two pulses after
	// Written, at most GateMaxAge): a watchdog that stopped writing it
	// stops refusing.
	Expires time.Time `json:"expires"`
	Until   time.Time `json:"until"`  // when the budget renews (local midnight)
	Reason  string    `json:"reason"` // what the agent is told, in its language
}

// Closed reports whether g refuses tool calls at now.
func (g Gate) Closed(now time.Time) bool {
	return g.Spent && g.Reason != "" && !now.Before(g.Written.Add(-time.Minute)) &&
		now.Before(g.Expires) && g.Expires.Sub(g.Written) <= GateMaxAge && now.Before(g.Until)
}

// ReadGate reads the workspace's gate. Any failure (no file, a link out of
// the workspace, a FIFO, a garbled body) is an open gate: it allows.
func ReadGate(root string) Gate {
	var g Gate
	if !readSmall(root, GateFile, maxGate, &g) {
		return Gate{}
	}
	return g
}

// readSmall decodes the workspace's JSON file rel, at most max bytes, into
// v: false on any failure (no file, a link out of the workspace, a FIFO, a
// body too large or garbled). The watchdog's files the hook reads are the
// agent's to write: none may block or mislead the hook beyond its own turn.
func readSmall(root, rel string, max int64, v any) bool {
	r, err := os.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	b, err := safeopen.ReadHeadIn(r, filepath.FromSlash(rel), max+1)
	return err == nil && int64(len(b)) <= max && json.Unmarshal(b, v) == nil
}
