// Package setup lays out a new ai-works workspace from the embedded template
// (`watchdog init`): the agent rules and docs and the folders of docs/design.md
// section 3, then wires the agent clients (clients.go): mcp-heart and the
// heart-hook hooks in each client's own files.
//
// The template files are never overwritten: each is created with
// workspace.CreateNew (temp file + hard link), so a file that exists is left
// exactly as it is and reported as kept. The client files are merged: keys
// init does not own are kept and its own entries are updated in place, so
// running Init twice changes nothing.
package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	aiheart "github.com/ai-heart/ai-heart"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// ServerName is the name mcp-heart is registered under in MCP client configs.
const ServerName = "mcp-heart"

// Options configures Init. The zero value finds mcp-heart and uses the
// embedded template.
type Options struct {
	// MCPHeart is the mcp-heart binary to register; "" means find it (see
	// FindMCPHeart).
	MCPHeart string
	// HeartHook is the heart-hook binary the hooks run; "" means find it
	// the same way. When it is not found (or names no file) no hooks are
	// wired, only mcp-heart.
	HeartHook string
	// Clients are the clients to wire (see ParseClients); nil means gemini.
	Clients []string
	// UserConfigDir locates Claude Desktop's folder; nil means
	// os.UserConfigDir. Only claude-desktop needs it.
	UserConfigDir func() (string, error)
	// Assets is the tree holding GEMINI.md, ai-docs/ and ai-works-template/;
	// nil means the embedded one (aiheart.FS).
	Assets fs.FS
	// Executable and LookPath locate mcp-heart and heart-hook; nil means
	// os.Executable and exec.LookPath. Tests replace them.
	Executable func() (string, error)
	LookPath   func(string) (string, error)
	// Language is the language of GEMINI.md and ai-docs/; "" is English.
	Language lang.Lang
	// AgentHome is the home folder of the user the agent runs as, where
	// the clients keep what only that user grants (agenthome.go); "" means
	// the home of whoever runs init.
	AgentHome string
	// WorkspaceOnly writes nothing outside the workspace (the demo).
	WorkspaceOnly bool
	// Telemetry is the watchdog's OTLP/HTTP base URL (TelemetryURL) the
	// clients are told to export to; "" turns no telemetry on.
	Telemetry string
	// Asks is the watchdog's asks socket for this workspace (config
	// asks.socket, else the agent's state folder): the hooks offer the
	// client's permission requests to a person there. "" offers none.
	Asks string
}

// Result says what Init did.
type Result struct {
	// Dir is the workspace, absolute.
	Dir string
	// Created lists the files and folders Init made, workspace-relative,
	// folders with a trailing slash.
	Created []string
	// Kept lists the files that already existed and were left untouched.
	Kept []string
	// MCPHeart is the command the client files register, shown in the
	// next steps.
	MCPHeart Binary
	// HeartHook is the hook receiver the client hooks run; not Found means
	// no hooks were wired.
	HeartHook Binary
	// Clients are the clients wired, in order.
	Clients []string
	// Wrote lists the client files merged into, in order.
	Wrote []Wrote
	// Notes are what each client still needs from the operator.
	Notes []string
	// Language is the language the docs were written in; the config shown
	// in the next steps sets it.
	Language lang.Lang
	// Telemetry: the clients' telemetry was turned on towards a watchdog.
	Telemetry bool
	// Home is the agent's home, where the clients' user settings were
	// written ("" with WorkspaceOnly).
	Home string
	// Followed lists the links inside the workspace that the template's
	// folders and files were reached through, each "link → where it leads"
	// (the client files say theirs in Wrote).
	Followed []string
}

// follow notes links followed, once each.
func (r *Result) follow(via []string) {
	for _, v := range via {
		if !slices.Contains(r.Followed, v) {
			r.Followed = append(r.Followed, v)
		}
	}
}

// MCPHeart is the Binary that mcp-heart is.
type MCPHeart = Binary

// Binary says where one of the ai-heart binaries (mcp-heart, heart-hook)
// is and how it was found.
type Binary struct {
	// Path is absolute when found, else the bare name.
	Path string
	// Via is the flag ("--mcp-heart"), "next to watchdog" or "PATH"; ""
	// when not found.
	Via string
	// Found is false when Path is the bare name (the MCP client must then
	// find it on its own PATH) or an explicit path that does not exist.
	Found bool
}

// Init lays out the workspace dir. It creates dir if needed and every
// missing folder and file; existing files are kept. Then it wires the
// clients. It fails on the first error, after which a rerun completes the
// layout.
func Init(dir string, opt Options) (Result, error) {
	var res Result
	names, err := ParseClients(opt.Clients)
	if err != nil {
		return res, err
	}
	// The home first: run as root for another user's, init checks the
	// workspace path before it writes anything (claim.go).
	var home string
	var o *owner
	var claimed fs.FileInfo
	if !opt.WorkspaceOnly {
		if home, err = agentHome(opt.AgentHome); err != nil {
			return res, err
		}
		if o, err = otherOwner(home); err != nil {
			return res, err
		}
		if o != nil {
			if claimed, err = claimWorkspace(home, dir, o); err != nil {
				return res, err
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, fmt.Errorf("create workspace %s: %w", dir, err)
	}
	ws, err := workspace.New(dir, nil)
	if err != nil {
		return res, fmt.Errorf("open workspace: %w", err)
	}
	res.Dir = ws.Root
	if claimed != nil {
		fi, err := ws.RootInfo()
		if err != nil {
			return res, fmt.Errorf("open workspace: %w", err)
		}
		if !os.SameFile(fi, claimed) {
			return res, fmt.Errorf("%s is no longer the folder init checked (a link or another folder was put in its place while init ran): init writes nothing there; run it again", ws.Root)
		}
	}
	res.Language = opt.Language
	res.Telemetry = opt.Telemetry != ""
	if res.Language == "" {
		res.Language = lang.Default
	}
	assets := opt.Assets
	if assets == nil {
		assets = aiheart.FS()
	}
	res.MCPHeart = FindMCPHeart(opt.MCPHeart, opt.Executable, opt.LookPath)
	res.HeartHook = FindHeartHook(opt.HeartHook, opt.Executable, opt.LookPath)

	files, dirs, err := plan(assets, opt.Language)
	if err != nil {
		return res, err
	}
	// Every name is resolved first: a link the agent planted that leads
	// out of the workspace stops init, naming it (place.go); the writes
	// then go through the workspace's root.
	wz, _, err := Wiring{Dir: ws.Root}.zoneOf(ws.Root, "")
	if err != nil {
		return res, fmt.Errorf("open workspace: %w", err)
	}
	root, err := os.OpenRoot(wz.base)
	if err != nil {
		return res, fmt.Errorf("open workspace: %w", err)
	}
	defer root.Close()
	if err := sameWorkspace(root, ws.Root, claimed); err != nil {
		return res, err
	}
	// What init makes in the workspace of another user's is that user's.
	give := func(rel string) error {
		if o == nil {
			return nil
		}
		return root.Lchown(rel, o.uid, o.gid)
	}
	for _, d := range append(dirs, workspace.Skeleton...) {
		real, via, err := wz.resolve(d)
		if err != nil {
			return res, err
		}
		res.follow(via)
		if fi, err := os.Stat(real); err == nil && fi.IsDir() {
			continue
		}
		rel, _ := filepath.Rel(wz.base, real)
		if err := mkdirAllGiven(root, filepath.ToSlash(rel), give); err != nil {
			return res, fmt.Errorf("create %s: %w", d, err)
		}
		res.Created = append(res.Created, d+"/")
	}
	for _, f := range files {
		data, err := fs.ReadFile(assets, f.src)
		if err != nil {
			return res, fmt.Errorf("read template %s: %w", f.src, err)
		}
		real, via, err := wz.resolve(f.dst)
		if err != nil {
			return res, err
		}
		res.follow(via)
		if up := path.Dir(relIn(wz.base, real)); up != "." {
			if err := mkdirAllGiven(root, up, give); err != nil {
				return res, fmt.Errorf("create %s: %w", up, err)
			}
		}
		err = ws.CreateNew(f.dst, data, time.Time{})
		switch {
		case errors.Is(err, os.ErrExist):
			res.Kept = append(res.Kept, f.dst)
		case err != nil:
			return res, err
		default:
			res.Created = append(res.Created, f.dst)
			if err := give(relIn(wz.base, real)); err != nil {
				return res, err
			}
		}
	}
	// The docs' language is recorded beside them, so mcp-heart and the
	// watchdog speak it without a second setting; a record kept from an
	// earlier init stays, like the docs it describes.
	real, via, err := wz.resolve(workspace.LanguageFile)
	if err != nil {
		return res, err
	}
	res.follow(via)
	switch err := ws.CreateNew(workspace.LanguageFile, []byte(string(res.Language)+"\n"), time.Time{}); {
	case errors.Is(err, os.ErrExist):
		res.Kept = append(res.Kept, workspace.LanguageFile)
	case err != nil:
		return res, err
	default:
		res.Created = append(res.Created, workspace.LanguageFile)
		if err := give(relIn(wz.base, real)); err != nil {
			return res, err
		}
	}
	sort.Strings(res.Created)

	w := Wiring{Dir: ws.Root, MCPHeart: res.MCPHeart.Path, Telemetry: opt.Telemetry, Home: home, owner: o, claimed: claimed, Asks: opt.Asks}
	if res.HeartHook.Found {
		w.HeartHook = res.HeartHook.Path
	}
	if slices.Contains(names, ClientClaudeDesktop) {
		userConfig := opt.UserConfigDir
		switch {
		case o != nil:
			// Root's own config is no place for the agent's client.
			userConfig = func() (string, error) { return homeConfigDir(home), nil }
		case userConfig == nil:
			userConfig = os.UserConfigDir
		}
		if w.UserConfigDir, err = userConfig(); err != nil {
			return res, fmt.Errorf("find Claude Desktop's config folder: %w", err)
		}
	}
	res.Clients, res.Home = names, w.Home
	res.Wrote, res.Notes, err = Wire(w, names)
	return res, err
}

// mkdirAllGiven makes the folder rel and the missing ones above it in r,
// and gives each one it made away (give).
func mkdirAllGiven(r *os.Root, rel string, give func(string) error) error {
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		if p == "" || p == "." {
			continue
		}
		err := r.Mkdir(p, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := give(p); err != nil {
			return err
		}
	}
	return nil
}

// relIn is the real path p as a slash-separated name under base.
func relIn(base, p string) string {
	rel, _ := filepath.Rel(base, p)
	return filepath.ToSlash(rel)
}

// homeConfigDir is os.UserConfigDir for the user whose home is home.
func homeConfigDir(home string) string {
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support")
	case "windows":
		return filepath.Join(home, "AppData", "Roaming")
	}
	return filepath.Join(home, ".config")
}

// agentHome is the agent's home folder, absolute: given, else the user's.
func agentHome(given string) (string, error) {
	if given == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the home folder for the clients' user settings (give --agent-home): %w", err)
		}
		given = h
	}
	abs, err := filepath.Abs(given)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("agent home %s is not a folder", abs)
	}
	return abs, nil
}

// file is one template file: its path in the assets and in the workspace.
type file struct{ src, dst string }

// plan lists the files to create and the folders the template holds, in a
// stable order: the agent docs in language l, then the template.
// Placeholder files only keep folders in git: their folder is created, the
// file is not copied.
func plan(assets fs.FS, l lang.Lang) ([]file, []string, error) {
	files := []file{{aiheart.Doc(l, aiheart.AgentRules), aiheart.AgentRules}}
	var dirs []string
	docs, err := fs.Glob(assets, aiheart.Doc(l, aiheart.DocsDir)+"/*.md")
	if err != nil || len(docs) == 0 {
		return nil, nil, fmt.Errorf("read template: no %s/*.md in the embedded files", aiheart.Doc(l, aiheart.DocsDir))
	}
	for _, d := range docs {
		files = append(files, file{d, aiheart.DocsDir + "/" + path.Base(d)})
	}
	err = fs.WalkDir(assets, aiheart.TemplateDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, aiheart.TemplateDir), "/")
		switch {
		case rel == "":
		case d.IsDir():
			dirs = append(dirs, rel)
		case d.Name() == aiheart.PlaceholderName:
		default:
			files = append(files, file{p, rel})
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read template: %w", err)
	}
	return files, dirs, nil
}

// FindMCPHeart locates the mcp-heart binary: explicit (made absolute) when
// given, else the file next to the running executable (the usual install:
// all binaries in one folder), else the PATH, else the bare name with
// Found false. nil functions mean os.Executable and exec.LookPath.
func FindMCPHeart(explicit string, executable func() (string, error), lookPath func(string) (string, error)) Binary {
	return findBinary(ServerName, "--mcp-heart", explicit, executable, lookPath)
}

// FindHeartHook locates the heart-hook binary as FindMCPHeart does
// mcp-heart, the flag being --heart-hook.
func FindHeartHook(explicit string, executable func() (string, error), lookPath func(string) (string, error)) Binary {
	return findBinary(HeartHookName, "--heart-hook", explicit, executable, lookPath)
}

func findBinary(base, flag, explicit string, executable func() (string, error), lookPath func(string) (string, error)) Binary {
	if executable == nil {
		executable = os.Executable
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	name := base
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if explicit != "" {
		abs, err := filepath.Abs(explicit)
		if err != nil {
			abs = explicit
		}
		_, err = os.Stat(abs)
		return Binary{Path: abs, Via: flag, Found: err == nil}
	}
	if exe, err := executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		cand := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() {
			return Binary{Path: cand, Via: "next to watchdog", Found: true}
		}
	}
	if p, err := lookPath(base); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return Binary{Path: p, Via: "PATH", Found: true}
	}
	return Binary{Path: base}
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
