package config

import (
	"fmt"
	"time"
)

// IntrospectionLevels are the times without an introspection log at which
// the introspection check reaches info (1/2 of thresholds.introspection),
// warning (2/3) and error (all of it). The watchdog's check and
// get_heartbeat_elapsed_time both read them here, so they cannot drift.
func (t Thresholds) IntrospectionLevels() (info, warning, err time.Duration) {
	limit := t.Introspection.D()
	return limit / 2, limit * 2 / 3, limit
}

// Validate refuses thresholds the checks cannot work with, naming each bad
// key: zero values from a partial file, an error threshold not after its
// warning, a strict deep-work cap under a minute.
func (t Thresholds) Validate() error {
	var p problems
	t.check("", &p)
	return p.err()
}

func (t Thresholds) check(key string, p *problems) {
	bad := func(field, format string, args ...any) { p.addf(key+"thresholds."+field, format, args...) }
	if t.InactivityWarning <= 0 {
		bad("inactivity_warning", "must be positive")
	} else if t.InactivityError <= t.InactivityWarning {
		bad("inactivity_error", "must be longer than inactivity_warning (%s)", t.InactivityWarning.D())
	}
	if t.Introspection <= 0 {
		bad("introspection", "must be positive")
	}
	if t.MaxStrictDeepWork < Duration(time.Minute) {
		bad("max_strict_deep_work", "must be at least 1m (declarations are in whole minutes)")
	}
	if t.ToolLoop < 2 {
		bad("tool_loop", "must be at least 2 (calls in a row)")
	}
	if t.ChannelSilent != 0 && t.ChannelSilent < Duration(time.Minute) {
		// 0 is the default (15m): a state file from a watchdog that
		// predates the key still reads.
		bad("channel_silent", "must be at least 1m (a client exports its telemetry seconds after a turn)")
	}
}

// LoadLocation reads a timezone name as the timezone key takes it: "" and
// "Local" are the machine's zone, anything else an IANA name.
func LoadLocation(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("timezone: %q is not a known time zone (like Local, UTC, Asia/Tokyo)", name)
	}
	return loc, nil
}
