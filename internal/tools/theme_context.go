package tools

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// contextsDir is the theme's folder of expert contexts, <theme>/contexts/.
const contextsDir = "contexts"

type createThemeExpertContextInput struct {
	ThemeName string `json:"theme_name" jsonschema:"The theme's title, one line."`
	themeInput
	parentInput
	ExpertRole        string   `json:"expert_role" jsonschema:"The expert you become for this theme, one line, e.g. a marine biologist who writes for children."`
	ExpertPerspective []string `json:"expert_perspective" jsonschema:"How this expert looks at the theme, one point per item."`
	Constraints       []string `json:"constraints" jsonschema:"What this expert must keep to, one point per item."`
	ExpectedOutcome   []string `json:"expected_outcome" jsonschema:"What the theme should produce, one point per item."`

	theme workspace.Theme
}

// maxRoleLen bounds expert_role, one line.
const maxRoleLen = 500

func (in *createThemeExpertContextInput) validate(c *checker) {
	c.oneLine(&in.ThemeName, 1, maxThemeNameLen, sayf("the theme's title, up to %d characters on one line", maxThemeNameLen))
	in.theme = c.theme(&in.themeInput, &in.parentInput)
	c.oneLine(&in.ExpertRole, 1, maxRoleLen, sayf("the expert you become for this theme, up to %d characters on one line, e.g. a marine biologist who writes for children", maxRoleLen))
	c.list(&in.ExpertPerspective, sayf("how this expert looks at the theme, one point per item"))
	c.list(&in.Constraints, sayf("what this expert must keep to, one point per item"))
	c.list(&in.ExpectedOutcome, sayf("what the theme should produce, one point per item"))
}

var ctxTool = define(toolnames.CreateThemeExpertContext, "Create theme expert context", writes, (*Tools).CreateThemeExpertContext,
	"Write the expert persona you take on for a theme into <theme folder>/contexts/<current heartbeat ID>.md: the expert's role, perspective, constraints and expected outcome. "+
		"The theme must exist (start_theme); an existing context is never overwritten. get_latest_theme_context reads it back.")

type getLatestThemeContextInput struct {
	themeInput
	parentInput

	theme workspace.Theme
}

func (in *getLatestThemeContextInput) validate(c *checker) {
	in.theme = c.theme(&in.themeInput, &in.parentInput)
}

var latestCtxTool = define(toolnames.GetLatestThemeContext, "Get latest theme context", reads, (*Tools).GetLatestThemeContext,
	"Read-only: the newest expert context of a theme (<theme folder>/contexts/). A sub-theme without one of its own gets its parent theme's, marked inherited.")

// ThemeContextResult is the reply of create_theme_expert_context and
// get_latest_theme_context.
type ThemeContextResult struct {
	Found     bool   `json:"found"`               // whether a context exists (always true after create)
	File      string `json:"file,omitempty"`      // the context file, <theme>/contexts/<ID>.md
	Inherited bool   `json:"inherited,omitempty"` // true when a sub-theme has none of its own and this is the parent theme's
	Content   string `json:"content,omitempty"`   // the context's text
	Next      string `json:"next"`                // what to do now
}

func (r *ThemeContextResult) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *ThemeContextResult) Text(l lang.Lang) string {
	if !r.Found {
		return r.Next
	}
	from := ""
	if r.Inherited {
		from = tr(l, " (the parent theme's: the sub-theme has none of its own)")
	}
	return fmt.Sprintf(tr(l, "%s%s:\n---\n%s\n---\n%s"), r.File, from, r.Content, r.Next)
}

// CreateThemeExpertContext writes the expert persona for a theme into
// <theme>/contexts/<current ID>.md: the role, the perspective, the
// constraints and the expected outcome, for the agent to take on when it
// works on the theme. The theme must exist; a context is never overwritten.
func (t *Tools) CreateThemeExpertContext(in createThemeExpertContextInput) (*ThemeContextResult, error) {
	name, theme, role := in.ThemeName, in.theme, in.ExpertRole
	persp, cons, outc := in.ExpertPerspective, in.Constraints, in.ExpectedOutcome
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	if err := t.checkTheme(theme); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, t.tr("# Theme expert context: %s\n\n## Expert\n**%s**\n"), workspace.OneLine(name), role)
	for _, sec := range []struct {
		head  string
		items []string
	}{{"Perspective", persp}, {"Constraints", cons}, {"Expected outcome", outc}} {
		fmt.Fprintf(&b, "\n## %s\n", t.tr(sec.head))
		for _, x := range sec.items {
			fmt.Fprintf(&b, "- %s\n", workspace.OneLine(x))
		}
	}
	rel := theme.Dir() + "/" + contextsDir + "/" + string(id) + ".md"
	if err := t.WS.CreateNew(rel, []byte(b.String()), time.Time{}); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, &InputError{Problem: sayf("a context for this heartbeat already exists (%s)", rel),
				Fix: sayf("keep it, or write the new one in a later heartbeat (get_latest_theme_context shows the newest)")}
		}
		return nil, err
	}
	return &ThemeContextResult{Found: true, File: rel, Content: b.String(),
		Next: t.tr("Take this expert's view when you work on the theme; get_latest_theme_context gives it back in later cycles.")}, nil
}

// GetLatestThemeContext returns the newest expert context of a theme; a
// sub-theme without one of its own gets its parent's. One small folder
// listing per theme.
func (t *Tools) GetLatestThemeContext(in getLatestThemeContextInput) (*ThemeContextResult, error) {
	theme := in.theme
	if err := t.checkTheme(theme); err != nil {
		return nil, err
	}
	dirs := []string{theme.Dir()}
	if theme.Parent != nil {
		dirs = append(dirs, theme.Parent.Dir())
	}
	for i, d := range dirs {
		rel, err := t.newestContext(d + "/" + contextsDir)
		if err != nil {
			return nil, err
		}
		if rel == "" {
			continue
		}
		content, _, err := t.readItem(rel)
		if err != nil {
			return nil, err
		}
		return &ThemeContextResult{Found: true, File: rel, Inherited: i > 0, Content: content,
			Next: t.tr("Work on the theme from this expert's view.")}, nil
	}
	return &ThemeContextResult{Next: t.tr("This theme has no expert context yet; create_theme_expert_context writes one.")}, nil
}

// newestContext is the greatest <ID>.md name in dir (IDs sort by time).
func (t *Tools) newestContext(dir string) (string, error) {
	ents, err := t.WS.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("list %s: %w", dir, err)
	}
	best := ""
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".md") {
			continue
		}
		if _, err := workspace.ParseID(strings.TrimSuffix(n, ".md")); err == nil && n > best {
			best = n
		}
	}
	if best == "" {
		return "", nil
	}
	return dir + "/" + best, nil
}
