package checks

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestDocsShowTheInactivityWarningAsWritten: the example notice at the top
// of heartbeat-notices.md, in both languages, is the one this code writes
// for its heartbeat (12:15:00, the last log at 12:09:40), word for word: an
// agent that meets the real notice has read it already.
func TestDocsShowTheInactivityWarningAsWritten(t *testing.T) {
	at := time.Date(2025, 1, 1, 12, 15, 0, 0, time.UTC)
	logged := at.Add(-(5*time.Minute + 20*time.Second))
	snap := withLogs(scan.Snapshot{}, &workspace.Proof{
		Path: "artifacts/20250101120000_a/histories/" + string(workspace.NewID(logged)) + ".md", ID: workspace.NewID(logged), ModTime: logged, Type: "thinking"})
	for l, doc := range map[lang.Lang]string{lang.English: "../../ai-docs/heartbeat-notices.md", lang.Japanese: "../../ja/ai-docs/heartbeat-notices.md"} {
		c := cfg
		c.Language = l
		r, _ := Evaluate(at, snap, c, State{})
		f, _ := r.Finding(Inactivity)
		if f.Level != Warning {
			t.Fatalf("%s: inactivity %v (%s), want a warning", l, f.Level, f.Message)
		}
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if line := "[warning] inactivity: " + f.Notice; !strings.Contains(string(b), line+"\n") {
			t.Errorf("%s does not show the notice as the code writes it:\n%s", doc, line)
		}
	}
}
