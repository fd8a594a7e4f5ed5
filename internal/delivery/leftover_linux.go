package delivery

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ai-heart/ai-heart/internal/statefile"
)

// parentDeath asks the kernel to SIGKILL the run's leader when the watchdog
// dies (kill -9 included), so no run is left unsupervised; what the leader
// started is ended by the next watchdog (EndLeftover).
func parentDeath(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// procStat reads a process's group and start (clock ticks since boot) from
// /proc/<pid>/stat.
func procStat(pid int) (pgrp int, start uint64, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// The command name may hold spaces and parentheses: fields count from
	// the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, 0, false
	}
	// f[0] is the state (field 3), f[2] the group (5), f[19] the start (22).
	if f[0] == "Z" || f[0] == "X" {
		return 0, 0, false // ended; waits for its reaper
	}
	pgrp, err1 := strconv.Atoi(f[2])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	return pgrp, start, err1 == nil && err2 == nil
}

func bootID() string {
	b, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(b))
}

func procStart(pid int) (start uint64, boot string, ok bool) {
	_, start, ok = procStat(pid)
	return start, bootID(), ok
}

// groupMembers lists the live processes of group pgid.
func groupMembers(pgid int) (members []int, leaderStart uint64, leaderAlive bool) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		g, start, ok := procStat(pid)
		if !ok || g != pgid {
			continue
		}
		members = append(members, pid)
		if pid == pgid {
			leaderStart, leaderAlive = start, true
		}
	}
	return members, leaderStart, leaderAlive
}

// EndLeftover ends the run that RunFile says a previous watchdog left
// alive: SIGTERM to its process group, SIGKILL after grace. It ends nothing
// that is not provably that run's: after a reboot, or when the group's
// leader is a later process given the same pid, the record is only
// removed. It reports the group it ended (0: none).
func EndLeftover(path string, grace time.Duration) (int, error) {
	r, err := readRun(path)
	if r == nil {
		if err != nil {
			_ = statefile.RemoveKept(path)
		}
		return 0, err
	}
	defer statefile.RemoveKept(path)
	if r.Boot != bootID() {
		return 0, nil
	}
	members, start, leaderAlive := groupMembers(r.PGID)
	if len(members) == 0 || (leaderAlive && start != r.Start) {
		return 0, nil
	}
	_ = syscall.Kill(-r.PGID, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if m, _, _ := groupMembers(r.PGID); len(m) == 0 {
			return r.PGID, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(-r.PGID, syscall.SIGKILL)
	return r.PGID, nil
}
