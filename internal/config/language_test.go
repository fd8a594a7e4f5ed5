package config

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
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
