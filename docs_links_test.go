package aiheart

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

// TestDocsLinksResolve: every relative link and image in README.md,
// CHANGELOG.md and docs/*.md names a file of the repository, and a #anchor
// names a heading of its target, as GitHub spells the heading's anchor. A
// page moved or a heading renamed fails here, not in a reader's browser.
func TestDocsLinksResolve(t *testing.T) {
	root := os.DirFS(".")
	pages, err := fs.Glob(root, "docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"README.md", "CHANGELOG.md"}, pages...)
	links := 0
	for _, p := range pages {
		n, problems, err := checkLinks(root, p)
		if err != nil {
			t.Fatal(err)
		}
		links += n
		for _, pr := range problems {
			t.Error(pr)
		}
	}
	if links < 50 {
		t.Fatalf("%d relative links in %d pages: the link parser finds too few", links, len(pages))
	}
}

// The checker itself: each kind of broken link is found, and nothing else.
func TestCheckLinksFindsBrokenOnes(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Top\n\n## See it work: `make run`\n\n" +
			"[ok](docs/a.md) [ok anchor](docs/a.md#whats-here) ![pic](docs/p.png) [self](#see-it-work-make-run)\n" +
			"[web](https://example.com/x.md) [mail](mailto:a@b.c) `[in code](nowhere.md)`\n" +
			"[gone](docs/gone.md) [bad anchor](docs/a.md#nothing) ![gone pic](docs/gone.png) [bad self](#top-1)\n" +
			"```sh\n# not a heading\n[in a fence](fenced.md)\n```\n")},
		"docs/a.md":  {Data: []byte("# A\n\n## What's here\n\n[up](../README.md#top) [fence heading](../README.md#not-a-heading)\n")},
		"docs/p.png": {Data: []byte{0x89}},
	}
	var got []string
	for _, p := range []string{"README.md", "docs/a.md"} {
		_, problems, err := checkLinks(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, problems...)
	}
	want := []string{
		"README.md: [gone](docs/gone.md): no file docs/gone.md",
		"README.md: [bad anchor](docs/a.md#nothing): docs/a.md has no heading #nothing",
		"README.md: ![gone pic](docs/gone.png): no file docs/gone.png",
		"README.md: [bad self](#top-1): README.md has no heading #top-1",
		"docs/a.md: [fence heading](../README.md#not-a-heading): README.md has no heading #not-a-heading",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGitHubSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"See it work: `make run`":                                      "see-it-work-make-run",
		"What the client's hooks tell":                                 "what-the-clients-hooks-tell",
		"Japanese: `--lang ja` and `language: ja`":                     "japanese---lang-ja-and-language-ja",
		"The paper's example, as a working config":                     "the-papers-example-as-a-working-config",
		"Claude Code: permission prompts, `permission_denials`":        "claude-code-permission-prompts-permission_denials",
		"Migrating an old workspace: `watchdog migrate [-c FILE] DIR`": "migrating-an-old-workspace-watchdog-migrate--c-file-dir",
		"Gemini CLI: mcp-heart is *Disabled*":                          "gemini-cli-mcp-heart-is-disabled",
		"Links to [the design](docs/design.md)":                        "links-to-the-design",
		"日本語の見出し":                                                      "日本語の見出し",
	} {
		if got := githubSlug(heading); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", heading, got, want)
		}
	}
}

var (
	// mdLink is an inline link or image: [text](target) or ![alt](target),
	// the target up to a space (a title may follow) or the closing paren.
	mdLink = regexp.MustCompile(`(!?)\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	// codeSpan is inline code, whose brackets are not links.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// inlineLink is a link in a heading, whose text alone makes the anchor.
	inlineLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	// external is a link with a scheme (https:, mailto:): not checked here.
	external = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// checkLinks reads the markdown page p of fsys and returns how many relative
// links it holds and what is wrong with them, one line each.
func checkLinks(fsys fs.FS, p string) (int, []string, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return 0, nil, err
	}
	n := 0
	var problems []string
	for _, line := range prose(string(b)) {
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			target := m[3]
			if target == "" || external.MatchString(target) {
				continue
			}
			n++
			bad := func(format string, args ...any) {
				problems = append(problems, fmt.Sprintf("%s: %s[%s](%s): %s", p, m[1], m[2], target, fmt.Sprintf(format, args...)))
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = path.Join(path.Dir(p), file)
				if fi, err := fs.Stat(fsys, dest); err != nil || fi.IsDir() && anchor != "" {
					bad("no file %s", dest)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				bad("an anchor into %s, which is not markdown", dest)
				continue
			}
			anchors, err := headingAnchors(fsys, dest)
			if err != nil {
				return n, problems, err
			}
			if !anchors[anchor] {
				bad("%s has no heading #%s", dest, anchor)
			}
		}
	}
	return n, problems, nil
}

// prose is the page's lines outside fenced code blocks.
func prose(text string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			out = append(out, line)
		}
	}
	return out
}

// headingAnchors lists the anchors GitHub gives the page's ATX headings: the
// slug of each, and -1, -2… for repeats.
func headingAnchors(fsys fs.FS, p string) (map[string]bool, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(string(b)) {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		slug := githubSlug(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[level:]), "#")))
		if k := seen[slug]; k > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors, nil
}

// githubSlug is the anchor GitHub makes of a heading: its text as rendered
// (a link's text, no code or emphasis marks), lower case, every character
// but letters, digits, '-', '_' and spaces dropped, spaces made '-'.
func githubSlug(heading string) string {
	text := inlineLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
