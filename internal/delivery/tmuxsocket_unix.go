//go:build unix

package delivery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A tmux client obeys its server: told to, it runs whatever program the
// server names (MSG_SHELL), and it sends the server its whole environment.
// So the watchdog talks only to a server of its own user, on a socket no
// other user can have swapped in: tmux checks that much of its default
// folder (/tmp/tmux-UID) itself, and nothing of a socket named with -S or
// taken from $TMUX.

// ErrTmuxUnsafe reports a tmux socket the watchdog will not talk to: one
// another user owns (an agent's own tmux server), or one that another user
// could put in its place.
var ErrTmuxUnsafe = errors.New("the tmux socket is not the watchdog's own")

// socketFor is the socket tmux would talk to with no -S: the one $TMUX
// names (tmux takes it unchecked), else "" for tmux's default.
func socketFor(socket string) string {
	if socket != "" {
		return socket
	}
	s, _, _ := strings.Cut(os.Getenv("TMUX"), ",")
	return s
}

// checkSocket resolves the socket at path (links followed) and returns the
// path tmux is to be given: a socket owned by uid, in folders that only uid
// or root can change (neither group- nor other-writable, unless sticky), up
// to /. Given the resolved path, tmux cannot be led elsewhere by a link
// swapped after the check. A missing socket is ErrTmuxTarget: there is no
// server to talk to, and nothing is run.
func checkSocket(path string, uid int) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrTmuxUnsafe, path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: no tmux server at %s (no such socket)", ErrTmuxTarget, path)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrTmuxUnsafe, path, err)
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrTmuxUnsafe, path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return "", fmt.Errorf("%w: %s is not a socket (%s)", ErrTmuxUnsafe, real, fi.Mode().Type())
	}
	if owner := ownerOf(fi); owner != uid {
		return "", fmt.Errorf("%w: %s belongs to uid %d, not the watchdog's uid %d: a tmux server of another user can make the watchdog run its programs", ErrTmuxUnsafe, real, owner, uid)
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if err := safeFolder(dir, uid); err != nil {
			return "", fmt.Errorf("%w: tmux socket %s: %v", ErrTmuxUnsafe, real, err)
		}
		if dir == filepath.Dir(dir) {
			return real, nil
		}
	}
}

// safeFolder says why dir could be changed by another user than uid and
// root, or nil when it cannot.
func safeFolder(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if owner := ownerOf(fi); owner != uid && owner != 0 {
		return fmt.Errorf("folder %s belongs to uid %d: only the watchdog's user or root may own the folders above it", dir, owner)
	}
	if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("folder %s is mode %04o, writable by other users and not sticky: another user could put their socket in its place", dir, fi.Mode().Perm())
	}
	return nil
}

func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
