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
// at the same time, so that the published one is done while the state
// folder's waits for its fsync. The bytes are those Save and Publish write.
// Both copies are always attempted, and each reports its own error.
//
// Both writes are atomic (a temp file renamed over the name), but only the
// state folder's is durable: it is what a restarted watchdog adopts
// (recovery, the wakeup in flight, the counters), so it must survive a
// crash. The published copy is derived from it, written again at every
// pulse and never read back by the watchdog; a power cut that leaves it
// older (or empty, on some file systems) only makes the agent's tools say
// no watchdog runs, which is true until the restarted watchdog's first
// pulse rewrites it. Its fsyncs were a third of a quiet pulse.
func SaveAndPublish(dir string, ws *workspace.Workspace, s State) (saveErr, publishErr error) {
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	b, err := e.encode(s)
	if err != nil {
		return fmt.Errorf("encode state: %w", err), fmt.Errorf("publish state: %w", err)
	}
	published := make(chan error, 1)
	go func() { published <- ws.WriteFileNoSync(workspace.StateFile, b) }()
	saveErr = statefile.WriteEncoded(filepath.Join(dir, File), b)
	return saveErr, <-published
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
