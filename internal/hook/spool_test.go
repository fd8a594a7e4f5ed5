package hook

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestTailFollowsTheSpool(t *testing.T) {
	ws := t.TempDir()
	day := time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC)
	tl := NewTail(ws)
	tl.Start(day)
	if evs, err := tl.Read(day); err != nil || len(evs) != 0 {
		t.Fatalf("Read before any event = %v, %v", evs, err)
	}
	ev := func(at time.Time, k Kind) Event { return Event{Time: at, Client: Gemini, Name: string(k), Kind: k} }
	for _, e := range []Event{ev(day, TurnStart), ev(day.Add(time.Second), Tool)} {
		if err := Append(ws, e); err != nil {
			t.Fatal(err)
		}
	}
	if evs, err := tl.Read(day.Add(2 * time.Second)); err != nil || len(evs) != 2 || evs[1].Kind != Tool {
		t.Fatalf("Read = %+v, %v; want the two events", evs, err)
	}
	// A partial line (a writer mid-way) waits; garbage and oversize lines
	// are skipped; past midnight the next day's file is followed.
	path := filepath.Join(ws, filepath.FromSlash(SpoolFile(day)))
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	fmt.Fprintf(f, "not json\n%s\n{\"t\":\"2026-11-25T23:59:30Z\",\"kind\":\"tool_do", strings.Repeat("x", MaxLine+1))
	if evs, _ := tl.Read(day.Add(3 * time.Second)); len(evs) != 0 {
		t.Fatalf("Read = %+v, want nothing yet", evs)
	}
	fmt.Fprintf(f, "ne\",\"client\":\"gemini\"}\n")
	f.Close()
	next := day.Add(2 * time.Minute)
	if err := Append(ws, ev(next, TurnEnd)); err != nil {
		t.Fatal(err)
	}
	evs, err := tl.Read(next)
	if err != nil || len(evs) != 2 || evs[0].Kind != ToolDone || evs[1].Kind != TurnEnd {
		t.Fatalf("Read across midnight = %+v, %v; want the finished line, then the next day's", evs, err)
	}
	if evs, _ := tl.Read(next); len(evs) != 0 {
		t.Fatalf("Read again = %+v, want nothing new", evs)
	}
}

// A restarted watchdog reads the end of the day already written, not all of it.
func TestTailStartReadsOnlyTheEnd(t *testing.T) {
	ws := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for i := range 2000 {
		if err := Append(ws, Event{Time: now.Add(time.Duration(i) * time.Millisecond), Client: ClaudeCode, Name: "PreToolUse", Kind: Tool, Tool: "Bash", Input: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	tl := NewTail(ws)
	tl.Start(now)
	evs, err := tl.Read(now)
	if err != nil || len(evs) == 0 || len(evs) >= 2000 || evs[len(evs)-1].Input != "1999" {
		t.Fatalf("Read after Start = %d events (%v), want the newest few hundred ending with the last", len(evs), err)
	}
}

// The agent can put anything where the spool goes: a FIFO is not opened
// for ever, a link is not followed.
func TestSpoolRefusesOddFiles(t *testing.T) {
	ws := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(ws, filepath.FromSlash(SpoolFile(now)))
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		_, err := NewTail(ws).Read(now)
		done <- err
	}()
	go func() { done <- Append(ws, Event{Time: now, Kind: Tool}) }()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("a FIFO was taken for the spool")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("blocked on a FIFO")
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the link the refusal below would pass with nothing refused.
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	if err := Append(ws, Event{Time: now, Kind: Tool}); err == nil {
		t.Error("Append followed a link out of the workspace")
	}
	if b, _ := os.ReadFile(outside); len(b) != 0 {
		t.Errorf("the link's target was written: %q", b)
	}
}

// Hooks of parallel tool calls append at once: no line is torn.
func TestAppendConcurrent(t *testing.T) {
	ws := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			if err := Append(ws, Event{Time: now, Client: ClaudeCode, Name: "PreToolUse", Kind: Tool, Tool: strings.Repeat("t", 100), Input: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if evs, err := NewTail(ws).Read(now); err != nil || len(evs) != 64 {
		t.Fatalf("Read = %d events, %v; want 64", len(evs), err)
	}
}

// A forged flood of 19 MiB before a real end of turn: one Read finds the
// turn's end (the newest MiB is read, the rest skipped) and says the spool
// was flooded; the next Read goes on from there.
func TestTailSkipsAFloodToTheNewest(t *testing.T) {
	ws := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tl := NewTail(ws)
	tl.Start(now)
	if err := Append(ws, Event{Time: now, Client: ClaudeCode, Name: "UserPromptSubmit", Kind: TurnStart}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(ws, filepath.FromSlash(SpoolFile(now)))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf(`{"t":%q,"client":"claude-code","name":"PreToolUse","kind":"tool","tool":"Bash"}`+"\n", now.Format(time.RFC3339))
	chunk := []byte(strings.Repeat(line, (1<<20)/len(line)))
	for range 19 {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	stop := now.Add(time.Second)
	if err := Append(ws, Event{Time: stop, Client: ClaudeCode, Name: "Stop", Kind: TurnEnd}); err != nil {
		t.Fatal(err)
	}
	evs, err := tl.Read(stop)
	if !errors.Is(err, ErrFlood) {
		t.Errorf("Read over a 19 MiB flood: err = %v, want ErrFlood", err)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != TurnEnd {
		t.Fatalf("Read over a 19 MiB flood returned %d events, the last not the real Stop: the end of turn waits for later reads", len(evs))
	}
	if evs, err := tl.Read(stop); err != nil || len(evs) != 0 {
		t.Fatalf("Read after the flood = %d events, %v; want nothing new", len(evs), err)
	}
}

// The spool's folder linked out of the workspace is neither read nor
// written, and the Read says why.
func TestSpoolFolderLinkedOutIsRefused(t *testing.T) {
	ws := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	outside := t.TempDir()
	day := filepath.Join(outside, filepath.Base(SpoolFile(now)))
	if err := os.WriteFile(day, []byte(`{"t":"2026-11-25T12:00:00Z","client":"claude-code","name":"Stop","kind":"turn_end"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "stats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, filepath.FromSlash(SpoolDir))); err != nil {
		t.Fatal(err)
	}
	evs, err := NewTail(ws).Read(now)
	if !errors.Is(err, ErrOutside) || len(evs) != 0 {
		t.Errorf("Read through stats/hooks linked out = %v, %v; want no events and ErrOutside", evs, err)
	}
	before, _ := os.ReadFile(day)
	if err := Append(ws, Event{Time: now, Kind: Tool}); err == nil {
		t.Error("Append wrote through stats/hooks linked out")
	}
	if after, _ := os.ReadFile(day); string(after) != string(before) {
		t.Errorf("the file outside was written: %q", after)
	}
}

// A day file the agent filled to MaxDay with junk (no line end at its
// end either) does not refuse the real events for the rest of the day:
// the next line starts the day file again, so the disk holds MaxDay at
// most, and the reader takes the real line; a file of junk below MaxDay
// gets the line on a line of its own.
func TestJunkDayTakesRealEvents(t *testing.T) {
	for _, size := range []int64{MaxDay, 5 << 20} {
		t.Run(fmt.Sprint(size>>20, "MiB"), func(t *testing.T) {
			ws := t.TempDir()
			now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
			tl := NewTail(ws)
			if err := Append(ws, Event{Time: now, Kind: TurnStart}); err != nil {
				t.Fatal(err)
			}
			if evs, err := tl.Read(now); err != nil || len(evs) != 1 {
				t.Fatalf("first read: %v %v", evs, err)
			}
			path := filepath.Join(ws, filepath.FromSlash(SpoolFile(now)))
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write(bytes.Repeat([]byte("junk "), 1000)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
			tl.Read(now) // the watchdog's pulse over the junk (a flood)
			for i, k := range []Kind{Tool, TurnEnd} {
				if err := Append(ws, Event{Time: now.Add(time.Duration(i+1) * time.Second), Kind: k}); err != nil {
					t.Fatalf("Append of a real %s to a junk day of %d bytes: %v", k, size, err)
				}
			}
			evs, _ := tl.Read(now.Add(time.Minute))
			if len(evs) != 2 || evs[0].Kind != Tool || evs[1].Kind != TurnEnd {
				t.Fatalf("read after the junk: %+v, want the real tool call and turn end", evs)
			}
			if fi, _ := os.Stat(path); fi.Size() > MaxDay {
				t.Errorf("the day file grew to %d", fi.Size())
			}
		})
	}
}
