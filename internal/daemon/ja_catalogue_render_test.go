package daemon

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Every Japanese text of the catalogue, rendered with real values, is
// Japanese through and through: no English phrase, Go duration or ASCII
// quote is left for a Japanese agent to read.
func TestJapaneseCatalogueRendersJapanese(t *testing.T) { testutil.CheckCatalogueJapanese(t, ja) }
