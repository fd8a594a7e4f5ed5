package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// CheckpointEntry is one line of a checkpoint file: "HH:MM:SS <message>".
// Time is "" for a legacy free-text file, read as one message.
type CheckpointEntry struct {
	Time    string
	Message string
}

// isClock reports whether s starts with "HH:MM:SS " or is "HH:MM:SS" (an
// empty message, trimmed).
func isClock(s string) bool {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' || (len(s) > 8 && s[8] != ' ' && s[8] != '\t') {
		return false
	}
	for _, i := range []int{0, 1, 3, 4, 6, 7} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ParseCheckpoints reads a checkpoint file. Lines "HH:MM:SS msg" are entries;
// free text before the first such line (a legacy file) is one entry; other
// lines continue the entry before them.
func ParseCheckpoints(data []byte) []CheckpointEntry {
	var out []CheckpointEntry
	var legacy []string
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if isClock(line) {
			out = append(out, CheckpointEntry{Time: line[:8], Message: strings.TrimSpace(line[8:])})
			continue
		}
		if len(out) == 0 {
			legacy = append(legacy, line)
			continue
		}
		last := &out[len(out)-1]
		last.Message = strings.TrimSpace(last.Message + " " + line)
	}
	if len(legacy) > 0 {
		out = append([]CheckpointEntry{{Message: strings.Join(legacy, " ")}}, out...)
	}
	return out
}

// LastCheckpointMessage is the latest message of a checkpoint file, or "".
func LastCheckpointMessage(data []byte) string {
	e := ParseCheckpoints(data)
	if len(e) == 0 {
		return ""
	}
	return e[len(e)-1].Message
}

// AppendCheckpoint returns existing with one more line for msg at t; old lines
// are kept byte for byte.
func AppendCheckpoint(existing []byte, t time.Time, msg string) []byte {
	var b bytes.Buffer
	b.Write(existing)
	if len(existing) > 0 && !bytes.HasSuffix(existing, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString(t.Format("15:04:05") + " " + OneLine(msg) + "\n")
	return b.Bytes()
}

// checkpointLock is held while a checkpoint file is read, extended and
// replaced, so two servers appending at once never drop each other's line.
const checkpointLock = ".checkpoint.lock"

// AddCheckpoint appends the line "HH:MM:SS msg" (t in the workspace's zone)
// to stats/checkpoints/<id>.txt, rewriting the file atomically and durably
// with its old lines kept, and records it in the latest-proof index. Both
// happen under a lock shared by every process, so the index's message is
// the file's last line. The folder is opened once for the read, the write
// and its sync. It returns the new entry as a proof.
func (w *Workspace) AddCheckpoint(id ID, t time.Time, msg string) (Proof, error) {
	rel := CheckpointsDir + "/" + string(id) + ".txt"
	unlock, err := w.lock(checkpointLock)
	if err != nil {
		return Proof{}, fmt.Errorf("lock checkpoints: %w", err)
	}
	defer unlock()
	var mod time.Time
	sync := w.fsync()
	err = w.in(CheckpointsDir, func(r *os.Root, dir string) error {
		d, err := openDirIn(r, dir)
		if err != nil {
			return err
		}
		defer d.Close()
		name := string(id) + ".txt"
		old, err := safeopen.ReadHeadIn(d, name, MaxTextFile+1)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if int64(len(old)) > MaxTextFile {
			return fmt.Errorf("read %s: %w (over %d bytes)", rel, safeopen.ErrTooLarge, MaxTextFile)
		}
		mod, err = replaceIn(d, name, AppendCheckpoint(old, t.In(w.Loc), msg), sync)
		return err
	})
	if err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	p := Proof{Path: rel, ID: id, ModTime: mod, Message: OneLine(msg)}
	if err := w.UpdateLatest(func(l *Latest) { l.NoteCheckpoint(p) }); err != nil {
		return p, err
	}
	return p, nil
}
