package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
)

// Days reads an agent's day for the page: its marks and the strip.
type Days interface {
	// Day returns the marks of agent's local day date ("" = the last 24
	// hours) and the strip cut from them; ErrUnknownAgent for a name it
	// does not run.
	Day(agent, date string) (DayView, error)
}

// Spans of a DayView.
const (
	SpanLast24h = "last_24h" // the 96 quarter hours ending with now's
	SpanDay     = "day"      // a local day, midnight to midnight
)

// DayView is one agent's day in /api/v1/agents/{name}/day.
type DayView struct {
	Agent string `json:"agent"`
	// Span is SpanLast24h (no date asked) or SpanDay; Date is the day
	// asked, or today for the last 24 hours.
	Span        string     `json:"span"`
	Date        string     `json:"date"`
	SlotMinutes int        `json:"slot_minutes"`
	Slots       []day.Slot `json:"slots"`
	Marks       []day.Mark `json:"marks"`
	// Numbers are the field's numbers, today and over the days kept
	// (absent where the source keeps no days of its own).
	Numbers *day.Field `json:"numbers,omitempty"`
}

// dayView serves GET /api/v1/agents/{name}/day?date=YYYY-MM-DD.
func (s *Server) dayView(w http.ResponseWriter, r *http.Request) {
	if s.opts.Days == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source keeps no days"})
		return
	}
	date := r.URL.Query().Get("date")
	if _, err := time.Parse(time.DateOnly, date); date != "" && err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "date: want YYYY-MM-DD"})
		return
	}
	v, err := s.opts.Days.Day(r.PathValue("name"), date)
	switch {
	case errors.Is(err, ErrUnknownAgent):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "no agent " + r.PathValue("name")})
	case err != nil:
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": err.Error()})
	default:
		if v.Marks == nil {
			v.Marks = []day.Mark{}
		}
		writeJSON(w, http.StatusOK, v)
	}
}
