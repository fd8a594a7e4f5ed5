//go:build !unix

package setup

import "io/fs"

// oNonblock: no FIFOs to fear where there is no unix.
const oNonblock = 0

// otherOwner: files have no owner to check or hand over here.
func otherOwner(string) (*owner, error) { return nil, nil }

// uidOf: no owner here.
func uidOf(fs.FileInfo) (int, bool) { return 0, false }
