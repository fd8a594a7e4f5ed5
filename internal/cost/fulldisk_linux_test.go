package cost

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Runs booked while the state disk is full, then a kill -9: the next
// watchdog's ledger holds them (it lost them, with their tokens).
func TestLedgerSurvivesAFullDiskAndAKill(t *testing.T) {
	dir := testutil.SmallDisk(t, "256k")
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	l, err := Open(dir, time.UTC, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Record(now, "schedule", Worked, Run{}); err != nil {
		t.Fatal(err)
	}
	free := testutil.FillDisk(t, dir)
	defer free()
	for i := range 3 {
		_ = l.Record(now.Add(time.Duration(i+1)*time.Minute), "schedule", Worked, Run{}) // booked in memory whatever the write does
	}
	again, err := Open(dir, time.UTC, now)
	if err != nil {
		t.Fatal(err)
	}
	if runs := again.day(now).By.Sum("").Runs; runs != 4 {
		t.Fatalf("after a full disk and a kill the ledger holds %d runs; want 4", runs)
	}
}
