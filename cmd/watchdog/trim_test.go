package main

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/daemon"
)

// The start's pages go back once, when the last of the agents has pulsed,
// and never again however many pulses follow.
func TestReleaseAfterEachAgentsFirstPulse(t *testing.T) {
	var calls atomic.Int32
	done := make(chan struct{}, 4)
	sub := afterFirstPulses(2, func() { calls.Add(1); done <- struct{}{} })
	sub(daemon.PulseEvent{Agent: "a"})
	sub(daemon.PulseEvent{Agent: "a"})
	if n := calls.Load(); n != 0 {
		t.Fatalf("released %d times before agent b pulsed", n)
	}
	for range 5 {
		sub(daemon.PulseEvent{Agent: "b"})
		sub(daemon.PulseEvent{Agent: "a"})
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no release after both agents pulsed")
	}
	sub(daemon.PulseEvent{Agent: "c"})
	if n := calls.Load(); n != 1 {
		t.Fatalf("released %d times, want once", n)
	}
}
