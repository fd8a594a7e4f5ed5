package memtrim

import (
	"os"
	"strings"
	"testing"
)

// The advice takes: the binary's code mapping is marked for random reads
// (VmFlags rr), and the program goes on running code it had paged out.
func TestReleaseMarksTheBinary(t *testing.T) {
	n, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	if n < 1<<20 {
		t.Fatalf("released %d bytes of mappings; want the test binary's code and data (megabytes)", n)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	exe, _ := os.Readlink("/proc/self/exe")
	marked := 0
	var in bool
	for _, line := range strings.Split(string(smaps), "\n") {
		if f := strings.Fields(line); len(f) >= 6 && strings.Contains(f[0], "-") {
			in = f[5] == exe && !strings.Contains(f[1], "w")
		}
		if in && strings.HasPrefix(line, "VmFlags:") && strings.Contains(line, " rr") {
			marked++
		}
	}
	if marked == 0 {
		t.Fatalf("no read-only mapping of %s is marked rr after Release", exe)
	}
	// Code that ran before runs again.
	if got := binarySpans([]byte("1000-2000 r-xp 0 0:0 7 /x\n"), 7); len(got) != 1 {
		t.Fatal("binarySpans after Release")
	}
}
