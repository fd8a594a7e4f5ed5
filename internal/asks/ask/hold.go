package ask

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// The hook's side: it asks and waits. It believes only a socket that the
// process listening on it owns, in folders no other user can change, so a
// decision read here comes from the watchdog that made the socket (or from
// root). Where the watchdog runs as the agent's own user, that user may be
// the agent: see the package doc.

// ErrNotTheWatchdog reports a socket the hook will not believe.
var ErrNotTheWatchdog = errors.New("the asks socket is not the watchdog's")

// MaxHold bounds how long a hook waits whatever the watchdog says.
const MaxHold = 24 * time.Hour

// holdGrace is how long past the hold the hook still reads: the watchdog
// closes the connection itself when the hold runs out.
const holdGrace = 5 * time.Second

// Hold asks the watchdog listening at path about a and waits for a
// person's decision, at most max (and MaxHold). It returns the question's
// ID and the decision, nil when none came: the hook then prints nothing
// and the client's own dialog stands.
func Hold(path string, a Ask, max time.Duration) (string, *Decision, error) {
	real, owner, err := checkSocket(path)
	if err != nil {
		return "", nil, err
	}
	c, err := dial(real)
	if err != nil {
		return "", nil, fmt.Errorf("reach the watchdog: %w", err)
	}
	defer c.Close()
	if uid, err := peerUID(c); err != nil || uid != owner {
		return "", nil, fmt.Errorf("%w: %s belongs to uid %d, and uid %d listens on it (%v)", ErrNotTheWatchdog, real, owner, uid, err)
	}
	a.Input, _ = Shown(a.Input)
	c.SetDeadline(time.Now().Add(ReadWait))
	if err := WriteLine(c, Request{Op: OpAsk, Ask: &a}); err != nil {
		return "", nil, fmt.Errorf("ask the watchdog: %w", err)
	}
	r := bufio.NewReader(c)
	var rep Reply
	if err := ReadLine(r, &rep); err != nil {
		return "", nil, fmt.Errorf("read the watchdog's reply: %w", err)
	}
	if err := rep.Err(); err != nil {
		return "", nil, err
	}
	hold := min(time.Duration(rep.Hold)*time.Second, max, MaxHold)
	c.SetDeadline(time.Now().Add(hold + holdGrace))
	var d Reply
	switch err := ReadLine(r, &d); {
	case errors.Is(err, io.EOF), errors.Is(err, os.ErrDeadlineExceeded):
		return rep.ID, nil, nil
	case err != nil:
		return rep.ID, nil, fmt.Errorf("wait for the answer: %w", err)
	}
	return rep.ID, d.Decision, nil
}

// ReadWait bounds how long either side waits for the other's first line.
const ReadWait = 2 * time.Second

// checkSocket resolves path (links followed) and returns it with its
// owner: it must be a socket, in folders up to / that only its owner or
// root can change (neither group- nor other-writable, unless sticky).
func checkSocket(path string) (string, int, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", -1, fmt.Errorf("%w: %v", ErrNotTheWatchdog, err)
	}
	real, _ = filepath.Abs(real)
	fi, err := os.Lstat(real)
	if err != nil {
		return "", -1, fmt.Errorf("%w: %v", ErrNotTheWatchdog, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return "", -1, fmt.Errorf("%w: %s is not a socket", ErrNotTheWatchdog, real)
	}
	owner := ownerOf(fi)
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		fi, err := os.Lstat(dir)
		if err != nil {
			return "", -1, fmt.Errorf("%w: %v", ErrNotTheWatchdog, err)
		}
		if o := ownerOf(fi); o != owner && o != 0 {
			return "", -1, fmt.Errorf("%w: folder %s belongs to uid %d, the socket to uid %d", ErrNotTheWatchdog, dir, o, owner)
		}
		if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
			return "", -1, fmt.Errorf("%w: folder %s is mode %04o: another user could put a socket of theirs in its place", ErrNotTheWatchdog, dir, fi.Mode().Perm())
		}
		if dir == filepath.Dir(dir) {
			return real, owner, nil
		}
	}
}

func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
