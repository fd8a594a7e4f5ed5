package delivery

import "testing"

// TestStreamResultWithoutUsage: the agent writes what an exec run prints,
// and a result line with an empty modelUsage and no usage object once
// dereferenced a nil usage in the pipe's writer, ending the watchdog. It
// is read as a run that used nothing.
func TestStreamResultWithoutUsage(t *testing.T) {
	s := &streamReader{}
	s.Write([]byte(`{"type":"result","result":"done","modelUsage":{}}` + "\n"))
	s.finish()
	u := s.usage()
	if u == nil || u.Tokens.Total() != 0 || s.reply() != "done" {
		t.Fatalf("usage %+v, reply %q: want a run that used nothing, its reply read", u, s.reply())
	}
}
