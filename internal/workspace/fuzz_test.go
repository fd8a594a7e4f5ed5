package workspace

import (
	"github.com/ai-heart/ai-heart/internal/lang"

	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// addFiles seeds f with every file of the testdata folders.
func addFiles(f *testing.F, dirs ...string) {
	for _, d := range dirs {
		paths, _ := filepath.Glob(filepath.Join("testdata", d, "*"))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

func FuzzParseActivityLog(f *testing.F) {
	addFiles(f, "logs")
	for _, s := range []string{
		"", "#", "##", "## Activity type", "## Activity type\n", "## Activity type\nintrospection",
		"## 活動種別\n内省\n## 活動内容\n- a\n## 成果物、関連ファイル\n- none\n## 自己評価、備考\n## Activity type\n",
		"## Evaluation\n ## Activity type\nintrospection\n",
		"## Activity content\n-\n- \n* x\n+ y\n- - z\n",
		"## Activity type\r\n**内省**（振り返り）\r\n",
		"## Artifacts\n- none\n- None\n",
		"\xff\xfe## Activity type\n\x00\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := ParseActivityLog(data)
		if l.Type != "" && !slices.Contains(ActivityTypes, l.Type) {
			t.Fatalf("ParseActivityLog(%q).Type = %q, not a known type", data, l.Type)
		}
		if l.Type != "" {
			if got, _ := ParseActivityType(l.RawType); got != l.Type {
				t.Fatalf("ParseActivityLog(%q): Type %q but RawType %q reads as %q", data, l.Type, l.RawType, got)
			}
		}
		for _, s := range slices.Concat([]string{l.RawType}, l.Content, l.Artifacts) {
			if strings.ContainsAny(s, "\n") {
				t.Fatalf("ParseActivityLog(%q): item %q spans lines", data, s)
			}
		}
		// Writing the parsed log back keeps its type, whatever the evaluation
		// and items hold, and keeps the items as one-line text.
		back := ParseActivityLog(l.Format("20250101120000", ""))
		if back.Type != l.Type {
			t.Fatalf("Format/Parse changed the type %q to %q; log:\n%s", l.Type, back.Type, l.Format("20250101120000", ""))
		}
		if ja := ParseActivityLog(l.Format("20250101120000", lang.Japanese)); ja.Type != l.Type || !reflect.DeepEqual(ja.Content, back.Content) {
			t.Fatalf("Format/Parse in Japanese = %q %q, want %q %q", ja.Type, ja.Content, l.Type, back.Content)
		}
		if want := oneLines(l.Content, ""); !reflect.DeepEqual(back.Content, want) {
			t.Fatalf("Format/Parse content = %q, want %q", back.Content, want)
		}
		if want := oneLines(l.Artifacts, noArtifacts); !reflect.DeepEqual(back.Artifacts, want) {
			t.Fatalf("Format/Parse artifacts = %q, want %q", back.Artifacts, want)
		}
	})
}

// oneLines is what Format then Parse makes of items: one line each, empty
// ones (and the skip placeholder) dropped.
func oneLines(items []string, skip string) []string {
	var out []string
	for _, s := range items {
		s = OneLine(s)
		if s != "" && s != skip {
			out = append(out, s)
		}
	}
	return out
}

func FuzzParseCheckpoints(f *testing.F) {
	for _, s := range []string{
		"", "12:00:00 a\n", "12:00:00 a\n12:05:00 b", "free text", "old\n12:00:00 new\ncont\n",
		"12:00:00\n", "12:00:00 \n", "12:00:00\t\n", "99:99:99 x", "1:00:00 x", "\r\n\r\n", "ab:cd:ef x",
		"12:00:00 \u2028x\n", "\xff12:00:00 a",
	} {
		f.Add([]byte(s), "next activity")
	}
	f.Add([]byte("12:00:00 a"), "")
	f.Add([]byte("x"), "\n12:00:00 forged")
	f.Fuzz(func(t *testing.T, data []byte, msg string) {
		entries := ParseCheckpoints(data)
		for i, e := range entries {
			if strings.Contains(e.Message, "\n") {
				t.Fatalf("ParseCheckpoints(%q)[%d].Message = %q spans lines", data, i, e.Message)
			}
			if e.Time == "" && i > 0 {
				t.Fatalf("ParseCheckpoints(%q)[%d] has no time; only a leading legacy entry may", data, i)
			}
			if e.Time != "" && !isClock(e.Time) {
				t.Fatalf("ParseCheckpoints(%q)[%d].Time = %q, not HH:MM:SS", data, i, e.Time)
			}
		}
		at := time.Date(2025, 1, 1, 23, 59, 59, 0, time.UTC)
		out := AppendCheckpoint(data, at, msg)
		if !bytes.HasPrefix(out, data) {
			t.Fatalf("AppendCheckpoint(%q, %q) = %q, old bytes not kept", data, msg, out)
		}
		if got, want := LastCheckpointMessage(out), OneLine(msg); got != want {
			t.Fatalf("LastCheckpointMessage(AppendCheckpoint(%q, %q)) = %q, want %q", data, msg, got, want)
		}
		after := ParseCheckpoints(out)
		if len(after) != len(entries)+1 || !slices.Equal(after[:len(entries)], entries) {
			t.Fatalf("ParseCheckpoints(AppendCheckpoint(%q, %q)) = %q, want %q plus one", data, msg, after, entries)
		}
	})
}

func FuzzParseDeclaration(f *testing.F) {
	addFiles(f, "deep_work")
	for _, s := range []string{
		"", "mode: flexible\nactivity: x\n", "mode: strict\nplanned_minutes: 30\n",
		"mode: strict\nactivity: w\ndeclared_at: 2025-01-01T12:00:30+09:00\nplanned_minutes: 20\ndeadline: 2025-01-01T12:20:30+09:00\n",
		"mode: strict\ndeadline: 2025-01-01T03:30:00Z\n", "mode：flexible\n", "制限タイプ: strict\n予定時間: 30分\n",
		"ハートビートID: 20250101120000\n計画処理時間: 25分\n理由: x\n", "mode: bogus", "予定時間: 99999999999分\n",
		"mode: strict\nplanned_minutes: 153722868\n", "declared_at: 2025-01-01T12:00:00.123456789Z\nmode: flexible\n",
	} {
		f.Add([]byte(s))
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const id = ID("20250101120000")
		d, err := ParseDeclaration(id, data, tokyo)
		if err != nil {
			if !errors.Is(err, ErrBadDeclaration) {
				t.Fatalf("ParseDeclaration(%q) error = %v, want ErrBadDeclaration", data, err)
			}
			return
		}
		switch {
		case d.Mode == Flexible && !d.Deadline.IsZero():
			t.Fatalf("ParseDeclaration(%q) = flexible with a deadline %v", data, d.Deadline)
		case d.Mode == Strict && d.Deadline.IsZero():
			t.Fatalf("ParseDeclaration(%q) = strict without a deadline", data)
		case d.Mode != Flexible && d.Mode != Strict:
			t.Fatalf("ParseDeclaration(%q).Mode = %q", data, d.Mode)
		case d.DeclaredAt.IsZero():
			t.Fatalf("ParseDeclaration(%q) has no declared_at", data)
		case d.PlannedMinutes < 0:
			t.Fatalf("ParseDeclaration(%q).PlannedMinutes = %d", data, d.PlannedMinutes)
		case d.Mode == Strict && d.PlannedMinutes > 0 && d.Deadline.Before(d.DeclaredAt) && !hasKey(data, "deadline"):
			t.Fatalf("ParseDeclaration(%q): %d minutes give a deadline %v before %v", data, d.PlannedMinutes, d.Deadline, d.DeclaredAt)
		}
		// What Format writes reads back the same (to the second).
		back, err := ParseDeclaration(id, d.Format(), tokyo)
		if err != nil {
			t.Fatalf("ParseDeclaration(Format(%+v)) = %v\n%s", d, err, d.Format())
		}
		want := d
		want.Activity = OneLine(d.Activity)
		want.DeclaredAt = d.DeclaredAt.Truncate(time.Second)
		want.Deadline = d.Deadline.Truncate(time.Second)
		if d.Mode == Flexible {
			want.PlannedMinutes = 0
		}
		if !sameDeclaration(back, want) {
			t.Fatalf("ParseDeclaration(Format(%+v)) = %+v\n%s", want, back, d.Format())
		}
	})
}

func hasKey(data []byte, key string) bool {
	return strings.Contains(strings.ToLower(string(data)), key)
}

func FuzzParseID(f *testing.F) {
	for _, s := range []string{
		"20250101120000", "20240229235959", "20250230120000", "20251301120000", "20250101240000",
		"2025010112000", "202501011200000", "2025010112000a", "00000101000000", "99991231235959", "+2025010112000",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseID(s)
		if err != nil {
			if !errors.Is(err, ErrBadID) || id != "" {
				t.Fatalf("ParseID(%q) = %q, %v, want \"\", ErrBadID", s, id, err)
			}
			if p, ok := IDPrefix(s); ok {
				t.Fatalf("IDPrefix(%q) = %q, true for a bad ID", s, p)
			}
			return
		}
		if string(id) != s || len(s) != IDLen || strings.Trim(s, "0123456789") != "" {
			t.Fatalf("ParseID(%q) = %q, accepted a non-ID", s, id)
		}
		tm, err := id.Time(time.UTC)
		if err != nil || NewID(tm) != id {
			t.Fatalf("ID(%q).Time(UTC) = %v, %v, does not round-trip", id, tm, err)
		}
		for _, suffix := range []string{"", ".md", "_01.md", "_start_x.md"} {
			if p, ok := IDPrefix(s + suffix); !ok || p != id {
				t.Fatalf("IDPrefix(%q) = %q, %v, want %q", s+suffix, p, ok, id)
			}
		}
	})
}

func FuzzCheckPart(f *testing.F) {
	for _, s := range []string{
		"my-theme", "日本語", "  x  ", "..", ".", "a..b", "../x", `..\x`, "a/b", `a\b`, "a\x00b", "a\nb",
		".hidden", "name.", "a:b", "CON", strings.Repeat("a", MaxPartLen), strings.Repeat("a", MaxPartLen+1),
		"\u3000x", "x\u2028y", "\xff", "a\u202eb", "%2e%2e",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, part string) {
		p, err := CheckPart(part)
		if err != nil {
			if !errors.Is(err, ErrBadName) || p != "" {
				t.Fatalf("CheckPart(%q) = %q, %v, want \"\", ErrBadName", part, p, err)
			}
			return
		}
		switch {
		case p == "" || len(p) > MaxPartLen:
			t.Fatalf("CheckPart(%q) = %q: empty or too long", part, p)
		case strings.ContainsAny(p, `/\`) || strings.Contains(p, ".."):
			t.Fatalf("CheckPart(%q) = %q: separator or ..", part, p)
		case strings.HasPrefix(p, "."):
			t.Fatalf("CheckPart(%q) = %q: leading dot", part, p)
		case !utf8.ValidString(p) || strings.IndexFunc(p, unicode.IsControl) >= 0:
			t.Fatalf("CheckPart(%q) = %q: control character or bad UTF-8", part, p)
		case p != strings.TrimSpace(p):
			t.Fatalf("CheckPart(%q) = %q: not trimmed", part, p)
		}
		if again, err := CheckPart(p); err != nil || again != p {
			t.Fatalf("CheckPart(CheckPart(%q)) = %q, %v, want %q", part, again, err, p)
		}
		parent := Theme{StartID: "20250101120000", Part: p}
		for _, th := range []Theme{parent, {StartID: "20250102120000", Part: p, Parent: &parent}} {
			dir := th.Dir()
			clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(dir)))
			if clean != dir || !strings.HasPrefix(dir, ArtifactsDir+"/") {
				t.Fatalf("Theme{Part: %q}.Dir() = %q (clean %q), want a clean path under artifacts/", p, dir, clean)
			}
			if want := 1; th.Parent != nil && strings.Count(dir, "/") != 3 || th.Parent == nil && strings.Count(dir, "/") != want {
				t.Fatalf("Theme{Part: %q}.Dir() = %q has the wrong depth", p, dir)
			}
		}
	})
}

func FuzzOneLine(f *testing.F) {
	for _, s := range []string{
		"", "a\nb", "a\r\nb", "\u2028", "\u2029", "\u0085", "\t", "\x00", "\x7f", "\xff\xfe", " x ", "日本語\n",
		"\x1b[31m", "a\vb\fc",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := OneLine(s)
		if !utf8.ValidString(got) {
			t.Fatalf("OneLine(%q) = %q, not valid UTF-8", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("OneLine(%q) = %q, contains %U", s, got, r)
			}
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("OneLine(%q) = %q, not trimmed", s, got)
		}
		if again := OneLine(got); again != got {
			t.Fatalf("OneLine(OneLine(%q)) = %q, want %q", s, again, got)
		}
	})
}
