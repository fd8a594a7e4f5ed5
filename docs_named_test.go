package aiheart

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestDocsNameOnlyRealThings(t *testing.T) {
	for _, l := range languages {
		t.Run(string(l), func(t *testing.T) { named(t, readDocs(t, l), l) })
	}
}

// TestDocsLanguagesNameTheSameThings: the docs of every language name the
// same tools, parameters and checks as the English ones, so a translation
// cannot drop or add one.
func TestDocsLanguagesNameTheSameThings(t *testing.T) {
	en := named(t, readDocs(t, lang.English), lang.English)
	for _, l := range languages[1:] {
		got := named(t, readDocs(t, l), l)
		for _, kind := range []struct {
			name string
			list []string
		}{{"tools", docTools}, {"parameters", docParams}, {"checks", docChecks}} {
			var missing, extra []string
			for _, s := range kind.list {
				switch {
				case en[s] && !got[s]:
					missing = append(missing, s)
				case got[s] && !en[s]:
					extra = append(extra, s)
				}
			}
			if len(missing)+len(extra) > 0 {
				t.Errorf("%s docs name other %s than the English ones: missing %v, extra %v", l, kind.name, missing, extra)
			}
		}
	}
}

// named checks that the docs d of language l name only real tools,
// parameters, activity types and checks, and name every tool, type and
// check; it returns what they name.
func named(t *testing.T, docs []doc, l lang.Lang) map[string]bool {
	t.Helper()
	var types []string
	for _, a := range workspace.ActivityTypes {
		types = append(types, a.Name(l))
	}
	// Either language's type names are valid values.
	valid := slices.Concat(types, workspace.JapaneseActivityTypes)
	for _, a := range workspace.ActivityTypes {
		valid = append(valid, string(a))
	}
	known := map[string]bool{}
	for _, l := range [][]string{docTools, docParams, docChecks, valid, docExamples, docValues} {
		for _, s := range l {
			known[s] = true
		}
	}
	callRe := regexp.MustCompile(`\b([a-z][a-z0-9_]*)\(`)
	argRe := regexp.MustCompile(`\b([a-z][a-z0-9_]*)=`)
	identRe := regexp.MustCompile("`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")
	typeRe := regexp.MustCompile(`activity_type="([^"]*)"`)
	modeRe := regexp.MustCompile(`mode="([^"]*)"`)
	docLinkRe := regexp.MustCompile(`ai-docs/[A-Za-z0-9_.-]+\.md`)
	mentioned := map[string]bool{}
	names := map[string]bool{}
	for _, d := range docs {
		names[d.name] = true
	}
	for _, d := range docs {
		for _, m := range callRe.FindAllStringSubmatch(d.text, -1) {
			if !slices.Contains(docTools, m[1]) {
				t.Errorf("%s: calls %s(), which is not an mcp-heart tool", d.name, m[1])
			}
			mentioned[m[1]] = true
		}
		for _, m := range argRe.FindAllStringSubmatch(d.text, -1) {
			if !slices.Contains(docParams, m[1]) {
				t.Errorf("%s: passes %s=, which no tool takes", d.name, m[1])
			}
			mentioned[m[1]] = true
		}
		for _, m := range identRe.FindAllStringSubmatch(d.text, -1) {
			if !known[m[1]] {
				t.Errorf("%s: names `%s`, which is no tool, parameter, activity type or check", d.name, m[1])
			}
			mentioned[m[1]] = true
		}
		for _, m := range typeRe.FindAllStringSubmatch(d.text, -1) {
			if !slices.Contains(valid, m[1]) {
				t.Errorf("%s: activity_type=%q is not an activity type", d.name, m[1])
			}
		}
		for _, m := range modeRe.FindAllStringSubmatch(d.text, -1) {
			if m[1] != string(workspace.Flexible) && m[1] != string(workspace.Strict) {
				t.Errorf("%s: mode=%q is not a deep-work mode", d.name, m[1])
			}
		}
		for _, link := range docLinkRe.FindAllString(d.text, -1) {
			if !names[Doc(l, link)] {
				t.Errorf("%s: refers to %s, which does not exist", d.name, link)
			}
		}
		for _, a := range slices.Concat(types, docChecks, docTools, docParams) {
			if strings.Contains(d.text, "`"+a+"`") {
				mentioned[a] = true
			}
		}
	}
	for _, list := range [][]string{docTools, types, docChecks} {
		for _, s := range list {
			if !mentioned[s] {
				t.Errorf("the %s docs never name %s", l, s)
			}
		}
	}
	return mentioned
}
