package delivery

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients"
)

// saidIn is what the model said in a text-mode run's stdout: its lines but
// those a client prints there of its own (each adapter's Chatter; the
// run's client is not known, so any adapter's), trimmed. A ghost is judged
// on this, not on the client's own words after the model's [IDLE].
func saidIn(stdout string) string {
	var keep []string
	for l := range strings.SplitSeq(stdout, "\n") {
		if !chatter(strings.TrimRight(l, "\r")) {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

func chatter(l string) bool {
	for _, x := range clients.Execs() {
		if x.Chatter != nil && x.Chatter(l) {
			return true
		}
	}
	return false
}
