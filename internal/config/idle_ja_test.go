package config_test

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The built-in Japanese idle prompts are agent texts like the catalogues':
// the same checks hold them (an activity_type value in 「」, no English).
func TestJapaneseIdlePrompts(t *testing.T) {
	for _, p := range []string{config.DefaultIdlePromptJa, config.DefaultIdlePromptLogJa} {
		testutil.CheckJapanese(t, "idle prompt", p, "[IDLE]")
	}
}
