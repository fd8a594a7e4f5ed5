package budget

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Runs counted while the state disk is full, then a kill -9 (no later
// write to catch up): the next watchdog reads the whole count. It read the
// count from before the disk filled, so the hard cap let more runs go.
func TestCapCountSurvivesAFullDiskAndAKill(t *testing.T) {
	dir := testutil.SmallDisk(t, "256k")
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	c, err := OpenDailyCap(dir, 10, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Take(now); err != nil {
		t.Fatal(err)
	}
	free := testutil.FillDisk(t, dir)
	defer free()
	for i := range 3 {
		if ok, _, err := c.Take(now.Add(time.Duration(i+1) * time.Minute)); !ok {
			t.Fatalf("take %d refused (err %v)", i+2, err)
		}
	}
	// kill -9: c is gone without another write.
	again, err := OpenDailyCap(dir, 10, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if used := again.State(now).Used; used != 4 {
		t.Fatalf("after a full disk and a kill the cap reads %d used; want the 4 runs counted", used)
	}
}
