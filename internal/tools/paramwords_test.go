package tools

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The Japanese texts' test lets the tools' one-word parameter names stand
// as they are (the agent passes them back): its list is the schemas'.
func TestParameterWordsAreTheSchemas(t *testing.T) {
	tl := New(testutil.Workspace(t, nil), config.Defaults().Thresholds, zerolog.Nop())
	oneWord := regexp.MustCompile(`^[a-z]+$`)
	var got []string
	for _, st := range tl.Definitions() {
		b := st.Tool.RawInputSchema
		if len(b) == 0 {
			b, _ = json.Marshal(st.Tool.InputSchema)
		}
		var v struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		for k := range v.Properties {
			if oneWord.MatchString(k) && !slices.Contains(got, k) {
				got = append(got, k)
			}
		}
	}
	sort.Strings(got)
	if !slices.Equal(got, testutil.ParameterWords) {
		t.Errorf("one-word parameters %v, testutil.ParameterWords %v", got, testutil.ParameterWords)
	}
}
