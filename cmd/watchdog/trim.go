package main

import (
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/memtrim"
)

// releaseStartPages gives the kernel back what the start used and the
// daemon's steady work does not (see memtrim): the garbage of the first
// scans and the binary's pages touched since the last release. `run`
// calls it first thing (the packages' initialisers) and once each agent
// has pulsed (the config, the first scans).
func releaseStartPages(log zerolog.Logger) {
	debug.FreeOSMemory()
	n, err := memtrim.Release()
	if err != nil {
		log.Debug().Err(err).Msg("start-up pages kept")
		return
	}
	log.Debug().Int64("mapped_bytes", n).Msg("start-up pages given back to the kernel")
}

// afterFirstPulses is a pulse subscriber that calls release once, beside
// the pulse, when each of the agents has pulsed.
func afterFirstPulses(agents int, release func()) func(daemon.PulseEvent) {
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
		done atomic.Bool
	)
	return func(e daemon.PulseEvent) {
		if done.Load() {
			return
		}
		mu.Lock()
		seen[e.Agent] = true
		all := len(seen) >= agents && !done.Swap(true)
		mu.Unlock()
		if all {
			go release()
		}
	}
}
