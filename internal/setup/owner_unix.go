//go:build unix

package setup

import (
	"io/fs"
	"os"
	"syscall"
)

// oNonblock keeps a FIFO planted where a settings file should be from
// blocking init's open.
const oNonblock = syscall.O_NONBLOCK

// otherOwner is the owner of home when init runs as root for another user
// (--agent-home): what init writes there is checked against that user and
// given to them (a client that cannot write its own ~/.claude or ~/.codex
// breaks). nil when init runs as the home's owner, or as anyone not root.
func otherOwner(home string) (*owner, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	fi, err := os.Stat(home)
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return nil, nil
	}
	return &owner{uid: int(st.Uid), gid: int(st.Gid)}, nil
}

// uidOf is the owner of a file.
func uidOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
