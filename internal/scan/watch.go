package scan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// watcher is one scanner's share of the process's inotify instance: the
// changed paths of its folders, drained as they arrive so the kernel queue
// never fills between pulses, and a barrier that lets Scan wait until every
// event queued before it has been read.
type watcher struct {
	hub  *hub
	id   int
	dirs map[string]bool // absolute folders this watcher asked for; guarded by hub.mu

	mu      sync.Mutex
	pending map[string]fsnotify.Op // absolute path -> ops seen
	lost    string                 // why events were lost; "" when none
	barrier string                 // base name of the barrier file awaited
	seen    chan struct{}          // closed when the barrier event arrives
	made    map[string]bool        // barrier files left in place, removed at close
}

// hub is the one inotify instance of the process, shared by every scanner:
// the kernel allows each user only fs.inotify.max_user_instances of them
// (often 128), and a fleet of agents would spend one each. Events go to the
// watchers of the folder they happen in.
type hub struct {
	mu     sync.Mutex
	fs     *fsnotify.Watcher
	done   chan struct{}
	owners map[string]map[*watcher]bool // absolute folder -> its watchers
	users  int
	nextID int
}

var shared = &hub{}

func newWatcher() (*watcher, error) { return shared.join() }

// join returns a new watcher, starting the inotify instance for the first.
func (h *hub) join() (*watcher, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fs == nil {
		fw, err := fsnotify.NewBufferedWatcher(4096)
		if err != nil {
			return nil, fmt.Errorf("start inotify: %w", err)
		}
		h.fs, h.done, h.owners = fw, make(chan struct{}), map[string]map[*watcher]bool{}
		go h.loop(fw, h.done)
	}
	h.users++
	h.nextID++
	return &watcher{hub: h, id: h.nextID, dirs: map[string]bool{}, pending: map[string]fsnotify.Op{}, made: map[string]bool{}}, nil
}

func (h *hub) loop(fw *fsnotify.Watcher, done chan struct{}) {
	defer close(done)
	var to []*watcher
	for {
		select {
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			to = h.route(to, ev.Name)
			for _, w := range to {
				w.note(ev)
			}
		case err, ok := <-fw.Errors:
			if !ok {
				return
			}
			// An overflow loses events of every folder alike.
			for _, w := range h.everyone() {
				w.lose(err.Error())
			}
		}
	}
}

// route returns the watchers of the folder an event happened in, and of the
// path itself when it is a watched folder (its own removal), in out's
// array: the loop reuses one for every event (a pulse's own writes make
// about ten).
func (h *hub) route(out []*watcher, name string) []*watcher {
	h.mu.Lock()
	defer h.mu.Unlock()
	out = out[:0]
	for _, dir := range [2]string{filepath.Dir(name), name} {
		for w := range h.owners[dir] {
			if !slices.Contains(out, w) { // a folder has a watcher or two
				out = append(out, w)
			}
		}
	}
	return out
}

func (h *hub) everyone() []*watcher {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[*watcher]bool{}
	var out []*watcher
	for _, ws := range h.owners {
		for w := range ws {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// add watches the folder abs for w. Two watchers may share a folder (a
// scanner rescanning while its old watcher closes): the kernel's watch
// stays until the last of them lets it go. The kernel is asked every time,
// since a folder deleted and made again is a new inode to watch.
func (w *watcher) add(abs string) error {
	h := w.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.fs.Add(abs); err != nil {
		return err
	}
	if h.owners[abs] == nil {
		h.owners[abs] = map[*watcher]bool{}
	}
	h.owners[abs][w] = true
	w.dirs[abs] = true
	return nil
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

func (w *watcher) lose(why string) {
	w.mu.Lock()
	if w.lost == "" {
		w.lost = why
	}
	w.mu.Unlock()
}

// take returns and forgets the changes seen so far.
func (w *watcher) take() (map[string]fsnotify.Op, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, lost := w.pending, w.lost
	w.pending, w.lost = map[string]fsnotify.Op{}, ""
	return p, lost
}

// sync makes an event in the watched folder dir with a dot-file of its own
// (barrierEvent) and waits for it: inotify keeps one queue in order, so
// every change made before sync was called has been noted when it returns.
func (w *watcher) sync(dir string, seq int) error {
	name := fmt.Sprintf(".scan-barrier-%d-%d-%d", os.Getpid(), w.id, seq%2)
	seen := make(chan struct{})
	w.mu.Lock()
	w.barrier, w.seen = name, seen
	w.mu.Unlock()
	abs := filepath.Join(dir, name)
	made, err := barrierEvent(abs)
	if made {
		w.mu.Lock()
		w.made[abs] = true
		w.mu.Unlock()
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

// close lets go of w's folders, and of the inotify instance when w was its
// last user. Removing a watch takes the kernel time (about half a
// millisecond each), so a scanner may call it in the background.
func (w *watcher) close() error {
	w.mu.Lock()
	for abs := range w.made {
		os.Remove(abs) // a killed watchdog's are swept as writers' temps
	}
	w.made = map[string]bool{}
	w.mu.Unlock()
	h := w.hub
	h.mu.Lock()
	var err error
	for abs := range w.dirs {
		delete(h.owners[abs], w)
		if len(h.owners[abs]) == 0 {
			delete(h.owners, abs)
			// The folder may be gone, taking its watch with it.
			if e := h.fs.Remove(abs); e != nil && err == nil && !errors.Is(e, fsnotify.ErrNonExistentWatch) {
				err = e
			}
		}
	}
	w.dirs = nil
	h.users--
	var fw *fsnotify.Watcher
	var done chan struct{}
	if h.users == 0 {
		fw, done = h.fs, h.done
		h.fs, h.owners = nil, nil
	}
	h.mu.Unlock()
	if fw != nil {
		if e := fw.Close(); e != nil && err == nil {
			err = e
		}
		<-done
	}
	return err
}
