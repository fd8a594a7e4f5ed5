package daemon

import (
	"slices"
	"testing"
)

func TestPublishPulseCallsSubscribersInOrder(t *testing.T) {
	var got []string
	note := func(name string) func(PulseEvent) {
		return func(e PulseEvent) { got = append(got, name+":"+e.Agent) }
	}
	o := Options{Subscribers: []func(PulseEvent){note("a"), note("b")}}
	o.publishPulse()(PulseEvent{Agent: "x"})
	if want := []string{"a:x", "b:x"}; !slices.Equal(got, want) {
		t.Errorf("publishPulse() called %v, want %v", got, want)
	}
	if f := (Options{}).publishPulse(); f != nil {
		t.Error("publishPulse() with no subscribers is not nil")
	}
}
