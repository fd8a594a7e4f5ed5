package delivery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

func TestNew(t *testing.T) {
	ws := newWorkspace(t)
	tests := []struct {
		name       string
		agent      config.Delivery
		wantMethod string
		wantErr    string
	}{
		{name: "inbox", agent: config.Delivery{Delivery: "inbox"}, wantMethod: "inbox"},
		{name: "empty means inbox", agent: config.Delivery{}, wantMethod: "inbox"},
		{name: "tmux", agent: config.Delivery{Delivery: "tmux", TmuxTarget: "agent", TmuxSocket: "/run/agent/tmux.sock"}, wantMethod: "tmux"},
		{name: "exec", agent: config.Delivery{Delivery: "exec", Command: []string{"gemini", "-p", "{prompt}"}, Timeout: config.Duration(time.Minute)}, wantMethod: "exec"},
		{name: "unknown", agent: config.Delivery{Delivery: "carrier-pigeon"}, wantErr: "carrier-pigeon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := New(tt.agent, ws)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("New(%+v) error = %v, want one mentioning %q", tt.agent, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%+v): %v", tt.agent, err)
			}
			if d.Method() != tt.wantMethod {
				t.Errorf("New(%+v).Method() = %q, want %q", tt.agent, d.Method(), tt.wantMethod)
			}
			_, interrupts := d.(Interrupter)
			if want := tt.wantMethod == "tmux"; interrupts != want {
				t.Errorf("New(%+v) implements Interrupter = %v, want %v", tt.agent, interrupts, want)
			}
			if tm, ok := d.(*Tmux); ok && (tm.Target != tt.agent.TmuxTarget || tm.Socket != tt.agent.TmuxSocket) {
				t.Errorf("tmux target %q socket %q, want %q %q", tm.Target, tm.Socket, tt.agent.TmuxTarget, tt.agent.TmuxSocket)
			}
		})
	}
}

// TestNewExecRunsInWorkspace checks that an exec agent starts in the
// workspace root, where Gemini CLI finds GEMINI.md and .gemini/.
func TestNewExecRunsInWorkspace(t *testing.T) {
	ws := newWorkspace(t)
	d, err := New(config.Delivery{Delivery: "exec", Command: []string{buildHelper(t, "fakeagent"), "pwd"}, Timeout: config.Duration(10 * time.Second)}, ws)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Deliver(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(ws.Root)
	got, _ := filepath.EvalSymlinks(res.Reply)
	if got != want {
		t.Errorf("agent ran in %q, want the workspace %q", res.Reply, ws.Root)
	}
}
