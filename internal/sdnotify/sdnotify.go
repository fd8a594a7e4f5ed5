// Package sdnotify tells systemd about the daemon (sd_notify(3)): READY=1
// once started, WATCHDOG=1 after each completed pulse, STOPPING=1 on the
// way out. Every call is a no-op returning nil when NOTIFY_SOCKET is unset,
// as it is outside a Type=notify unit, so the daemon needs no flag for it.
//
// NOTIFY_SOCKET stays set in the daemon's own environment (it notifies on
// every pulse); the agents it runs get an environment without it (see
// delivery.ChildEnv).
package sdnotify

import (
	"fmt"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Notifier sends the daemon's notifications; its zero value is ready to use.
// It satisfies the daemon's Notifier interface.
type Notifier struct{}

// Ready sends READY=1: startup is finished.
func (Notifier) Ready() error { return Ready() }

// Watchdog sends WATCHDOG=1: the daemon is alive (one pulse completed).
func (Notifier) Watchdog() error { return Watchdog() }

// Stopping sends STOPPING=1: the daemon is shutting down.
func (Notifier) Stopping() error { return Stopping() }

// Ready sends READY=1: startup is finished.
func Ready() error { return send(daemon.SdNotifyReady) }

// Watchdog sends WATCHDOG=1. Call it when a unit of real work completes
// (a pulse), never from a separate ticker, so a hung daemon is restarted.
func Watchdog() error { return send(daemon.SdNotifyWatchdog) }

// Stopping sends STOPPING=1: the daemon is shutting down.
func Stopping() error { return send(daemon.SdNotifyStopping) }

// Reloading sends RELOADING=1 with the monotonic time, as systemd wants
// before a configuration reload; send Ready when the reload is done.
func Reloading() error {
	return send(daemon.SdNotifyReloading + "\n" + daemon.SdNotifyMonotonicUsec())
}

// Status sends STATUS=text, the line `systemctl status` shows.
func Status(text string) error { return send("STATUS=" + text) }

// WatchdogInterval is the unit's WatchdogSec when systemd expects
// WATCHDOG=1 from this process, 0 otherwise. The daemon can warn when it is
// not longer than the pulse interval.
func WatchdogInterval() (time.Duration, error) {
	d, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return 0, fmt.Errorf("read systemd watchdog interval: %w", err)
	}
	return d, nil
}

func send(state string) error {
	if _, err := daemon.SdNotify(false, state); err != nil {
		return fmt.Errorf("notify systemd %q: %w", firstLine(state), err)
	}
	return nil
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
