package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// SpoolDir is the workspace-relative folder of the day files.
const SpoolDir = "stats/hooks"

// Bounds on a spool the agent can write.
const (
	MaxLine = 4 << 10  // a line longer than this is skipped
	MaxRead = 1 << 20  // read at most this much of a day file per Read: the newest
	MaxDay  = 64 << 20 // Append starts a day file this large again
	keep    = 48 << 10 // Tail.Start reads at most this much of a day already written
)

// ErrFlood reports a spool written faster than hooks write: more than
// MaxRead bytes between two reads (hooks write a few hundred bytes per
// event), or a day file of MaxDay. The agent can write the spool itself; its
// flood is skipped, not read, and the operator is told.
var ErrFlood = errors.New("the hooks' spool is flooded (more than hooks write: forged lines?)")

// ErrOutside reports a spool folder linked out of the workspace: it is not
// read or written.
var ErrOutside = errors.New("links out of the workspace")

// SpoolFile is the workspace-relative day file events at t go to.
func SpoolFile(t time.Time) string {
	return SpoolDir + "/" + t.UTC().Format("20060102") + ".jsonl"
}

// Append writes e as one line to its day's file under the workspace root.
// One write of a line under PIPE_BUF with O_APPEND: concurrent hooks never
// interleave. It creates stats/hooks when missing, never leaves the
// workspace through a link, refuses anything but a regular file, and never
// blocks on a FIFO. A day file of MaxDay bytes is a flood (hooks write a
// few hundred bytes an event; the watchdog skipped it unread): it is
// started again, so the disk holds MaxDay at most and the real events of
// the rest of the day still count. A line the agent left unended gets a
// line end first: the event is never glued to junk.
func Append(root string, e Event) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	r, err := os.OpenRoot(root)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(root, 0o750); err == nil {
			r, err = os.OpenRoot(root)
		}
	}
	if err != nil {
		return err
	}
	defer r.Close()
	name := filepath.FromSlash(SpoolFile(e.Time))
	const flag = os.O_RDWR | os.O_APPEND | os.O_CREATE // read: the last byte
	f, err := safeopen.OpenIn(r, name, flag, 0o640)
	if errors.Is(err, os.ErrNotExist) {
		if err = r.MkdirAll(filepath.FromSlash(SpoolDir), 0o750); err == nil {
			f, err = safeopen.OpenIn(r, name, flag, 0o640)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	switch size := fi.Size(); {
	case size >= MaxDay:
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("%s: %w, and it cannot be started again: %w", SpoolFile(e.Time), ErrFlood, err)
		}
	case size > 0:
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, err = f.Write(line)
	return err
}

// Tail reads a workspace's spool as it grows: each Read returns the events
// appended since the last one, following the day files across midnight.
// Not safe for concurrent use.
type Tail struct {
	root string
	day  string // workspace-relative day file being read
	off  int64  // bytes of it consumed (whole lines)
	// skipPartial: the offset may be inside a line (Start), so the first
	// line read is dropped.
	skipPartial bool
}

// NewTail follows the spool of the workspace at root.
func NewTail(root string) *Tail { return &Tail{root: root} }

// Start positions the tail at now's day file, keeping the last few lines
// already written (at most 48 KiB): a restarted watchdog learns whether the
// agent is in a turn without reading the history.
func (t *Tail) Start(now time.Time) {
	t.day = SpoolFile(now)
	t.off = 0
	if fi, err := os.Lstat(t.abs(t.day)); err == nil && fi.Size() > keep {
		t.off = fi.Size() - keep
		t.skipPartial = true
	}
}

// Read returns the events appended since the last Read, oldest first, up to
// now's day. Lines that are not events are skipped; so is a partial last
// line, read again when it is whole. At most MaxRead bytes of a day file are
// read per Read, the newest: a backlog larger than that (the agent can write
// the spool as fast as it likes) is skipped, so the newest events, a real
// end of turn among them, count at once, and the error wraps ErrFlood. A
// spool folder linked out of the workspace is not read: ErrOutside.
func (t *Tail) Read(now time.Time) ([]Event, error) {
	today := SpoolFile(now)
	if t.day == "" {
		t.day = today
	}
	if err := t.linkedOut(); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(t.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []Event
	var flood error
	for {
		evs, err := t.readDay(r)
		out = append(out, evs...)
		switch {
		case errors.Is(err, ErrFlood):
			flood = err
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return out, err
		}
		if t.day >= today {
			return out, flood
		}
		// The day is over (nothing more is written to it): on to the next.
		next, _ := time.Parse("20060102", t.day[len(SpoolDir)+1:len(SpoolDir)+9])
		t.day, t.off, t.skipPartial = SpoolFile(next.AddDate(0, 0, 1)), 0, false
	}
}

func (t *Tail) abs(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// linkedOut reports stats or stats/hooks linked out of the workspace: the
// reads go through the workspace's os.Root (nothing outside is ever
// opened), and this says why to the operator.
func (t *Tail) linkedOut() error {
	for _, rel := range [2]string{path.Dir(SpoolDir), SpoolDir} {
		fi, err := os.Lstat(t.abs(rel))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			continue // the common case, every pulse: nothing more to resolve
		}
		root, err := filepath.EvalSymlinks(t.root)
		if err != nil {
			return nil // the open says what is wrong
		}
		real, err := filepath.EvalSymlinks(t.abs(rel))
		if err != nil {
			continue
		}
		if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s points to %s: %w", rel, real, ErrOutside)
		}
	}
	return nil
}

// readDay reads the current day file from the offset, at most MaxRead
// bytes, skipping to the newest MaxRead when more is waiting.
func (t *Tail) readDay(r *os.Root) ([]Event, error) {
	f, err := safeopen.OpenIn(r, filepath.FromSlash(t.day), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() < t.off {
		t.off, t.skipPartial = 0, false // truncated or replaced: start again, from a line's start
	}
	var flood error
	if behind := fi.Size() - t.off; behind > MaxRead {
		// The text stays the same through a flood: it is alerted once.
		t.off, t.skipPartial = fi.Size()-MaxRead, true
		flood = fmt.Errorf("%s: over %d MiB written since the last read, the older part skipped unread: %w", t.day, MaxRead>>20, ErrFlood)
	}
	buf := make([]byte, fi.Size()-t.off)
	n, err := f.ReadAt(buf, t.off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	if t.skipPartial {
		// Started inside the file: the first line may be cut.
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, flood
		}
		t.off += int64(i + 1)
		buf = buf[i+1:]
		t.skipPartial = false
	}
	var out []Event
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			if len(buf) > MaxLine {
				// No line is this long: skip it (its tail, once ended,
				// is not an event either).
				t.off += int64(len(buf))
			}
			return out, flood
		}
		line := buf[:i]
		t.off += int64(i + 1)
		buf = buf[i+1:]
		if len(line) > MaxLine {
			continue
		}
		var e Event
		if json.Unmarshal(line, &e) == nil && e.Kind != "" && !e.Time.IsZero() {
			out = append(out, e)
		}
	}
}
