// Package version says which build of ai-heart is running: the release
// version, the commit and the build date. A release build sets them with
// -ldflags (make dist, the Debian package); a `go build` or `go install`
// fills what it can from the module's build information.
package version

import (
	"runtime/debug"
	"strings"
)

// Set at link time: -ldflags "-X github.com/ai-heart/ai-heart/internal/version.version=1.2.0 ...".
var (
	version = ""
	commit  = ""
	date    = ""
)

// Info is one build's identity.
type Info struct {
	Version string // "1.2.0", or "dev" for a build from a work tree
	Commit  string // the VCS revision, "" when unknown
	Date    string // the build (or commit) time, RFC 3339; "" when unknown
	Dirty   bool   // built from a work tree with uncommitted changes
}

// Get returns this binary's build identity.
func Get() Info {
	return get(version, commit, date, debug.ReadBuildInfo)
}

func get(v, c, d string, read func() (*debug.BuildInfo, bool)) Info {
	in := Info{Version: v, Commit: c, Date: d}
	if bi, ok := read(); ok {
		// A work tree's build gets a pseudo-version (v0.0.0-date-hash): the
		// commit says that better.
		if mv := bi.Main.Version; in.Version == "" && mv != "" && mv != "(devel)" && !strings.HasPrefix(mv, "v0.0.0-") {
			in.Version = strings.TrimPrefix(mv, "v")
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if in.Commit == "" {
					in.Commit = s.Value
				}
			case "vcs.time":
				if in.Date == "" {
					in.Date = s.Value
				}
			case "vcs.modified":
				in.Dirty = in.Dirty || (s.Value == "true" && c == "")
			}
		}
	}
	if in.Version == "" {
		in.Version = "dev"
	}
	return in
}

// Short is the version alone, as an MCP server reports it.
func (in Info) Short() string { return in.Version }

// String is the line `--version` prints for program:
// "watchdog 1.2.0 (commit 0123abc, built 2026-11-24T10:00:00Z)".
func (in Info) String() string {
	var extra []string
	if in.Commit != "" {
		c := in.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if in.Dirty {
			c += "+dirty"
		}
		extra = append(extra, "commit "+c)
	}
	if in.Date != "" {
		extra = append(extra, "built "+in.Date)
	}
	if len(extra) == 0 {
		return in.Version
	}
	return in.Version + " (" + strings.Join(extra, ", ") + ")"
}
