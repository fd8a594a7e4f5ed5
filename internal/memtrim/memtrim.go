// Package memtrim gives the kernel back the pages of the program's own
// binary that its start touched and its steady work does not use.
//
// A Go binary's start runs the initialisers of every package it links,
// spread over the whole of its code; the kernel maps 64 KB around each
// page touched (fault-around), so a daemon whose pulse runs a few hundred
// kilobytes of code keeps most of its 25 MB binary resident for days.
// Those pages are clean and the kernel would reclaim them under pressure
// anyway; after the first pulses the watchdog asks it to do so now, and to
// bring back only the pages it touches again, one at a time.
package memtrim

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// Span is a mapping of the binary: [Start, End).
type Span struct {
	Start, End uint64
}

// binarySpans returns the mappings in maps (the text of /proc/self/maps)
// of the file whose inode is ino that are not writable: code, read-only
// data and the function tables. Writable mappings are the binary's data,
// copied on write: they are the program's own memory, not the file's.
func binarySpans(maps []byte, ino uint64) []Span {
	var out []Span
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// address perms offset dev inode [path]
		f := strings.Fields(sc.Text())
		if len(f) < 6 || strings.Contains(f[1], "w") {
			continue
		}
		if n, err := strconv.ParseUint(f[4], 10, 64); err != nil || n != ino || n == 0 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || b <= a {
			continue
		}
		out = append(out, Span{a, b})
	}
	return out
}
