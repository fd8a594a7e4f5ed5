package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ai-heart/ai-heart/internal/day"
)

type fakeDays map[string]DayView

func (f fakeDays) Day(agent, date string) (DayView, error) {
	v, ok := f[agent]
	if !ok {
		return DayView{}, ErrUnknownAgent
	}
	v.Date = date
	return v, nil
}

func TestDayEndpoint(t *testing.T) {
	get := func(s *Server, path string) (int, map[string]any) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "localhost"
		s.ServeHTTP(rec, req)
		var m map[string]any
		json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m
	}
	if code, _ := get(New(&fakeSource{}, Options{}), "/api/v1/agents/luna/day"); code != http.StatusNotImplemented {
		t.Errorf("without days: %d, want 501", code)
	}
	s := New(&fakeSource{}, Options{Days: fakeDays{"luna": {Agent: "luna", SlotMinutes: 15, Slots: []day.Slot{{Mode: day.Working}}}}})
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/api/v1/agents/luna/day", 200},
		{"/api/v1/agents/luna/day?date=2026-11-24", 200},
		{"/api/v1/agents/luna/day?date=../../etc", 400},
		{"/api/v1/agents/nemo/day", 404},
	} {
		code, m := get(s, tc.path)
		if code != tc.code {
			t.Errorf("GET %s = %d %v, want %d", tc.path, code, m, tc.code)
		}
		if code == 200 && (m["slot_minutes"] != 15.0 || m["marks"] == nil) {
			t.Errorf("GET %s = %v", tc.path, m)
		}
	}
}
