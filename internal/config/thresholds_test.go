package config

import (
	"testing"
	"time"
)

func TestIntrospectionLevels(t *testing.T) {
	th := Thresholds{Introspection: Duration(30 * time.Minute)}
	info, warning, err := th.IntrospectionLevels()
	if info != 15*time.Minute || warning != 20*time.Minute || err != 30*time.Minute {
		t.Errorf("IntrospectionLevels(30m) = %v, %v, %v, want 15m0s, 20m0s, 30m0s", info, warning, err)
	}
}
