//go:build !linux

package scan

import (
	"io/fs"
	"time"
)

// changeTime is the modification time where no change time is read.
func changeTime(fi fs.FileInfo) time.Time { return fi.ModTime() }
