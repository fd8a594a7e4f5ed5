package main

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Every text heart-hook adds to a refusal has its Japanese, and that
// Japanese, rendered with real values, is Japanese through and through.
func TestJapaneseCatalogueRendersJapanese(t *testing.T) {
	for _, en := range []string{sayRunsOther, sayNamedLike, sayNoEntry, sayUnreadable, sayGateKind, sayGateError, "folder", "socket", "device"} {
		if ja.T(lang.Japanese, en) == en {
			t.Errorf("no Japanese for %q", en)
		}
	}
	testutil.CheckCatalogueJapanese(t, ja)
}
