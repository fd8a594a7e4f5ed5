// Package telemetry reads what the agent clients report over OpenTelemetry
// (OTLP/HTTP logs and metrics, protobuf or JSON) and says what it means for
// the watchdog: which client spoke, for which session, and the usage of
// each model request (request id, model, tokens by kind, the client's own
// price in dollars). It knows nothing of HTTP servers or ledgers: the
// window hands it bodies, the daemon takes its Reports.
package telemetry

import (
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"
)

// Signal is what an OTLP/HTTP path carries.
type Signal string

// The signals the receiver takes (traces are not asked of any client).
const (
	Logs    Signal = "logs"
	Metrics Signal = "metrics"
)

// Record is one log record or one metric data point: its own attributes,
// and its resource's, shared by every record of that resource (copying them
// into each record let a small body of many attributes and many records
// take gigabytes).
type Record struct {
	Signal  Signal
	Service string // the resource's service.name: which client spoke
	// Name is a log record's event name (its "event.name" attribute, else
	// its EventName, else its body) or a metric's name.
	Name     string
	Time     time.Time
	Attrs    map[string]string // the record's own
	Resource map[string]string // the resource's, shared; the record's win
	Value    float64           // a metric point's value; 0 for a log record
}

// Attr is an attribute of the record or else of its resource, "" when
// absent.
func (r Record) Attr(k string) string {
	if v, ok := r.Attrs[k]; ok {
		return v
	}
	return r.Resource[k]
}

// Keys lists the attribute names of the record and its resource.
func (r Record) Keys() []string {
	out := make([]string, 0, len(r.Attrs)+len(r.Resource))
	for k := range r.Resource {
		out = append(out, k)
	}
	for k := range r.Attrs {
		if _, dup := r.Resource[k]; !dup {
			out = append(out, k)
		}
	}
	return out
}

// MaxRecords bounds the records and metric points of one request: a
// client's batch holds hundreds; past the bound the request is refused
// before anything is kept of it.
const MaxRecords = 20_000

// ErrTooMany refuses a request of more than MaxRecords records.
var ErrTooMany = fmt.Errorf("otlp: more than %d records in one request", MaxRecords)

// Decode reads an OTLP/HTTP export request of sig: protobuf unless
// contentType names JSON. ExportLogsServiceRequest and LogsData (and their
// metrics twins) are one message on the wire (field 1, the resource
// entries), so pdata's LogsData codecs read the request without the gRPC
// service types.
func Decode(sig Signal, contentType string, body []byte) ([]Record, error) {
	isJSON := strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "application/json")
	if sig == Logs || sig == Metrics {
		if err := prescan(sig, isJSON, body); err != nil {
			return nil, err
		}
	}
	switch sig {
	case Logs:
		var ld plog.Logs
		var err error
		if isJSON {
			ld, err = (&plog.JSONUnmarshaler{}).UnmarshalLogs(body)
		} else {
			ld, err = (&plog.ProtoUnmarshaler{}).UnmarshalLogs(body)
		}
		if err != nil {
			return nil, fmt.Errorf("otlp logs: %w", err)
		}
		if ld.LogRecordCount() > MaxRecords {
			return nil, ErrTooMany
		}
		return logRecords(ld), nil
	case Metrics:
		var md pmetric.Metrics
		var err error
		if isJSON {
			md, err = (&pmetric.JSONUnmarshaler{}).UnmarshalMetrics(body)
		} else {
			md, err = (&pmetric.ProtoUnmarshaler{}).UnmarshalMetrics(body)
		}
		if err != nil {
			return nil, fmt.Errorf("otlp metrics: %w", err)
		}
		if md.DataPointCount() > MaxRecords {
			return nil, ErrTooMany
		}
		return metricRecords(md), nil
	}
	return nil, fmt.Errorf("otlp: no signal %q", sig)
}

func logRecords(ld plog.Logs) []Record {
	var out []Record
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		res := flat(rl.Resource().Attributes())
		svc := res["service.name"]
		sls := rl.ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				lr := lrs.At(k)
				attrs := flat(lr.Attributes())
				// The event.name attribute first: Codex's EventName is its
				// tracing site ("event otel/src/…rs:1153"), the attribute
				// the event's own name.
				name := attrs["event.name"]
				if name == "" {
					name = lr.EventName()
				}
				if name == "" {
					name = lr.Body().AsString()
				}
				ts := lr.Timestamp()
				if ts == 0 {
					ts = lr.ObservedTimestamp()
				}
				out = append(out, Record{Signal: Logs, Service: svc, Name: name, Time: stamp(ts), Attrs: attrs, Resource: res})
			}
		}
	}
	return out
}

func metricRecords(md pmetric.Metrics) []Record {
	var out []Record
	rms := md.ResourceMetrics()
	for i := 0; i < rms.Len(); i++ {
		rm := rms.At(i)
		res := flat(rm.Resource().Attributes())
		svc := res["service.name"]
		sms := rm.ScopeMetrics()
		for j := 0; j < sms.Len(); j++ {
			ms := sms.At(j).Metrics()
			for k := 0; k < ms.Len(); k++ {
				m := ms.At(k)
				var pts pmetric.NumberDataPointSlice
				switch m.Type() {
				case pmetric.MetricTypeSum:
					pts = m.Sum().DataPoints()
				case pmetric.MetricTypeGauge:
					pts = m.Gauge().DataPoints()
				case pmetric.MetricTypeHistogram:
					hp := m.Histogram().DataPoints()
					for p := 0; p < hp.Len(); p++ {
						dp := hp.At(p)
						out = append(out, Record{Signal: Metrics, Service: svc, Name: m.Name(), Time: stamp(dp.Timestamp()), Attrs: flat(dp.Attributes()), Resource: res, Value: dp.Sum()})
					}
					continue
				default:
					out = append(out, Record{Signal: Metrics, Service: svc, Name: m.Name(), Resource: res})
					continue
				}
				for p := 0; p < pts.Len(); p++ {
					dp := pts.At(p)
					v := dp.DoubleValue()
					if dp.ValueType() == pmetric.NumberDataPointValueTypeInt {
						v = float64(dp.IntValue())
					}
					out = append(out, Record{Signal: Metrics, Service: svc, Name: m.Name(), Time: stamp(dp.Timestamp()), Attrs: flat(dp.Attributes()), Resource: res, Value: v})
				}
			}
		}
	}
	return out
}

// flat is a map of attributes, every value as a string (numbers in their
// shortest form).
func flat(src pcommon.Map) map[string]string {
	m := make(map[string]string, src.Len())
	src.Range(func(k string, v pcommon.Value) bool {
		m[k] = v.AsString()
		return true
	})
	return m
}

func stamp(ts pcommon.Timestamp) time.Time {
	if ts == 0 {
		return time.Time{}
	}
	return ts.AsTime()
}
