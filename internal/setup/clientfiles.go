package setup

import (
	"fmt"
	"path/filepath"
	"slices"

	registry "github.com/ai-heart/ai-heart/internal/clients"
	adapter "github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/clients/gemini"
)

// SettingsFile is the workspace-relative Gemini CLI settings file.
const SettingsFile = gemini.SettingsFile

// fromRegistry is the clients table: each adapter's Setup (which file gets
// what, as data: internal/clients/<name>/), applied here with the one merge
// machinery every client shares.
func fromRegistry() []client {
	var out []client
	for _, a := range registry.All() {
		s := a.Setup()
		c := client{name: a.Name(), files: func(w Wiring) []edit { return w.edits(a.Name(), s) }}
		if s.Note != "" {
			c.note = func(Wiring) string { return s.Note }
		}
		out = append(out, c)
	}
	return out
}

// edits are the merges of a client's files, in order. A file in the home
// is skipped without one; the hooks' edits are skipped without heart-hook,
// and a file left with none is not written.
func (w Wiring) edits(name string, s adapter.Setup) []edit {
	var out []edit
	for _, f := range s.Files {
		var e edit
		rel := filepath.FromSlash(f.Path)
		switch f.Root {
		case adapter.Home:
			if w.Home == "" {
				continue
			}
			e.path, e.home = filepath.Join(w.Home, rel), w.Home
		case adapter.UserConfig:
			e.path = filepath.Join(w.UserConfigDir, rel)
			if w.Home != "" && within(w.Home, e.path) {
				e.home = w.Home // the agent's home's rules: its owner's files only
			}
		default:
			e.path = w.in(f.Path)
		}
		changes := f.Edits
		if !w.hooks() {
			changes = slices.DeleteFunc(slices.Clone(changes), adapter.IsHooks)
		}
		if len(changes) == 0 {
			continue
		}
		switch c := changes[0].(type) {
		case adapter.Instructions:
			e.link = instructionsLink(w, f.Path).link
		case adapter.TOMLServer:
			e.merge = func(old []byte, n *notes) ([]byte, error) { return mergeCodexConfig(old, w, n) }
		case adapter.TOMLTrust:
			e.merge = tomlTrust(w.Dir, c.Refused)
			if w.Telemetry != "" && slices.ContainsFunc(changes, isOtelTable) {
				trusted := e.merge
				e.merge = func(old []byte, n *notes) ([]byte, error) {
					out, err := trusted(old, n)
					if err != nil {
						return nil, err
					}
					return mergeCodexOtel(out, w.Telemetry, n)
				}
			}
		default:
			e.merge = jsonEdit(e.path, func(root *object, n *notes) error { return w.jsonChanges(name, root, n, changes) }).merge
		}
		out = append(out, e)
	}
	return out
}

// jsonChanges makes a JSON file's changes, in order.
func (w Wiring) jsonChanges(name string, root *object, n *notes, changes []adapter.Edit) error {
	for _, ch := range changes {
		var err error
		switch c := ch.(type) {
		case adapter.MCPServer:
			var extra []kv
			if c.Trust {
				extra = append(extra, kv{"trust", true})
			}
			err = setMCPServer(root, w, n, extra...)
		case adapter.EnableServer:
			err = addString(root, c.Key, ServerName)
		case adapter.HookGroups:
			err = mergeHookGroups(root, hookEvents(c.Events), func(event string) *object { return w.handler(name, c, event) })
		case adapter.NamedHooks:
			err = w.namedHooks(name, root, c)
		case adapter.StatusLine:
			err = w.setStatusLine(name, root, n)
		case adapter.AllowTools:
			err = allowTools(root, registry.Lookup(name).MCP(), c.Old)
		case adapter.TrustFolder:
			err = trustFolder(root, w.Dir, c)
		case adapter.Telemetry:
			switch {
			case w.Telemetry == "":
			case c.Shape == adapter.EnvVars, c.Shape == adapter.SettingsBlock:
				err = setTelemetry(root, c, w.Telemetry, n)
			default:
				err = fmt.Errorf("telemetry shape %d is not one of a JSON file", c.Shape)
			}
		default:
			err = fmt.Errorf("%T is not a change of a JSON file", ch)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// hookEvents are an adapter's events as mergeHookGroups takes them.
func hookEvents(evs []adapter.HookEvent) []hookEvent {
	out := make([]hookEvent, 0, len(evs))
	for _, ev := range evs {
		out = append(out, hookEvent{ev.Name, ev.Matcher})
	}
	return out
}

// handler is heart-hook's entry for the client name on event, in the
// hooks shape of g.
func (w Wiring) handler(name string, g adapter.HookGroups, event string) *object {
	timeout := hookTimeout
	for _, ev := range g.Events {
		if ev.Name == event && ev.Timeout > 0 {
			timeout = ev.Timeout
		}
	}
	cmd := w.hookCommand(name)
	if g.Millis {
		timeout *= 1000
	}
	if g.Named {
		return objectOf(kv{"name", HeartHookName}, kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", timeout})
	}
	return objectOf(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", timeout})
}

// namedHooks sets the hook named heart-hook in Antigravity's hooks.json:
// init's, so its events are set whole; other keys in it (an "enabled":
// false) are kept. The event decides the entry's shape.
func (w Wiring) namedHooks(name string, root *object, h adapter.NamedHooks) error {
	named, err := root.child(HeartHookName)
	if err != nil {
		return err
	}
	handler := func() *object {
		return objectOf(kv{"type", "command"}, kv{"command", w.hookCommand(name)}, kv{"timeout", hookTimeout})
	}
	for _, ev := range h.Flat {
		named.set(ev, []any{handler()})
	}
	for _, ev := range h.Grouped {
		named.set(ev, []any{objectOf(kv{"matcher", "*"}, kv{"hooks", []any{handler()}})})
	}
	return nil
}

// addString adds s to the array under key, once.
func addString(root *object, key, s string) error {
	a, err := root.array(key)
	if err != nil {
		return err
	}
	if !containsString(a, s) {
		root.set(key, append(a, s))
	}
	return nil
}

// containsString reports whether a JSON array holds the string s.
func containsString(a []any, s string) bool {
	for _, v := range a {
		if v == s {
			return true
		}
	}
	return false
}

// isOtelTable reports the edit that turns on Codex's [otel] table.
func isOtelTable(e adapter.Edit) bool {
	t, ok := e.(adapter.Telemetry)
	return ok && t.Shape == adapter.OtelTable
}
