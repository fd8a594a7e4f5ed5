package scan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxPending bounds the changed paths remembered between two scans; past it
// the scanner rescans instead of holding an ever-growing set (a burst such as
// an unpacked archive).
const maxPending = 8192

// syncTimeout bounds the wait for the scanner's own barrier event.
const syncTimeout = 2 * time.Second

// watcher drains fsnotify events into a set of changed paths as they arrive,
// so the kernel queue never fills between pulses, and lets Scan wait until
// every event queued before it has been read (the barrier).
type watcher struct {
	fs   *fsnotify.Watcher
	done chan struct{}

	mu      sync.Mutex
	pending map[string]fsnotify.Op // absolute path -> ops seen
	lost    string                 // why events were lost; "" when none
	barrier string                 // base name of the barrier file awaited
	seen    chan struct{}          // closed when the barrier event arrives
}

func newWatcher() (*watcher, error) {
	fw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return nil, fmt.Errorf("start inotify: %w", err)
	}
	w := &watcher{fs: fw, done: make(chan struct{}), pending: map[string]fsnotify.Op{}}
	go w.loop()
	return w, nil
}

func (w *watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.note(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.mu.Lock()
			if w.lost == "" {
				w.lost = err.Error()
			}
			w.mu.Unlock()
		}
	}
}

func (w *watcher) note(ev fsnotify.Event) {
	base := filepath.Base(ev.Name)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.barrier != "" && base == w.barrier {
		close(w.seen)
		w.barrier = ""
		return
	}
	if strings.HasPrefix(base, ".") {
		return // renameio temps and other scanners' barriers
	}
	if _, ok := w.pending[ev.Name]; !ok && len(w.pending) >= maxPending {
		if w.lost == "" {
			w.lost = fmt.Sprintf("more than %d changed files between two scans", maxPending)
		}
		return
	}
	w.pending[ev.Name] |= ev.Op
}

// take returns and forgets the changes seen so far.
func (w *watcher) take() (map[string]fsnotify.Op, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, lost := w.pending, w.lost
	w.pending, w.lost = map[string]fsnotify.Op{}, ""
	return p, lost
}

// sync creates and removes a dot-file in the watched folder dir and waits for
// its event: inotify keeps one queue in order, so every change made before
// sync was called has been noted when it returns.
func (w *watcher) sync(dir string, seq int) error {
	name := fmt.Sprintf(".scan-barrier-%d-%d", os.Getpid(), seq)
	seen := make(chan struct{})
	w.mu.Lock()
	w.barrier, w.seen = name, seen
	w.mu.Unlock()
	abs := filepath.Join(dir, name)
	f, err := os.OpenFile(abs, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err == nil {
		f.Close()
		err = os.Remove(abs)
	}
	if err != nil {
		w.clearBarrier()
		return fmt.Errorf("scan barrier: %w", err)
	}
	t := time.NewTimer(syncTimeout)
	defer t.Stop()
	select {
	case <-seen:
		return nil
	case <-t.C:
		w.clearBarrier()
		return errors.New("scan barrier: no event within " + syncTimeout.String())
	}
}

func (w *watcher) clearBarrier() {
	w.mu.Lock()
	w.barrier = ""
	w.mu.Unlock()
}

func (w *watcher) close() error {
	err := w.fs.Close()
	<-w.done
	return err
}
