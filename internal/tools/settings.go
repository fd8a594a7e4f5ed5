package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Settings are what mcp-heart takes from the watchdog's configuration: the
// thresholds its messages quote, the timezone IDs are read in and the
// language it speaks.
type Settings struct {
	Thresholds   config.Thresholds
	Restrictions config.Restrictions
	Location     *time.Location
	// Language is what the agent reads: tool texts and replies.
	Language lang.Lang
	// Pulse is the watchdog's pulse interval: a new heartbeat ID comes
	// that often.
	Pulse time.Duration
	// Source says where they came from, for the startup log line.
	Source string
}

// LoadSettings finds the thresholds and timezone for the workspace at root:
// from the config file when one is given (for a fleet, the agent whose
// workspace is root), else from the running watchdog's state file, else the
// defaults. It reads at most two small files, so startup stays fast.
func LoadSettings(root, configPath string) (Settings, error) {
	return loadSettings(root, configPath, time.Now())
}

func loadSettings(root, configPath string, now time.Time) (Settings, error) {
	if configPath != "" {
		c, err := config.Load(configPath)
		if err != nil {
			return Settings{}, err
		}
		s := Settings{Thresholds: c.Thresholds, Restrictions: c.Restrictions, Location: c.Location(), Language: c.Language, Pulse: c.Pulse.Interval.D(), Source: configPath}
		if len(c.Agents) == 0 {
			return s, nil
		}
		for _, a := range c.Agents {
			if sameDir(a.Workspace, root) {
				s.Thresholds, s.Restrictions, s.Language = a.Thresholds, a.Restrictions, a.Language
				s.Source = configPath + " (agent " + a.DisplayName() + ")"
				return s, nil
			}
		}
		return Settings{}, fmt.Errorf("load settings: %s lists no agent whose workspace is %s; pass the matching --workspace or add the agent", configPath, root)
	}
	d := config.Defaults()
	// With no watchdog running, the language is the workspace's own (what
	// `watchdog init --lang` wrote its docs in): a Japanese workspace gets
	// Japanese tools whichever starts first.
	l := workspace.RecordedLanguage(root)
	if l == "" {
		l = lang.Default
	}
	s := Settings{Thresholds: d.Thresholds, Restrictions: d.Restrictions, Location: d.Location(), Language: l, Pulse: d.Pulse.Interval.D(), Source: "defaults"}
	// The copy the watchdog publishes for the agent's tools: the agent can
	// write it too (and a FIFO there would hang the start), so it is read
	// without blocking, capped, and believed only while its times are a
	// pulsing watchdog's. A forgery fools only the agent's own tools: the
	// watchdog, status and the page read the state folder.
	var st state.State
	var err error
	for range 2 { // once more when torn (see workspace.WritePulseFile)
		var b []byte
		b, err = workspace.ReadAgentFile(filepath.Join(root, filepath.FromSlash(workspace.StateFile)), workspace.MaxTextFile)
		if errors.Is(err, os.ErrNotExist) {
			return s, nil
		}
		if err != nil {
			break
		}
		st = state.State{}
		if err = json.Unmarshal(b, &st); err == nil {
			break
		}
	}
	if err != nil {
		// A torn, foreign or odd state file must not keep the tools from serving.
		s.Source = "defaults (unreadable " + workspace.StateFile + ": " + err.Error() + ")"
		return s, nil
	}
	if ok, why := st.Fresh(now); !ok {
		s.Source = "defaults (" + workspace.StateFile + " ignored: " + why + ")"
		return s, nil
	}
	s.Source = workspace.StateFile
	// Thresholds the config validation would have refused (zero values from
	// a partial file) and unknown zones fall back to the defaults.
	if st.Thresholds.Validate() == nil {
		s.Thresholds = st.Thresholds
	}
	if st.Restrictions.Cooldown > 0 && st.Restrictions.Lock > 0 {
		s.Restrictions = st.Restrictions
	}
	if iv := st.PulseInterval.D(); iv > 0 {
		s.Pulse = iv
	}
	if l, err := lang.Parse(string(st.Language)); err == nil {
		s.Language = l
	}
	if loc, err := config.LoadLocation(st.Timezone); err == nil {
		s.Location = loc
	}
	return s, nil
}

// sameDir reports whether two paths name the same folder, following symlinks.
func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		aa, _ := filepath.Abs(a)
		bb, _ := filepath.Abs(b)
		return filepath.Clean(aa) == filepath.Clean(bb)
	}
	return ra == rb
}
