package config

import (
	"github.com/ai-heart/ai-heart/internal/lang"
)

// DefaultIdlePrompt is sent by the idle chamber when idle.prompt is empty.
// What answers it depends on the delivery: a headless run's reply ends
// with the run, so "[IDLE]" alone answers it (a ghost); in a terminal or
// through the inbox only an activity log does.
const DefaultIdlePrompt = "Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity. If there is nothing worth doing now, reply with just [IDLE]."

// DefaultIdlePromptLog is DefaultIdlePrompt for tmux and inbox delivery.
const DefaultIdlePromptLog = "Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity. If there is nothing worth doing now, write a short activity log saying so (activity_type other) and wait for the next heartbeat."

// DefaultIdlePromptJa is DefaultIdlePrompt for language: ja.
const DefaultIdlePromptJa = "しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。今やる価値のあることがなければ、`[IDLE]` とだけ答えてください。"

// DefaultIdlePromptLogJa is DefaultIdlePromptLog for language: ja.
const DefaultIdlePromptLogJa = "しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。今やる価値のあることがなければ、そう書いた短い活動ログ（活動種別「その他」）を残して、次のハートビートを待ってください。"

// IdlePrompt is the built-in idle prompt for a delivery and a language.
func IdlePrompt(delivery string, l lang.Lang) string {
	exec := delivery == DeliveryExec
	switch {
	case l == lang.Japanese && exec:
		return DefaultIdlePromptJa
	case l == lang.Japanese:
		return DefaultIdlePromptLogJa
	case exec:
		return DefaultIdlePrompt
	}
	return DefaultIdlePromptLog
}

// IdlePromptHooked is prompt for an agent whose client's hooks the
// watchdog hears: the end of its turn answers the wakeup, so "[IDLE]" alone
// does, as under exec, and a log saying nothing happened is not needed. A
// prompt of the operator's own is kept as it is.
func IdlePromptHooked(prompt string, l lang.Lang) string {
	if prompt == DefaultIdlePromptLog || prompt == DefaultIdlePromptLogJa {
		return IdlePrompt(DeliveryExec, l)
	}
	return prompt
}

// defaultIdlePrompts are the built-in idle prompts, any of which a config
// may repeat and still get the one that fits its delivery and language.
var defaultIdlePrompts = []string{DefaultIdlePrompt, DefaultIdlePromptLog, DefaultIdlePromptJa, DefaultIdlePromptLogJa,
	// The prompts before [IDLE] was mentioned, as older configs may hold them.
	"Nothing has happened for a while. Check themebox/ and feedbackbox/, then choose your next activity.",
	"しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。",
	// The Japanese log prompt before the activity type was quoted.
	"しばらく何も起きていません。themebox/ と feedbackbox/ を確認してから、次の活動を選んでください。今やる価値のあることがなければ、そう書いた短い活動ログ（activity_type その他）を残して、次のハートビートを待ってください。"}
