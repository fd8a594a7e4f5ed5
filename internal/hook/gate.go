package hook

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// GateFile is the workspace-relative file the watchdog keeps current while
// a budget that binds inside a turn (budget.enforce: turn) is spent: the
// client's pre-tool hook reads it and refuses the turn's further tool
// calls. A missing, garbled or stale file allows every call, so the hook
// never blocks the agent when the watchdog is down; the watchdog's next
// write replaces any such file. Something in its place that no write
// replaces (a folder), or that cannot be read, refuses every call but
// mcp-heart's, saying what it is (GateError): the budget is enforced, and
// the agent can remove it.
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

// ReadGate reads the workspace's gate. No file, a link (the watchdog's
// write replaces it), a body too large or garbled: an open gate. Anything
// else at the path that is no regular file (a folder, a FIFO, a socket, a
// device), or a path that cannot be looked at or read, is a *GateError:
// the gate cannot be known open, and the hook refuses.
func ReadGate(root string) (Gate, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return Gate{}, nil // no workspace: no watchdog writes a gate there
	}
	defer r.Close()
	name := filepath.FromSlash(GateFile)
	fi, err := r.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Gate{}, nil
	case err != nil:
		return Gate{}, &GateError{Err: err}
	case fi.Mode()&fs.ModeSymlink != 0:
		return Gate{}, nil
	case !fi.Mode().IsRegular():
		return Gate{}, &GateError{Kind: kindOf(fi.Mode())}
	}
	b, err := safeopen.ReadHeadIn(r, name, maxGate+1)
	if err != nil {
		return Gate{}, &GateError{Err: err}
	}
	var g Gate
	if int64(len(b)) > maxGate || json.Unmarshal(b, &g) != nil {
		return Gate{}, nil
	}
	return g, nil
}

// GateError says why the gate could not be read: Kind is what stands in
// its place instead of a file ("folder", "FIFO", "socket", "device"), else
// Err is why it could not be looked at or read.
type GateError struct {
	Kind string
	Err  error
}

func (e *GateError) Error() string {
	if e.Kind != "" {
		return GateFile + " is a " + e.Kind + ", not a file: remove it"
	}
	return GateFile + " cannot be read (" + e.Err.Error() + "): remove it"
}

func (e *GateError) Unwrap() error { return e.Err }

// kindOf names what a file that is not regular is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "device"
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
