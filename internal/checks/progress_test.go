package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
)

func TestNoProgress(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		after, unchanged int
		want             Level
	}{{0, 9, OK}, {3, 2, OK}, {3, 3, Warning}, {3, 5, Warning}, {3, 6, Error}} {
		res, _ := Evaluate(now, scan.Snapshot{}, Config{Progress: Progress{After: c.after, Unchanged: c.unchanged, Watched: []string{"artifacts", "projects"}}}, State{})
		f, _ := res.Finding(NoProgress)
		if f.Level != c.want {
			t.Errorf("after %d, %d unchanged: %s %q, want %s", c.after, c.unchanged, f.Level, f.Message, c.want)
		}
		if c.want != OK && !strings.Contains(f.Notice, "changed nothing in your work (`artifacts/`, `projects/`)") {
			t.Errorf("notice %q", f.Notice)
		}
	}
	if Recoverable(NoProgress) {
		t.Fatal("no_progress starts recovery: the agent answers, it is not stuck")
	}
	res, _ := Evaluate(now, scan.Snapshot{}, Config{Language: lang.Japanese, Progress: Progress{After: 3, Unchanged: 3, Watched: []string{"artifacts"}}}, State{})
	if f, _ := res.Finding(NoProgress); !strings.Contains(f.Notice, "直近3回の応答では") {
		t.Fatalf("Japanese notice %q", f.Notice)
	}
}
