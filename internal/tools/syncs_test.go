package tools

import (
	"os"
	"sync"
	"testing"
)

// A writing call makes what the agent wrote durable with one fsync of the
// new file and one of its folder, and no more: the latest-proof index it
// also updates is a cache the files themselves rebuild (the real binary's
// syscalls are counted in cmd/mcp-heart).
func TestWritingCallsSyncTheFileAndItsFolderOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(e *env) error
	}{
		{"checkpoint", func(e *env) error {
			_, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"reading"}`))
			return err
		}},
		{"create_activity_log", func(e *env) error {
			_, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			var mu sync.Mutex
			var synced []string
			e.ws.Sync = func(f *os.File) error {
				kind := "file"
				if fi, err := f.Stat(); err == nil && fi.IsDir() {
					kind = "folder"
				}
				mu.Lock()
				synced = append(synced, kind)
				mu.Unlock()
				return f.Sync()
			}
			// The first call also builds the index from the history; the
			// later ones find it.
			for i := range 3 {
				synced = nil
				if err := tc.call(e); err != nil {
					t.Fatal(err)
				}
				if len(synced) != 2 || synced[0] != "file" || synced[1] != "folder" {
					t.Errorf("call %d synced %v, want [file folder]", i+1, synced)
				}
			}
			if _, err := e.ws.ReadLatest(); err != nil {
				t.Errorf("the index was not written: %v", err)
			}
		})
	}
}
