package aiheart_test

import (
	"regexp"
	"strings"
	"testing"
)

// What a pause does to a give-up is easy to say wrongly: it ends the
// give-up, as a resume does, but no wakeup comes until the pause itself
// ends. A text that lumps the two together ("when the user pauses or
// resumes you, it starts waking you again") promises a wakeup a paused
// agent waits for in vain.
var (
	// pauseOrResume lumps the operator's pause and resume into one way
	// the give-up ends.
	pauseOrResume = regexp.MustCompile(`(?i)\bpaus\w*\s+or\s+resum|一時停止\s*(?:か|または|や|・|もしくは)\s*再開`)
	// wakesAgain promises that wakeups come back.
	wakesAgain = regexp.MustCompile(`(?i)wak\w*\s+(?:\w+\s+)?again|start\w*\s+waking|wakeups?\s+(?:come|resume)|起動は再開|再び起こし|起こし始め|起動が再び来`)
	// pauseWord is the operator's pause (not deep work's pausing of checks).
	pauseWord = regexp.MustCompile(`(?i)\b(?:the (?:user|operator) paus\w*|pauses? by the (?:user|operator)|operator's pause)|ユーザーが(?:\s*watchdog\s*を)?一時停止`)
	// pauseEnds says that the pause must end first.
	pauseEnds = regexp.MustCompile(`(?i)until the pause ends|when the pause ends|pause ends|一時停止が終わ|再開されるまで|再開するまで`)
	// noWakeup says none comes: no promise.
	noWakeup = regexp.MustCompile(`(?i)\bno wakeups? comes?`)
	// paraSentence is a sentence of a paragraph whose lines are joined.
	paraSentence = regexp.MustCompile(`[.;!?](?:\s|$)|[。！？]|\n`)
)

// pauseFlaws lists the sentences of s that promise wakeups after a pause.
func pauseFlaws(s string) []string {
	var out []string
	for _, m := range pauseOrResume.FindAllString(s, -1) {
		out = append(out, "a pause and a resume lumped together: "+m)
	}
	// Docs are wrapped: a paragraph's lines make one text.
	joined := regexp.MustCompile(`([^\n])\n([^\n])`).ReplaceAllString(s, "$1 $2")
	for _, sent := range paraSentence.Split(joined, -1) {
		if pauseWord.MatchString(sent) && wakesAgain.MatchString(noWakeup.ReplaceAllString(sent, "")) && !pauseEnds.MatchString(sent) {
			out = append(out, "wakeups promised after a pause: "+strings.TrimSpace(sent))
		}
	}
	return out
}

// TestNoTextPromisesAWakeupAfterAPause: no text the agent reads, in either
// language, says a pause brings wakeups back.
func TestNoTextPromisesAWakeupAfterAPause(t *testing.T) {
	for _, at := range agentTexts(t) {
		for _, f := range pauseFlaws(at.text) {
			t.Errorf("%s: %s", at.where, f)
		}
	}
}

// TestPauseFlawsBite: the check fails on the texts it was written against,
// and passes what replaced them.
func TestPauseFlawsBite(t *testing.T) {
	for _, bad := range []string{
		"If every\nattempt fails, it stops waking you and tells the user; it starts waking you\nagain when none of those checks is at error, when the user pauses or resumes\nyou, or after a set time.",
		"It ends as soon as that check is back to ok, when the operator pauses or resumes the watchdog, or at 15:00:28.",
		"このチェックが正常に戻るか、ユーザーが watchdog を一時停止か再開するか、15:00:47になると、起動は再開します。",
		"6つのチェックのどれもエラーでなくなったとき、ユーザーが一時停止か再開をしたとき、または決められた時間が過ぎたときに、再び起こし始めます。",
		"The stop ends when the user pauses you, and waking starts again.",
	} {
		if len(pauseFlaws(bad)) == 0 {
			t.Errorf("not caught: %q", bad)
		}
	}
	for _, good := range []string{
		"That stop ends when\nnone of those checks is at error, when the user resumes you, or after a set\ntime (1 hour by default); a pause by the user ends it too, but then waking\nstarts only when the pause ends.",
		"It ends as soon as that check is back to ok, when the operator resumes the watchdog, or at 15:00:28; an operator's pause ends it too, but then no wakeup comes until the pause ends. Write an activity log of type recovery now: it answers the check, and wakeups come again.",
		"ユーザーが一時停止したときもこの停止は解けますが、一時停止が終わるまで起動は来ません。今、活動種別「回復」の活動ログを書いてください。それがチェックに応え、起動が再び来るようになります。",
		"No wakeup comes now: recovery gave up after its attempts, held by inactivity, and the watchdog stopped waking you. Waking comes back as soon as that check is back to ok, when the operator resumes the watchdog, or at 15:00:28; if the operator pauses the watchdog meanwhile, waking comes back only when that pause ends.",
		"このチェックが正常に戻るか、ユーザーが watchdog を再開するか、15:00:28になると、起こすのをやめている状態は解けます。そのあいだにユーザーが watchdog を一時停止したときは、一時停止が終わってから再び起こします。",
	} {
		if f := pauseFlaws(good); len(f) > 0 {
			t.Errorf("flagged the fixed text %q: %v", good, f)
		}
	}
}
