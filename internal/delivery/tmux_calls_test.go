//go:build unix

package delivery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tmux calls of one Deliver, Interrupt or SaveChat are never split by
// another's, however many run at once: a stand-in tmux logs every call in
// the order they came, and the log must read as whole sequences, each kind
// as often as it was asked for.
func TestTmuxCallsNeverInterleave(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	newFakeServer(t, sock) // a socket of the watchdog's own, which nothing answers
	log := sock + ".log"   // where the stand-in logs
	d := NewTmux("agent", sock)
	d.Program = buildHelper(t, "faketmux")
	d.EnterDelay = 20 * time.Millisecond // long enough for another call to land in it
	const rounds = 4
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 4*rounds)
	for i := range rounds {
		wg.Go(func() { _, err := d.Deliver(ctx, fmt.Sprintf("Heartbeat: %d", i)); errs <- err })
		wg.Go(func() { _, err := d.Deliver(ctx, fmt.Sprintf("Heartbeat: %d\nline two", i)); errs <- err })
		wg.Go(func() { errs <- d.Interrupt(ctx) })
		wg.Go(func() { errs <- d.SaveChat(ctx, fmt.Sprintf("chat%d", i)) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	// Each kind of operation, as the calls it makes, one pattern a call.
	kinds := map[string][]*regexp.Regexp{
		"typed prompt": {regexp.MustCompile(`^send-keys -t agent -l -- Heartbeat: \d+$`), enter},
		"pasted prompt": {regexp.MustCompile(`^load-buffer -b (ai-heart-\d+-\d+) - <\d+ bytes>$`),
			regexp.MustCompile(`^paste-buffer -p -r -d -b ai-heart-\d+-\d+ -t agent$`), enter},
		"interrupt": {escape, escape},
		"save chat": {regexp.MustCompile(`^send-keys -t agent -l -- /chat save chat\d+$`), enter},
	}
	seen := map[string]int{}
	for seq := 0; seq < len(calls); {
		kind := ""
		for k, pats := range kinds {
			if seq+len(pats) <= len(calls) && matchAll(pats, calls[seq:seq+len(pats)]) {
				kind = k
				break
			}
		}
		if kind == "" {
			t.Fatalf("call %d of %d starts no whole sequence: %q\nall calls:\n%s", seq+1, len(calls), calls[seq], b)
		}
		seen[kind]++
		seq += len(kinds[kind])
	}
	for k := range kinds {
		if seen[k] != rounds {
			t.Errorf("%d %s sequences, want %d\nall calls:\n%s", seen[k], k, rounds, b)
		}
	}
}

var (
	enter  = regexp.MustCompile(`^send-keys -t agent Enter$`)
	escape = regexp.MustCompile(`^send-keys -t agent Escape$`)
)

func matchAll(pats []*regexp.Regexp, calls []string) bool {
	for i, p := range pats {
		if !p.MatchString(calls[i]) {
			return false
		}
	}
	return true
}
