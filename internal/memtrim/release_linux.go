package memtrim

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// Release advises the kernel, for each read-only mapping of the running
// binary, to read it page by page from now on (no fault-around, no
// read-ahead: MADV_RANDOM) and to reclaim the pages it holds now
// (MADV_PAGEOUT, Linux 5.4; pages another process maps too are kept). It
// returns the bytes of the mappings advised. The next pulses fault the
// pages they use back in; nothing else changes.
func Release() (int64, error) {
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("release start-up pages: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("release start-up pages: no inode for /proc/self/exe")
	}
	maps, err := safeopen.ReadAll("/proc/self/maps", 4<<20)
	if err != nil {
		return 0, fmt.Errorf("release start-up pages: %w", err)
	}
	var n int64
	for _, s := range binarySpans(maps, st.Ino) {
		if err := advise(s, unix.MADV_RANDOM); err != nil {
			return n, err
		}
		if err := advise(s, unix.MADV_PAGEOUT); err != nil {
			return n, err
		}
		n += int64(s.End - s.Start)
	}
	return n, nil
}

func advise(s Span, advice int) error {
	if _, _, e := unix.Syscall(unix.SYS_MADVISE, uintptr(s.Start), uintptr(s.End-s.Start), uintptr(advice)); e != 0 {
		return fmt.Errorf("release start-up pages: madvise %#x-%#x: %w", s.Start, s.End, e)
	}
	return nil
}
