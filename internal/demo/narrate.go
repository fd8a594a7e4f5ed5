package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// Narrator prints the timeline a person reads: one line per event, with
// its time and a fixed-width kind, never JSON. A run of wakeups that get the
// same reply (strict deep work, say) is told once, with a count.
type Narrator struct {
	mu  sync.Mutex
	w   io.Writer
	loc *time.Location
	// Lang is the language of the narration's own words (alert lines
	// stay English: they are what machines read).
	Lang lang.Lang

	held      *event // the latest wakeup, until its reply shows
	lastReply string
	repeats   int
	repeatAt  time.Time
}

// NewNarrator writes to w with times in loc.
func NewNarrator(w io.Writer, loc *time.Location) *Narrator {
	return &Narrator{w: w, loc: loc}
}

// Say prints one event.
func (n *Narrator) Say(at time.Time, kind, text string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case kind == KindWakeup:
		if n.held != nil {
			n.flush() // a wakeup still without a reply: tell it as it was
		}
		n.held = &event{Time: at, Kind: kind, Text: text}
		return
	case kind == KindAgent && n.held != nil && text == n.lastReply:
		n.held, n.repeats, n.repeatAt = nil, n.repeats+1, at
		return
	}
	n.flush()
	n.print(at, kind, text)
	if kind == KindAgent {
		n.lastReply = text
	}
}

// The kinds of line that fold: a wakeup and the agent's reply to it.
const (
	KindWakeup = "wakeup"
	KindAgent  = "agent"
)

// flush prints what is held back: the count of repeated replies, then the
// latest wakeup. Call with mu held.
func (n *Narrator) flush() {
	if n.repeats > 0 {
		msg := "… 1 more wakeup with the same reply"
		if n.repeats > 1 {
			msg = fmt.Sprintf("… %d more wakeups, each with the same reply", n.repeats)
		}
		if n.Lang == lang.Japanese {
			msg = fmt.Sprintf("… 同じ応答の起動がさらに%d回", n.repeats)
		}
		n.print(n.repeatAt, "", msg)
		n.repeats = 0
	}
	if n.held != nil {
		n.print(n.held.Time, n.held.Kind, n.held.Text)
		n.held = nil
	}
}

func (n *Narrator) print(at time.Time, kind, text string) {
	fmt.Fprintf(n.w, "%s  %-9s %s\n", at.In(n.loc).Format("15:04:05"), kind, text)
}

// Printf prints a line as it is (headers, the summary), after anything held.
func (n *Narrator) Printf(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.flush()
	fmt.Fprintf(n.w, format, args...)
}

// event is one line the demo agent appends to the narration file.
type event struct {
	Time time.Time `json:"time"`
	Kind string    `json:"kind"`
	Text string    `json:"text"`
}

// FileNarrate returns the agent side's narrate function: it appends events
// to path (O_APPEND: whole lines from concurrent runs do not interleave).
func FileNarrate(path string) func(kind, text string) {
	return func(kind, text string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return // narration is for show; the run goes on
		}
		defer f.Close()
		b, _ := json.Marshal(event{Time: time.Now(), Kind: kind, Text: text})
		f.Write(append(b, '\n'))
	}
}

// FileReceived appends each text the agent reads to path as one JSON
// string a line (a record of what the agent was told; failures are ignored,
// as narration's are).
func FileReceived(path string) func(text string) {
	return func(text string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return
		}
		defer f.Close()
		b, _ := json.Marshal(text)
		f.Write(append(b, '\n'))
	}
}

// Follow reads the events the agent appends to path and prints them, until
// ctx ends. It polls: the file is small and the demo's pace is seconds.
func (n *Narrator) Follow(ctx context.Context, path string, every time.Duration) {
	var off int64
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		off = n.drain(path, off)
		select {
		case <-ctx.Done():
			n.drain(path, off)
			return
		case <-t.C:
		}
	}
}

func (n *Narrator) drain(path string, off int64) int64 {
	f, err := os.Open(path)
	if err != nil {
		return off
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return off
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return off // a partial line waits for its end
		}
		off += int64(len(line))
		var e event
		if json.Unmarshal([]byte(strings.TrimSpace(line)), &e) == nil {
			n.Say(e.Time, e.Kind, e.Text)
		}
	}
}
