package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestE2EInboxAndRestrictionTools: the old system's inbox and restriction
// tools through the real binary over stdio, and the watchdog reading what
// report_tool_usage wrote.
func TestE2EInboxAndRestrictionTools(t *testing.T) {
	w, _ := themed(t)
	if err := w.ws.WriteFile("themebox/001_tides.md", []byte("# Tides\nWhy two a day?\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.ws.WriteFile("feedbackbox/001_pace.md", []byte("Slower, please.\n")); err != nil {
		t.Fatal(err)
	}
	if got := structured(t, w.call("preview_next_theme", nil)); got["file"] != "themebox/001_tides.md" || !strings.Contains(got["content"].(string), "Why two a day?") {
		t.Fatalf("preview_next_theme = %v", got)
	}
	got := structured(t, w.call("check_and_process_item", nil))
	if got["processed"] != "feedbackbox/processed.001_pace.md" || !strings.Contains(got["content"].(string), "Slower") {
		t.Fatalf("check_and_process_item = %v", got)
	}
	w.mark()
	w.call("report_tool_usage", map[string]any{"tool_id": "gemini.google.search", "status": "quota_exceeded"})
	a := w.expect("tool_restriction", "info", 5*time.Second)
	if !strings.Contains(a.Message, "gemini.google.search (lock") {
		t.Fatalf("tool_restriction alert = %q, want the lock named", a.Message)
	}
}
