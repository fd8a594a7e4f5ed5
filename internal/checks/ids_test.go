package checks

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// named is a proof written ago, named with the ID of idAgo.
func named(ago, idAgo time.Duration) *workspace.Proof {
	p := cpAgo(ago)
	p.ID = workspace.NewID(now.Add(-idAgo))
	return p
}

func TestFutureID(t *testing.T) {
	runLevels(t, FutureID, []levelCase{
		{"no proof", scan.Snapshot{}, cfg, OK},
		{"ID now", scan.Snapshot{LastCheckpoint: named(0, 0)}, cfg, OK},
		{"ID 1s ahead", scan.Snapshot{LastCheckpoint: named(0, -sec)}, cfg, Error},
		{"ID ahead, file before the baseline", scan.Snapshot{LastCheckpoint: named(2*time.Minute, -time.Hour)}, withBaseline(time.Minute), OK},
		{"older log with a future ID is not the newest proof", withLogs(scan.Snapshot{LastCheckpoint: named(0, 0)}, named(time.Minute, -time.Hour)), cfg, OK},
	})
}

func TestStaleID(t *testing.T) {
	m := time.Minute
	runLevels(t, StaleID, []levelCase{
		{"no proof", scan.Snapshot{}, cfg, OK},
		{"written 5m after its ID", scan.Snapshot{LastCheckpoint: named(m, 6*m)}, cfg, OK},
		{"just over 5m after", scan.Snapshot{LastCheckpoint: named(m, 6*m+sec)}, cfg, Warning},
		{"10m after", scan.Snapshot{LastCheckpoint: named(m, 11*m)}, cfg, Warning},
		{"just over 10m after", scan.Snapshot{LastCheckpoint: named(m, 11*m+sec)}, cfg, Error},
		{"file 10m old still judged", scan.Snapshot{LastCheckpoint: named(10*m, 30*m)}, cfg, Error},
		{"file just over 10m old not judged", scan.Snapshot{LastCheckpoint: named(10*m+sec, 30*m)}, cfg, OK},
		{"file before the baseline", scan.Snapshot{LastCheckpoint: named(3*m, 30*m)}, withBaseline(2 * m), OK},
		{"file after the baseline", scan.Snapshot{LastCheckpoint: named(m, 30*m)}, withBaseline(2 * m), Error},
		{"paused by strict", active(scan.Snapshot{LastCheckpoint: named(m, 30*m)}, decl(workspace.Strict, 5*m, 30)), cfg, OK},
		{"flexible does not pause", active(scan.Snapshot{LastCheckpoint: named(m, 30*m)}, decl(workspace.Flexible, 5*m, 0)), cfg, Error},
	})
}

// TestIDCenturiesAhead: a proof named with the last ID there is, written
// now. Its age saturates time.Duration; every check still answers (the
// texts once recursed on it until the watchdog's stack overflowed).
func TestIDCenturiesAhead(t *testing.T) {
	p := cpAgo(0)
	p.ID = "99991231235959"
	runLevels(t, FutureID, []levelCase{{"year 9999", scan.Snapshot{LastCheckpoint: p}, cfg, Error}})
	runLevels(t, StaleID, []levelCase{{"year 9999", scan.Snapshot{LastCheckpoint: p}, cfg, OK}})
}
