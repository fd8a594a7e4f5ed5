//go:build !linux

package memtrim

// Release does nothing where the kernel has no MADV_PAGEOUT.
func Release() (int64, error) { return 0, nil }
