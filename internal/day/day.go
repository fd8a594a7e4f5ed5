// Package day keeps an agent's day as a strip: what the watchdog saw it do
// (working, waiting, waiting for you, paused, outside active hours), the
// alerts it raised and the wakeups it sent, one line each in
// day/YYYY-MM-DD.jsonl (local days) in the agent's state folder, out of the
// agent's reach, kept for 7 days. The daemon
// appends as things happen; the page and `watchdog status` read one day's
// file and draw it, with no scan of the workspace's history.
package day

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Dir is the folder of the day files, in the agent's state folder.
const Dir = "day"

// Keep is how many days of files are kept (today included).
const Keep = 7

// maxDayFile bounds what is read of one day's file.
const maxDayFile = 8 << 20

// Modes of the agent, as the strip shows them.
const (
	Working       = "working"
	Waiting       = "waiting"
	WaitingForYou = "waiting_for_you"
	Paused        = "paused"
	Outside       = "outside_active_hours"
	// Offline is a fleet view's word: it heard nothing from the agent
	// (3 missed pulses, or its watchdog's last will).
	Offline = "offline"
	// Stopped: no watchdog ran (from its last pulse until it started
	// again), so nothing is known of the agent.
	Stopped = "stopped"
)

// ModeOf is the agent's mode on the strip, from the state a pulse wrote:
// waiting for you first (a person is needed, paused or not, inside active
// hours or not), then paused and outside active hours, then the client's
// own word (in a turn), then the work clock.
func ModeOf(st state.State) string {
	switch {
	case st.Client != nil && st.Client.Mode == state.ClientWaitingForYou:
		return WaitingForYou
	case st.Pause != nil:
		return Paused
	case st.Chambers.Schedule.OutsideActiveHours:
		return Outside
	case st.Client != nil && st.Client.Mode == state.ClientInTurn, st.Work.Mode != state.WorkWaiting:
		return Working
	}
	return Waiting
}

// Kinds of mark.
const (
	KindMode   = "mode"
	KindAlert  = "alert"
	KindWakeup = "wakeup"
	// KindWork is an answered wakeup's work: Source, and in Message what
	// changed and what the agent said of it.
	KindWork = "work"
	// KindAnswer is a question of the client answered from afar, or
	// withdrawn, or a person's words for the agent: Outcome (delivered,
	// gone, withdrawn, refused, told), Source the channel (cli, page,
	// link), Message the rest in words.
	KindAnswer = "answer"
)

// Mark is one thing that happened.
type Mark struct {
	Time time.Time `json:"t"`
	Kind string    `json:"kind"`
	// Mode is the mode the agent entered (KindMode).
	Mode string `json:"mode,omitempty"`
	// Level, Check and Message are an alert's (KindAlert).
	Level   string `json:"level,omitempty"`
	Check   string `json:"check,omitempty"`
	Message string `json:"message,omitempty"`
	// Source and Outcome are a wakeup's (KindWakeup): schedule, idle,
	// recovery, feedback, extra; delivered, ghost, failed, dropped_cap...
	Source  string `json:"source,omitempty"`
	Outcome string `json:"outcome,omitempty"`
}

// File is the file of the local day of t, relative to the state folder.
func File(t time.Time, loc *time.Location) string {
	return Dir + "/" + t.In(loc).Format(time.DateOnly) + ".jsonl"
}

// Recorder appends an agent's marks. Safe for concurrent use.
type Recorder struct {
	dir string // the agent's state folder
	loc *time.Location

	mu   sync.Mutex
	mode string // the last mode recorded
}

// NewRecorder records the agent whose state folder is dir, days in loc.
func NewRecorder(dir string, loc *time.Location) *Recorder {
	return &Recorder{dir: dir, loc: loc}
}

// Mode records the agent's mode at t when it changed.
func (r *Recorder) Mode(t time.Time, mode string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if mode == r.mode {
		return nil
	}
	r.mode = mode
	return r.append(Mark{Time: t, Kind: KindMode, Mode: mode})
}

// Add records m.
func (r *Recorder) Add(m Mark) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.append(m)
}

func (r *Recorder) append(m Mark) error {
	m.Message = workspace.Clip(m.Message, 300)
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	rel := File(m.Time, r.loc)
	abs := filepath.Join(r.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return err
	}
	f, err := safeopen.Open(abs, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", rel)
	}
	_, err = f.Write(append(b, '\n'))
	return err
}

// Prune removes day files older than Keep days before now from the state
// folder dir.
func Prune(dir string, loc *time.Location, now time.Time) error {
	ents, err := workspace.ReadAgentDir(filepath.Join(dir, Dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	oldest := now.In(loc).AddDate(0, 0, -(Keep - 1)).Format(time.DateOnly)
	for _, e := range ents {
		d, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d); err == nil && d < oldest {
			if err := os.Remove(filepath.Join(dir, Dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// Read returns the marks of the local day date ("2006-01-02") from the
// state folder dir, oldest first. A missing day is empty; lines that are
// not marks are skipped.
func Read(dir, date string) ([]Mark, error) {
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, fmt.Errorf("day %q: want YYYY-MM-DD", date)
	}
	b, err := workspace.ReadAgentFileTail(filepath.Join(dir, Dir, date+".jsonl"), maxDayFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Mark
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m Mark
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Kind != "" && !m.Time.IsZero() {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}
