package daemon

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestJapaneseCatalogue(t *testing.T) { testutil.CheckCatalogue(t, ja, ".") }

// TestRecoveryNoticeLanguage: the notice follows the language and always
// carries the attempt and the reason: the alert line in English, the
// check's own reason in Japanese, with no English inside.
func TestRecoveryNoticeLanguage(t *testing.T) {
	r := state.Recovery{Active: true, Attempt: 2, Check: checks.Inactivity, Reason: "no activity log or checkpoint for 11m"}
	for _, tt := range []struct {
		l    lang.Lang
		want []string
		ja   bool
	}{
		{lang.English, []string{"RECOVERY (attempt 2 of 3)", r.Reason, `activity_type "recovery"`}, false},
		{lang.Japanese, []string{"回復通知（2回目／全3回）", "無活動チェック（`inactivity`）のエラー", "回復"}, true},
	} {
		got := recoveryNotice(r, 3, tt.l, "")
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("recoveryNotice(%s) = %q, lacks %q", tt.l, got, w)
			}
		}
		// Under inbox nothing interrupts the agent, so no notice may say so.
		if strings.Contains(got, "interrupted") || strings.Contains(got, "中断しました") {
			t.Errorf("recoveryNotice(%s) = %q: says the agent was interrupted", tt.l, got)
		}
		if strings.ContainsFunc(got, func(c rune) bool { return unicode.In(c, unicode.Hiragana) }) != tt.ja {
			t.Errorf("recoveryNotice(%s) = %q: Japanese = %v", tt.l, got, !tt.ja)
		}
	}
	// Every recoverable check has its reason in Japanese.
	for _, c := range checks.Names {
		if !checks.Recoverable(c) {
			continue
		}
		r := state.Recovery{Active: true, Attempt: 1, Check: c, Reason: "an English alert line"}
		got := recoveryNotice(r, 3, lang.Japanese, "")
		if _, ok := jaRecoveryReasons[c]; !ok {
			t.Errorf("recoverable check %s has no Japanese reason", c)
		}
		testutil.CheckJapanese(t, "recovery notice for "+c, got)
	}
}

// The inactivity error and the recovery notice reach the agent together:
// in either language they name the same documents to re-read.
func TestInactivityErrorAgreesWithTheRecoveryNotice(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	old := workspace.Proof{Path: "artifacts/20261122090000_x/histories/20261122094900.md", ID: "20261122094900", ModTime: now.Add(-11 * time.Minute), Type: workspace.Creation}
	snap := scan.Snapshot{LastLog: &old, RecentLogs: []workspace.Proof{old}}
	docs := regexp.MustCompile(`GEMINI\.md|ai-docs/[\w./-]*`)
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		res, _ := checks.Evaluate(now, snap, checks.Config{Language: l}, checks.State{})
		f, _ := res.Finding(checks.Inactivity)
		if f.Level != checks.Error {
			t.Fatalf("%s: inactivity after 11m = %v, want error", l, f.Level)
		}
		rec := recoveryNotice(state.Recovery{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: f.Message}, 3, l, f.Fact)
		if a, b := docs.FindAllString(f.Notice, -1), docs.FindAllString(rec, -1); !slices.Equal(a, b) {
			t.Errorf("%s: the inactivity error names %q to re-read, the recovery notice %q:\n%s\n%s", l, a, b, f.Notice, rec)
		}
	}
}

// The Japanese recovery notice gives the facts the English one gives with
// its alert line: how long, and the thresholds, from the finding that holds
// recovery (checks' TestRecoverableFactsGiveTheNumbers covers every check).
func TestJapaneseRecoveryNoticeGivesTheNumbers(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	old := workspace.Proof{Path: "artifacts/20261122090000_x/histories/20261122094830.md", ID: "20261122094830", ModTime: now.Add(-11*time.Minute - 30*time.Second), Type: workspace.Creation}
	res, _ := checks.Evaluate(now, scan.Snapshot{LastLog: &old, RecentLogs: []workspace.Proof{old}}, checks.Config{Language: lang.Japanese}, checks.State{})
	f, _ := res.Finding(checks.Inactivity)
	got := recoveryNotice(state.Recovery{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: f.Message}, 3, lang.Japanese, f.Fact)
	for _, w := range []string{"11分30秒", "しきい値（10分。警告は5分）"} {
		if !strings.Contains(got, w) {
			t.Errorf("the Japanese notice lacks %q:\n%s", w, got)
		}
	}
	testutil.CheckJapanese(t, "recovery notice", got)
}
