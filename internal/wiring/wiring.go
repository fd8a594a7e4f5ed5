// Package wiring compares what `watchdog init` wired in a workspace's
// client files with what the running watchdog serves: where the client
// exports its telemetry (the window, with the agent's key), the program
// registered as mcp-heart, heart-hook's status line. A workspace wired for
// another window exports to nobody: its runs retry the export for seconds
// and nothing tells the operator.
package wiring

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// maxFile bounds what is read of one client file.
const maxFile = 1 << 20

// Served is what the watchdog serves an agent.
type Served struct {
	// Telemetry is the URL the agent's clients export to (the window's
	// /otlp/<agent>/<key>); "" when the watchdog serves no window.
	Telemetry string
	// Client names the agent's client ("" or unknown: every client whose
	// files are in the workspace).
	Client string
}

// Mismatch is one setting in a client file that disagrees with what the
// watchdog serves.
type Mismatch struct {
	Client string // the client's name (init --client)
	File   string // workspace-relative, slash-separated
	What   string // what disagrees
}

// Key tells mismatches apart (one alert each).
func (m Mismatch) Key() string { return m.Client + "\x00" + m.File + "\x00" + m.What }

// Message is the alert's text: what disagrees and how to fix it.
func (m Mismatch) Message(ws string) string {
	return fmt.Sprintf("%s (%s): %s; wire it again for the watchdog that runs: watchdog init -c <this config> --client %s %s",
		m.File, m.Client, m.What, m.Client, ws)
}

// Check reads the client files init writes in the workspace at root and
// lists what disagrees with served. A file that is not there is a client
// not wired; one that cannot be read (a FIFO, a link to a device, larger
// than maxFile) or parsed is a mismatch itself: what the client reads
// cannot be known. Reads never block and are bounded.
func Check(root string, served Served) []Mismatch {
	adapters := clients.All()
	if a := clients.Lookup(served.Client); a != nil {
		adapters = []clients.Adapter{a}
	}
	var out []Mismatch
	for _, a := range adapters {
		for _, f := range a.Setup().Files {
			if f.Root != client.Workspace {
				continue
			}
			out = append(out, checkFile(root, a, f, served)...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

func checkFile(root string, a clients.Adapter, f client.File, served Served) []Mismatch {
	var server, status bool
	var telemetry *client.Telemetry
	for _, e := range f.Edits {
		switch e := e.(type) {
		case client.Telemetry:
			if e.Shape == client.EnvVars || e.Shape == client.SettingsBlock {
				telemetry = &e
			}
		case client.MCPServer, client.TOMLServer:
			server = true
		case client.StatusLine:
			status = true
		}
	}
	if telemetry == nil && !server && !status {
		return nil
	}
	mis := func(format string, args ...any) Mismatch {
		return Mismatch{Client: a.Name(), File: f.Path, What: fmt.Sprintf(format, args...)}
	}
	b, err := read(filepath.Join(root, filepath.FromSlash(f.Path)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Mismatch{mis("cannot be read (%v)", err)}
	}
	var out []Mismatch
	if server {
		out = append(out, checkServer(a, f, root, b, mis)...)
	}
	if telemetry == nil && !status {
		return out
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return append(out, mis("is not JSON the client can read (%v)", err))
	}
	if telemetry != nil {
		if m, ok := checkTelemetry(doc, *telemetry, served.Telemetry, mis); ok {
			out = append(out, m)
		}
	}
	if status {
		sl, _ := doc["statusLine"].(map[string]any)
		cmd, _ := sl["command"].(string)
		if !strings.Contains(cmd, "heart-hook") {
			out = append(out, mis("its status line does not run heart-hook, so the watchdog reads no rate limits"))
		}
	}
	return out
}

// read follows a link as the client does, and reads a regular file
// without blocking, whole up to maxFile.
func read(path string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	b, err := safeopen.ReadHead(real, maxFile+1)
	if err == nil && len(b) > maxFile {
		err = fmt.Errorf("larger than %d MiB", maxFile>>20)
	}
	return b, err
}

// checkServer finds the mcp-heart entry and checks that its program is
// there to run.
func checkServer(a clients.Adapter, f client.File, root string, b []byte, mis func(string, ...any) Mismatch) []Mismatch {
	m := a.MCP()
	if m == nil {
		return nil
	}
	for _, sf := range m.Files {
		if sf.Root != client.Workspace || sf.Path != f.Path {
			continue
		}
		servers, err := sf.Read(b, root)
		if err != nil {
			return []Mismatch{mis("its MCP servers cannot be read (%v)", err)}
		}
		for _, s := range servers {
			if s.Name != client.ServerName {
				continue
			}
			if s.Command == "" {
				return []Mismatch{mis("mcp-heart is registered without a command")}
			}
			if err := runnable(s.Command); err != nil {
				return []Mismatch{mis("mcp-heart's command %s cannot run (%v)", s.Command, err)}
			}
			return nil
		}
		return []Mismatch{mis("registers no mcp-heart")}
	}
	return nil
}

// runnable reports why the program cmd names would not start: an absolute
// path must be an executable regular file, a bare name one on $PATH.
func runnable(cmd string) error {
	if !filepath.IsAbs(cmd) {
		_, err := exec.LookPath(cmd)
		return err
	}
	fi, err := os.Stat(cmd)
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm()&0o111 == 0:
		return errors.New("not executable")
	}
	return nil
}

// checkTelemetry compares the endpoint the file exports to with want. An
// endpoint of the user's own (not a watchdog's window on loopback) is
// theirs to choose; a file without telemetry is one init was told to
// leave as it was.
func checkTelemetry(doc map[string]any, t client.Telemetry, want string, mis func(string, ...any) Mismatch) (Mismatch, bool) {
	block, _ := doc[t.Block].(map[string]any)
	var got, where string
	for _, s := range t.Settings {
		switch v := block[s.Key]; {
		case s.Value == client.URL:
			got, _ = v.(string)
			where = t.Block + "." + s.Key
		case s.Value == true && v == false:
			return Mismatch{}, false // turned off (Gemini CLI's enabled: false)
		}
	}
	if got == "" || got == want || !WindowLike(got) {
		return Mismatch{}, false
	}
	if want == "" {
		return mis("%s exports the telemetry to %s, and this watchdog serves no window (http.listen): each run retries the export for seconds", where, redact(got)), true
	}
	if redact(got) == redact(want) {
		return mis("%s exports the telemetry with a key that is not this agent's (its state folder's telemetry.key): the window refuses it", where), true
	}
	return mis("%s exports the telemetry to %s, and this watchdog takes it at %s: nothing receives it", where, redact(got), redact(want)), true
}

// TelemetryURL is the base the clients export to for a watchdog listening
// on listen: /otlp/<agent>/<key>, the agent's name and its telemetry key
// (the window refuses a post without it).
func TelemetryURL(listen, agent, key string) string {
	host := listen
	if strings.HasPrefix(host, ":") || strings.HasPrefix(host, "0.0.0.0:") || strings.HasPrefix(host, "[::]:") {
		host = "127.0.0.1" + host[strings.LastIndex(host, ":"):] // a wildcard bind is reached on loopback
	}
	return "http://" + host + "/otlp/" + url.PathEscape(agent) + "/" + key
}

// WindowLike says whether endpoint is a watchdog's window: http on
// loopback, at its root or under /otlp/.
func WindowLike(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" {
		return false
	}
	switch u.Hostname() {
	case "127.0.0.1", "::1", "localhost":
	default:
		return false
	}
	p := strings.TrimSuffix(u.Path, "/")
	return p == "" || strings.HasPrefix(p, "/otlp/")
}

// redact drops the key from a window URL: alerts go to phones and chat.
func redact(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "(unreadable)"
	}
	if parts := strings.Split(strings.TrimPrefix(u.Path, "/"), "/"); len(parts) == 3 && parts[0] == "otlp" {
		u.Path = "/otlp/" + parts[1] + "/<key>"
		if parts[2] == "" {
			u.Path = "/otlp/" + parts[1] + "/"
		}
	}
	return u.Host + u.Path
}
