// Package clients is the registry of the LLM clients the watchdog knows:
// one adapter each (internal/clients/<name>), behind one interface
// (client.Adapter). Everything the watchdog knows of a client is in its
// adapter's folder: its hook events, its usage from a headless run's output
// and from its session transcripts and telemetry records, its failure
// words, its interrupt keys and the files init writes for it. Counting and
// pricing are not: the adapters only read what the client says into
// tokens.Usage, and package cost prices and books it.
//
// Adding a client is a folder under internal/clients and a line in all;
// TestRegistry checks that every adapter answers every part.
//
// The registry and the adapters are the standard library, two leaves
// (internal/hook, internal/cost/tokens) and a TOML reader (Codex keeps its
// MCP servers in TOML), so heart-hook, which runs on the agent's critical
// path, links them and no more.
package clients

import (
	"errors"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients/agy"
	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/clients/claudedesktop"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/clients/codex"
	"github.com/ai-heart/ai-heart/internal/clients/gemini"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Adapter is one client's adapter.
type Adapter = client.Adapter

// all is the registry, in the order init wires and lists the clients.
var all = []Adapter{
	gemini.Adapter{},
	claudecode.Adapter{},
	claudedesktop.Adapter{},
	agy.Adapter{},
	codex.Adapter{},
}

// All lists the adapters.
func All() []Adapter { return all }

// Lookup is the adapter named name, nil when none is.
func Lookup(name string) Adapter {
	for _, a := range all {
		if a.Name() == name {
			return a
		}
	}
	return nil
}

// Names lists the clients, as init's --client takes them.
func Names() []string {
	names := make([]string, 0, len(all))
	for _, a := range all {
		names = append(names, a.Name())
	}
	return names
}

// Hooked lists the clients with hooks, as heart-hook's --client and
// agent.client take them.
func Hooked() []string {
	var names []string
	for _, a := range all {
		if a.Hooks() != nil {
			names = append(names, a.Name())
		}
	}
	return names
}

// ByService is the client whose telemetry names itself service (its
// service.name) and how to read it; "" and nil for one the watchdog does
// not know.
func ByService(service string) (string, *client.OTLP) {
	for _, a := range all {
		if t := a.Telemetry(); t != nil && t.Service(service) {
			return a.Name(), t
		}
	}
	return "", nil
}

// Dialect is how the hooks of the client named name speak; nil when it is
// unknown or has none.
func Dialect(name string) *hook.Dialect {
	if a := Lookup(name); a != nil {
		return a.Hooks()
	}
	return nil
}

// Fate classifies a failure's word, as any client gives it (a hook line's
// or a run's, which need not say which client spoke): Other when no
// client lists it.
func Fate(word string) client.Fate {
	for _, a := range all {
		if f, ok := a.Failures()[word]; ok {
			return f
		}
	}
	return client.Other
}

// Keys is how the client named name is interrupted: a single Escape when
// it is unknown.
func Keys(name string) client.Keys {
	if a := Lookup(name); a != nil && a.Keys().Escapes > 0 {
		return a.Keys()
	}
	return client.Keys{Escapes: 1}
}

// Tells reports whether the client named name can hand a running turn the
// watchdog's word from its post-tool hook.
func Tells(name string) bool {
	a := Lookup(name)
	return a != nil && a.Context("") != nil
}

// Execs lists the adapters with a headless mode, in the registry's order.
func Execs() []*client.Exec {
	var out []*client.Exec
	for _, a := range all {
		if e := a.Exec(); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// ErrNoDialect reports a client whose hooks are not known.
var ErrNoDialect = errors.New("no hooks known for the client")

// ParseHook reads one hook input from the client named name at now.
func ParseHook(name string, data []byte, now time.Time) (hook.Event, error) {
	d := Dialect(name)
	if d == nil {
		return hook.Event{}, fmt.Errorf("%w %q", ErrNoDialect, name)
	}
	return hook.Parse(*d, data, now)
}

// autoContinuer is an adapter whose client can continue by itself when a
// usage limit resets, a setting the workspace may turn off.
type autoContinuer interface {
	AutoContinueOff(root string) bool
}

// AutoContinueOff reports whether the workspace at root turns off a
// client's continuing by itself at a reset (only Claude Code has it, and
// only its status line tells the watchdog of a reset to continue from).
func AutoContinueOff(root string) bool {
	for _, a := range all {
		if ac, ok := a.(autoContinuer); ok && ac.AutoContinueOff(root) {
			return true
		}
	}
	return false
}
