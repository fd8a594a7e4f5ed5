//go:build linux

package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// pulsePair is the two files of one pulse file: f[at] is at the name, the
// other, f[1-at], is at the name spare in the same folder. Both were made
// by the watchdog (O_EXCL) and are written only through these descriptors,
// never opened again by a name the agent could have replaced.
type pulsePair struct {
	mu    sync.Mutex
	f     [2]*os.File
	ino   [2]uint64
	dev   uint64
	at    int
	spare string
}

type pulseFiles struct {
	mu    sync.Mutex
	pairs map[string]*pulsePair
}

// KeepPulseFiles makes WritePulseFile write a file it is given again and
// again into one of two files it keeps, exchanged with the name
// (renameat2 RENAME_EXCHANGE), instead of a new file renamed over it.
// Only the watchdog's pulse asks for it; ClosePulseFiles ends it.
func (w *Workspace) KeepPulseFiles() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pulse == nil {
		w.pulse = &pulseFiles{pairs: map[string]*pulsePair{}}
	}
}

// ClosePulseFiles removes the spare of each kept pulse file (when its name
// still holds it) and closes its descriptors.
func (w *Workspace) ClosePulseFiles() {
	w.mu.Lock()
	pf := w.pulse
	w.pulse = nil
	w.mu.Unlock()
	if pf == nil {
		return
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	for rel, p := range pf.pairs {
		p.mu.Lock()
		if p.f[0] != nil {
			w.in(path.Dir(rel), func(r *os.Root, name string) error {
				return withDir(r, name, func(dfd int) error {
					if p.holds(dfd, p.spare, 1-p.at) {
						unix.Unlinkat(dfd, p.spare, 0)
					}
					return nil
				})
			})
		}
		p.close()
		p.mu.Unlock()
	}
}

// WritePulseFile replaces the file rel with data for a reader as
// WriteFileNoSync does: the name holds the old file or the new one, whole,
// at every instant. Once KeepPulseFiles was called, the new content is
// written into the kept file that is not at the name, which is then
// exchanged with it: no file is made or freed at each write, which was
// most of a quiet pulse's time in the kernel (a new inode, the old one's
// blocks freed, the new one's written out). A reader that opened the name
// and still reads it a whole write later (a pulse later) may see that file
// emptied or half written: the readers of these files read again once when
// what they read does not parse.
func (w *Workspace) WritePulseFile(rel string, data []byte) error {
	w.mu.Lock()
	pf := w.pulse
	w.mu.Unlock()
	if pf == nil {
		return w.WriteFileNoSync(rel, data)
	}
	pf.mu.Lock()
	p := pf.pairs[rel]
	if p == nil {
		p = &pulsePair{}
		pf.pairs[rel] = p
	}
	pf.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	err := w.in(rel, func(r *os.Root, name string) error {
		dir, base := path.Split(name)
		d, err := openDirIn(r, path.Clean(dir))
		if err != nil {
			return err
		}
		defer d.Close()
		return withDir(d, ".", func(dfd int) error {
			if p.f[0] != nil {
				if p.swap(dfd, base, data) == nil {
					return nil
				}
				if p.holds(dfd, p.spare, 1-p.at) {
					unix.Unlinkat(dfd, p.spare, 0)
				}
			}
			p.close()
			return p.make(d, dfd, base, data)
		})
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// withDir calls fn with a descriptor of the folder name inside r.
func withDir(r *os.Root, name string, fn func(dfd int) error) error {
	df, err := r.Open(name)
	if err != nil {
		return err
	}
	defer df.Close()
	rc, err := df.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// holds reports whether name in the folder dfd is the pair's file i: not
// a link, not linked elsewhere.
func (p *pulsePair) holds(dfd int, name string, i int) bool {
	var st unix.Stat_t
	if unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	return st.Mode&unix.S_IFMT == unix.S_IFREG && st.Nlink == 1 && st.Ino == p.ino[i] && uint64(st.Dev) == p.dev
}

// swap writes data into the file that is not at base and exchanges the two
// names. Anything unexpected (a name moved, removed, linked or replaced, a
// mode changed by a person) fails it, and the caller starts a new pair.
func (p *pulsePair) swap(dfd int, base string, data []byte) error {
	if !p.holds(dfd, base, p.at) || !p.holds(dfd, p.spare, 1-p.at) {
		return os.ErrInvalid
	}
	f := p.f[1-p.at]
	if fi, err := p.f[p.at].Stat(); err != nil || fi.Mode() != mustStat(f) {
		return os.ErrInvalid
	}
	// Emptied first, so that a reader that catches the write midway (one
	// that opened the name a whole write ago) reads nothing or a part that
	// does not parse, never old and new bytes mixed.
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := unix.Renameat2(dfd, p.spare, dfd, base, unix.RENAME_EXCHANGE); err != nil {
		return err
	}
	p.at = 1 - p.at
	return nil
}

func mustStat(f *os.File) os.FileMode {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Mode()
}

// make writes data as a replace does (a new temp file renamed over base,
// with the mode of the file it replaces) and keeps that file and a new
// spare beside it as the pair. A pair that cannot be made leaves the
// write done and the pair empty: the next write tries again.
func (p *pulsePair) make(d *os.Root, dfd int, base string, data []byte) error {
	perm := os.FileMode(0o644)
	if fi, err := d.Lstat(base); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	f, tmp, err := createTemp(d, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		d.Remove(tmp)
		return err
	}
	if err := d.Rename(tmp, base); err != nil {
		f.Close()
		d.Remove(tmp)
		return err
	}
	s, spare, err := createTemp(d, perm)
	if err != nil {
		f.Close()
		return nil
	}
	p.f, p.at, p.spare = [2]*os.File{f, s}, 0, spare
	for i, x := range p.f {
		fi, err := x.Stat()
		st, ok := fi.Sys().(*syscall.Stat_t)
		if err != nil || !ok {
			p.close()
			d.Remove(spare)
			return nil
		}
		p.ino[i], p.dev = st.Ino, uint64(st.Dev)
	}
	return nil
}

func (p *pulsePair) close() {
	for i, f := range p.f {
		if f != nil {
			f.Close()
		}
		p.f[i] = nil
	}
}

// createTemp makes a new dot-named file in d with O_EXCL, as stageTemp
// does, and keeps it open.
func createTemp(d *os.Root, perm os.FileMode) (*os.File, string, error) {
	for range 100 {
		name := ".stage-" + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			if fi, err := f.Stat(); err == nil && fi.Mode().Perm() != perm {
				f.Chmod(perm) // the umask took bits away
			}
			return f, name, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", errors.New("stage a temp file: every name tried exists")
}
