package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	aiheart "github.com/ai-heart/ai-heart"
	"github.com/ai-heart/ai-heart/internal/clients/agy"
	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/clients/claudedesktop"
	"github.com/ai-heart/ai-heart/internal/clients/codex"
	"github.com/ai-heart/ai-heart/internal/clients/gemini"
)

// Some of the clients `watchdog init --client` wires (all of them:
// ClientNames, from internal/clients). Each registers mcp-heart and runs
// heart-hook on the client's own events, in the client's own files.
const (
	ClientGemini        = gemini.Name
	ClientClaudeCode    = claudecode.Name
	ClientClaudeDesktop = claudedesktop.Name
	ClientAgy           = agy.Name
	ClientCodex         = codex.Name
)

// HeartHookName is the hook receiver's binary, installed next to watchdog
// and mcp-heart.
const HeartHookName = "heart-hook"

// hookTimeout is the hook timeout in seconds: heart-hook answers in
// milliseconds, and a hung one must not hold the agent's turn.
const hookTimeout = 5

// Wiring is what the client files point at, all paths absolute.
type Wiring struct {
	// Dir is the workspace.
	Dir string
	// MCPHeart and HeartHook are the binaries the files run. HeartHook ""
	// wires no hooks: a hook whose program is missing is not harmless
	// (Gemini CLI 0.61 answers its exit 127 with "Agent execution
	// blocked"), so none is written until heart-hook is installed.
	MCPHeart, HeartHook string
	// UserConfigDir is os.UserConfigDir(): Claude Desktop, which has no
	// project scope, keeps its config in UserConfigDir/Claude.
	UserConfigDir string
	// Home is the agent's home folder, where the clients keep what only the
	// user can grant (see agenthome.go); "" writes nothing there.
	Home string
	// Telemetry is the watchdog's OTLP/HTTP base URL the clients export
	// their telemetry to (see TelemetryURL); "" turns none on.
	Telemetry string

	// owner, when init runs as root for another user's home, is that
	// user: what init writes in the workspace is checked against it and
	// given to it; claimed is the workspace folder init checked (claim.go),
	// which every write must land in.
	owner   *owner
	claimed fs.FileInfo
	// Asks is the watchdog's asks socket, where a client's hook offers
	// its permission requests to a person; "" offers none.
	Asks string
}

// Wrote is one client file Wire merged into.
type Wrote struct {
	// Path is workspace-relative (slashes) when inside the workspace, else
	// absolute.
	Path string
	// Changed is false when the file already held every entry, byte for
	// byte, and was not rewritten.
	Changed bool
	// Kept, when not "", says why a file init would have made was left as
	// it is, and what the operator should do instead.
	Kept string
	// Via lists the symbolic links followed to reach the file, each "link
	// → where it leads".
	Via []string
	// Notes say what init left as the user set it (an mcp-heart command
	// or args of their own, Gemini's "trust": false) and how to change it.
	Notes []string
}

// client is one entry of the clients table: the files it owns entries in
// and what to tell the operator afterwards.
type client struct {
	name  string
	files func(w Wiring) []edit
	note  func(w Wiring) string
}

// edit is a merge into one file: merge gets the file's bytes (nil when it
// does not exist) and returns the new ones, or an error when it cannot
// merge without losing something. An edit with link instead makes path a
// symbolic link to link (relative to its folder).
type edit struct {
	path  string
	merge func(old []byte, n *notes) ([]byte, error)
	link  string
	// home, when set, is the agent's home the file lies in: what init
	// writes there belongs to that home's owner.
	home string
}

// clients is the table, in the order `init` wires and lists them.
var clients = fromRegistry()

// ClientNames lists the names --client takes.
func ClientNames() []string {
	var names []string
	for _, c := range clients {
		names = append(names, c.name)
	}
	return names
}

// ErrUnknownClient is returned by ParseClients for a name not in
// ClientNames.
var ErrUnknownClient = errors.New("unknown client")

// ParseClients checks names against ClientNames and drops repeats, keeping
// the first place of each. No names means the default, gemini.
func ParseClients(names []string) ([]string, error) {
	if len(names) == 0 {
		return []string{ClientGemini}, nil
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(ClientNames(), n) {
			return nil, fmt.Errorf("%w %q: the clients are %s", ErrUnknownClient, n, strings.Join(ClientNames(), ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Wire merges mcp-heart and the heart-hook hooks into the files of each
// named client (names as ParseClients returns them). Keys and entries it
// does not own are kept; an entry it owns is updated in place, never
// added twice; a file whose merge changes nothing is not rewritten. A file
// it cannot read as JSON or TOML stops it with an error naming the file,
// which is left untouched; files wired before it stay wired.
func Wire(w Wiring, names []string) ([]Wrote, []string, error) {
	var wrote []Wrote
	var notes []string
	for _, name := range names {
		i := slices.IndexFunc(clients, func(c client) bool { return c.name == name })
		if i < 0 {
			return wrote, notes, fmt.Errorf("%w %q", ErrUnknownClient, name)
		}
		c := clients[i]
		for _, e := range c.files(w) {
			if e.link != "" {
				wrote = append(wrote, w.linkTo(e, w.show(e.path)))
				continue
			}
			changed, via, said, err := apply(w, e)
			if err != nil && len(via) > 0 {
				err = fmt.Errorf("%w (reached through %s)", err, strings.Join(via, ", "))
			}
			if err != nil {
				return wrote, notes, fmt.Errorf("%s: %s: %w", name, w.show(e.path), err)
			}
			wrote = append(wrote, Wrote{Path: w.show(e.path), Changed: changed, Via: via, Notes: said})
		}
		if c.note != nil {
			if n := c.note(w); n != "" {
				notes = append(notes, n)
			}
		}
	}
	return wrote, notes, nil
}

// apply runs one merge and writes the result atomically, keeping the
// file's mode (less any write by others), when it differs from what is
// there. Links are followed as place.go allows: a settings file kept in a
// dotfiles repository is written through its link, which stays; a link
// out of the workspace stops it.
func apply(w Wiring, e edit) (changed bool, via, said []string, err error) {
	z, rel, err := w.zoneOf(e.path, e.home)
	if err != nil {
		return false, nil, nil, err
	}
	shown := w.show(e.path)
	pl, err := z.open(rel, false)
	if err != nil {
		return false, pl.via, nil, err
	}
	old, perm, err := pl.read(z, shown)
	pl.close()
	if err != nil {
		return false, pl.via, nil, err
	}
	if old == nil {
		perm = 0o644
	}
	var n notes
	data, err := e.merge(old, &n)
	// A file that carries the agent's telemetry key (its export URL) is
	// kept from other users: with the key they could post in its name.
	keyed := w.Telemetry != "" && strings.Contains(string(data), w.Telemetry)
	if keyed && perm&0o007 != 0 {
		if old != nil {
			n.add("mode %04o made %04o: it holds the agent's telemetry key", perm, perm&^0o007)
		}
		perm &^= 0o007
	} else if err != nil || (old != nil && string(data) == string(old)) {
		return false, pl.via, n, err
	}
	if err != nil {
		return false, pl.via, n, err
	}
	if pl, err = z.open(rel, true); err != nil {
		return false, pl.via, n, err
	}
	defer pl.close()
	return true, pl.via, n, pl.write(data, perm)
}

// notes collect what a merge left as the user set it.
type notes []string

func (n *notes) add(format string, a ...any) { *n = append(*n, fmt.Sprintf(format, a...)) }

// show is how a file is named to the operator: relative inside the
// workspace, absolute outside.
func (w Wiring) show(p string) string {
	if rel, err := filepath.Rel(w.Dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}

// in is the absolute path of a workspace-relative file.
func (w Wiring) in(rel string) string { return filepath.Join(w.Dir, filepath.FromSlash(rel)) }

// jsonEdit is an edit of a JSON file whose top level is an object.
func jsonEdit(path string, change func(root *object, n *notes) error) edit {
	return edit{path: path, merge: func(old []byte, n *notes) ([]byte, error) {
		root, err := parseObject(old)
		if err != nil {
			return nil, fmt.Errorf("not valid JSON (%v): fix or move it, then run init again", err)
		}
		if err := change(root, n); err != nil {
			return nil, err
		}
		return marshalIndent(root), nil
	}}
}

// kv is one key and value, in order.
type kv struct {
	k string
	v any
}

// objectOf builds an object from pairs, in order.
func objectOf(pairs ...kv) *object {
	o := newObject()
	for _, p := range pairs {
		o.set(p.k, p.v)
	}
	return o
}

// hookEvent is one event a client runs heart-hook on, with the matcher
// its group gets ("" for none).
type hookEvent struct {
	name, matcher string
}

// mergeHookGroups adds heart-hook to root.hooks in the Claude Code shape
// that Gemini CLI and Codex share: {"Event": [{"matcher": …, "hooks":
// [handler…]}]}. Where a handler running heart-hook is already there
// (found by isHeartHook), its keys are updated in place and any second
// one dropped; else a new group is appended, after the user's own.
func mergeHookGroups(root *object, events []hookEvent, handler func(event string) *object) error {
	hooks, err := root.child("hooks")
	if err != nil {
		return err
	}
	for _, ev := range events {
		groups, err := hooks.array(ev.name)
		if err != nil {
			return fmt.Errorf("hooks: %w", err)
		}
		want := handler(ev.name)
		found := false
		out := []any{}
		for _, g := range groups {
			grp, ok := g.(*object)
			if !ok {
				out = append(out, g)
				continue
			}
			hs, err := grp.array("hooks")
			if err != nil {
				return fmt.Errorf("hooks.%s: %w", ev.name, err)
			}
			keep := []any{}
			dropped := false
			for _, h := range hs {
				ho, ok := h.(*object)
				if !ok || !ownsHook(ho) {
					keep = append(keep, h)
					continue
				}
				if found {
					dropped = true
					continue
				}
				found = true
				for _, k := range want.keys {
					ho.set(k, want.vals[k])
				}
				keep = append(keep, ho)
			}
			if dropped && len(keep) == 0 {
				continue
			}
			if dropped {
				grp.set("hooks", keep)
			}
			out = append(out, grp)
		}
		if !found {
			grp := newObject()
			if ev.matcher != "" {
				grp.set("matcher", ev.matcher)
			}
			grp.set("hooks", []any{want})
			out = append(out, grp)
		}
		hooks.set(ev.name, out)
	}
	return nil
}

// instructionsLink makes name (CLAUDE.md, AGENTS.md: the file a client
// reads its instructions from) a link to GEMINI.md, so every client reads
// the one copy of the agent's rules, in the workspace's language.
func instructionsLink(w Wiring, name string) edit {
	return edit{path: w.in(name), link: aiheart.AgentRules}
}

// linkTo makes the link of e unless something is already at its path: a
// link to the same file is already wired; anything else is the operator's
// and stays, with a word on how to make it lead to the rules. The link is
// made in its folder as the zone opens it (in the workspace: the one init
// checked).
func (w Wiring) linkTo(e edit, shown string) Wrote {
	z, rel, err := w.zoneOf(e.path, e.home)
	var pl place
	if err == nil {
		pl, err = z.open(rel, false)
	}
	if err == nil && pl.dir == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return Wrote{Path: shown, Kept: fmt.Sprintf("could not link it to %s (%v): copy or link it by hand", e.link, err)}
	}
	defer pl.close()
	if target, err := pl.dir.Readlink(pl.name); err == nil && target == e.link {
		return Wrote{Path: shown}
	}
	if _, err := pl.dir.Lstat(pl.name); err == nil {
		return Wrote{Path: shown, Kept: fmt.Sprintf("exists; left as it is: make it lead to %s (a link, or for Claude Code a line @%s)", e.link, e.link)}
	}
	if err := pl.dir.Symlink(e.link, pl.name); err != nil {
		return Wrote{Path: shown, Kept: fmt.Sprintf("could not link it to %s (%v): copy or link it by hand", e.link, err)}
	}
	if pl.owner != nil {
		if err := pl.dir.Lchown(pl.name, pl.owner.uid, pl.owner.gid); err != nil {
			return Wrote{Path: shown, Kept: fmt.Sprintf("linked it, but could not give it to uid %d (%v)", pl.owner.uid, err)}
		}
	}
	return Wrote{Path: shown, Changed: true}
}
