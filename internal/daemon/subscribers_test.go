package daemon

import (
	"slices"
	"testing"
)

func TestPublishPulseCallsOnPulseThenSubscribers(t *testing.T) {
	var got []string
	note := func(name string) func(PulseEvent) {
		return func(e PulseEvent) { got = append(got, name+":"+e.Agent) }
	}
	o := Options{OnPulse: note("on"), Subscribers: []func(PulseEvent){note("a"), note("b")}}
	o.publishPulse()(PulseEvent{Agent: "x"})
	if want := []string{"on:x", "a:x", "b:x"}; !slices.Equal(got, want) {
		t.Errorf("publishPulse() called %v, want %v", got, want)
	}
	if f := (Options{}).publishPulse(); f != nil {
		t.Error("publishPulse() with no subscribers is not nil")
	}
}
