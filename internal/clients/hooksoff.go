package clients

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// maxSwitchFile bounds what is read of one client file that can turn the
// hooks off.
const maxSwitchFile = 1 << 20

// Switch is a setting in a client file of the workspace that turns the
// client's hooks off: the file (workspace-relative) and the setting.
type Switch struct{ File, Setting string }

// HooksOffIn lists the settings in the workspace at root that turn off the
// hooks of the client named name (of every client, when name is none
// known). The files are small and read whole each time: a cache keyed on
// size and time would miss an edit in place whose time the agent set back.
//
// A file that cannot be read whole, or parsed as the client parses it, is
// reported too: what it says cannot be known, and padding or a stray comma
// must not hide a switch. With the client known, its hooks init wired are
// checked to run heart-hook still.
func HooksOffIn(root, name string) []Switch {
	adapters := all
	known := Lookup(name)
	if known != nil {
		adapters = []Adapter{known}
	}
	var out []Switch
	seen := map[string]bool{}
	for _, a := range adapters {
		for _, f := range a.HooksOff() {
			if seen[f.Path] {
				continue
			}
			seen[f.Path] = true
			off := func(s string) { out = append(out, Switch{File: f.Path, Setting: s}) }
			// The client follows a link, wherever it leads: so does this
			// read (of a regular file, without blocking, bounded).
			real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(f.Path)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			var b []byte
			if err == nil {
				b, err = safeopen.ReadHead(real, maxSwitchFile+1)
			}
			if err == nil && len(b) > maxSwitchFile {
				err = fmt.Errorf("larger than %d MiB, not read whole", maxSwitchFile>>20)
			}
			if err != nil {
				off("cannot be read: " + err.Error())
				continue
			}
			settings, err := f.Read(b)
			if err != nil {
				off("cannot be parsed: " + err.Error())
				continue
			}
			for _, s := range settings {
				off(s)
			}
			if known != nil && f.Wired != nil {
				for _, s := range f.Wired(b) {
					off(s)
				}
			}
		}
	}
	return out
}
