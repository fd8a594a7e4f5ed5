package setup

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Where init writes, and through which links. The workspace is the
// agent's: it can plant a link there, so init follows a link only while it
// stays inside the workspace, says that it did, and writes through the
// workspace's os.Root (a link swapped in while init runs cannot carry a
// write out either). The agent's home is the user's: its dotfiles are
// often links into a repository elsewhere, and following them writes only
// what that user could write anyway; but when init runs as someone else
// (root, with --agent-home), it writes there only into folders and files
// the home's owner owns, so a link the agent planted in its own home
// cannot make root write a file of root's.

// LinkOutError is a workspace path whose link leads out of the workspace.
type LinkOutError struct{ Link, Target string }

func (e *LinkOutError) Error() string {
	return fmt.Sprintf("%s is a link to %s, outside the workspace: init writes nothing through it "+
		"(the agent can plant links in its workspace); remove the link or make it lead inside the workspace, then run init again", e.Link, e.Target)
}

// place is a file init writes: the folder it resolves to, opened, and the
// file's name in it.
type place struct {
	dir  *os.Root
	name string
	// owner, when set, is the uid and gid the file and the folders init
	// makes are given (init runs as root for another user's home).
	owner *owner
	// via lists the links followed.
	via []string
}

// owner is a user that files init writes are checked against or given to.
type owner struct{ uid, gid int }

// zone is where a path lies and what init may follow there.
type zone struct {
	base string // the workspace or home, links resolved
	// inside refuses a link that leads out of base.
	inside bool
	// owner, when set, refuses to write into a folder or file another user
	// owns, and gives what init makes to that owner.
	owner *owner
	// claimed, when set, is the folder base must still be (claim.go).
	claimed fs.FileInfo
	show    func(string) string
}

// zoneOf is the zone of an absolute path: the workspace, the agent's home
// (e.home), else the folder it is in (Claude Desktop's user config).
func (w Wiring) zoneOf(p, home string) (zone, string, error) {
	base, z := filepath.Dir(p), zone{}
	switch {
	case within(w.Dir, p):
		base, z.inside = w.Dir, true
		z.owner, z.claimed = w.owner, w.claimed
	case home != "":
		base = home
		o, err := otherOwner(home)
		if err != nil {
			return z, "", err
		}
		z.owner = o
	}
	real, err := filepath.EvalSymlinks(base)
	if errors.Is(err, fs.ErrNotExist) && !z.inside && home == "" {
		real, err = realExisting(base), nil
	}
	if err != nil {
		return z, "", err
	}
	rel, _ := filepath.Rel(base, p)
	z.base = real
	// Names under the resolved base are shown as under the base as given
	// (a workspace that is itself a link stays relative).
	z.show = func(q string) string {
		if r, err := filepath.Rel(real, q); err == nil && within(real, q) {
			q = filepath.Join(base, r)
		}
		return w.show(q)
	}
	return z, rel, nil
}

// within reports whether p is root or below it, comparing the paths as
// written.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// realExisting is p with every link in its longest existing part resolved
// and the rest joined on as written.
func realExisting(p string) string {
	for q := p; ; q = filepath.Dir(q) {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			rest, _ := filepath.Rel(q, p)
			return filepath.Join(r, rest)
		}
		if filepath.Dir(q) == q {
			return p
		}
	}
}

// resolve walks rel from the zone's base one name at a time, following
// each link as the zone allows, and returns where the path really is.
func (z zone) resolve(rel string) (string, []string, error) {
	cur := z.base
	parts := strings.Split(filepath.ToSlash(rel), "/")
	var via []string
	for i, hops := 0, 0; i < len(parts); i++ {
		if parts[i] == "" || parts[i] == "." {
			continue
		}
		next := filepath.Join(cur, parts[i])
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			cur = next // missing (and so is the rest), or a plain name
			continue
		}
		if hops++; hops > 40 {
			return "", via, fmt.Errorf("%s: too many links", z.show(next))
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", via, err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		leads := realExisting(filepath.Clean(target))
		if z.inside && !within(z.base, leads) {
			return "", via, &LinkOutError{Link: z.show(next), Target: leads}
		}
		via = append(via, z.show(next)+" → "+z.show(leads))
		cur = leads
	}
	return cur, via, nil
}

// open resolves the path rel of the zone and opens the folder it is in:
// in the workspace through the workspace's root, elsewhere its nearest
// existing folder. create makes the missing folders; without it a missing
// folder gives a place with no dir (the file does not exist).
func (z zone) open(rel string, create bool) (place, error) {
	real, via, err := z.resolve(rel)
	if err != nil {
		return place{via: via}, err
	}
	pl := place{name: filepath.Base(real), owner: z.owner, via: via}
	start := z.base
	if !z.inside {
		start = filepath.Dir(real)
		for {
			if fi, err := os.Stat(start); err == nil && fi.IsDir() {
				break
			}
			if filepath.Dir(start) == start {
				break
			}
			start = filepath.Dir(start)
		}
	}
	r, err := os.OpenRoot(start)
	if err != nil {
		return place{via: via}, err
	}
	if err := z.owns(r, ".", start); err != nil {
		r.Close()
		return place{via: via}, err
	}
	if z.inside {
		if err := sameWorkspace(r, z.show(start), z.claimed); err != nil {
			r.Close()
			return place{via: via}, err
		}
	}
	down, _ := filepath.Rel(start, filepath.Dir(real))
	for _, name := range strings.Split(filepath.ToSlash(down), "/") {
		if name == "" || name == "." {
			continue
		}
		made := false
		if create {
			err := r.Mkdir(name, 0o755)
			made = err == nil
			if err != nil && !errors.Is(err, fs.ErrExist) {
				r.Close()
				return place{via: via}, err
			}
			if made && z.owner != nil {
				if err := r.Lchown(name, z.owner.uid, z.owner.gid); err != nil {
					r.Close()
					return place{via: via}, err
				}
			}
		}
		sub, err := r.OpenRoot(name)
		r.Close()
		if errors.Is(err, fs.ErrNotExist) && !create {
			return pl, nil
		}
		if err != nil {
			return place{via: via}, fmt.Errorf("%s: %w", z.show(filepath.Join(start, name)), err)
		}
		r, start = sub, filepath.Join(start, name)
	}
	pl.dir = r
	return pl, nil
}

// owns refuses, for a zone with an owner, a folder or file of the root
// that another user owns.
func (z zone) owns(r *os.Root, name, shown string) error {
	if z.owner == nil {
		return nil
	}
	fi, err := r.Lstat(name)
	if err != nil {
		return err
	}
	if uid, ok := uidOf(fi); ok && uid != z.owner.uid {
		return fmt.Errorf("%s belongs to uid %d, not to the agent's user (uid %d): init, running as another user, "+
			"writes in the agent's home only what that user owns; if a link leads there, make it lead to a file of theirs", shown, uid, z.owner.uid)
	}
	return nil
}

// maxClientFile bounds a client settings file init reads.
const maxClientFile = 4 << 20

// read returns the file's bytes and mode, nil when it does not exist. It
// refuses anything but a regular file, without blocking on a FIFO.
func (pl place) read(z zone, shown string) ([]byte, fs.FileMode, error) {
	if pl.dir == nil {
		return nil, 0, nil
	}
	fi, err := pl.dir.Lstat(pl.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, nil
	case err != nil:
		return nil, 0, err
	case !fi.Mode().IsRegular():
		return nil, 0, fmt.Errorf("not a regular file (%v): move it away, then run init again", fi.Mode().Type())
	}
	if err := z.owns(pl.dir, pl.name, shown); err != nil {
		return nil, 0, err
	}
	f, err := pl.dir.OpenFile(pl.name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxClientFile+1))
	if err == nil && len(data) > maxClientFile {
		err = fmt.Errorf("larger than %d MiB", maxClientFile>>20)
	}
	// The hooks name commands the client runs: nobody else may write them.
	return data, fi.Mode().Perm() &^ 0o002, err
}

// write replaces the file with data, mode perm, atomically: a temp file in
// the same folder, renamed over it. The mode is set whatever the umask.
func (pl place) write(data []byte, perm fs.FileMode) error {
	var tmp string
	var f *os.File
	for range 100 {
		tmp = "." + pl.name + ".init-" + strconv.FormatUint(uint64(rand.Uint32()), 36)
		var err error
		if f, err = pl.dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			break
		} else if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if f == nil {
		return errors.New("no free temp name")
	}
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = pl.dir.Chmod(tmp, perm)
	}
	if err == nil && pl.owner != nil {
		err = pl.dir.Lchown(tmp, pl.owner.uid, pl.owner.gid)
	}
	if err == nil {
		err = pl.dir.Rename(tmp, pl.name)
	}
	if err != nil {
		pl.dir.Remove(tmp)
	}
	return err
}

func (pl place) close() {
	if pl.dir != nil {
		pl.dir.Close()
	}
}
