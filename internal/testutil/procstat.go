package testutil

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// procFields reads /proc/<pid>/stat and returns its fields after the
// command name, which may hold spaces and parentheses: f[0] is the state
// (field 3 of proc(5)), f[11] and f[12] the user and system time (14, 15).
// ok is false where there is no such process or no /proc.
func procFields(pid int) (f []string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, false
	}
	f = strings.Fields(string(b[i+1:]))
	return f, len(f) >= 13
}

// Alive reports whether pid runs. A zombie has ended: it only waits for
// its reaper.
func Alive(pid int) bool {
	f, ok := procFields(pid)
	return ok && f[0] != "Z" && f[0] != "X"
}

// CPUTime is a process's user and system time so far; ok is false where
// /proc cannot tell (the clock tick is taken as 100 a second, as on Linux).
func CPUTime(pid int) (d time.Duration, ok bool) {
	f, ok := procFields(pid)
	if !ok {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond, err1 == nil && err2 == nil
}

// MarkedRandom counts the read-only mappings of the file exe in
// /proc/<pid>/smaps, and those of them the kernel reads page by page
// (MADV_RANDOM: VmFlags rr). err is the read's (a non-dumpable process's
// smaps are root's alone).
func MarkedRandom(pid int, exe string) (marked, total int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return 0, 0, err
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 6 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = f[5] == exe && !strings.Contains(f[1], "w")
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			total++
			if strings.Contains(line+" ", " rr ") {
				marked++
			}
		}
	}
	return marked, total, nil
}
