package tools

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Every Japanese text of the catalogue, rendered with real values, is
// Japanese through and through (issue 21, section 5).
func TestJapaneseCatalogueRendersJapanese(t *testing.T) { testutil.CheckCatalogueJapanese(t, ja) }
