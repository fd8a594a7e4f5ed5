package daemon

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// An idle wakeup never invites a bare [IDLE] in the same message as a
// notice that asks for something; without such a notice it keeps the
// operator's prompt as it is.
func TestIdleNeverInvitesIdleBesideANotice(t *testing.T) {
	introspect := "[error] introspection: Introspect now, in this cycle."
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		idle := config.IdlePrompt(config.DeliveryExec, l)
		if !strings.Contains(idle, "[IDLE]") {
			t.Fatalf("%s: the exec idle prompt no longer offers [IDLE]: %q", l, idle)
		}
		text := idleText(idle, []string{introspect}, l, false)
		msg := prompt.Build("20250101120000", text, introspect)
		if strings.Contains(msg, "[IDLE]") {
			t.Errorf("%s: [IDLE] beside a standing error:\n%s", l, msg)
		}
		if l == lang.Japanese {
			testutil.CheckJapanese(t, "idle with notices", text)
		}
		if got := idleText(idle, []string{"[info] introspection: soon."}, l, false); got != idle {
			t.Errorf("%s: an info notice changed the idle prompt to %q", l, got)
		}
		if got := idleText(idle, nil, l, false); got != idle {
			t.Errorf("%s: no notice changed the idle prompt to %q", l, got)
		}
	}
}

// The inbox and tmux idle prompt, which asks for a short log of type
// other, gives way to standing notices too: one prompt asked for three
// logs (other, recovery, introspection). An operator's own prompt stays.
func TestIdleLogPromptGivesWayToNotices(t *testing.T) {
	introspect := "[error] introspection: Introspect now, in this cycle."
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		idle := config.IdlePrompt(config.DeliveryInbox, l)
		other := map[lang.Lang]string{lang.English: "activity_type other", lang.Japanese: "その他"}[l]
		if !strings.Contains(idle, other) {
			t.Fatalf("%s: the inbox idle prompt no longer asks for a log of type other: %q", l, idle)
		}
		if got := idleText(idle, []string{introspect}, l, false); strings.Contains(got, other) {
			t.Errorf("%s: a log of type other asked for beside a standing error: %q", l, got)
		}
		if got := idleText(idle, nil, l, false); got != idle {
			t.Errorf("%s: no notice changed the idle prompt to %q", l, got)
		}
	}
	own := "Look at the garden, then write what you saw."
	if got := idleText(own, []string{introspect}, lang.English, false); got != own {
		t.Errorf("the operator's own prompt was replaced by %q", got)
	}
}
