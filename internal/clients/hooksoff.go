package clients

import (
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
func HooksOffIn(root, name string) []Switch {
	adapters := all
	if a := Lookup(name); a != nil {
		adapters = []Adapter{a}
	}
	var out []Switch
	seen := map[string]bool{}
	for _, a := range adapters {
		for _, f := range a.HooksOff() {
			if seen[f.Path] {
				continue
			}
			seen[f.Path] = true
			// The client follows a link, wherever it leads: so does this
			// read (of a regular file, without blocking, bounded).
			real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(f.Path)))
			if err != nil {
				continue
			}
			b, err := safeopen.ReadHead(real, maxSwitchFile)
			if err != nil {
				continue
			}
			for _, s := range f.Read(b) {
				out = append(out, Switch{File: f.Path, Setting: s})
			}
		}
	}
	return out
}
