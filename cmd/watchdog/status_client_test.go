package main

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
)

func TestClientRow(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 10, 0, 0, time.Local)
	since := now.Add(-8 * time.Minute)
	last := now.Add(-20 * time.Second)
	for _, tc := range []struct {
		c    *state.Client
		want []string
	}{
		{nil, []string{"no hooks heard", "watchdog init --client"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 14}, []string{"in a turn since 14:02", "14 tool calls in 5m, last Bash 20s ago"}},
		{&state.Client{Mode: state.ClientWaitingForYou, Since: &since, Asking: "permission"}, []string{"WAITING FOR YOU since 14:02 (permission)"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 3, Running: true}, []string{"in a turn since 14:02", "running Bash for 20s; 3 tool calls in 5m"}},
		{&state.Client{Mode: state.ClientWaiting, Repeats: 9, LoopTools: "Bash", Failure: "rate_limit"}, []string{"waiting", "Bash repeated 9 times", "failed: rate_limit"}},
	} {
		got := clientRow(now, tc.c)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("clientRow(%+v) = %q, want %q in it", tc.c, got, w)
			}
		}
	}
}
