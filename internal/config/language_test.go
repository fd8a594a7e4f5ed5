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
		{"default", "", []lang.Lang{lang.English}, []string{DefaultIdlePrompt}},
		{"ja", "language: ja", []lang.Lang{lang.Japanese}, []string{DefaultIdlePromptJa}},
		{"own idle prompt kept", "language: ja\nidle: {prompt: hello}", []lang.Lang{lang.Japanese}, []string{"hello"}},
		{"fleet inherits and overrides", "language: ja\nagents:\n  - {workspace: a}\n  - {workspace: b, language: en}",
			[]lang.Lang{lang.Japanese, lang.English}, []string{DefaultIdlePromptJa, DefaultIdlePrompt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.yml))
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range c.Fleet() {
				if a.Language != tt.want[i] || a.Idle.Prompt != tt.idle[i] {
					t.Errorf("Parse(%q) agent %d = %q %q, want %q %q", tt.yml, i, a.Language, a.Idle.Prompt, tt.want[i], tt.idle[i])
				}
			}
		})
	}
}
