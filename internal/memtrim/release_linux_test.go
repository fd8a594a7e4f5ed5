package memtrim

import (
	"os"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The advice takes: the binary's read-only mappings are marked for random
// reads (VmFlags rr), and the program goes on running the code it paged
// out (this test's own, after Release).
func TestReleaseMarksTheBinary(t *testing.T) {
	n, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	if n < 1<<20 {
		t.Fatalf("released %d bytes of mappings; want the test binary's code and data (megabytes)", n)
	}
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe:", err)
	}
	marked, total, err := testutil.MarkedRandom(os.Getpid(), exe)
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	if marked == 0 || marked != total {
		t.Fatalf("%d of the %d read-only mappings of %s are marked rr after Release, want all", marked, total, exe)
	}
}
