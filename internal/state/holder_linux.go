package state

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// holders lists the processes holding a flock on the file at path, from
// /proc/locks, the watchdog's (exclusive) first; known is false when the
// kernel's table cannot be read. Locks are matched by the file's inode
// number, then its device where the kernel's and stat's agree (they do
// not on btrfs subvolumes).
func holders(path string) (hs []Holder, known bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false
	}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return nil, false
	}
	dev := fmt.Sprintf("%02x:%02x:", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev))) //nolint:unconvert // uint32 on some arches
	ino := ":" + strconv.FormatUint(st.Ino, 10)
	var exact, other, shared []Holder
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// 1: FLOCK  ADVISORY  WRITE 1234 fe:00:9978026 0 EOF
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" || !strings.HasSuffix(f[5], ino) { // "->": a waiter
			continue
		}
		pid, err := strconv.Atoi(f[4])
		if err != nil || pid <= 0 {
			continue
		}
		h := Holder{PID: pid, Program: comm(pid)}
		switch {
		case f[3] != "WRITE":
			shared = append(shared, h)
		case f[5] == dev+ino[1:]:
			exact = append(exact, h)
		default:
			other = append(other, h)
		}
	}
	return append(append(exact, other...), shared...), true
}

// comm is the command name of process pid, "" when it cannot be read.
func comm(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// runs reports whether process pid was started as `PROGRAM run ...`.
func runs(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(string(b), "\x00")
	return len(args) > 1 && args[1] == "run"
}

var selfComm = sync.OnceValue(func() string { return comm(os.Getpid()) })

// watchdog reports whether h is this very process, or a `watchdog run`:
// its program named watchdog (or as this process is, for a watchdog
// installed under another name), its first argument run. The lock's
// holder is whoever took it, so a program that takes the lock and then
// execs the watchdog for something else (`watchdog fleet`) is none. On
// the same user a program of the agent's own can still take that name and
// those arguments: this tells a watchdog from flock or python, not from a
// forger that mimics one.
func (h Holder) watchdog() bool {
	if h.PID == os.Getpid() {
		return true
	}
	return h.Program != "" && (h.Program == "watchdog" || h.Program == selfComm()) && runs(h.PID)
}
