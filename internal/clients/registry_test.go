package clients_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// TestRegistry: every adapter answers every part of the interface, and
// the registry is what the rest of the watchdog takes. A new client's
// folder with a missing or inconsistent part fails here, by name.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range clients.All() {
		name := a.Name()
		t.Run(name, func(t *testing.T) {
			if name == "" || strings.ToLower(name) != name || strings.ContainsAny(name, " /") || seen[name] {
				t.Fatalf("name %q: want a unique lower-case word", name)
			}
			seen[name] = true
			if clients.Lookup(name) == nil || a.Title() == "" {
				t.Errorf("Lookup(%q) or its title is missing", name)
			}
			if d := a.Hooks(); d != nil {
				if d.Client != name || len(d.Kinds) == 0 || d.Decode == nil {
					t.Errorf("hooks %+v: want the client's name, its events and a decoder", d)
				}
				// Every event init wires is one the dialect reads, and each
				// one it reads as a kind of its own is wired.
				wired := wiredEvents(a.Setup())
				for ev := range d.Kinds {
					// Not hooks init wires: Codex's notify, and Claude
					// Code's PostModelSwitch (read where a person wires
					// it; 2.1.197's terminal UI stops at a settings
					// warning for an event it does not know).
					if !slices.Contains(wired, ev) && ev != "agent-turn-complete" && ev != "PostModelSwitch" {
						t.Errorf("event %s is read but init does not wire it", ev)
					}
				}
				if len(wired) == 0 {
					t.Errorf("hooks but init wires no event")
				}
				e, err := hook.Parse(*d, []byte(`{"hook_event_name":"SessionStart","session_id":"s"}`), time.Now())
				if err != nil || e.Kind != hook.SessionStart || e.Client != name {
					t.Errorf("SessionStart = %+v, %v", e, err)
				}
			}
			if x := a.Exec(); x != nil {
				if len(x.Command) == 0 || !slices.Contains(x.Command, "{prompt}") || len(x.Types) == 0 || x.Line == nil {
					t.Errorf("exec %+v: want an argv with {prompt}, its event types and a reader", x)
				}
				for _, typ := range x.Types {
					_ = x.Line(typ, []byte(`{"type":"`+typ+`"}`)) // a bare event of each type is read without a panic
					_ = x.Line(typ, []byte(`not json`))
				}
			}
			if tr := a.Transcripts(); tr != nil {
				if u := tr(nil, time.Time{}, time.Now()); u != nil {
					t.Errorf("an empty transcript used %+v, want unknown", u)
				}
			}
			for word, fate := range a.Failures() {
				if word == "" || fate == client.Other || clients.Fate(word) != fate {
					t.Errorf("failure %q: %v, registry says %v", word, fate, clients.Fate(word))
				}
			}
			if k := a.Keys(); k.Escapes < 0 || k.Escapes > 2 || (k.SavesChat && k.Escapes != 2) {
				t.Errorf("keys %+v", k)
			}
			// A client run in a terminal is looked at before anything is
			// typed into it: its screen says where its input line is, how a
			// running turn and its dialogs read.
			if sc := a.Screen(); sc != nil && (sc.Prompt == "" || len(sc.Busy) == 0 && sc.Spinner == nil || len(sc.Dialogs) == 0) {
				t.Errorf("screen %+v: want its prompt marker, a sign of a running turn and its dialogs' words", sc)
			} else if sc == nil && a.Exec() != nil {
				t.Errorf("a client with a headless mode has a terminal UI too: no screen to read")
			}
			// A client whose hooks refuse calls (the budget gate) says how it
			// names mcp-heart's tools, as the hooks' spool knows them, and
			// where it reads its MCP servers: the one init writes among them.
			if m := a.MCP(); a.Deny("r") != nil {
				if m == nil || m.Tool == nil || len(m.Files) == 0 {
					t.Fatalf("MCP %+v: a client whose calls are refused must say how it names mcp-heart's tools and where it reads servers", m)
				}
				if n := m.Tool(client.ServerName, "checkpoint"); hook.AgentToolName(n) != "checkpoint" {
					t.Errorf("mcp-heart's checkpoint is %q to the client, which the spool does not know as checkpoint", n)
				}
				if !strings.HasPrefix(m.Tool(client.ServerName, "checkpoint"), m.Tool(client.ServerName, "")) {
					t.Errorf("Tool(server, \"\") %q is not the prefix of its tools", m.Tool(client.ServerName, ""))
				}
				initWrites := false
				for _, f := range a.Setup().Files {
					for _, e := range f.Edits {
						switch e.(type) {
						case client.MCPServer, client.TOMLServer:
							initWrites = initWrites || slices.ContainsFunc(m.Files, func(sf client.ServerFile) bool { return sf.Root == f.Root && sf.Path == f.Path })
						}
					}
				}
				if !initWrites {
					t.Errorf("MCP files %+v: the file init registers mcp-heart in is not among them", m.Files)
				}
			} else if m != nil {
				t.Errorf("MCP %+v for a client whose calls are never refused", m)
			}
			for _, f := range a.HooksOff() {
				if f.Path == "" || filepath.IsAbs(f.Path) || f.Read == nil {
					t.Errorf("hooks-off file %+v: want a workspace path and a reader", f)
					continue
				}
				empty, _ := f.Read([]byte(`{}`))
				garbled, err := f.Read([]byte(`not a settings file`))
				if len(empty) != 0 || len(garbled) != 0 || err == nil {
					t.Errorf("hooks-off file %+v: want a reader that finds nothing in an empty file and fails on a garbled one", f)
				}
			}
			if a.HooksOff() != nil && a.Hooks() == nil {
				t.Errorf("hooks-off files for a client without hooks")
			}
			s := a.Setup()
			if len(s.Files) == 0 {
				t.Fatalf("setup writes no file")
			}
			for _, f := range s.Files {
				if f.Path == "" || filepath.IsAbs(f.Path) || len(f.Edits) == 0 {
					t.Errorf("file %+v: want a relative path and its edits", f)
				}
			}
		})
	}
	if got := clients.Fate("no such word"); got != client.Other {
		t.Errorf("an unknown word is %v, want Other", got)
	}
	if k := clients.Keys("vim"); k.Escapes != 1 || k.SavesChat {
		t.Errorf("an unknown client's keys %+v, want one Escape", k)
	}
}

// wiredEvents lists the hook events a client's setup runs heart-hook on.
func wiredEvents(s client.Setup) []string {
	var out []string
	for _, f := range s.Files {
		for _, e := range f.Edits {
			switch h := e.(type) {
			case client.HookGroups:
				for _, ev := range h.Events {
					out = append(out, ev.Name)
				}
			case client.NamedHooks:
				out = append(append(out, h.Flat...), h.Grouped...)
			}
		}
	}
	return out
}

// TestHeartHookTakesTheRegistry: heart-hook's --client takes exactly the
// registry's clients with hooks (each one's event lands in the spool), and
// refuses the others by naming them. The real binary is built and run.
func TestHeartHookTakesTheRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds heart-hook")
	}
	bin := filepath.Join(t.TempDir(), "heart-hook")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/ai-heart/ai-heart/cmd/heart-hook").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ws := t.TempDir()
	var want []string
	for _, a := range clients.All() {
		cmd := exec.Command(bin, "--client", a.Name(), "--workspace", ws)
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"SessionStart","session_id":"s"}`)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v", a.Name(), err)
		}
		if a.Hooks() == nil {
			if !strings.Contains(string(out), "want one of") {
				t.Errorf("%s has no hooks, but heart-hook took it: %q", a.Name(), out)
			}
			continue
		}
		if len(out) != 0 {
			t.Errorf("%s: heart-hook said %q", a.Name(), out)
		}
		want = append(want, a.Name())
	}
	if !slices.Equal(want, clients.Hooked()) {
		t.Errorf("Hooked() = %v, want %v", clients.Hooked(), want)
	}
	evs, err := hook.NewTail(ws).Read(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.Client)
	}
	if !slices.Equal(got, want) {
		b, _ := json.Marshal(evs)
		t.Errorf("spooled %v, want one event of each of %v: %s", got, want, b)
	}
	_ = os.Remove(bin)
}
