package hook

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// WordFile is the workspace-relative file where the watchdog keeps a word
// for a turn that runs on in the client's own tools, where no heartbeat and
// no mcp-heart reply reaches the agent: the inactivity notice that stands.
// The client's post-tool hook hands it to the turn once (Claude Code's and
// Gemini CLI's additionalContext): telling a busy agent costs it nothing,
// and it is told before recovery interrupts it. The watchdog rewrites the
// file every pulse while the word stands, and it expires two pulses on, so
// a watchdog that stopped says nothing. The agent can write it: a forged
// word only reaches its own turn.
const WordFile = "stats/hook_word.json"

// ToldFile is where the hook notes the ID of the word it handed last, so
// each word is told once, not at every tool call.
const ToldFile = SpoolDir + "/told"

// WordMaxAge bounds how long a word is believed past its writing.
const WordMaxAge = time.Hour

// maxWord bounds what is read of the word file.
const maxWord = 16 << 10

// ToldPrefix starts the Detail of a post-tool event whose hook handed the
// turn a word: "told:" and the word's ID.
const ToldPrefix = "told:"

// Word is the word file's content.
type Word struct {
	// ID names the word: one per notice and level, so the hook tells
	// each once.
	ID      string    `json:"id"`
	Text    string    `json:"text"`
	Written time.Time `json:"written"`
	Expires time.Time `json:"expires"`
}

// Live reports whether w is a word to tell at now.
func (w Word) Live(now time.Time) bool {
	return w.ID != "" && w.Text != "" && !now.Before(w.Written.Add(-time.Minute)) &&
		now.Before(w.Expires) && w.Expires.Sub(w.Written) <= WordMaxAge
}

// ReadWord reads the workspace's word. Any failure (no file, a link out of
// the workspace, a FIFO, a garbled body) is no word.
func ReadWord(root string) Word {
	var w Word
	if !readSmall(root, WordFile, maxWord, &w) {
		return Word{}
	}
	return w
}

// Told is the ID of the word the hook handed last ("" when none or
// unreadable).
func Told(root string) string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return ""
	}
	defer r.Close()
	b, err := safeopen.ReadHeadIn(r, filepath.FromSlash(ToldFile), 256)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// MarkTold notes id as the word handed last.
func MarkTold(root, id string) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.MkdirAll(filepath.FromSlash(SpoolDir), 0o750); err != nil {
		return err
	}
	f, err := safeopen.OpenIn(r, filepath.FromSlash(ToldFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(id + "\n")
	return err
}
