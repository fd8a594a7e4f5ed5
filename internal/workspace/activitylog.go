package workspace

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// ActivityType is the kind of activity an activity log records.
type ActivityType string

// The activity types of docs/design.md section 3.
const (
	Observation   ActivityType = "observation"
	Thinking      ActivityType = "thinking"
	Creation      ActivityType = "creation"
	Introspection ActivityType = "introspection"
	ThemeStart    ActivityType = "theme_start"
	ThemeEnd      ActivityType = "theme_end"
	Recovery      ActivityType = "recovery"
	Other         ActivityType = "other"
)

// ActivityTypes lists every type, in the order tools present them.
var ActivityTypes = []ActivityType{Observation, Thinking, Creation, Introspection, ThemeStart, ThemeEnd, Recovery, Other}

// japaneseTypes maps the types written by existing Japanese workspaces.
var japaneseTypes = map[string]ActivityType{
	"観測": Observation, "思考": Thinking, "創造": Creation, "内省": Introspection,
	"テーマ開始": ThemeStart, "テーマ終了": ThemeEnd, "回復": Recovery, "その他": Other,
}

// JapaneseActivityTypes lists the Japanese name of every type, in the order
// of ActivityTypes: the names the old system's workspaces write.
var JapaneseActivityTypes = []string{"観測", "思考", "創造", "内省", "テーマ開始", "テーマ終了", "回復", "その他"}

// Name is the type's name in language l: the English value, or the
// Japanese name for ja.
func (t ActivityType) Name(l lang.Lang) string {
	if l == lang.Japanese {
		for i, x := range ActivityTypes {
			if x == t {
				return JapaneseActivityTypes[i]
			}
		}
	}
	return string(t)
}

// ParseActivityType reads an English or Japanese type name. A trailing
// explanation after a space or bracket ("内省 (振り返り)") is ignored.
func ParseActivityType(s string) (ActivityType, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-*+ \t")
	s = strings.Trim(s, "`*_ \t")
	if i := strings.IndexAny(s, " \t(（:："); i > 0 {
		s = s[:i]
	}
	s = strings.Trim(s, "`*_")
	if t, ok := japaneseTypes[s]; ok {
		return t, true
	}
	l := ActivityType(strings.ToLower(strings.ReplaceAll(s, "-", "_")))
	for _, t := range ActivityTypes {
		if l == t {
			return t, true
		}
	}
	return "", false
}

// section names the parts of an activity log.
type section int

const (
	secNone section = iota
	secType
	secContent
	secArtifacts
	secEvaluation
)

// headings maps a lower-cased heading text (English and Japanese) to its section.
var headings = map[string]section{
	"activity type": secType, "活動種別": secType,
	"activity content": secContent, "活動内容": secContent,
	"artifacts": secArtifacts, "成果物、関連ファイル": secArtifacts, "成果物": secArtifacts, "成果物・関連ファイル": secArtifacts,
	"evaluation": secEvaluation, "自己評価、備考": secEvaluation, "自己評価": secEvaluation, "自己評価・備考": secEvaluation,
}

// ActivityLog is the content of one activity log.
type ActivityLog struct {
	// Type is the activity type, "" when the type section is missing or unknown.
	Type ActivityType
	// RawType is the first non-empty line under the type heading, as written.
	RawType    string
	Content    []string
	Artifacts  []string
	Evaluation string
}

// ParseActivityLog reads an activity log with English or Japanese headings.
// The type is the first non-empty line under the type heading; the rest of
// the file is never searched for a type word. It never fails: a file without
// a recognisable type has Type "".
func ParseActivityLog(data []byte) ActivityLog {
	var l ActivityLog
	var eval []string
	cur := secNone
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if h, ok := headingOf(line); ok {
			cur = h
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch cur {
		case secType:
			if trimmed != "" && l.RawType == "" {
				l.RawType = trimmed
				l.Type, _ = ParseActivityType(trimmed)
			}
		case secContent:
			if item := bulletText(trimmed); item != "" {
				l.Content = append(l.Content, item)
			}
		case secArtifacts:
			// "- none" ("- なし") is the placeholder Format writes for no artifacts.
			if item := bulletText(trimmed); item != "" && item != noArtifacts && item != noArtifactsJa {
				l.Artifacts = append(l.Artifacts, item)
			}
		case secEvaluation:
			eval = append(eval, line)
		}
	}
	l.Evaluation = strings.TrimSpace(strings.Join(eval, "\n"))
	return l
}

// headingOf recognises a level-2 (or deeper) heading of a known section. A
// level-1 heading or an unknown level-2 one ends the current section.
func headingOf(line string) (section, bool) {
	if !strings.HasPrefix(line, "#") {
		return secNone, false
	}
	text := strings.TrimSpace(strings.TrimLeft(line, "#"))
	if s, ok := headings[strings.ToLower(text)]; ok {
		return s, true
	}
	return secNone, true
}

// bulletText strips a list marker.
func bulletText(s string) string {
	for _, p := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(s, p) {
			return strings.TrimSpace(s[len(p):])
		}
	}
	if s == "-" || s == "*" {
		return ""
	}
	return s
}

// noArtifacts is the artifacts item of a log without artifacts; noArtifactsJa
// in Japanese.
const noArtifacts, noArtifactsJa = "none", "なし"

// logHeadings are the title and section headings a log is written with, in
// each language; ParseActivityLog reads both.
var logHeadings = map[lang.Lang][5]string{
	lang.English:  {"Activity log", "Activity type", "Activity content", "Artifacts", "Evaluation"},
	lang.Japanese: {"活動ログ", "活動種別", "活動内容", "成果物、関連ファイル", "自己評価、備考"},
}

// Format renders the log as the tools write it: headings and type name in
// language ln (English for any other value).
func (l ActivityLog) Format(id ID, ln lang.Lang) []byte {
	h, ok := logHeadings[ln]
	if !ok {
		h = logHeadings[lang.English]
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: %s\n\n## %s\n%s\n\n## %s\n", h[0], id, h[1], l.Type.Name(ln), h[2])
	for _, c := range l.Content {
		fmt.Fprintf(&b, "- %s\n", OneLine(c))
	}
	b.WriteString("\n## " + h[3] + "\n")
	if len(l.Artifacts) == 0 && ln == lang.Japanese {
		b.WriteString("- " + noArtifactsJa + "\n")
	} else if len(l.Artifacts) == 0 {
		b.WriteString("- " + noArtifacts + "\n")
	}
	for _, a := range l.Artifacts {
		fmt.Fprintf(&b, "- %s\n", OneLine(a))
	}
	b.WriteString("\n## " + h[4] + "\n")
	if e := strings.TrimSpace(l.Evaluation); e != "" {
		// A heading inside the evaluation would end the section when read back.
		for _, line := range strings.Split(e, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				line = " " + line
			}
			b.WriteString(strings.TrimRight(line, "\r") + "\n")
		}
	}
	return b.Bytes()
}
