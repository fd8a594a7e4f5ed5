package daemon

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/transcript"
)

// idleText is the idle wakeup's text beside the notices it carries: an
// invitation to answer with just [IDLE], or to write a log that says
// nothing is worth doing (activity_type other), cannot stand in the same
// message as a notice that asks for something ("Introspect now", a
// recovery log): one prompt asked for three logs. While a warning or an
// error stands the built-in prompts ask for the notices first; an
// operator's own prompt without [IDLE] is kept. In a fresh workspace
// (noTheme: no theme and no log yet) the log it asks for cannot be
// written, since a log needs a theme: it asks to start one ([IDLE] needs
// none).
func idleText(text string, notices []string, l lang.Lang, noTheme bool) string {
	if text != config.DefaultIdlePromptLog && text != config.DefaultIdlePromptLogJa && !strings.Contains(text, transcript.IdleToken) {
		return text
	}
	for _, n := range notices {
		// The service's notice asks to pick up work that was cut off.
		if strings.HasPrefix(n, "[warning]") || strings.HasPrefix(n, "[error]") || strings.HasPrefix(n, "[info] service: ") {
			return ja.T(l, "The notices below still ask something of you: act on them first, then choose your next activity and close the cycle with an activity log.")
		}
	}
	if noTheme && !strings.Contains(text, transcript.IdleToken) {
		return ja.T(l, "No theme has been started in this workspace yet, and an activity log needs one. Check themebox/ and feedbackbox/, then start a theme with start_theme (themebox_file for a themebox file, or a theme of your own) and record your first cycle with create_activity_log.")
	}
	return text
}
