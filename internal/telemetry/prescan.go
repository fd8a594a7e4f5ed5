package telemetry

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// MaxElements bounds the containers of one request (resources, scopes,
// records, metrics, data points), empty ones included: pdata spends a few
// hundred bytes on each, so a 4 MiB body of empty entries would take
// hundreds of megabytes before a record could be counted.
const MaxElements = 50_000

var errElements = fmt.Errorf("otlp: more than %d resources, scopes, records or points in one request", MaxElements)

// prescan counts a request's containers before pdata decodes it: the
// protobuf's nested entries along the OTLP paths, or, for JSON, its
// objects (every '{': an upper bound).
func prescan(sig Signal, isJSON bool, body []byte) error {
	if isJSON {
		if bytes.Count(body, []byte{'{'}) > MaxElements {
			return errElements
		}
		return nil
	}
	n := 0
	// Logs: resource_logs(1) > scope_logs(2) > log_records(2).
	// Metrics: resource_metrics(1) > scope_metrics(2) > metrics(2) >
	// gauge(5) | sum(7) | histogram(9) | exponential_histogram(10) |
	// summary(11) > data_points(1).
	path := [][]uint64{{1}, {2}, {2}}
	if sig == Metrics {
		path = [][]uint64{{1}, {2}, {2}, {5, 7, 9, 10, 11}, {1}}
	}
	if err := countIn(body, path, &n); err != nil {
		return err
	}
	if n > MaxElements {
		return errElements
	}
	return nil
}

// countIn counts the length-delimited fields of msg whose numbers are in
// path[0], and within each those of path[1], and so on.
func countIn(msg []byte, path [][]uint64, n *int) error {
	if len(path) == 0 {
		return nil
	}
	for len(msg) > 0 {
		key, k := binary.Uvarint(msg)
		if k <= 0 {
			return errors.New("otlp: a malformed protobuf")
		}
		msg = msg[k:]
		field, wire := key>>3, key&7
		switch wire {
		case 0:
			_, k = binary.Uvarint(msg)
			if k <= 0 {
				return errors.New("otlp: a malformed protobuf")
			}
			msg = msg[k:]
		case 1:
			if len(msg) < 8 {
				return errors.New("otlp: a malformed protobuf")
			}
			msg = msg[8:]
		case 5:
			if len(msg) < 4 {
				return errors.New("otlp: a malformed protobuf")
			}
			msg = msg[4:]
		case 2:
			l, k := binary.Uvarint(msg)
			if k <= 0 || l > uint64(len(msg)-k) {
				return errors.New("otlp: a malformed protobuf")
			}
			sub := msg[k : k+int(l)]
			msg = msg[k+int(l):]
			for _, f := range path[0] {
				if f == field {
					if *n++; *n > MaxElements {
						return errElements
					}
					if err := countIn(sub, path[1:], n); err != nil {
						return err
					}
				}
			}
		default:
			return errors.New("otlp: a malformed protobuf")
		}
	}
	return nil
}
