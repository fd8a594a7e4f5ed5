package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// TestE2EInboxAndRestrictionTools: the old system's inbox and restriction
// tools through the real binary over stdio, and the watchdog reading what
// report_tool_usage wrote.
func TestE2EInboxAndRestrictionTools(t *testing.T) { inLanguages(t, testE2EInboxAndRestrictionTools) }

func testE2EInboxAndRestrictionTools(t *testing.T, l lang.Lang) {
	w, theme := themed(t, l)
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
	ctx := structured(t, w.call("create_theme_expert_context", map[string]any{"theme_name": "End to end", "theme_start_id": theme, "theme_directory_part": "e2e",
		"expert_role": "an oceanographer", "expert_perspective": []string{"measure first"}, "constraints": []string{"cite data"}, "expected_outcome": []string{"a tide table"}}))
	back := structured(t, w.call("get_latest_theme_context", map[string]any{"theme_start_id": theme, "theme_directory_part": "e2e"}))
	if back["file"] != ctx["file"] || !strings.Contains(back["content"].(string), "an oceanographer") {
		t.Fatalf("get_latest_theme_context = %v, want what create_theme_expert_context wrote (%v)", back, ctx["file"])
	}
	status := structured(t, w.call("check_theme_status", map[string]any{"theme_start_id": theme, "theme_directory_part": "e2e"}))
	if status["theme_name"] != "End to end" || status["log_count"].(float64) != 1 || status["ended"] != false {
		t.Fatalf("check_theme_status = %v", status)
	}
	logs := structured(t, w.call("get_latest_activity_log", map[string]any{"theme_start_id": theme, "theme_directory_part": "e2e", "num_logs": 2}))
	if l, _ := logs["logs"].([]any); len(l) != 1 || logs["total"].(float64) != 1 {
		t.Fatalf("get_latest_activity_log = %v", logs)
	}
	arts := structured(t, w.call("list_theme_artifacts", map[string]any{"theme_start_id": theme, "theme_directory_part": "e2e", "include_subdirectories": true}))
	if f, _ := arts["files"].([]any); len(f) != 1 || !strings.Contains(f[0].(map[string]any)["path"].(string), "/contexts/") {
		t.Fatalf("list_theme_artifacts = %v, want the context file only (histories left out)", arts)
	}
	w.mark()
	w.call("report_tool_usage", map[string]any{"tool_id": "gemini.google.search", "status": "quota_exceeded"})
	a := w.expect("tool_restriction", "info", 5*time.Second)
	if !strings.Contains(a.Message, "gemini.google.search (lock") {
		t.Fatalf("tool_restriction alert = %q, want the lock named", a.Message)
	}
}
