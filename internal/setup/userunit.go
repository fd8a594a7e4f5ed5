package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// UserUnitName is the user-level unit `watchdog init --systemd-user` writes.
const UserUnitName = "ai-heart-watchdog.service"

// UserService is what `watchdog init --systemd-user` wrote or kept.
type UserService struct {
	Unit, Config  string // their paths
	Created, Kept []string
}

// UserUnit is a systemd user unit (systemctl --user) that runs watchdog
// with config as the person who runs their agent. No sandboxing: a user
// manager cannot apply most of it, and the agent is the user's own.
func UserUnit(watchdog, config string) string {
	return `# ai-heart watchdog as a user service, written by watchdog init --systemd-user.
#   systemctl --user daemon-reload
#   systemctl --user enable --now ai-heart-watchdog
#   journalctl --user -u ai-heart-watchdog -f
#   loginctl enable-linger "$USER"   # keep it running with nobody logged in
[Unit]
Description=ai-heart watchdog (heartbeats, anomaly checks, recovery)

[Service]
# READY=1 after the first pulse, WATCHDOG=1 after each; a hung pulse restarts it.
Type=notify
NotifyAccess=main
ExecStart=` + quoteArg(watchdog) + ` run -c ` + quoteArg(config) + `
ExecReload=/bin/kill -HUP $MAINPID
WatchdogSec=180s
Restart=on-failure
RestartSec=10s
TimeoutStopSec=30s
NoNewPrivileges=yes
# The watchdog's own state (lock, state file, cap, ledger, pause), out of
# the workspace: ~/.local/state/ai-heart, state_dir's default, kept 0700.
StateDirectory=ai-heart
StateDirectoryMode=0700

[Install]
WantedBy=default.target
`
}

// quoteArg quotes a path for a unit's command line when it needs it.
func quoteArg(s string) string {
	if strings.ContainsAny(s, " \t\"'\\$%") {
		return strconv.Quote(strings.ReplaceAll(strings.ReplaceAll(s, "%", "%%"), "$", "$$"))
	}
	return s
}

// WriteUserService writes the user unit and, for the workspace of res, a
// config under configHome ($XDG_CONFIG_HOME, else ~/.config): the one the
// next steps show. Like Init it never overwrites: an existing file is kept
// as it is.
func WriteUserService(configHome, watchdog string, res Result) (UserService, error) {
	us := UserService{
		Unit:   filepath.Join(configHome, "systemd", "user", UserUnitName),
		Config: filepath.Join(configHome, "ai-heart", "watchdog.yaml"),
	}
	cfg := fmt.Sprintf("# ai-heart watchdog, run by the user unit %s.\n# Every other key is at its default: see docs/configuration.md.\n%s",
		UserUnitName, WatchdogConfig(res))
	for _, f := range []struct{ path, content string }{{us.Config, cfg}, {us.Unit, UserUnit(watchdog, us.Config)}} {
		created, err := writeNew(f.path, f.content)
		if err != nil {
			return us, err
		}
		if created {
			us.Created = append(us.Created, f.path)
		} else {
			us.Kept = append(us.Kept, f.path)
		}
	}
	return us, nil
}

// writeNew creates path with content unless it exists.
func writeNew(path, content string) (bool, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		os.Remove(path)
		return false, err
	}
	return true, f.Close()
}
