package workspace

import (
	"github.com/ai-heart/ai-heart/internal/lang"

	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseActivityType(t *testing.T) {
	tests := []struct {
		in   string
		want ActivityType
		ok   bool
	}{
		{"introspection", Introspection, true},
		{"Introspection", Introspection, true},
		{"  thinking  ", Thinking, true},
		{"- creation", Creation, true},
		{"* observation", Observation, true},
		{"**introspection**", Introspection, true},
		{"`other`", Other, true},
		{"theme-start", ThemeStart, true},
		{"theme_end", ThemeEnd, true},
		{"recovery: after the error", Recovery, true},
		{"introspection (looking back)", Introspection, true},
		{"内省", Introspection, true},
		{"内省 (振り返り)", Introspection, true},
		{"内省（振り返り）", Introspection, true},
		{"思考：考えた", Thinking, true},
		{"観測", Observation, true},
		{"創造", Creation, true},
		{"テーマ開始", ThemeStart, true},
		{"テーマ終了", ThemeEnd, true},
		{"回復", Recovery, true},
		{"その他", Other, true},
		{"introspective", "", false},
		{"my introspection", "", false},
		{"", "", false},
		{"内省的", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseActivityType(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("ParseActivityType(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseActivityLog(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("testdata/logs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		in   string
		want ActivityLog
	}{
		{"japanese headings", read("japanese.md"), ActivityLog{
			Type: Introspection, RawType: "内省",
			Content:    []string{"前回の活動を振り返った", "introspection という単語を含むが関係ない"},
			Artifacts:  []string{"artifacts/20250101000000_t/notes.md"},
			Evaluation: "よくできた。\n次は観測をする。",
		}},
		{"english headings, introspection only in content", read("english.md"), ActivityLog{
			Type: Thinking, RawType: "thinking",
			Content:    []string{"Thought about introspection and why it matters", "second item", "third item"},
			Artifacts:  []string{"artifacts/20250101000000_t/a.md", "artifacts/20250101000000_t/b.md"},
			Evaluation: "Good.\nIntrospection next time.",
		}},
		{"missing type section", "# Activity log\n## Activity content\n- introspection\n", ActivityLog{
			Content: []string{"introspection"},
		}},
		{"empty type section", "## Activity type\n\n## Activity content\n- x\n", ActivityLog{
			Content: []string{"x"},
		}},
		{"unknown type", "## Activity type\ndancing\n", ActivityLog{RawType: "dancing"}},
		{"type with explanation", "## Activity type\n\n内省 (前回の振り返り)\n思考\n", ActivityLog{
			Type: Introspection, RawType: "内省 (前回の振り返り)",
		}},
		{"type bullet", "## Activity type\n- introspection\n", ActivityLog{Type: Introspection, RawType: "- introspection"}},
		{"CRLF", "## Activity type\r\ncreation\r\n## Activity content\r\n- a\r\n", ActivityLog{
			Type: Creation, RawType: "creation", Content: []string{"a"},
		}},
		{"heading case and depth", "### ACTIVITY TYPE\nobservation\n", ActivityLog{Type: Observation, RawType: "observation"}},
		{"unknown heading ends section", "## Activity content\n- a\n## Notes\n- not content\n", ActivityLog{
			Content: []string{"a"},
		}},
		{"japanese alternative headings", "## 活動種別\n回復\n## 成果物・関連ファイル\n- a.md\n## 自己評価・備考\nok\n", ActivityLog{
			Type: Recovery, RawType: "回復", Artifacts: []string{"a.md"}, Evaluation: "ok",
		}},
		{"bare dash dropped", "## Activity content\n-\n*\n- \n- real\n", ActivityLog{Content: []string{"real"}}},
		{"plain lines are items", "## Activity content\nno bullet\n", ActivityLog{Content: []string{"no bullet"}}},
		{"indented heading is evaluation text", "## Evaluation\nfine\n ## Activity type\nintrospection\n", ActivityLog{
			Evaluation: "fine\n ## Activity type\nintrospection",
		}},
		{"type after evaluation wins only if first", "## Activity type\nthinking\n## Evaluation\nx\n## Activity type\nintrospection\n", ActivityLog{
			Type: Thinking, RawType: "thinking", Evaluation: "x",
		}},
		{"empty", "", ActivityLog{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseActivityLog([]byte(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseActivityLog(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}

func TestActivityLogRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   ActivityLog
		want ActivityLog // zero = same as in
	}{
		{"full", ActivityLog{
			Type: Creation, Content: []string{"wrote a", "wrote b"},
			Artifacts: []string{"artifacts/x/a.md"}, Evaluation: "good\nline two",
		}, ActivityLog{}},
		{"no artifacts", ActivityLog{Type: Introspection, Content: []string{"looked back"}}, ActivityLog{}},
		{"every type", ActivityLog{Type: ThemeEnd, Content: []string{"x"}}, ActivityLog{}},
		{"evaluation forging a type heading", ActivityLog{
			Type: Thinking, Content: []string{"x"},
			Evaluation: "ok\n## Activity type\nintrospection\n# Activity log: 1",
		}, ActivityLog{
			Type: Thinking, Content: []string{"x"},
			Evaluation: "ok\n ## Activity type\nintrospection\n # Activity log: 1",
		}},
		{"content forging lines", ActivityLog{
			Type: Observation, Content: []string{"a\n## Activity type\nintrospection", "- b"},
			Artifacts: []string{"p\nq"},
		}, ActivityLog{
			Type: Observation, Content: []string{"a ## Activity type introspection", "- b"},
			Artifacts: []string{"p q"},
		}},
		{"japanese text", ActivityLog{Type: Other, Content: []string{"日本語の内容"}, Evaluation: "内省"}, ActivityLog{}},
	}
	titles := map[lang.Lang]string{lang.English: "# Activity log: 20250101120000\n", lang.Japanese: "# 活動ログ: 20250101120000\n## 活動種別\n"}
	for _, tt := range tests {
		for ln, title := range titles {
			t.Run(tt.name+"/"+string(ln), func(t *testing.T) {
				want := tt.want
				if reflect.DeepEqual(want, ActivityLog{}) {
					want = tt.in
				}
				want.RawType = want.Type.Name(ln)
				b := tt.in.Format("20250101120000", ln)
				if !strings.HasPrefix(strings.ReplaceAll(string(b), "\n\n", "\n"), title) {
					t.Fatalf("Format(%s) starts %q, want %q", ln, b, title)
				}
				got := ParseActivityLog(b)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("ParseActivityLog(Format(%#v, %s)) = %#v, want %#v\n%s", tt.in, ln, got, want, b)
				}
			})
		}
	}
}
