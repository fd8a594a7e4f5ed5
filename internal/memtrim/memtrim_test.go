package memtrim

import (
	"reflect"
	"testing"
)

func TestBinarySpans(t *testing.T) {
	maps := []byte(`00400000-00e5b000 r-xp 00000000 fd:01 1234                               /usr/bin/watchdog
00e5b000-01a1c000 r--p 00a5b000 fd:01 1234                               /usr/bin/watchdog
01a1c000-01a6e000 rw-p 0161c000 fd:01 1234                               /usr/bin/watchdog
01a6e000-01ab0000 rw-p 00000000 00:00 0
7f0000000000-7f0000001000 r--p 00000000 fd:01 99                          /usr/lib/other
7f1000000000-7f1000002000 r-xp 00000000 fd:01 1234                        /usr/bin/watchdog (deleted)
7ffd0000-7ffc0000 r-xp 00000000 fd:01 1234                                /usr/bin/watchdog
garbage
7fff1000-7fff3000 r-xp 00000000 00:00 0                                  [vdso]
`)
	got := binarySpans(maps, 1234)
	want := []Span{{0x400000, 0xe5b000}, {0xe5b000, 0x1a1c000}, {0x7f1000000000, 0x7f1000002000}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("spans %#v, want %#v: the binary's read-only mappings (a replaced binary too), never its data, another file, an anonymous mapping or a bad line", got, want)
	}
	if got := binarySpans(maps, 0); got != nil {
		t.Fatalf("inode 0 matched %v", got)
	}
}
