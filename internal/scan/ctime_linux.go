package scan

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the inode change time, which a rename updates and mtime does
// not; it falls back to the modification time.
func changeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		c := time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
		if c.After(fi.ModTime()) {
			return c
		}
	}
	return fi.ModTime()
}
