package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// What a writing call costs the disk, counted on the real binary by strace:
// one fsync of the file the agent wrote and one of its folder, and a
// bounded number of opens (each name the workspace's root resolves is
// opened folder by folder). The start and the initialize are a run of
// their own, subtracted. Without strace the in-process count stands
// (internal/tools TestWritingCallsSyncTheFileAndItsFolderOnce).
func TestWritingCallsSyscalls(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed: only the in-process count of fsyncs (internal/tools) ran")
	}
	if out, err := exec.Command(strace, "-f", "-o", os.DevNull, "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here (%v: %s): only the in-process count of fsyncs (internal/tools) ran", err, out)
	}
	const calls = 20
	logArgs := map[string]any{"activity_type": "creation", "activity_content": []any{"counting"},
		"theme_start_id": themeID, "theme_directory_part": themePart}
	for _, tc := range []struct {
		tool      string
		args      map[string]any
		maxOpenat int
	}{
		{"checkpoint", map[string]any{"current_activity": "counting"}, 30},
		{"create_activity_log", logArgs, 30},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			ws := newWorkspace(t)
			// A first log, which also builds the latest-proof index.
			traced(t, strace, ws.Root, "create_activity_log", logArgs, 1)
			base := traced(t, strace, ws.Root, tc.tool, tc.args, 0)
			got := traced(t, strace, ws.Root, tc.tool, tc.args, calls)
			per := func(s string) float64 { return float64(got[s]-base[s]) / calls }
			syncs := per("fsync") + per("fdatasync")
			t.Logf("%s per call: fsync %.2f, fdatasync %.2f, openat %.2f", tc.tool, per("fsync"), per("fdatasync"), per("openat"))
			if syncs != 2 {
				t.Errorf("%s: %.2f fsyncs a call, want 2: the file and its folder", tc.tool, syncs)
			}
			if per("openat") > float64(tc.maxOpenat) {
				t.Errorf("%s: %.2f opens a call, want at most %d", tc.tool, per("openat"), tc.maxOpenat)
			}
		})
	}
}

// traced runs mcp-heart on root under strace -f -c, initializes, calls tool
// n times with args, closes stdin, and returns the count of each traced
// syscall.
func traced(t *testing.T, strace, root, tool string, args map[string]any, n int) map[string]int {
	t.Helper()
	out := filepath.Join(t.TempDir(), "strace.txt")
	cmd := exec.Command(strace, "-f", "-c", "-o", out, "-e", "trace=fsync,fdatasync,openat", bin(), "--workspace", root)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// End of input ends mcp-heart, then strace; killing strace first
		// would leave its tracee behind.
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	r := bufio.NewReader(stdout)
	send := func(id int, method string, params any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := in.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil || strings.Contains(line, `"isError":true`) || strings.Contains(line, `"error"`) {
			t.Fatalf("%s: %s %v", method, line, err)
		}
	}
	send(0, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "syscalls", "version": "1"}})
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i := range n {
		send(i+1, "tools/call", map[string]any{"name": tool, "arguments": args})
	}
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mcp-heart under strace: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("mcp-heart did not exit after stdin closed")
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return straceCounts(t, string(b))
}

// straceCounts reads strace -c's table: the calls column by syscall.
func straceCounts(t *testing.T, table string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[len(f)-1] == "total" || f[len(f)-1] == "syscall" {
			continue
		}
		if n, err := strconv.Atoi(f[3]); err == nil {
			counts[f[len(f)-1]] = n
		}
	}
	if len(counts) == 0 {
		t.Fatalf("no counts in strace's table:\n%s", table)
	}
	return counts
}
