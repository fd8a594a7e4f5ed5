package client

import (
	"encoding/json"
	"fmt"
	"strings"
)

// HooksOff is a workspace file in which a setting of the client's turns its
// hooks off, all of them or heart-hook's: the budget gate and every hook
// live in files the agent can write, so the watchdog reads them and says
// so (the check hooks_off).
type HooksOff struct {
	Path string // workspace-relative, slash-separated
	// Read lists the settings in the file's content that turn the hooks
	// off, as "key: value" ("disableAllHooks: true"), and a key the client
	// reads given in another case (which it would not read, and a lenient
	// decoder would); none when it turns none off. An error is a file the
	// client would not read as it stands: that is reported too.
	Read func(data []byte) ([]string, error)
	// Wired, when set, lists the hooks init wired in the file that no
	// longer run heart-hook ("hooks.PreToolUse: heart-hook gone"): read
	// only when the client is known, since the file may be another
	// client's.
	Wired func(data []byte) []string
}

// WiredEvents are the events init wires heart-hook on in the workspace's
// file path, by setup s.
func WiredEvents(s Setup, path string) []string {
	var out []string
	for _, f := range s.Files {
		if f.Root != Workspace || f.Path != path {
			continue
		}
		for _, e := range f.Edits {
			if g, ok := e.(HookGroups); ok {
				for _, ev := range g.Events {
					out = append(out, ev.Name)
				}
			}
		}
	}
	return out
}

// MissingHooks lists the events of a JSON settings file in the shape
// HookGroups writes on which heart-hook no longer runs: no group for it
// under hooks, or none whose matcher matches every tool and whose handler
// runs heart-hook. Keys are read exactly, as the clients read them.
func MissingHooks(data []byte, events []string) []string {
	var root map[string]any
	if json.Unmarshal(data, &root) != nil {
		return nil // Read reports the file
	}
	hooks, _ := root["hooks"].(map[string]any)
	var out []string
	for _, ev := range events {
		if !runsHeartHook(hooks[ev]) {
			out = append(out, fmt.Sprintf("hooks.%s: heart-hook gone", ev))
		}
	}
	return out
}

// heartHookName is the program init's hook handlers run.
const heartHookName = "heart-hook"

// runsHeartHook reports whether one of the groups runs heart-hook on every
// tool.
func runsHeartHook(groups any) bool {
	list, _ := groups.([]any)
	for _, g := range list {
		group, _ := g.(map[string]any)
		if m, ok := group["matcher"]; ok && m != "" && m != "*" && m != ".*" {
			continue
		}
		handlers, _ := group["hooks"].([]any)
		for _, h := range handlers {
			handler, _ := h.(map[string]any)
			if cmd, _ := handler["command"].(string); handler["type"] == "command" && strings.Contains(cmd, heartHookName) {
				return true
			}
		}
	}
	return false
}

// CaseTwins lists the keys of obj that equal one of keys in another case,
// as "KEY: not key" (the client reads key exactly).
func CaseTwins(obj map[string]json.RawMessage, keys ...string) []string {
	var out []string
	for _, k := range keys {
		if f := Folded(obj, k); f != "" {
			out = append(out, fmt.Sprintf("%s: a twin of %s in another case", f, k))
		}
	}
	return out
}
