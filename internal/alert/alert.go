// Package alert writes one JSON line each time a check changes level:
// {"time","level","agent","check","message","heartbeat_id","elapsed_s"},
// through zerolog to stderr (journald under systemd) and, when configured,
// appended to an alerts file.
package alert

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// Alert is one change of a check's level (checks.OK means "back to
// normal"). The level stays typed up to here; the line spells it.
type Alert struct {
	Time        time.Time
	Level       checks.Level
	Agent       string
	Check       string
	Message     string
	HeartbeatID string
	Elapsed     time.Duration
}

// Sink emits alerts. It is safe for concurrent use by every agent of a fleet.
type Sink struct {
	mu   sync.Mutex
	log  zerolog.Logger
	path string
	file *os.File
	subs []func(Alert)
	// fileFailing: the last write to the file failed (logged once per
	// spell); onFileFailed hears of every failure.
	fileFailing  bool
	onFileFailed func(Alert, error)
}

// OnFileFailed sets f, called with each alert the alerts file could not
// take and why (a full disk, say), after the sink's lock is released: f may
// emit. It replaces any f set before.
func (s *Sink) OnFileFailed(f func(Alert, error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onFileFailed = f
}

// Subscribe calls f with every alert after it is written (the page, the
// metrics, notifications). f runs on the emitter's goroutine, often the
// pulse: it must only hand the alert on, never wait.
func (s *Sink) Subscribe(f func(Alert)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs = append(s.subs, f)
}

// NewSink writes alerts to log and, when path is not empty, appends them to
// the file at path (created if missing). log must not add a timestamp of its
// own: each line carries the alert's "time", once.
func NewSink(log zerolog.Logger, path string) (*Sink, error) {
	s := &Sink{log: log, path: path}
	if path != "" {
		// Alerts quote the agent's files and the operator's setup: not for
		// other users (the group is the operator's, as the unit runs it).
		f, err := safeopen.Open(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o640)
		if err != nil {
			return nil, fmt.Errorf("open alerts file: %w", err)
		}
		s.file = f
	}
	return s, nil
}

// Emit writes the alert to the log and the alerts file. A failing alerts
// file is reported in the log once until it takes a line again, and to
// OnFileFailed's f each time; never fatal: the pulse must go on.
func (s *Sink) Emit(a Alert) {
	s.mu.Lock()
	event(s.log.Log(), a).Msg(a.Message)
	var ferr error
	if s.file != nil {
		ferr = write(s.file, a)
		switch {
		case ferr != nil && !s.fileFailing:
			s.log.Error().Err(ferr).Str("file", s.path).Msg("alerts file write failed; further failures are not logged until it takes a line again")
		case ferr == nil && s.fileFailing:
			s.log.Info().Str("file", s.path).Msg("alerts file written again")
		}
		s.fileFailing = ferr != nil
	}
	for _, f := range s.subs {
		f(a)
	}
	failed := s.onFileFailed
	s.mu.Unlock()
	if ferr != nil && failed != nil {
		failed(a, ferr)
	}
}

// write appends one JSON line; the line is built in memory first and written
// with one call so concurrent readers never see half a line.
func write(w io.Writer, a Alert) error {
	var buf lineBuffer
	l := zerolog.New(&buf)
	event(l.Log(), a).Msg(a.Message)
	_, err := w.Write(buf.b)
	return err
}

func event(e *zerolog.Event, a Alert) *zerolog.Event {
	return e.Time("time", a.Time).
		Str("level", a.Level.String()).
		Str("agent", a.Agent).
		Str("check", a.Check).
		Str("heartbeat_id", a.HeartbeatID).
		Int64("elapsed_s", int64(a.Elapsed/time.Second))
}

type lineBuffer struct{ b []byte }

func (l *lineBuffer) Write(p []byte) (int, error) { l.b = append(l.b, p...); return len(p), nil }

// Close closes the alerts file.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}
