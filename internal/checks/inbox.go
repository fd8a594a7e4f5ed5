package checks

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func (e *eval) feedback() Finding {
	f := Finding{Check: Feedback}
	items := e.snap.Feedback
	if len(items) == 0 {
		f.Message = "no unprocessed feedback"
		return f
	}
	taken := map[string]bool{}
	for _, it := range items {
		taken[it.Name] = true
	}
	var names feedbackNames
	for _, it := range items {
		n := it.Name
		if it.Interrupt {
			n = freeName(strings.TrimPrefix(it.Name, "interrupt."), taken)
			taken[n] = true
			e.actions = append(e.actions, Action{Kind: StripInterrupt, Rel: it.Rel, NewRel: path.Dir(it.Rel) + "/" + n})
			names = append(names, feedbackName{workspace.FeedbackboxDir + "/" + n, true})
			continue
		}
		names = append(names, feedbackName{workspace.FeedbackboxDir + "/" + n, slices.Contains(e.cfg.Urgent, it.Rel)})
	}
	f.Level = Info
	f.Message = fmt.Sprintf("%d unprocessed feedback file(s): %s", len(items), names.In(lang.English))
	f.Notice = e.notice("Feedback from the user is waiting: %s. Take each file with check_and_process_item (it gives you the text and renames the file processed.<name>), "+
		"act on it, and record what you did in your next activity log.", names)
	if names.urgent() {
		// The urgent wakeup's own words may be gone (the inbox keeps only
		// the newest prompt): the notice keeps what urgency asks.
		sep := " "
		if e.cfg.Language == lang.Japanese {
			sep = "" // Japanese sentences follow each other without a space
		}
		f.Notice += sep + e.notice("Take the urgent ones now, before your current work.")
	}
	return f
}

// freeName returns name, or name with -2, -3... before its extension, the
// first not already in the inbox: stripping "interrupt." must never clobber.
func freeName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	ext := path.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d%s", base, i, ext); !taken[n] {
			return n
		}
	}
}

func (e *eval) toolRestriction() Finding {
	f := Finding{Check: ToolRestriction}
	var in, said []string
	for _, m := range e.snap.Restrictions {
		until := m.Until
		if until.IsZero() {
			d := e.cfg.Restrictions.Cooldown.D()
			if m.Kind == scan.Lock {
				d = e.cfg.Restrictions.Lock.D()
			}
			until = m.Since.Add(d)
		}
		if !e.now.Before(until) {
			e.actions = append(e.actions, Action{Kind: RemoveMarker, Rel: m.Rel})
			continue
		}
		in = append(in, fmt.Sprintf("%s (%s until %s)", m.Tool, m.Kind, e.clock(until)))
		kind := "cooldown"
		if m.Kind == scan.Lock {
			kind = "lock"
		}
		said = append(said, e.notice("%s (%s until %s)", m.Tool, e.notice(kind), e.clock(until)))
	}
	if len(in) == 0 {
		f.Message = "no tool restrictions in force"
		return f
	}
	sort.Strings(in)
	sort.Strings(said)
	f.Level = Info
	f.Message = "tool restrictions in force: " + strings.Join(in, ", ")
	f.Notice = e.notice("These tools are restricted for now: %s. Do not use them until then; choose another activity meanwhile.", strings.Join(said, e.notice(", ")))
	return f
}

// feedbackName is a feedback file as the notice names it, urgent or not.
type feedbackName struct {
	rel    string
	urgent bool
}

// feedbackNames are the files a notice names, in the agent's language:
// "a.md (urgent), b.md" or 「a.md（緊急）、b.md」.
type feedbackNames []feedbackName

// urgent reports whether any of the files is urgent.
func (ns feedbackNames) urgent() bool {
	return slices.ContainsFunc(ns, func(n feedbackName) bool { return n.urgent })
}

// In renders the names in language l.
func (ns feedbackNames) In(l lang.Lang) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.rel
		if n.urgent {
			out[i] += ja.T(l, " (urgent)")
		}
	}
	return strings.Join(out, ja.T(l, ", "))
}
