// Package transcript is the record of exec wakeups: one JSON line per wakeup
// in stats/wakeups/<YYYY-MM-DD>.jsonl, minus the ghosts. A ghost is a wakeup
// whose whole reply is the idle token: the agent had nothing to do, so (as in
// the Heart paper's [IDLE] ghost mode) it leaves no trace here and the caller
// only counts it.
//
// The day's file is an append-only log, appended to in place rather than
// rewritten and renamed like the workspace's other files: a rewrite would cost
// a read and write of the whole day per wakeup (quadratic over a day with no
// daily cap and replies up to 1 MiB), while an append costs one line. A crash
// costs at most the line being written: the next Append starts on a fresh
// line, and Read skips the torn one.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ai-heart/ai-heart/internal/progress"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// IdleToken is the reply by which an agent says it has nothing to do.
const IdleToken = "[IDLE]"

// LegacyIdleToken is also accepted as the idle token (other heartbeat tools
// use it).
const LegacyIdleToken = "HEARTBEAT_OK"

// IsGhost reports whether reply is a ghost: the whole reply, trimmed of
// white space, is IdleToken or LegacyIdleToken. A reply that says anything
// else, or nothing at all, is not a ghost.
func IsGhost(reply string) bool {
	r := strings.TrimSpace(reply)
	return r == IdleToken || r == LegacyIdleToken
}

// Entry is one wakeup as the transcript records it.
type Entry struct {
	// Time is when the wakeup was delivered; written in the transcript's
	// location.
	Time time.Time `json:"time"`
	// Agent is the agent's display name.
	Agent string `json:"agent"`
	// Source is what woke it: "schedule", "extra", "idle"...
	Source string `json:"source"`
	// Prompt is the text delivered.
	Prompt string `json:"prompt"`
	// Reply is the agent's stdout.
	Reply string `json:"reply"`
	// DurationMS is how long the agent command ran, in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// ExitCode is the agent command's exit status (-1 when it did not exit).
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the agent command, if one did.
	Signal string `json:"signal,omitempty"`
	// Error says why the delivery failed; empty on success.
	Error string `json:"error,omitempty"`
	// Truncated is true when the reply was cut at the delivery's output limit
	// (delivery.MaxReply): Reply is only its beginning.
	Truncated bool `json:"truncated,omitempty"`
	// Work is what the run changed in the folders progress watches (files,
	// commits, their lines); absent when progress is off or the run did
	// not answer.
	Work *progress.Change `json:"work,omitempty"`
	// Run is what the wakeup cost: "usage" (null when the client reported
	// none: unknown, never 0) and "cost_usd" (null when no price is known).
	cost.Run
}

// ErrNoTime reports an Entry without a Time: it has no day to go to.
var ErrNoTime = errors.New("entry has no time")

// mu serialises Appends within the process, so the newline check before a
// line and the line itself are never interleaved with another Append.
var mu sync.Mutex

// File is the workspace-relative transcript file for the local day of t in
// loc (nil = Local): stats/wakeups/<YYYY-MM-DD>.jsonl.
func File(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.Local
	}
	return workspace.WakeupsDir + "/" + t.In(loc).Format("2006-01-02") + ".jsonl"
}

// Append adds e as one JSON line to the transcript file of e.Time's local day
// in loc (nil = the workspace's location). The line is appended to the file
// (created if missing) in one write and synced; it is not renamed into place,
// because the file is an append-only log where a crash costs at most the line
// being written. A last line missing its newline (torn by a crash) gets one
// first. It is safe for concurrent use within the process (not across
// processes).
func Append(ws *workspace.Workspace, loc *time.Location, e Entry) error {
	if loc == nil {
		loc = ws.Loc
	}
	if e.Time.IsZero() {
		return fmt.Errorf("append wakeup: %w", ErrNoTime)
	}
	e.Time = e.Time.In(loc).Round(0)
	rel := File(e.Time, loc)
	line := bytes.NewBufferString("\n") // dropped below unless the file lacks its final newline
	enc := json.NewEncoder(line)
	enc.SetEscapeHTML(false) // keep prompts and replies readable: <, >, & as is
	if err := enc.Encode(e); err != nil {
		return fmt.Errorf("encode wakeup: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	// Transcripts hold prompts and replies: not for other users.
	f, err := ws.OpenAppend(rel, 0o640)
	if err != nil {
		return fmt.Errorf("append wakeup: %w", err)
	}
	defer f.Close()
	b := line.Bytes()
	if torn, err := lacksNewline(f); err != nil {
		return fmt.Errorf("append wakeup: %s: %w", rel, err)
	} else if !torn {
		b = b[1:]
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("append wakeup: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("append wakeup: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append wakeup: %w", err)
	}
	return nil
}

// lacksNewline reports whether f is not empty and its last byte is not a
// newline.
func lacksNewline(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// maxRead bounds what Read takes of a transcript file: its newest part.
const maxRead = 16 << 20

// Read returns the entries of the transcript file rel (as File names it). A
// missing file has no entries. Lines that are not valid entries are skipped
// and reported together in the error, alongside the entries that were read.
func Read(ws *workspace.Workspace, rel string) ([]Entry, error) {
	b, err := ws.ReadFileTail(rel, maxRead)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	var (
		out  []Entry
		errs []error
	)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			errs = append(errs, fmt.Errorf("read %s:%d: %w", rel, n, err))
			continue
		}
		out = append(out, e)
	}
	return out, errors.Join(errs...)
}
