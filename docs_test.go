package aiheart

import (
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// languages are the languages the agent docs come in.
var languages = []lang.Lang{lang.English, lang.Japanese}

// The MCP surface the docs may name, from the registry itself: the tools
// mcp-heart serves, every parameter of their input schemas, and the checks
// the watchdog runs. A renamed tool or parameter fails the docs test until
// the docs follow.
var (
	docTools, docParams = registry()
	docChecks           = checks.Names
	// docExamples are example names the docs use for a theme.
	docExamples = []string{"cache_design"}
	// docValues are enum values and reply fields the docs may name.
	docValues = []string{"quota_exceeded", "next_cursor"}
)

// registry lists mcp-heart's tools and their parameters.
func registry() (names, params []string) {
	ws, _ := workspace.New(os.TempDir(), nil)
	for _, st := range tools.New(ws, config.Defaults().Thresholds, zerolog.Nop()).Definitions() {
		names = append(names, st.Tool.Name)
		for p := range st.Tool.InputSchema.Properties {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
	}
	slices.Sort(params)
	return names, params
}

// Bounds of start_deep_work's activity_description (internal/tools).
const minDescription, maxDescription = 10, 200

// doc is one agent document.
type doc struct {
	name string // its path in FS (ja/ai-docs/tools.md)
	text string
}

// readDocs returns GEMINI.md and ai-docs/*.md in language l as embedded in
// the binaries. Both languages have the same files.
func readDocs(t *testing.T, l lang.Lang) []doc {
	t.Helper()
	names, err := fs.Glob(FS(), DocsDir+"/*.md")
	if err != nil || len(names) == 0 {
		t.Fatalf("no %s/*.md embedded: %v", DocsDir, err)
	}
	names = append([]string{AgentRules}, names...)
	var out []doc
	for _, n := range names {
		b, err := fs.ReadFile(FS(), Doc(l, n))
		if err != nil {
			t.Fatalf("%s: %v (every doc comes in every language)", l, err)
		}
		out = append(out, doc{Doc(l, n), string(b)})
	}
	if l != lang.English {
		if extra, _ := fs.Glob(FS(), Doc(l, DocsDir)+"/*.md"); len(extra) != len(names)-1 {
			t.Errorf("%s has %d docs, English %d: the same files in both", Doc(l, DocsDir), len(extra), len(names)-1)
		}
	}
	return out
}

// minutes converts a duration to whole minutes.
func minutes(d config.Duration) int { return int(d.D() / time.Minute) }

// concept is a subject a number of minutes in the docs can belong to, with
// the words that name it and the values the defaults allow for it.
type concept struct {
	name  string
	words *regexp.Regexp
	ok    func(n int) bool
	want  []int // values the docs must state at least once
}

// concepts derives every number the docs may use from the thresholds; the
// words of each concept are English and Japanese.
func concepts(th config.Thresholds, r config.Restrictions) []concept {
	in := func(vals ...int) func(int) bool { return func(n int) bool { return slices.Contains(vals, n) } }
	intro := minutes(th.Introspection)
	maxStrict := minutes(th.MaxStrictDeepWork)
	w, e := minutes(th.InactivityWarning), minutes(th.InactivityError)
	return []concept{
		{"introspection", regexp.MustCompile(`(?i)introspect|内省`), in(intro, intro/2, intro*2/3), []int{intro, intro / 2, intro * 2 / 3}},
		{"strict deep work", regexp.MustCompile(`(?i)strict|planned|deadline|deep[ _]work|深い作業|予定時間|期限`), func(n int) bool { return n >= 1 && n <= maxStrict }, []int{maxStrict}},
		{"tool cooldown", regexp.MustCompile(`(?i)cooldown|クールダウン`), in(minutes(r.Cooldown)), nil},
		{"tool lock", regexp.MustCompile(`(?i)\block\b|ロック`), in(minutes(r.Lock)), nil},
		{"proof of activity", regexp.MustCompile(`(?i)inactivity|proof|checkpoint|activity log|last log|cycle|stale|split|notice|無活動|活動の証明|チェックポイント|活動ログ|サイクル|通知|分割`), in(w, e), []int{w, e}},
	}
}

// minuteRe finds "N min", "N minutes", "N-M minutes", "N to M minutes",
// "N分", "N〜M分" and "planned_duration_minutes=N".
var minuteRe = regexp.MustCompile(`(?i)\b(\d+)(?:\s*(?:-|–|〜|～|to|and)\s*(\d+))?\s*(?:minutes?\b|mins?\b|m\b|分)|planned_duration_minutes\s*[=:]\s*(\d+)`)

// mention is one number of minutes found in a doc.
type mention struct {
	doc, line string
	value     int
	concept   string
}

// findMinutes extracts every number of minutes and the concept it belongs
// to, looking for the concept's words in widening circles: the number's
// clause on its line, its clause in the paragraph or table, its section
// headings (innermost first), and last anywhere in its paragraph. Within a
// clause a word before the number wins over one after it ("introspection
// within 30 minutes").
func findMinutes(d doc, cs []concept) ([]mention, []string) {
	var out []mention
	var problems []string
	lines := strings.Split(d.text, "\n")
	var headings []string
	for i, line := range lines {
		if strings.HasPrefix(line, "#") {
			level := len(line) - len(strings.TrimLeft(line, "#"))
			if level <= len(headings) {
				headings = headings[:level-1]
			}
			for len(headings) < level-1 {
				headings = append(headings, "")
			}
			headings = append(headings, line)
		}
		for _, m := range minuteRe.FindAllStringSubmatchIndex(line, -1) {
			var vals []int
			for g := 1; g <= 3; g++ {
				if m[2*g] >= 0 {
					v, _ := strconv.Atoi(line[m[2*g]:m[2*g+1]])
					vals = append(vals, v)
				}
			}
			block := paragraph(lines, i)
			off := strings.Index(block, line)
			c := inClause(line, m[0], m[1], cs)
			if c == nil {
				c = inClause(block, off+m[0], off+m[1], cs)
			}
			for h := len(headings) - 1; c == nil && h >= 0; h-- {
				c = nearest(headings[h], 0, 0, cs)
			}
			if c == nil {
				c = nearest(block, off+m[0], off+m[1], cs)
			}
			if c == nil {
				problems = append(problems, fmt.Sprintf("%s: %q: no subject near the number (say what it limits)", d.name, strings.TrimSpace(line)))
				continue
			}
			for _, v := range vals {
				out = append(out, mention{d.name, strings.TrimSpace(line), v, c.name})
			}
		}
	}
	return out, problems
}

// paragraph is the block of non-blank lines around line i.
func paragraph(lines []string, i int) string {
	s, e := i, i
	for s > 0 && strings.TrimSpace(lines[s-1]) != "" {
		s--
	}
	for e < len(lines)-1 && strings.TrimSpace(lines[e+1]) != "" {
		e++
	}
	return strings.Join(lines[s:e+1], "\n")
}

// clauseEnds are the characters that end a clause, in both languages.
const clauseEnds = ",;|.!?、。"

// inClause returns the concept named in the clause around text[start:end]:
// the closest word before the number, else the closest after it.
func inClause(text string, start, end int, cs []concept) *concept {
	from := 0
	if i := strings.LastIndexAny(text[:start], clauseEnds); i >= 0 {
		_, size := utf8.DecodeRuneInString(text[i:])
		from = i + size
	}
	to := len(text)
	if i := strings.IndexAny(text[end:], clauseEnds); i >= 0 {
		to = end + i
	}
	var before, after *concept
	bestB, bestA := -1, len(text)+1
	for i, c := range cs {
		for _, loc := range c.words.FindAllStringIndex(text[from:to], -1) {
			ls, le := loc[0]+from, loc[1]+from
			switch {
			case le <= start && le > bestB:
				before, bestB = &cs[i], le
			case ls >= end && ls < bestA:
				after, bestA = &cs[i], ls
			}
		}
	}
	if before != nil {
		return before
	}
	return after
}

// nearest returns the concept whose word is closest to text[start:end].
func nearest(text string, start, end int, cs []concept) *concept {
	best, bestDist := -1, 1<<30
	for i, c := range cs {
		for _, loc := range c.words.FindAllStringIndex(text, -1) {
			d := start - loc[1]
			if loc[0] >= end {
				d = loc[0] - end + 1 // prefer a word before the number on a tie
			}
			if d < 0 {
				d = 0
			}
			if d < bestDist {
				best, bestDist = i, d
			}
		}
	}
	if best < 0 {
		return nil
	}
	return &cs[best]
}

// checkMinutes returns every number of minutes in docs that the defaults th
// and r do not allow, and every threshold the docs never state.
func checkMinutes(docs []doc, th config.Thresholds, r config.Restrictions) []string {
	cs := concepts(th, r)
	var problems []string
	stated := map[string]map[int]bool{}
	for _, d := range docs {
		ms, p := findMinutes(d, cs)
		problems = append(problems, p...)
		for _, m := range ms {
			if stated[m.concept] == nil {
				stated[m.concept] = map[int]bool{}
			}
			stated[m.concept][m.value] = true
			for _, c := range cs {
				if c.name == m.concept && !c.ok(m.value) {
					problems = append(problems, fmt.Sprintf("%s: %d minutes about %s does not match the defaults: %q", m.doc, m.value, m.concept, m.line))
				}
			}
		}
	}
	for _, c := range cs {
		for _, v := range c.want {
			if !stated[c.name][v] {
				problems = append(problems, fmt.Sprintf("the docs never state %d minutes for %s", v, c.name))
			}
		}
	}
	return problems
}

func TestDocsMinutesMatchDefaults(t *testing.T) {
	for _, l := range languages {
		t.Run(string(l), func(t *testing.T) { testDocsMinutesMatchDefaults(t, l) })
	}
}

func testDocsMinutesMatchDefaults(t *testing.T, l lang.Lang) {
	def := config.Defaults()
	docs := readDocs(t, l)
	for _, p := range checkMinutes(docs, def.Thresholds, def.Restrictions) {
		t.Error(p)
	}
	if testing.Verbose() { // go test -v -run MinutesMatch shows how each number was read
		cs := concepts(def.Thresholds, def.Restrictions)
		for _, d := range docs {
			ms, _ := findMinutes(d, cs)
			for _, m := range ms {
				t.Logf("%s: %d min = %s: %q", m.doc, m.value, m.concept, m.line)
			}
		}
	}
}

// TestDocsMinutesFollowAChangedDefault proves the check bites: with any
// default changed, the unchanged docs of each language fail.
func TestDocsMinutesFollowAChangedDefault(t *testing.T) {
	for _, l := range languages {
		t.Run(string(l), func(t *testing.T) { testDocsMinutesFollowAChangedDefault(t, l) })
	}
}

func testDocsMinutesFollowAChangedDefault(t *testing.T, l lang.Lang) {
	docs := readDocs(t, l)
	def := config.Defaults()
	tests := []struct {
		name   string
		change func(*config.Thresholds, *config.Restrictions)
	}{
		{"inactivity_warning 6m", func(th *config.Thresholds, _ *config.Restrictions) {
			th.InactivityWarning = config.Duration(6 * time.Minute)
		}},
		{"inactivity_error 12m", func(th *config.Thresholds, _ *config.Restrictions) {
			th.InactivityError = config.Duration(12 * time.Minute)
		}},
		{"introspection 60m", func(th *config.Thresholds, _ *config.Restrictions) {
			th.Introspection = config.Duration(60 * time.Minute)
		}},
		{"max_strict_deep_work 20m", func(th *config.Thresholds, _ *config.Restrictions) {
			th.MaxStrictDeepWork = config.Duration(20 * time.Minute)
		}},
		{"max_strict_deep_work 45m", func(th *config.Thresholds, _ *config.Restrictions) {
			th.MaxStrictDeepWork = config.Duration(45 * time.Minute)
		}},
		{"restrictions.cooldown 15m", func(_ *config.Thresholds, r *config.Restrictions) { r.Cooldown = config.Duration(15 * time.Minute) }},
		{"restrictions.lock 2h", func(_ *config.Thresholds, r *config.Restrictions) { r.Lock = config.Duration(2 * time.Hour) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, r := def.Thresholds, def.Restrictions
			tt.change(&th, &r)
			if p := checkMinutes(docs, th, r); len(p) == 0 {
				t.Errorf("checkMinutes(docs, %s) found nothing; the docs test would miss this change", tt.name)
			}
		})
	}
}

func TestFindMinutes(t *testing.T) {
	def := config.Defaults()
	cs := concepts(def.Thresholds, def.Restrictions)
	tests := []struct {
		name, text string
		want       []string // "concept=value"
	}{
		{"proof", "a proof of activity within 10 minutes", []string{"proof of activity=10"}},
		{"two subjects on a line", "proof within 10 minutes, introspection within 30 minutes", []string{"proof of activity=10", "introspection=30"}},
		{"range", "strict: 1 to 30 minutes", []string{"strict deep work=1", "strict deep work=30"}},
		{"call", "start_deep_work(mode=\"strict\", planned_duration_minutes=25)", []string{"strict deep work=25"}},
		{"table under its header", "| since the last introspection | level |\n|---|---|\n| more than 15 minutes | info |", []string{"introspection=15"}},
		{"section heading", "## Introspection\n\nEvery 20 min or so.", []string{"introspection=20"}},
		{"japanese", "内省は30分以内 (introspection)", []string{"introspection=30"}},
		{"japanese clauses", "チェックポイントは10分以内、内省は30分ごと。", []string{"proof of activity=10", "introspection=30"}},
		{"japanese range", "予定時間は1〜30分", []string{"strict deep work=1", "strict deep work=30"}},
		{"japanese cooldown and lock", "クールダウンは10分、ロックは60分続きます", []string{"tool cooldown=10", "tool lock=60"}},
		{"no number", "write a checkpoint at a natural break", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, problems := findMinutes(doc{"x.md", tt.text}, cs)
			var got []string
			for _, m := range ms {
				got = append(got, fmt.Sprintf("%s=%d", m.concept, m.value))
			}
			if !slices.Equal(got, tt.want) || len(problems) > 0 {
				t.Errorf("findMinutes(%q) = %v %v, want %v", tt.text, got, problems, tt.want)
			}
		})
	}
	if _, problems := findMinutes(doc{"x.md", "wait 7 minutes"}, cs); len(problems) != 1 {
		t.Errorf("findMinutes(a number without a subject) = %v, want one problem", problems)
	}
}

func TestDocsDescriptionBoundsAndSequence(t *testing.T) {
	for _, l := range languages {
		t.Run(string(l), func(t *testing.T) { testDocsDescriptionBoundsAndSequence(t, l) })
	}
}

func testDocsDescriptionBoundsAndSequence(t *testing.T, l lang.Lang) {
	descRe := regexp.MustCompile(`(\d+)\s*(?:-|–|〜|～|to)\s*(\d+)\s*(?:characters|文字)`)
	seqRe := regexp.MustCompile(`_(\d{2})\.md`)
	var sawDesc bool
	maxSeq := 0
	for _, d := range readDocs(t, l) {
		for _, m := range descRe.FindAllStringSubmatch(d.text, -1) {
			sawDesc = true
			if m[1] != strconv.Itoa(minDescription) || m[2] != strconv.Itoa(maxDescription) {
				t.Errorf("%s: %q, want %d to %d characters", d.name, m[0], minDescription, maxDescription)
			}
		}
		for _, m := range seqRe.FindAllStringSubmatch(d.text, -1) {
			n, _ := strconv.Atoi(m[1])
			if n > workspace.MaxSequence {
				t.Errorf("%s: %q beyond the last sequence number %d", d.name, m[0], workspace.MaxSequence)
			}
			maxSeq = max(maxSeq, n)
		}
	}
	if !sawDesc {
		t.Errorf("the docs never state the activity_description bounds")
	}
	if maxSeq != workspace.MaxSequence {
		t.Errorf("the docs' highest <ID>_NN.md is _%02d, want _%02d", maxSeq, workspace.MaxSequence)
	}
}

// TestDocsNoticesCoverEveryCheck wants one section per check in the notices
// document of every language, and no section for a check that does not
// exist.
func TestDocsNoticesCoverEveryCheck(t *testing.T) {
	recoveryHeading := map[lang.Lang]string{lang.English: "Recovery notice", lang.Japanese: "回復通知"}
	for _, l := range languages {
		b, err := fs.ReadFile(FS(), Doc(l, DocsDir+"/heartbeat-notices.md"))
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile("(?m)^### `([a-z_]+)`")
		var got []string
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			got = append(got, m[1])
		}
		sort.Strings(got)
		want := slices.Sorted(slices.Values(docChecks))
		if !slices.Equal(got, want) {
			t.Errorf("%s heartbeat-notices.md sections = %v, want %v", l, got, want)
		}
		for _, s := range []string{"Heartbeat: <ID>", recoveryHeading[l], "`recovery`"} {
			if !strings.Contains(string(b), s) {
				t.Errorf("%s heartbeat-notices.md lacks %q", l, s)
			}
		}
	}
}

// TestTemplateHasNoContent checks the template: placeholders only keep
// folders (the client files are written by init's wiring, not copied).
func TestTemplateHasNoContent(t *testing.T) {
	err := fs.WalkDir(FS(), TemplateDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != PlaceholderName {
			t.Errorf("unexpected template file %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocsToolLoopMatchesDefault: the tool_loop section says the default
// threshold and its double, in both languages, and which checks recover.
func TestDocsToolLoopMatchesDefault(t *testing.T) {
	n := config.Defaults().Thresholds.ToolLoop
	for _, l := range languages {
		b, err := fs.ReadFile(FS(), Doc(l, DocsDir+"/heartbeat-notices.md"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		i := strings.Index(text, "### `tool_loop`")
		if i < 0 {
			t.Fatalf("%s: no tool_loop section", l)
		}
		section := text[i+3:]
		section = section[:strings.Index(section, "\n#")]
		nums := regexp.MustCompile(`\d+`).FindAllString(section, -1)
		if !slices.Equal(nums, []string{strconv.Itoa(n), strconv.Itoa(2 * n)}) {
			t.Errorf("%s tool_loop section numbers %v, want %d then %d", l, nums, n, 2*n)
		}
		for _, c := range checks.Names {
			if checks.Recoverable(c) && !strings.Contains(text[strings.Index(text, "\n## "+map[lang.Lang]string{lang.English: "Recovery notice", lang.Japanese: "回復通知"}[l]):], "`"+c+"`") {
				t.Errorf("%s: the recovery notice does not name %s, which recovers", l, c)
			}
		}
	}
}
