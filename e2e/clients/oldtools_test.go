package clients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The old system's tools, called by each real client: one run calls all
// eight, and each leaves its mark in the workspace or its answer with the
// model.
func oldToolsScript() *script {
	theme := func(extra map[string]any) map[string]any {
		m := map[string]any{"theme_start_id": "20250101000000", "theme_directory_part": "tides"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return &script{Final: "[IDLE]", Calls: []call{
		{Tool: "preview_next_theme"},
		{Tool: "check_theme_status", Args: theme(nil)},
		{Tool: "list_theme_artifacts", Args: theme(nil)},
		{Tool: "get_latest_activity_log", Args: theme(map[string]any{"num_logs": 1})},
		{Tool: "create_theme_expert_context", Args: theme(map[string]any{"theme_name": "Tides", "expert_role": "a patient oceanographer",
			"expert_perspective": []string{"tables first"}, "constraints": []string{"no guessing"}, "expected_outcome": []string{"a diagram"}})},
		{Tool: "get_latest_theme_context", Args: theme(nil)},
		{Tool: "check_and_process_item"},
		{Tool: "report_tool_usage", Args: map[string]any{"tool_id": "gemini.google.search", "status": "quota_exceeded"}},
	}}
}

// oldWorkspace adds what the old tools read: a theme with a start record
// and a log, a themebox item and a feedback item.
func (w *world) oldWorkspace() {
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.Local)
	for rel, body := range map[string]string{
		"artifacts/theme_histories/20250101000000_start_tides.md":    "# Theme start: Tides\n",
		"artifacts/20250101000000_tides/histories/20250101000000.md": "# 20250101000000\n\n## Activity type\nobservation\n\n## Content\n- the Moon\n",
		"artifacts/20250101000000_tides/notes.md":                    "bulges\n",
		"themebox/001_waves.md":                                      "# Waves\nWhy do waves break?\n",
		"feedbackbox/001_cite.md":                                    "Please cite the tide tables.\n",
	} {
		p := filepath.Join(w.ws, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			w.t.Fatal(err)
		}
		// An old workspace's files are as old as their IDs: written now, the
		// log named 20250101000000 is an old ID reused (stale_id), and the
		// recovery it opens takes over the run under test.
		if err := os.Chtimes(p, old, old); err != nil {
			w.t.Fatal(err)
		}
	}
}

func (w *world) oldToolsWorked(s *script) {
	w.t.Helper()
	w.waitFor("the run that calls the eight old tools", 150*time.Second, func() bool {
		g, _ := w.counters()["ghosts"].(float64)
		return g >= 1 && len(s.seen()) >= len(s.Calls)
	})
	seen := strings.Join(s.seen(), "\n")
	if r := refusal(seen); r != "" {
		w.t.Fatalf("the client refused or held an mcp-heart call: %s", r)
	}
	for _, want := range []string{"Waves", "20250101000000_start_tides.md", "notes.md", "the Moon", "contexts/", "a patient oceanographer", "cite the tide tables", "gemini.google.search"} {
		if !strings.Contains(seen, want) {
			w.t.Errorf("the model never saw %q in the tools' replies", want)
		}
	}
	if _, err := os.Stat(filepath.Join(w.ws, "feedbackbox", "processed.001_cite.md")); err != nil {
		w.t.Errorf("check_and_process_item did not rename the item: %v", err)
	}
	if ctx, _ := filepath.Glob(filepath.Join(w.ws, "artifacts", "20250101000000_tides", "contexts", "*.md")); len(ctx) != 1 {
		w.t.Errorf("expert contexts: %v", ctx)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "stats", "lock", "gemini.google.search")); err != nil {
		w.t.Errorf("report_tool_usage left no lock marker: %v", err)
	}
	if w.t.Failed() {
		w.t.Logf("tool replies:\n%s", tail(seen, 4000))
	}
}

func TestOldToolsThroughGeminiCLI(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t), oldToolsScript()
	w.oldWorkspace()
	w.geminiExec(s, nil)
	w.oldToolsWorked(s)
}

func TestOldToolsThroughClaudeCode(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t, "claude-code"), oldToolsScript()
	w.oldWorkspace()
	w.claudeExec(s, nil)
	w.oldToolsWorked(s)
}
