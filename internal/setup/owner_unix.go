//go:build unix

package setup

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// giveToOwnerOf hands path, and every folder between it and home, to the
// owner of home when init runs as root for another user (--agent-home):
// a client that cannot write its own ~/.claude or ~/.codex breaks.
func giveToOwnerOf(home, path string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(home)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return nil
	}
	for p := path; p != home && strings.HasPrefix(p, home+string(filepath.Separator)); p = filepath.Dir(p) {
		if err := os.Lchown(p, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
	}
	return nil
}
