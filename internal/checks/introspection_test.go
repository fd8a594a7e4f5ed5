package checks

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestIntrospection(t *testing.T) {
	m := time.Minute
	intro := func(ago time.Duration) scan.Snapshot {
		return scan.Snapshot{LastIntrospection: logAgo(ago, workspace.Introspection)}
	}
	runLevels(t, Introspection, []levelCase{
		{"none, no baseline", scan.Snapshot{}, cfg, OK},
		{"15m", intro(15 * m), cfg, OK},
		{"just over 15m (1/2)", intro(15*m + sec), cfg, Info},
		{"20m", intro(20 * m), cfg, Info},
		{"just over 20m (2/3)", intro(20*m + sec), cfg, Warning},
		{"30m", intro(30 * m), cfg, Warning},
		{"just over 30m", intro(30*m + sec), cfg, Error},
		{"none, baseline just over 30m ago", scan.Snapshot{}, withBaseline(30*m + sec), Error},
		{"old, baseline 15m ago", intro(3 * time.Hour), withBaseline(15 * m), OK},
		{"old, baseline just over 15m ago", intro(3 * time.Hour), withBaseline(15*m + sec), Info},
		{"paused by flexible", active(intro(time.Hour), decl(workspace.Flexible, 10*m, 0)), cfg, OK},
		{"paused by strict", active(intro(time.Hour), decl(workspace.Strict, 10*m, 30)), cfg, OK},
		{"flexible ended by a log", active(withLogs(intro(time.Hour), logAgo(5*m, "creation")), decl(workspace.Flexible, 10*m, 0)), cfg, Error},
		{"strict past deadline", active(intro(time.Hour), decl(workspace.Strict, 31*m, 30)), cfg, Error},
	})
}

// TestIntrospectionWorkingTime: on a schedule, introspection is owed per 30
// minutes of working time, whatever the wall clock says.
func TestIntrospectionWorkingTime(t *testing.T) {
	m := time.Minute
	longAgo := scan.Snapshot{LastIntrospection: logAgo(5*time.Hour, workspace.Introspection)}
	waiting := time.Duration(-1)
	runLevels(t, Introspection, []levelCase{
		{"5h ago, 15m worked", longAgo, withWork(waiting, 15*m), OK},
		{"5h ago, just over 15m worked", longAgo, withWork(waiting, 15*m+sec), Info},
		{"5h ago, just over 20m worked", longAgo, withWork(m, 20*m+sec), Warning},
		{"5h ago, 30m worked", longAgo, withWork(m, 30*m), Warning},
		{"5h ago, just over 30m worked", longAgo, withWork(m, 30*m+sec), Error},
		{"never, 10m worked", scan.Snapshot{}, withWork(m, 10*m), OK},
	})
}
