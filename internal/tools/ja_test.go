package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The catalogue holds no dead entry; workspace.CheckPart's reasons, which
// partProblem renders, are alive though they are workspace's strings.
func TestJapaneseCatalogue(t *testing.T) { testutil.CheckCatalogue(t, ja, ".", partReasons(t)...) }

// japanese reports whether s holds Japanese script.
func japanese(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

// TestDescriptionsFollowLanguage: with language ja every description the
// agent reads (tool, title, parameter, server instructions) is Japanese;
// with en none is, and the schemas (names, enums, bounds) are the same but
// for the activity types offered, which are the language's.
func TestDescriptionsFollowLanguage(t *testing.T) {
	schemas := map[lang.Lang][]string{}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		tl := New(testutil.Workspace(t, nil), config.Defaults().Thresholds, zerolog.Nop())
		tl.Lang = l
		for _, st := range tl.Definitions() {
			b, err := json.Marshal(st.Tool.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var descs []string
			var v any
			_ = json.Unmarshal(b, &v)
			schemas[l] = append(schemas[l], st.Tool.Name+" "+withoutDescriptions(v, &descs))
			descs = append(descs, st.Tool.Description, st.Tool.Title)
			out, err := json.Marshal(st.Tool.OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var o any
			_ = json.Unmarshal(out, &o)
			var outDescs []string
			schemas[l] = append(schemas[l], st.Tool.Name+" output "+withoutDescriptions(o, &outDescs))
			for _, d := range outDescs {
				// A bare file name pattern reads the same in both.
				if !strings.HasPrefix(d, "artifacts/") {
					descs = append(descs, d)
				}
			}
			for _, d := range descs {
				if japanese(d) != (l == lang.Japanese) {
					t.Errorf("%s: %s description %q: Japanese = %v", l, st.Tool.Name, d, japanese(d))
				}
				if l == lang.Japanese {
					// Rendered with the real thresholds, as tools/list serves them.
					testutil.CheckJapanese(t, st.Tool.Name+" description", d)
				}
			}
		}
		if got := ja.T(l, Instructions); japanese(got) != (l == lang.Japanese) {
			t.Errorf("%s: instructions %q", l, got)
		} else if l == lang.Japanese {
			testutil.CheckJapanese(t, "server instructions", got)
		}
	}
	offered := func(values []string) string { b, _ := json.Marshal(values); return `"enum":` + string(b) }
	en := strings.Join(schemas[lang.English], "\n")
	jaSchemas := strings.Join(schemas[lang.Japanese], "\n")
	if !strings.Contains(jaSchemas, offered(workspace.JapaneseActivityTypes)) || !strings.Contains(en, offered(activityTypeNames()[:len(workspace.ActivityTypes)])) {
		t.Errorf("activity_type does not offer each language's values:\n%s\n---\n%s", en, jaSchemas)
	}
	jaSchemas = strings.Replace(jaSchemas, offered(workspace.JapaneseActivityTypes), offered(activityTypeNames()[:len(workspace.ActivityTypes)]), 1)
	if en != jaSchemas {
		t.Errorf("the schemas differ between languages:\n%s\n---\n%s", schemas[lang.English], schemas[lang.Japanese])
	}
}

// withoutDescriptions collects the "description" values of a JSON schema
// and returns the schema without them.
func withoutDescriptions(v any, descs *[]string) string {
	var strip func(any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, y := range x {
				if s, ok := y.(string); ok && k == "description" {
					*descs = append(*descs, s)
					continue
				}
				out[k] = strip(y)
			}
			return out
		case []any:
			for i := range x {
				x[i] = strip(x[i])
			}
		}
		return v
	}
	b, _ := json.Marshal(strip(v))
	return string(b)
}
