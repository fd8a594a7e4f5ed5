package config

import "time"

// IntrospectionLevels are the times without an introspection log at which
// the introspection check reaches info (1/2 of thresholds.introspection),
// warning (2/3) and error (all of it). The watchdog's check and
// get_heartbeat_elapsed_time both read them here, so they cannot drift.
func (t Thresholds) IntrospectionLevels() (info, warning, err time.Duration) {
	limit := t.Introspection.D()
	return limit / 2, limit * 2 / 3, limit
}
