//go:build !unix

package daemon

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
