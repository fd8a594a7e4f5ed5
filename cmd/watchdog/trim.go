package main

import (
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/memtrim"
)

// releaseAfterFirstPulses is a pulse subscriber that, once each of the
// agents has pulsed (their first scans done), gives the kernel back the
// binary's pages the start touched (see memtrim), beside the pulse.
func releaseAfterFirstPulses(agents int, log zerolog.Logger) func(daemon.PulseEvent) {
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
		if !all {
			return
		}
		go func() {
			n, err := memtrim.Release()
			if err != nil {
				log.Debug().Err(err).Msg("start-up pages kept")
				return
			}
			log.Debug().Int64("mapped_bytes", n).Msg("start-up pages given back to the kernel")
		}()
	}
}
