//go:build linux

package testutil

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size (e.g. "1m") for the test and returns its
// folder; it is unmounted when the test ends. Mounting needs root: without
// it, or where the kernel refuses, the test skips.
func SmallDisk(t testing.TB, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
	return mnt
}

// FillDisk writes a file in dir until its disk is full and returns what
// frees it again.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	name := filepath.Join(dir, "filler.bin")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for chunk := make([]byte, 64<<10); ; {
		n, err := f.Write(chunk)
		if err == nil {
			continue
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatal(err)
		}
		if n == 0 && len(chunk) == 1 {
			break
		}
		chunk = chunk[:max(1, len(chunk)/2)] // the last pages too
	}
	return func() { _ = os.Remove(name) }
}
