package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// decodeUnique decodes one JSON value and fails on an object with a key
// given twice, which journald, Loki and jq treat each their own way.
func decodeUnique(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key := k.(string)
				if seen[key] {
					return fmt.Errorf("key %q appears twice", key)
				}
				seen[key] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // '}'
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ']'
			return err
		}
		return nil
	}
	if err := walk(); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("trailing data after the value")
	}
	return nil
}

func TestDecodeUniqueRejectsDuplicates(t *testing.T) {
	for line, ok := range map[string]bool{
		`{"time":1,"level":"warn"}`:              true,
		`{"time":1,"a":{"time":2}}`:              true,
		`{"time":1,"time":2}`:                    false,
		`{"a":[{"b":1,"b":2}]}`:                  false,
		`{"time":"2026-11-22T10:00:00Z","x":[]}`: true,
	} {
		if err := decodeUnique([]byte(line)); (err == nil) != ok {
			t.Errorf("decodeUnique(%s) = %v, want ok=%v", line, err, ok)
		}
	}
}

// TestStderrLinesHaveUniqueKeys runs the watchdog until it alerts and decodes
// every stderr line, pulse lines and alert lines alike, refusing duplicate
// keys (an alert line once had two "time" keys).
func TestStderrLinesHaveUniqueKeys(t *testing.T) {
	_, cfg, _ := initWorkspace(t, "pulse: {interval: 200ms}\nschedule: {every: 0s}\nthresholds: {inactivity_warning: 1s, inactivity_error: 2s, introspection: 30s}\n")
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	testutil.Start(t, cmd)
	var (
		mu    sync.Mutex
		lines [][]byte
	)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, append([]byte(nil), sc.Bytes()...))
			mu.Unlock()
		}
	}()
	waitUntil(t, "an inactivity alert on stderr", 10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range lines {
			if strings.Contains(string(l), `"check":"inactivity"`) {
				return true
			}
		}
		return false
	})
	mu.Lock()
	defer mu.Unlock()
	var alerts int
	for _, l := range lines {
		if err := decodeUnique(l); err != nil {
			t.Errorf("stderr line %s: %v", l, err)
		}
		if strings.Contains(string(l), `"check":`) {
			alerts++
			if !strings.Contains(string(l), `"time":`) {
				t.Errorf("alert line without its time: %s", l)
			}
		}
	}
	if alerts == 0 {
		t.Fatal("no alert line seen")
	}
}
