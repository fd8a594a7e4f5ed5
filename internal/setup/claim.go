package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// When init runs as root for another user's home (--agent-home), the
// workspace path is the agent's to shape: it can plant a link there, at the
// workspace or at any folder above it, towards a folder of root's. Init then
// lays out only a workspace inside that home, reached from it through
// folders of that user's and no link, making the missing ones that user's;
// it remembers the folder it checked, and every later write checks that it
// lands in that very folder (a link swapped in meanwhile is refused).

// claimWorkspace checks, for init run as root for the home of o, the
// workspace dir: inside home, every name from home down to dir a folder of
// o's and no link (a missing one is made, o's). It returns the workspace's
// folder as opened.
func claimWorkspace(home, dir string, o *owner) (fs.FileInfo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	realHome, err := filepath.EvalSymlinks(home)
	if err != nil {
		return nil, err
	}
	var rel string
	switch {
	case within(home, abs):
		rel, _ = filepath.Rel(home, abs)
	case within(realHome, abs):
		rel, _ = filepath.Rel(realHome, abs)
	default:
		return nil, fmt.Errorf("%s is not inside the agent's home %s: init, running as root for that home's user, writes only inside it "+
			"(give a workspace there, or run init as that user)", abs, home)
	}
	r, err := os.OpenRoot(realHome)
	if err != nil {
		return nil, err
	}
	defer func() { r.Close() }()
	cur := realHome
	for _, name := range strings.Split(filepath.ToSlash(rel), "/") {
		if name == "" || name == "." {
			continue
		}
		shown := filepath.Join(cur, name)
		fi, err := r.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			if err := r.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("create %s: %w", shown, err)
			}
			if err := r.Lchown(name, o.uid, o.gid); err != nil {
				return nil, err
			}
			fi, err = r.Lstat(name)
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := r.Readlink(name)
			return nil, fmt.Errorf("%s is a link (to %s): init, running as root for the agent's home, follows no link from %s "+
				"down to the workspace, since the agent can plant one there; give the folder itself, if it is the agent's, or remove the link", shown, target, realHome)
		}
		sub, err := r.OpenRoot(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", shown, err)
		}
		r.Close()
		r, cur = sub, shown
		// What was opened, not what the name showed a moment before.
		if err := ownedFolder(r, shown, o); err != nil {
			return nil, err
		}
	}
	return r.Stat(".")
}

// ownedFolder refuses the folder r is open on (shown) unless it is a
// folder of o's.
func ownedFolder(r *os.Root, shown string, o *owner) error {
	fi, err := r.Stat(".")
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", shown)
	}
	if uid, ok := uidOf(fi); ok && uid != o.uid {
		return fmt.Errorf("%s belongs to uid %d, not to the agent's user (uid %d): init, running as root for the agent's home, "+
			"lays out only a workspace of that user's", shown, uid, o.uid)
	}
	return nil
}

// sameWorkspace refuses a folder r, opened at shown, that is not the
// workspace init checked (claimed; nil when it checked none).
func sameWorkspace(r *os.Root, shown string, claimed fs.FileInfo) error {
	if claimed == nil {
		return nil
	}
	fi, err := r.Stat(".")
	if err != nil {
		return err
	}
	if !os.SameFile(fi, claimed) {
		return fmt.Errorf("%s is no longer the folder init checked (a link or another folder was put in its place while init ran): "+
			"init writes nothing there; run it again", shown)
	}
	return nil
}
