package aiheart_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	aiheart "github.com/ai-heart/ai-heart"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// agentText is one text the agent reads: a doc, a tool's definition, or the
// string literals of the code that writes replies and notices.
type agentText struct {
	where string
	text  string
}

// agentTexts gathers everything the agent reads: GEMINI.md and ai-docs, the
// tool definitions and server instructions as served, and the templates of
// tool replies, notices and the recovery notice (the string literals of the
// code that builds them).
func agentTexts(t *testing.T) []agentText {
	t.Helper()
	var out []agentText
	names, _ := fs.Glob(aiheart.FS(), aiheart.DocsDir+"/*.md")
	ws, err := workspace.New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		for _, n := range append([]string{aiheart.AgentRules}, names...) {
			b, err := fs.ReadFile(aiheart.FS(), aiheart.Doc(l, n))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, agentText{aiheart.Doc(l, n), string(b)})
		}
		tl := tools.New(ws, config.Defaults().Thresholds, zerolog.Nop())
		tl.Lang = l
		for _, st := range tl.Definitions() {
			b, err := json.Marshal(st.Tool)
			if err != nil {
				t.Fatal(err)
			}
			var descs []string
			collectDescriptions(b, &descs)
			out = append(out, agentText{string(l) + " tool " + st.Tool.Name, strings.Join(descs, "\n")})
		}
	}
	out = append(out, agentText{"server instructions", tools.Instructions})
	// The demo's narration too: a Japanese newcomer reads it.
	for _, dir := range []string{"internal/tools", "internal/checks", "internal/daemon", "internal/demo", "cmd/watchdog"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			out = append(out, agentText{f, literals(t, f)})
		}
	}
	return out
}

// collectDescriptions walks a tool's JSON for every "description".
func collectDescriptions(b []byte, out *[]string) {
	var v any
	_ = json.Unmarshal(b, &v)
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if s, ok := y.(string); ok && k == "description" {
					*out = append(*out, s)
				}
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
}

// literals returns a Go file's string literals one per line; a sum of
// literals ("a " + "b") is one line, as the sentence it builds.
func literals(t *testing.T, path string) string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var flat func(ast.Expr) string
	flat = func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING {
				return s
			}
		case *ast.BinaryExpr:
			if x.Op == token.ADD {
				return flat(x.X) + flat(x.Y)
			}
		case *ast.ParenExpr:
			return flat(x.X)
		}
		return " "
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.BinaryExpr:
			if x.Op == token.ADD {
				b.WriteString(flat(x) + "\n")
				return false
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING {
				b.WriteString(flat(x) + "\n")
			}
		}
		return true
	})
	return b.String()
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)|[。！？]|\n|\|`)

func sentences(s string) []string { return sentenceEnd.Split(s, -1) }

// The checks strict deep work pauses, by their names and Japanese words.
var (
	inactivityRe    = regexp.MustCompile(`inactivity|無活動`)
	introspectionRe = regexp.MustCompile(`introspection|内省`)
	staleRe         = regexp.MustCompile(`stale_id`)
)

// TestAgentTextsAgree: the docs, the tool texts and the notice templates
// agree on what strict deep work pauses, on the ID rule and on a calm
// relation to the clock.
func TestAgentTextsAgree(t *testing.T) {
	forbidden := []struct{ phrase, why string }{
		{"from now on", "the agent never reuses an ID: the tools name files"},
		{"use the heartbeat id", "the agent never reuses an ID: the tools name files"},
		{"use that one", "the agent never reuses an ID: the tools name files"},
		{"names this activity cycle", "IDs are minted every pulse"},
		{"every few minutes", "checkpoints come at natural breaks; no clock-watching"},
		{"数分ごと", "checkpoints come at natural breaks; no clock-watching"},
		{"以後このid", "the agent never reuses an ID: the tools name files"},
		{"このidを使", "the agent never reuses an ID: the tools name files"},
		{"急いで", "tool texts are calm about the clock"},
		{"時間がありません", "tool texts are calm about the clock"},
		{"how long until each", "nothing is counted while the agent waits: say when each threshold is crossed while it works"},
		{"しきい値を超えるまでの時間", "nothing is counted while the agent waits: say when each threshold is crossed while it works"},
	}
	pauseAll := regexp.MustCompile(`(?i)(every|all)( other)?( watchdog)? checks? (are |is )?(\w+ )?paus|paus\w* (every|all)( watchdog)? checks?`)
	pauseList := regexp.MustCompile(`(?i)\bstrict\b.*(\bpaus|一時停止)`)
	pauseAllJa := regexp.MustCompile(`(すべて|全て|全部)の(ほかの)?チェック[^。]*(一時停止|止ま)`)
	durationRe := regexp.MustCompile(`\b\d+h0m\b|\b\d+m0s\b`)
	texts := agentTexts(t)
	if len(texts) < 15 {
		t.Fatalf("only %d texts gathered", len(texts))
	}
	for _, x := range texts {
		low := strings.ToLower(x.text)
		for _, f := range forbidden {
			if strings.Contains(low, f.phrase) {
				t.Errorf("%s says %q: %s", x.where, f.phrase, f.why)
			}
		}
		for _, m := range pauseAllJa.FindAllString(x.text, -1) {
			if !strings.Contains(m, "ほか") {
				t.Errorf("%s says %q: strict deep work pauses inactivity, introspection and stale_id only", x.where, m)
			}
		}
		for _, m := range pauseAll.FindAllString(x.text, -1) {
			if !strings.Contains(strings.ToLower(m), "other") {
				t.Errorf("%s says %q: strict deep work pauses inactivity, introspection and stale_id only", x.where, m)
			}
		}
		if m := durationRe.FindString(x.text); m != "" {
			t.Errorf("%s writes the duration %q: durations read as 6m, not 6m0s", x.where, m)
		}
		for _, s := range sentences(x.text) {
			if !pauseList.MatchString(s) {
				continue
			}
			// A sentence that says which checks strict pauses names all three.
			names := 0
			for _, c := range []*regexp.Regexp{inactivityRe, introspectionRe, staleRe} {
				if c.MatchString(s) {
					names++
				}
			}
			if names > 0 && names < 3 {
				t.Errorf("%s: %q names only some of the checks strict deep work pauses (inactivity, introspection, stale_id)", x.where, strings.TrimSpace(s))
			}
		}
	}
}

// TestAgentTextsCheckBites proves the check fails on the texts it was
// written against.
func TestAgentTextsCheckBites(t *testing.T) {
	for _, s := range []string{
		"strict: lasts planned_duration_minutes, every watchdog check pauses until the deadline.",
		"Current heartbeat ID: 20250101120000 (use it from now on).",
		"Call it every few minutes during long work.",
	} {
		low := strings.ToLower(s)
		pauseAll := regexp.MustCompile(`(?i)(every|all)( other)?( watchdog)? checks? (are |is )?(\w+ )?paus|paus\w* (every|all)( watchdog)? checks?`)
		if !pauseAll.MatchString(s) && !strings.Contains(low, "from now on") && !strings.Contains(low, "every few minutes") {
			t.Errorf("no forbidden phrase found in %q", s)
		}
	}
	pauseList := regexp.MustCompile(`(?i)\bstrict\b.*(\bpaus|一時停止)`)
	for _, s := range []string{"strict deep work pauses the inactivity check too", "strict では無活動のチェックも一時停止します"} {
		if !pauseList.MatchString(s) || staleRe.MatchString(s) || !inactivityRe.MatchString(s) {
			t.Errorf("the partial strict list %q is not caught", s)
		}
	}
	pauseAllJa := regexp.MustCompile(`(すべて|全て|全部)の(ほかの)?チェック[^。]*(一時停止|止ま)`)
	if !pauseAllJa.MatchString("strict ではすべてのチェックが一時停止します") || pauseAllJa.MatchString("ほかのチェックは動き続けます") {
		t.Error("the Japanese every-check pause is not caught")
	}
}
