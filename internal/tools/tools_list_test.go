package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/tools_list_*.json from the current tools/list")

// TestToolsListGolden holds tools/list, in each language, to what it was
// when the schemas were written by hand (testdata/tools_list_<lang>.json): the
// same tools, titles, descriptions, annotations, input and output schemas.
// JSON objects are compared as values, so key order does not count, and a
// required list as the set it is: create_theme_expert_context's lists
// theme_start_id after theme_name now, as its fields (and its unknown-
// parameter message) have always named them.
func TestToolsListGolden(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) {
			e := newEnv(t)
			e.tl.Lang = l
			reply, err := json.Marshal(NewServer(e.tl, "test").HandleMessage(context.Background(),
				json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "tools_list_"+string(l)+".json")
			if *updateGolden {
				var out bytes.Buffer
				if err := json.Indent(&out, reply, "", "  "); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, append(out.Bytes(), '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var got, exp any
			if err := json.Unmarshal(reply, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &exp); err != nil {
				t.Fatal(err)
			}
			sortRequired(got)
			sortRequired(exp)
			if g, w := canonical(t, got), canonical(t, exp); g != w {
				t.Errorf("tools/list changed; first difference near:\n%s\n(go test -run ToolsListGolden -update ./internal/tools rewrites the golden file once the change is meant)", firstDiff(g, w))
			}
		})
	}
}

// sortRequired sorts every "required" list in v.
func sortRequired(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, y := range x {
			if req, ok := y.([]any); ok && k == "required" {
				slices.SortFunc(req, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
			}
			sortRequired(y)
		}
	case []any:
		for _, y := range x {
			sortRequired(y)
		}
	}
}

// canonical is v encoded with sorted keys, one value a line.
func canonical(t *testing.T, v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstDiff shows a few lines of got and want around where they part.
func firstDiff(got, want string) string {
	g, w := bytes.Split([]byte(got), []byte("\n")), bytes.Split([]byte(want), []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		if i >= len(g) || i >= len(w) || !bytes.Equal(g[i], w[i]) {
			lo := max(0, i-3)
			return "got:\n" + string(bytes.Join(g[lo:min(len(g), i+3)], []byte("\n"))) + "\nwant:\n" + string(bytes.Join(w[lo:min(len(w), i+3)], []byte("\n")))
		}
	}
	return ""
}
