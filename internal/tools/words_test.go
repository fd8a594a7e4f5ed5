package tools

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Every reason workspace.CheckPart gives is said in Japanese in a ja
// workspace, and word for word as workspace says it in English.
func TestPartProblemLanguage(t *testing.T) {
	for _, in := range []string{"", "\xff", strings.Repeat("a", workspace.MaxPartLen+1), "a/b", "a..b", ".a", "a.", "a:b", "a\x01b", "a\u202eb", "CON"} {
		_, err := workspace.CheckPart(in)
		if err == nil {
			t.Fatalf("CheckPart(%q) accepted it", in)
		}
		if got := partProblem(err).in(lang.English); got != err.Error() {
			t.Errorf("English %q, want workspace's %q", got, err.Error())
		}
		ja := partProblem(err).in(lang.Japanese)
		if !japanese(ja) {
			t.Errorf("CheckPart(%q): %q is not Japanese (add the reason to the catalogue)", in, ja)
		}
		testutil.CheckJapanese(t, "CheckPart reason", ja)
	}
}

// Every reason workspace's source gives CheckPart a partErr for has its
// Japanese in the catalogue, with the same verbs: a reason added there
// without its words here fails, whether or not a test's input reaches it.
func TestPartReasonsTranslated(t *testing.T) {
	reasons := partReasons(t)
	if len(reasons) < 10 {
		t.Fatalf("found %d partErr reasons in workspace: %q", len(reasons), reasons)
	}
	for _, r := range reasons {
		if _, ok := ja[r]; !ok {
			t.Errorf("workspace.CheckPart's reason %q has no Japanese in the catalogue", r)
		}
	}
}

// partReasons are the format strings workspace's non-test files hand to
// partErr, read from their source.
func partReasons(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../workspace/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "partErr" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: partErr with a format that is no string literal", name)
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// get_heartbeat_elapsed_time names the crossed thresholds in Japanese, with
// Japanese durations; the deadline is a local clock time.
func TestElapsedTextJapanese(t *testing.T) {
	left, zero := int64(114), int64(0)
	r := &ElapsedResult{HeartbeatID: "20250101120000", Work: "working",
		DeepWork: &DeepWorkStatus{Mode: "strict", Activity: "潮汐表の確認", File: "stats/deep_work/20250101120000.txt", ElapsedSeconds: 3600, RemainingSeconds: &left, Deadline: "2025-01-01T13:01:54+09:00"},
		Thresholds: []ThresholdStatus{
			{Check: "inactivity", Level: "warning", ThresholdSeconds: 8, Crossed: true, RemainingSeconds: &zero},
			{Check: "inactivity", Level: "error", ThresholdSeconds: 16, Crossed: true, RemainingSeconds: &zero},
			{Check: "introspection", Level: "info", ThresholdSeconds: 900, Crossed: true, RemainingSeconds: &zero},
			{Check: "introspection", Level: "warning", ThresholdSeconds: 1200, RemainingSeconds: &left},
			{Check: "introspection", Level: "error", ThresholdSeconds: 1800},
		}}
	ja := r.Text(lang.Japanese)
	for _, w := range []string{"「潮汐表の確認」", "経過1時間", "期限13:01:54まで残り1分54秒", "無活動（`inactivity`）の警告（8秒）・エラー（16秒）、内省（`introspection`）の注意喚起（15分）。", "次：内省（`introspection`）の警告は作業時間であと1分54秒。"} {
		if !strings.Contains(ja, w) {
			t.Errorf("Japanese reply lacks %q:\n%s", w, ja)
		}
	}
	testutil.CheckJapanese(t, "elapsed reply", ja)
	en := r.Text(lang.English)
	for _, w := range []string{`"潮汐表の確認"`, "for 1h", "1m54s left until 13:01:54", "inactivity warning (8s) and error (16s), introspection info (15m).", "Next: introspection warning in 1m54s of working time."} {
		if !strings.Contains(en, w) {
			t.Errorf("English reply lacks %q:\n%s", w, en)
		}
	}
}

// A file operation that fails is said in the agent's language: the kinds an
// agent can act on (a symlink out of the workspace, permissions, a full or
// read-only disk, something missing) in its own words, anything else quoted
// as the system wrote it, in backquotes, never loose English inside
// Japanese.
func TestFileErrorsReadInTheAgentsLanguage(t *testing.T) {
	e := newEnv(t)
	e.tl.Lang = lang.Japanese
	if err := os.RemoveAll(e.ws.Path("artifacts")); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, e.ws.Path("artifacts")); err != nil {
		t.Fatal(err)
	}
	_, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"潮の満ち引き","theme_directory_part":"tides","reason":"なぜ二回か"}`))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("start_theme through a symlink out: %v, want an InputError", err)
	}
	ja := ie.In(lang.Japanese)
	testutil.CheckJapanese(t, "start_theme's refusal", ja)
	if !strings.Contains(ja, outside) || !strings.Contains(ie.In(lang.English), outside) {
		t.Errorf("the refusal does not say where the folder leads (%s):\n%s\n%s", outside, ja, ie.In(lang.English))
	}

	pathErr := func(errno error) error {
		return fmt.Errorf("create artifacts/x/histories: %w", &fs.PathError{Op: "mkdir", Path: "/w/artifacts/x/histories", Err: errno})
	}
	for _, err := range []error{
		pathErr(syscall.EACCES), pathErr(syscall.ENOSPC), pathErr(syscall.EROFS), pathErr(syscall.ENOENT),
		&workspace.OutsideError{Rel: "artifacts/x", Target: "/elsewhere"}, fmt.Errorf("resolve: %w: contains ..", workspace.ErrOutside),
		errors.New("something no one foresaw happened"),
	} {
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			e.tl.Lang = l
			req := mcp.CallToolRequest{}
			res, _ := handle[noInput](e.tl, "start_theme", func(noInput) (*StartThemeResult, error) { return nil, err })(context.Background(), req)
			txt := res.Content[0].(mcp.TextContent).Text
			if l == lang.Japanese {
				testutil.CheckJapanese(t, "a failed call", txt)
			}
			if !res.IsError || !strings.Contains(txt, "start_theme") {
				t.Errorf("%s: %q", l, txt)
			}
		}
	}
}

// English counts read as English: no "log(s)" or "item(s)" in a reply.
func TestEnglishRepliesCountWithoutParentheses(t *testing.T) {
	for _, text := range []string{
		(&ThemeStatus{ThemeInfo: ThemeInfo{Folder: "artifacts/20250101000000_research", LogCount: 1}}).Text(lang.English),
		(&LatestLogsResult{Total: 3, Logs: []LogEntry{{Path: "a.md", Content: "x"}}}).Text(lang.English),
	} {
		if strings.Contains(text, "(s)") {
			t.Errorf("%q", text)
		}
	}
}

// A proof whose time is ahead of the clock (a file system's clock a little
// ahead of mcp-heart's) is "0s ago", never a negative time.
func TestSinceNeverNegative(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if s := since(now, &workspace.Proof{ModTime: now.Add(3 * time.Second)}); s == nil || *s != 0 {
		t.Errorf("since a proof 3s ahead = %v, want 0", s)
	}
}

// A threshold crossed since the watchdog's last pulse is not yet among its
// notices: the reply says the next pulse raises it, rather than naming a
// crossing the notices beside it do not show.
func TestElapsedCrossedAheadOfThePulse(t *testing.T) {
	zero := int64(0)
	r := &ElapsedResult{HeartbeatID: "20250101120000", Work: "working", PendingNoticesHeartbeatID: "20250101115950",
		Thresholds: []ThresholdStatus{
			{Check: "inactivity", Level: "warning", ThresholdSeconds: 8, Crossed: true, RemainingSeconds: &zero},
			{Check: "introspection", Level: "info", ThresholdSeconds: 900, Crossed: true, RemainingSeconds: &zero},
		},
		PendingNotices: []string{"[info] introspection: そろそろ振り返ってください。"}}
	en := r.Text(lang.English)
	if !strings.Contains(en, "The watchdog's next pulse will raise the inactivity warning.\n") || strings.Contains(en, "raise the introspection") {
		t.Errorf("English reply:\n%s\nwant only the crossing its notices do not show yet marked", en)
	}
	ja := r.Text(lang.Japanese)
	if !strings.Contains(ja, "このうち無活動（`inactivity`）の警告は、watchdog の次のパルスで通知されます。") {
		t.Errorf("Japanese reply:\n%s", ja)
	}
	testutil.CheckJapanese(t, "elapsed reply", ja)

	// Raised long ago: the error's notice stands, and with it the lower
	// levels of its check, which no pulse will raise again.
	r.Thresholds = []ThresholdStatus{
		{Check: "inactivity", Level: "warning", ThresholdSeconds: 5, Crossed: true, RemainingSeconds: &zero},
		{Check: "inactivity", Level: "error", ThresholdSeconds: 10, Crossed: true, RemainingSeconds: &zero},
	}
	r.PendingNotices = []string{"[error] inactivity: No activity log or checkpoint for 30s."}
	if en := r.Text(lang.English); strings.Contains(en, "next pulse will raise") {
		t.Errorf("a warning under a standing error is said to come:\n%s", en)
	}
}
