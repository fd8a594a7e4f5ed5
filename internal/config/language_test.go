package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestLanguage: en by default, ja when asked, per agent in a fleet, and the
// idle chamber's default prompt in the agent's language unless one is set.
func TestLanguage(t *testing.T) {
	tests := []struct {
		name, yml string
		want      []lang.Lang
		idle      []string
	}{
		{"default", "", []lang.Lang{lang.English}, []string{DefaultIdlePromptLog}},
		{"ja", "language: ja", []lang.Lang{lang.Japanese}, []string{DefaultIdlePromptLogJa}},
		// A headless run answers with its reply, so [IDLE] alone answers it;
		// in a pane or through the inbox only an activity log does.
		{"exec", "agent: {delivery: exec, command: [gemini, -p, \"{prompt}\"]}", []lang.Lang{lang.English}, []string{DefaultIdlePrompt}},
		{"exec ja", "language: ja\nagent: {delivery: exec, command: [gemini, -p, \"{prompt}\"]}", []lang.Lang{lang.Japanese}, []string{DefaultIdlePromptJa}},
		{"old default prompt follows the delivery", "idle: {prompt: \"Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity.\"}", []lang.Lang{lang.English}, []string{DefaultIdlePromptLog}},
		{"own idle prompt kept", "language: ja\nidle: {prompt: hello}", []lang.Lang{lang.Japanese}, []string{"hello"}},
		{"fleet inherits and overrides", "language: ja\nagents:\n  - {workspace: a}\n  - {workspace: b, language: en}",
			[]lang.Lang{lang.Japanese, lang.English}, []string{DefaultIdlePromptLogJa, DefaultIdlePromptLog}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.yml))
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range c.AgentConfigs() {
				if a.Language != tt.want[i] || a.Idle.Prompt != tt.idle[i] {
					t.Errorf("Parse(%q) agent %d = %q %q, want %q %q", tt.yml, i, a.Language, a.Idle.Prompt, tt.want[i], tt.idle[i])
				}
			}
		})
	}
}

// A workspace made with `watchdog init --lang ja` is Japanese without a
// second setting: where the config does not say language:, each agent
// speaks the language recorded in its workspace; a language: in the config
// (top level or the agent's) wins, and a record that is not a language is
// English.
func TestLanguageFromTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	record := func(ws, content string) {
		t.Helper()
		p := filepath.Join(dir, ws, filepath.FromSlash(workspace.LanguageFile))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record("ja-ws", "ja\n")
	record("en-ws", "en\n")
	record("en2-ws", "en\n")
	record("odd-ws", "klingon\n")
	tests := []struct {
		name, yml string
		want      []lang.Lang
		idle      []string
	}{
		{"recorded ja", "workspace: ja-ws", []lang.Lang{lang.Japanese}, []string{DefaultIdlePromptLogJa}},
		{"no record", "workspace: none-ws", []lang.Lang{lang.English}, []string{DefaultIdlePromptLog}},
		{"odd record", "workspace: odd-ws", []lang.Lang{lang.English}, []string{DefaultIdlePromptLog}},
		{"config wins", "workspace: ja-ws\nlanguage: en", []lang.Lang{lang.English}, []string{DefaultIdlePromptLog}},
		{"fleet, each its own", "agents:\n  - {workspace: ja-ws}\n  - {workspace: en-ws}\n  - {workspace: en2-ws, language: ja}",
			[]lang.Lang{lang.Japanese, lang.English, lang.Japanese}, []string{DefaultIdlePromptLogJa, DefaultIdlePromptLog, DefaultIdlePromptLogJa}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "watchdog.yml")
			if err := os.WriteFile(path, []byte(tt.yml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range c.AgentConfigs() {
				if a.Language != tt.want[i] || a.Idle.Prompt != tt.idle[i] {
					t.Errorf("agent %d = %q %q, want %q %q", i, a.Language, a.Idle.Prompt, tt.want[i], tt.idle[i])
				}
			}
		})
	}
}
