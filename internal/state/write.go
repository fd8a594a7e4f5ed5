package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/ai-heart/ai-heart/internal/statefile"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Save writes the state file to the agent's state folder dir atomically
// (0600).
func Save(dir string, s State) error {
	return statefile.Write(filepath.Join(dir, File), s)
}

// Publish writes the copy for the agent's tools to the workspace atomically
// (not durably: see SaveAndPublish).
func Publish(ws *workspace.Workspace, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("publish state: %w", err)
	}
	return ws.WriteFileNoSync(workspace.StateFile, append(b, '\n'))
}

// SaveAndPublish is Save and Publish of one pulse: s is encoded once, into
// a buffer kept from one pulse to the next, and the two copies are written
// one after the other (the published one into a file kept open, see
// workspace.WritePulseFile). The bytes are those Save and Publish write.
// Both copies are always attempted, and each reports its own error.
//
// Both writes are atomic (a temp file renamed over the name); neither is
// fsynced unless durable. Both are rewritten whole at every pulse, and
// what a restarted watchdog takes from the state folder's copy (when each
// channel of the client last spoke, the last pulse for the day strip, the
// counts it compares with the ledger and the daily cap, which are durable
// in their own files) is worth an fsync only when it changed: the caller
// says so. A power cut may then lose the last pulses' clock, which the
// next pulse rewrites. The published copy is never read back by the
// watchdog. The fsyncs were most of a quiet pulse.
func SaveAndPublish(dir string, ws *workspace.Workspace, s State, durable bool) (saveErr, publishErr error) {
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	b, err := e.encode(s)
	if err != nil {
		return fmt.Errorf("encode state: %w", err), fmt.Errorf("publish state: %w", err)
	}
	publishErr = ws.WritePulseFile(workspace.StateFile, b)
	write := statefile.WriteEncodedNoSync
	if durable {
		write = statefile.WriteEncoded
	}
	saveErr = write(filepath.Join(dir, File), b)
	return saveErr, publishErr
}

// encoder turns a State into the file's bytes (indented JSON and a
// newline, as json.MarshalIndent), reusing its buffers.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetIndent("", "  ")
	return e
}}

// encode returns s's bytes, valid until e is used again.
func (e *encoder) encode(s State) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(s); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}
