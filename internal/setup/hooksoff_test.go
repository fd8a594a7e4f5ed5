package setup

import (
	"testing"

	allclients "github.com/ai-heart/ai-heart/internal/clients"
)

// TestWiredIsNotOff: what init writes in a fresh workspace turns no hook
// off and leaves none of heart-hook's events unwired, for every client.
func TestWiredIsNotOff(t *testing.T) {
	for _, client := range ClientNames() {
		w := testWiring(t)
		if _, _, err := Wire(w, []string{client}); err != nil {
			t.Fatalf("Wire(%s) = %v", client, err)
		}
		if off := allclients.HooksOffIn(w.Dir, client); len(off) != 0 {
			t.Errorf("%s: init's files turn hooks off: %+v", client, off)
		}
	}
}
