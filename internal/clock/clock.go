// Package clock lets logic ask for the time without calling time.Now directly,
// so tests control time exactly. The zero value of Real is the real clock.
package clock

import (
	"sync"
	"time"
)

// Clock tells the current time.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock (with Go's monotonic reading attached).
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Or returns c, or the real clock when c is nil, so a struct whose Clock field
// is left unset uses real time.
func Or(c Clock) Clock {
	if c == nil {
		return Real{}
	}
	return c
}

// Fake is a settable clock for tests. It is safe for concurrent use.
type Fake struct {
	mu sync.Mutex
	t  time.Time
}

// NewFake returns a fake clock reading t.
func NewFake(t time.Time) *Fake { return &Fake{t: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

// Set moves the clock to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.t = t
	f.mu.Unlock()
}

// Advance moves the clock forward by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}
