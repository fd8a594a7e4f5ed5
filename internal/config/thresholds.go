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

// Validate refuses thresholds the checks cannot work with, naming the key:
// zero values from a partial file, an error threshold not after its warning,
// a strict deep-work cap under a minute.
func (t Thresholds) Validate() error {
	switch {
	case t.InactivityWarning <= 0:
		return fmt.Errorf("thresholds.inactivity_warning: must be positive")
	case t.InactivityError <= t.InactivityWarning:
		return fmt.Errorf("thresholds.inactivity_error: must be longer than inactivity_warning (%s)", t.InactivityWarning.D())
	case t.Introspection <= 0:
		return fmt.Errorf("thresholds.introspection: must be positive")
	case t.MaxStrictDeepWork < Duration(time.Minute):
		return fmt.Errorf("thresholds.max_strict_deep_work: must be at least 1m (declarations are in whole minutes)")
	case t.ToolLoop < 2:
		return fmt.Errorf("thresholds.tool_loop: must be at least 2 (calls in a row)")
	}
	return nil
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
