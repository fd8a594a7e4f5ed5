package tools

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxItemBytes bounds how much of an inbox item a reply carries: items are
// notes from a person, and a runaway file must not flood the context.
const maxItemBytes = 64 << 10

var previewTool = define(toolnames.PreviewNextTheme, "Preview next theme", reads, (*Tools).PreviewNextTheme,
	"Read-only: the next theme idea in themebox/ (the first *.md by name that is not draft. or processed.) and its text, and how many more wait. "+
		"To take it, call start_theme with themebox_file.")

var itemTool = define(toolnames.CheckAndProcessItem, "Check and process feedback", writes, (*Tools).CheckAndProcessItem,
	"Take the first unprocessed feedback file in feedbackbox/: the reply gives its text, and the file is renamed processed.<name> so it is handed over once. "+
		"Act on it, then record what you did in an activity log.")

// InboxItemResult is the reply of preview_next_theme and
// check_and_process_item.
type InboxItemResult struct {
	Found     bool   `json:"found"`               // whether there was an item
	File      string `json:"file,omitempty"`      // the item's path as found, e.g. themebox/next.md
	Processed string `json:"processed,omitempty"` // its new name, processed.<name>, when the tool marked it handled
	Content   string `json:"content,omitempty"`   // the item's text
	Truncated bool   `json:"truncated,omitempty"` // whether the content was cut at 64 KiB
	Remaining int    `json:"remaining"`           // how many more unprocessed items wait in the folder
	Next      string `json:"next"`                // what to do now
}

func (r *InboxItemResult) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *InboxItemResult) Text(l lang.Lang) string {
	if !r.Found {
		return r.Next
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n---\n%s\n---\n", r.File, r.Content)
	if r.Truncated {
		b.WriteString(tr(l, "(cut at 64 KiB; read the rest of the file itself)\n"))
	}
	if r.Processed != "" {
		fmt.Fprintf(&b, tr(l, "Marked handled: %s.\n"), r.Processed)
	}
	// Said of the others: after a preview the item shown still waits.
	// Themebox items are named theme ideas, as the agent's docs call them.
	theme := strings.HasPrefix(r.File, workspace.ThemeboxDir+"/")
	switch {
	case r.Remaining == 0 && theme:
		b.WriteString(tr(l, "No other theme idea waits there. ") + r.Next)
	case r.Remaining == 0:
		b.WriteString(tr(l, "No other unprocessed item waits there. ") + r.Next)
	case r.Remaining == 1 && theme:
		b.WriteString(tr(l, "1 more theme idea waits there. ") + r.Next)
	case r.Remaining == 1:
		b.WriteString(tr(l, "1 more unprocessed item waits there. ") + r.Next)
	case theme:
		fmt.Fprintf(&b, tr(l, "%d more theme ideas wait there. %s"), r.Remaining, r.Next)
	default:
		fmt.Fprintf(&b, tr(l, "%d more unprocessed items wait there. %s"), r.Remaining, r.Next)
	}
	return b.String()
}

// inboxItems lists a box's unprocessed items (*.md, not draft. or processed.),
// oldest name first.
func (t *Tools) inboxItems(dir string) ([]string, error) {
	ents, err := t.WS.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".md") || strings.HasPrefix(n, ".") ||
			strings.HasPrefix(n, "draft.") || strings.HasPrefix(n, "processed.") {
			continue
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// readItem reads at most maxItemBytes of an inbox file.
func (t *Tools) readItem(rel string) (string, bool, error) {
	b, err := t.WS.ReadFile(rel, maxItemBytes+1)
	if err != nil {
		return "", false, err
	}
	cut := len(b) > maxItemBytes
	if cut {
		b = b[:maxItemBytes]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), cut, nil
}

// PreviewNextTheme shows the next themebox item without changing anything.
func (t *Tools) PreviewNextTheme(noInput) (*InboxItemResult, error) {
	items, err := t.inboxItems(workspace.ThemeboxDir)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &InboxItemResult{Next: t.tr("themebox/ holds no theme idea right now. Choose a subject yourself, or go on with your current theme.")}, nil
	}
	rel := workspace.ThemeboxDir + "/" + items[0]
	content, cut, err := t.readItem(rel)
	if err != nil {
		return nil, err
	}
	return &InboxItemResult{Found: true, File: rel, Content: content, Truncated: cut, Remaining: len(items) - 1,
		Next: t.trf("Nothing was changed. To take this theme, call start_theme with themebox_file %s.", items[0])}, nil
}

// CheckAndProcessItem returns the first feedbackbox item and renames it
// processed.<name>, so it is handed over once.
func (t *Tools) CheckAndProcessItem(noInput) (*InboxItemResult, error) {
	items, err := t.inboxItems(workspace.FeedbackboxDir)
	if err != nil {
		return nil, err
	}
	for i, name := range items {
		rel := workspace.FeedbackboxDir + "/" + name
		content, cut, err := t.readItem(rel)
		if errors.Is(err, os.ErrNotExist) {
			continue // taken by another process meanwhile
		}
		if err != nil {
			return nil, err
		}
		to := workspace.FeedbackboxDir + "/processed." + name
		switch err := t.WS.Rename(rel, to); {
		case errors.Is(err, os.ErrNotExist):
			continue
		case errors.Is(err, os.ErrExist):
			return nil, &InputError{Problem: sayf("%s cannot be marked handled: %s already exists", rel, to),
				Fix: sayf("read %s yourself, then rename it to another processed.<name>", rel)}
		case err != nil:
			return nil, err
		}
		return &InboxItemResult{Found: true, File: rel, Processed: to, Content: content, Truncated: cut, Remaining: len(items) - 1 - i,
			Next: t.tr("Act on this feedback now, and record what you did in your next activity log.")}, nil
	}
	return &InboxItemResult{Next: t.tr("feedbackbox/ holds no unprocessed feedback.")}, nil
}
