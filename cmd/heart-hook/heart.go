package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// A spent budget lets mcp-heart's tools through, so that the agent can
// still write its activity log. The agent can write the files its client
// reads its MCP servers from, and register a shell of its own under
// mcp-heart's name: a call passes as mcp-heart's only when it is named as
// one of mcp-heart's tools (toolnames), every server those files register
// under mcp-heart's name runs the real mcp-heart (the very file, not one
// of that name: the one next to heart-hook, or the one init registered,
// --mcp-heart, where the agent cannot write it), and no other server there could give its tools the same
// names.

// maxServerFile bounds what is read of a client's servers file
// (~/.claude.json keeps the history of every project, and grows).
const maxServerFile = 32 << 20

// notHeart says why a call named like one of mcp-heart's is not known to
// be one: the file that says so and what it says (a key and its value).
type notHeart struct {
	file, found string
	why         why
}

// why is which of the texts in words.go tells the agent about a notHeart.
type why int

const (
	runsOther  why = iota // the entry runs another program
	namedLike             // another server's tools bear the same names
	noEntry               // no file registers mcp-heart
	unreadable            // a file cannot be read
)

func (n *notHeart) Error() string {
	switch n.why {
	case runsOther:
		return fmt.Sprintf("the server registered as mcp-heart in %s is not mcp-heart (%s): its tools are refused while the budget is spent", n.file, n.found)
	case namedLike:
		return fmt.Sprintf("%s registers %s, whose tools bear mcp-heart's names: they are refused while the budget is spent", n.file, n.found)
	case noEntry:
		return fmt.Sprintf("none of %s registers mcp-heart: a tool named like mcp-heart's is refused while the budget is spent", n.file)
	}
	return fmt.Sprintf("%s cannot be read (%s): a tool named like mcp-heart's is refused while the budget is spent", n.file, n.found)
}

// namedHeart reports whether the client names tool as one of mcp-heart's.
func namedHeart(m *client.MCP, tool string) bool {
	return m != nil && slices.ContainsFunc(toolnames.All, func(t string) bool { return m.Tool(client.ServerName, t) == tool })
}

// underHeart reports whether the client names tool as a tool of the
// server registered as mcp-heart, one of mcp-heart's or not.
func underHeart(m *client.MCP, tool string) bool {
	return m != nil && strings.HasPrefix(tool, m.Tool(client.ServerName, ""))
}

// realHeart checks that the call of tool, named under mcp-heart's name,
// reaches the real mcp-heart: nil, or why not. hearts are the mcp-heart
// binaries known to be real.
func realHeart(m *client.MCP, ws, tool string, hearts []string, getenv func(string) string) *notHeart {
	var files []string
	found := false
	for _, f := range m.Files {
		p := f.Where(ws, getenv)
		if p == "" {
			continue
		}
		shown := show(ws, p)
		files = append(files, shown)
		// A settings file kept in a dotfiles repository is read through its
		// link; the last name must then be a regular file.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		b, err := safeopen.ReadHead(p, maxServerFile+1)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err == nil && len(b) > maxServerFile:
			err = fmt.Errorf("larger than %d MiB", maxServerFile>>20)
		}
		var servers []client.Server
		if err == nil {
			servers, err = f.Read(b, ws)
		}
		if err != nil {
			return &notHeart{file: shown, found: err.Error(), why: unreadable}
		}
		for _, s := range servers {
			if s.Name == client.ServerName {
				found = true
				if runs := runsHeart(s, ws, hearts); runs != "" {
					return &notHeart{file: shown, found: runs, why: runsOther}
				}
			} else if strings.HasPrefix(tool, m.Tool(s.Name, "")) {
				return &notHeart{file: shown, found: s.Name, why: namedLike}
			}
		}
	}
	if !found {
		return &notHeart{file: strings.Join(files, ", "), why: noEntry}
	}
	return nil
}

// runsHeart is "" when s runs one of hearts, else what it runs instead,
// as its settings say it ("command = node"). A program the dynamic loader
// is told to load other code into is not mcp-heart.
func runsHeart(s client.Server, ws string, hearts []string) string {
	if s.Doubt != "" {
		return s.Doubt
	}
	cmd := s.Command
	for k := range s.Env {
		if strings.HasPrefix(k, "LD_") || strings.HasPrefix(k, "DYLD_") {
			return "env " + k
		}
	}
	said := "command = " + cmd
	if cmd == "" {
		return said
	}
	p := cmd
	switch {
	case filepath.IsAbs(p):
	case strings.ContainsRune(p, '/') || strings.ContainsRune(p, filepath.Separator):
		dir := ws
		if s.Cwd != "" {
			dir = s.Cwd
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(ws, dir)
			}
		}
		p = filepath.Join(dir, p)
	default:
		found, err := exec.LookPath(p)
		if err != nil {
			return said
		}
		p = found
	}
	fi, err := os.Stat(p)
	if err != nil {
		return said
	}
	for _, h := range hearts {
		if hi, err := os.Stat(h); err == nil && os.SameFile(fi, hi) {
			return ""
		}
	}
	if p != cmd {
		said += " (" + p + ")"
	}
	return said
}

// hearts are the mcp-heart binaries heart-hook knows as real: the one next
// to it (the usual install: every binary in one folder), and the one init
// registered where that is elsewhere (--mcp-heart). The hook's command line
// is in a file the agent can write, so --mcp-heart counts only where the
// agent cannot put a program of its own: the same file as the one next to
// heart-hook, or one locked down.
func hearts(registered string) []string {
	var out []string
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		name := client.ServerName
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		out = append(out, filepath.Join(filepath.Dir(exe), name))
	}
	if registered != "" && lockedDown(registered, writable) {
		out = append(out, registered)
	}
	return out
}

// lockedDown reports whether the file at p (its links followed) and the
// folder it is in are both not writable: a system install, which the
// agent, of heart-hook's user, can neither change nor replace.
func lockedDown(p string, writable func(string) bool) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return !writable(real) && !writable(filepath.Dir(real))
}

// show is a path as the agent knows it: relative inside the workspace.
func show(ws, p string) string {
	if rel, err := filepath.Rel(ws, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}
