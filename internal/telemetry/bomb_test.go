package telemetry

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"
)

// bomb is the amplification a hostile agent sent: one resource with many
// attributes and many empty log records. Flattening the resource into
// every record made a 116 KB body allocate about 1.9 GB.
func bomb(t testing.TB, attrs, records int) []byte {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "claude-code")
	for i := range attrs {
		rl.Resource().Attributes().PutStr(fmt.Sprint(i), "")
	}
	lrs := rl.ScopeLogs().AppendEmpty().LogRecords()
	for range records {
		lrs.AppendEmpty()
	}
	b, err := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The decoding costs memory in proportion to the body, whatever the
// product of attributes and records: a small body cannot kill the
// watchdog.
func TestDecodeBombBounded(t *testing.T) {
	for _, c := range []struct{ attrs, records int }{{3_000, 3_000}, {1, MaxRecords + 1}, {50_000, 1}} {
		body := bomb(t, c.attrs, c.records)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		recs, err := Decode(Logs, "application/x-protobuf", body)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d attributes × %d records: %d bytes on the wire, %d records, %v, %d MB allocated", c.attrs, c.records, len(body), len(recs), err, alloc>>20)
		if c.records > MaxRecords && !errors.Is(err, ErrTooMany) {
			t.Errorf("%d records in one request: %v, want ErrTooMany", c.records, err)
		}
		if limit := uint64(200*len(body)) + 8<<20; alloc > limit {
			t.Errorf("%d attributes × %d records: a %d-byte body allocated %d MB, past %d MB", c.attrs, c.records, len(body), alloc>>20, limit>>20)
		}
	}
}

// Empty containers count too: a 4 MiB body of empty resources (2 bytes
// each) is refused before pdata spends hundreds of bytes on each, in
// protobuf and in JSON, logs and metrics.
func TestDecodeEmptiesBounded(t *testing.T) {
	empties := bytes.Repeat([]byte{0x0a, 0x00}, 2<<20)
	for _, c := range []struct {
		sig  Signal
		ct   string
		body []byte
	}{
		{Logs, "application/x-protobuf", empties},
		{Metrics, "application/x-protobuf", empties},
		{Logs, "application/json", []byte(`{"resourceLogs":[` + strings.Repeat(`{},`, 1<<20) + `{}]}`)},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(c.sig, c.ct, c.body)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; err == nil || alloc > 32<<20 {
			t.Errorf("%s %s of empties: %v, %d MB allocated; want refused before decoding", c.sig, c.ct, err, alloc>>20)
		}
	}
	// A real batch passes: a few hundred records of thirty attributes.
	recs := make([]map[string]any, 300)
	for i := range recs {
		recs[i] = claudeRequest(i, 10, 5, 2, 1, 0.000175)
	}
	pb, _ := (&plog.ProtoMarshaler{}).MarshalLogs(logs("claude-code", recs...))
	if got, err := Decode(Logs, "application/x-protobuf", pb); err != nil || len(got) != 300 {
		t.Fatalf("a real batch: %d records, %v", len(got), err)
	}
}

// What a report keeps is bounded whatever a record carries: a 3.9 MB
// model name is cut, so the book cannot be filled by the megabyte.
func TestReportStringsBounded(t *testing.T) {
	big := strings.Repeat("m", 4<<20)
	r := claudeRequest(1, 10, 5, 0, 0, 0.0001)
	r["model"], r["session.id"], r["prompt.id"], r["event.name"] = big, big, big, "api_request"
	pb, _ := (&plog.ProtoMarshaler{}).MarshalLogs(logs("claude-code", r))
	recs, err := Decode(Logs, "application/x-protobuf", pb)
	if err != nil {
		t.Fatal(err)
	}
	reps := Read(recs)
	if len(reps) != 1 || len(reps[0].Model) > 128 || len(reps[0].Session) > 128 || len(reps[0].Turn) > 128 {
		t.Fatalf("kept model %d, session %d, turn %d bytes", len(reps[0].Model), len(reps[0].Session), len(reps[0].Turn))
	}
}
