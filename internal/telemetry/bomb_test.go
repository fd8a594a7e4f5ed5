package telemetry

import (
	"errors"
	"fmt"
	"runtime"
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
