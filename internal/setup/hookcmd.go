package setup

import (
	"os"
	"path/filepath"
	"strings"

	registry "github.com/ai-heart/ai-heart/internal/clients"
)

// hooks reports whether the hooks are wired (see Wiring.HeartHook).
func (w Wiring) hooks() bool { return w.HeartHook != "" }

// hookArgv is the fixed heart-hook interface: the receiver reads the event
// from stdin (or, run as a notify program, from its last argument) and names it from
// the payload's hook_event_name. heart-hook lets a spent budget pass only
// the real mcp-heart's calls: the file next to it, else the one init
// registered, which --mcp-heart then names (heart-hook believes it only
// where the agent cannot write it: a file and folder locked down).
func (w Wiring) hookArgv(client string) []string {
	argv := []string{w.HeartHook, "--client", client, "--workspace", w.Dir}
	if w.MCPHeart != "" && !beside(w.MCPHeart, w.HeartHook) {
		argv = append(argv, "--mcp-heart", w.MCPHeart)
	}
	// With an asks socket, a client whose hook can answer a permission
	// request also gets --asks: its questions are offered to a person there.
	if a := registry.Lookup(client); w.Asks != "" && a != nil && a.Decide("PermissionRequest", true, "") != nil {
		argv = append(argv, "--asks", w.Asks)
	}
	return argv
}

// beside reports whether the mcp-heart at mcpHeart is the one next to the
// heart-hook at heartHook: the same path, or the very same file.
func beside(mcpHeart, heartHook string) bool {
	name := ServerName
	if strings.HasSuffix(heartHook, ".exe") {
		name += ".exe"
	}
	if filepath.Join(filepath.Dir(heartHook), name) == filepath.Clean(mcpHeart) {
		return true
	}
	if real, err := filepath.EvalSymlinks(heartHook); err == nil {
		heartHook = real
	}
	a, err := os.Stat(mcpHeart)
	if err != nil {
		return false
	}
	b, err := os.Stat(filepath.Join(filepath.Dir(heartHook), name))
	return err == nil && os.SameFile(a, b)
}

// hookCommand is hookArgv as one sh command line, for the clients whose
// hook command is a shell string. It ends in "|| true": a hook that cannot
// run (heart-hook uninstalled: sh's exit 127) blocks a Gemini CLI agent, and
// a hook must never block the agent. The shell runs anyway, and true is its
// builtin: no extra process.
func (w Wiring) hookCommand(client string) string {
	argv := w.hookArgv(client)
	// The client's name is a word; the paths after it are quoted.
	s := shQuote(argv[0]) + " " + argv[1] + " " + argv[2]
	for i := 3; i < len(argv); i += 2 {
		s += " " + argv[i] + " " + shQuote(argv[i+1])
	}
	return s + " || true"
}

// shQuote quotes s for sh in single quotes. A single quote inside closes
// the quoting, is escaped and reopens it:
//
//	it's  ->  'it'\''s'
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isHeartHook reports whether a hook command runs heart-hook, at whatever
// path: the entry init owns and updates, where the user's own hooks on the
// same event are left alone.
func isHeartHook(command string) bool {
	first := shFirstWord(command)
	base := first[strings.LastIndexAny(first, `/\`)+1:]
	return base == HeartHookName || base == HeartHookName+".exe"
}

// shFirstWord is the first word of an sh command line with its quotes
// removed ('…', "…" and backslash escapes): enough to read the program a
// hook runs.
func shFirstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', ';', '&', '|':
			return b.String()
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return b.String() + s[i+1:]
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ownsHook reports whether a hook handler object is heart-hook's.
func ownsHook(h *object) bool {
	c, _ := h.get("command")
	s, ok := c.(string)
	return ok && isHeartHook(s)
}
