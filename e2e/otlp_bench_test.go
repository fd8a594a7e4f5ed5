package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// OTLP ingest against the real watchdog on one core (GOMAXPROCS=1): Claude
// Code api_request records posted to /v1/logs at 1,000 a second (in
// batches of 10, 100 requests a second, as clients batch them; and one
// record a request), for 5 s, while the pulse (every 100 ms) keeps its time.
// Run with
//
//	go test ./e2e -run '^$' -bench OTLPIngest -benchtime 1x
//
// The metrics: events taken a second, the pulse's worst lateness over the
// whole run (max-late-ms; the idle run is the baseline), pulses written
// while the load was held (50 expected), and the watchdog's CPU over it (%
// of one core).
func BenchmarkOTLPIngest(b *testing.B) {
	for _, c := range []struct {
		name  string
		batch int // records a request; 0: no load
	}{{"idle", 0}, {"batch-10", 10}, {"batch-1", 1}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				otlpIngest(b, c.batch)
			}
		})
	}
}

func otlpIngest(b *testing.B, batch int) {
	const held, rate = 5 * time.Second, 1000
	addr := freeAddr(b)
	ws, cfg, _ := initWorkspace(b, fmt.Sprintf("name: ingest\npulse: {interval: 100ms}\nschedule: {every: 0s}\nhttp: {listen: %q}\n", addr))
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	p := testutil.Start(b, cmd)
	pulses := func() float64 { return counterOf(readState(b, ws), "pulses") }
	waitUntil(b, "a pulse", 10*time.Second, func() bool { return pulses() > 0 })

	var bodies [][]byte
	seq := 0
	if batch > 0 {
		for range rate / batch * int(held/time.Second) {
			ld := plog.NewLogs()
			rl := ld.ResourceLogs().AppendEmpty()
			rl.Resource().Attributes().PutStr("service.name", "claude-code")
			sl := rl.ScopeLogs().AppendEmpty()
			for range batch {
				seq++
				lr := sl.LogRecords().AppendEmpty()
				a := lr.Attributes()
				a.PutStr("event.name", "api_request")
				a.PutStr("session.id", "bench")
				a.PutInt("event.sequence", int64(seq))
				a.PutStr("event.timestamp", "2026-11-27T09:27:58.509Z")
				a.PutStr("model", "claude-standin")
				a.PutInt("input_tokens", 10)
				a.PutInt("output_tokens", 5)
				a.PutDouble("cost_usd", 0.000175)
			}
			body, err := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
			if err != nil {
				b.Fatal(err)
			}
			bodies = append(bodies, body)
		}
	}
	cpu0 := cpuOf(b, p.Cmd.Process.Pid)
	p0 := pulses()
	start := time.Now()
	sent, failed := 0, 0
	client := &http.Client{Timeout: 5 * time.Second}
	for i, body := range bodies {
		// Paced: request i goes out at its share of the second.
		if d := time.Until(start.Add(time.Duration(i) * held / time.Duration(len(bodies)))); d > 0 {
			time.Sleep(d)
		}
		resp, err := client.Post("http://"+addr+"/v1/logs", "application/x-protobuf", bytes.NewReader(body))
		if err != nil || resp.StatusCode != http.StatusOK {
			failed++
			if err == nil {
				resp.Body.Close()
			}
			continue
		}
		resp.Body.Close()
		sent += batch
	}
	if d := time.Until(start.Add(held)); d > 0 {
		time.Sleep(d)
	}
	took := time.Since(start)
	p1 := pulses()
	cpu1 := cpuOf(b, p.Cmd.Process.Pid)
	st := readState(b, ws)
	pulse, _ := st["pulse"].(map[string]any)
	late, _ := pulse["max_late_ms"].(float64)
	b.ReportMetric(float64(sent)/took.Seconds(), "events/s")
	b.ReportMetric(late, "max-late-ms")
	b.ReportMetric(p1-p0, "pulses-held")
	b.ReportMetric((cpu1-cpu0).Seconds()/took.Seconds()*100, "cpu-%")
	if failed > 0 {
		b.Errorf("%d posts failed", failed)
	}
	if p1-p0 < 40 {
		b.Errorf("only %v pulses in %s under load, want about 50", p1-p0, held)
	}
}
