package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// SpoolDir is the workspace-relative folder of the day files.
const SpoolDir = "stats/hooks"

// Bounds on reading a spool the agent can write.
const (
	MaxLine = 4 << 10  // a line longer than this is skipped
	MaxRead = 1 << 20  // read at most this much per Read
	keep    = 48 << 10 // Tail.Start reads at most this much of a day already written
)

// SpoolFile is the workspace-relative day file events at t go to.
func SpoolFile(t time.Time) string {
	return SpoolDir + "/" + t.UTC().Format("20060102") + ".jsonl"
}

// Append writes e as one line to its day's file under the workspace root.
// One write of a line under PIPE_BUF with O_APPEND: concurrent hooks never
// interleave. It creates stats/hooks when missing, refuses to follow a
// link or open anything but a regular file, and never blocks on a FIFO.
func Append(root string, e Event) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	dir := filepath.Join(root, filepath.FromSlash(SpoolDir))
	path := filepath.Join(root, filepath.FromSlash(SpoolFile(e.Time)))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, 0o640)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o750); err == nil {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, 0o640)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
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
// line, read again when it is whole.
func (t *Tail) Read(now time.Time) ([]Event, error) {
	today := SpoolFile(now)
	if t.day == "" {
		t.day = today
	}
	var out []Event
	for {
		evs, err := t.readDay()
		out = append(out, evs...)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, err
		}
		if t.day >= today {
			return out, nil
		}
		// The day is over (nothing more is written to it): on to the next.
		next, _ := time.Parse("20060102", t.day[len(SpoolDir)+1:len(SpoolDir)+9])
		t.day, t.off, t.skipPartial = SpoolFile(next.AddDate(0, 0, 1)), 0, false
	}
}

func (t *Tail) abs(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// readDay reads the current day file from the offset.
func (t *Tail) readDay() ([]Event, error) {
	f, err := os.OpenFile(t.abs(t.day), os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", t.day)
	}
	if fi.Size() < t.off {
		t.off = 0 // truncated or replaced: start again
	}
	buf := make([]byte, min(fi.Size()-t.off, MaxRead))
	n, err := f.ReadAt(buf, t.off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	if t.skipPartial {
		// Started inside the file: the first line may be cut.
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, nil
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
			return out, nil
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
