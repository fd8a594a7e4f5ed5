package config

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultStateDir is where the operator's state lives when state_dir is not
// set: $XDG_STATE_HOME/ai-heart, or ~/.local/state/ai-heart. (Not systemd's
// $STATE_DIRECTORY: `watchdog pause`, run from a shell, must find the same
// folder as the daemon.)
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "ai-heart"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("state_dir: no home folder to default to; set state_dir")
	}
	return filepath.Join(home, ".local", "state", "ai-heart"), nil
}

// resolveStateDirs hands state_dir, made absolute, to every agent, and
// refuses one inside a workspace: what is kept there is the operator's, out
// of the agent's reach.
func (c *Config) resolveStateDirs(base string) error {
	dir := absUnder(base, c.StateDir)
	if dir == "" {
		d, err := DefaultStateDir()
		if err != nil {
			return err
		}
		dir = d
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("state_dir: %w", err)
	}
	c.StateDir = dir
	agents := []*AgentConfig{&c.AgentConfig} // the single agent, or the fleet
	if len(c.Agents) > 0 {
		agents = agents[:0]
		for i := range c.Agents {
			agents = append(agents, &c.Agents[i])
		}
	}
	c.AgentConfig.StateRoot = dir
	for _, a := range agents {
		a.StateRoot = dir
		if a.Workspace == "" {
			continue // told as a bad workspace
		}
		ws, err := filepath.Abs(a.Workspace)
		if err != nil {
			return fmt.Errorf("workspace: %w", err)
		}
		if rel, err := filepath.Rel(ws, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("state_dir: %s is inside the workspace %s, where the agent could write it; choose a folder outside", dir, ws)
		}
	}
	return nil
}

// StateDir is the agent's own folder under state_dir, named after the agent
// and its workspace (two configs may both call an agent "alice"); empty when
// no state_dir was resolved.
func (a AgentConfig) StateDir() string {
	if a.StateRoot == "" {
		return ""
	}
	ws, err := filepath.Abs(a.Workspace)
	if err != nil {
		ws = a.Workspace
	}
	sum := sha256.Sum256([]byte(ws))
	return filepath.Join(a.StateRoot, fmt.Sprintf("%s-%x", safeName(a.DisplayName()), sum[:4]))
}

// safeName keeps a name's letters, digits, dots, dashes and underscores, so
// it can be part of one folder name.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
	if s = strings.TrimLeft(s, "."); s == "" || len(s) > 64 {
		s = "agent"
	}
	return s
}

// PauseFile is the agent's pause, in its own state folder.
func (a AgentConfig) PauseFile() string {
	if d := a.StateDir(); d != "" {
		return filepath.Join(d, "pause.json")
	}
	return ""
}
