package tools

import (
	"errors"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// A call with several bad parameters reads as one error:
// each part with its own fix, then one closing sentence, never
// "Fix: ... Fix: fix each one as it says".
func TestSeveralBadParametersReadAsOneError(t *testing.T) {
	e := newEnv(t)
	_, err := call(e.tl, e.tl.ReportToolUsage, args(t, `{}`))
	var ie *InputError
	if !errors.As(err, &ie) || len(ie.All) != 2 {
		t.Fatalf("err = %v, want two bad parameters", err)
	}
	en := ie.In(lang.English)
	if !strings.HasPrefix(en, "2 parameters need fixing. (1) tool_id: ") || !strings.HasSuffix(en, ". Fix each one as it says, then call again.") ||
		strings.Count(en, "Fix each one") != 1 || strings.Contains(en, "Fix: fix") || strings.Contains(en, "; (2)") {
		t.Errorf("English: %s", en)
	}
	if ja := ie.In(lang.Japanese); !strings.HasPrefix(ja, "パラメータに2件の誤りがあります。(1) ") || !strings.HasSuffix(ja, "それぞれ直してから、もう一度呼んでください。") {
		t.Errorf("Japanese: %s", ja)
	}
}
