package setup

import (
	"slices"
	"testing"

	registry "github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/config"
)

// The config's default exec command is the default client's headless argv
// (init wires gemini when no --client is given), less the flags that make
// it print stream-json: config holds it as a literal, since it imports no
// client, and this keeps the two from drifting apart.
func TestDefaultCommandIsTheDefaultClients(t *testing.T) {
	def, err := ParseClients(nil)
	if err != nil || len(def) != 1 {
		t.Fatalf("ParseClients(nil) = %v, %v", def, err)
	}
	a := registry.Lookup(def[0])
	if a == nil || a.Exec() == nil {
		t.Fatalf("the default client %q has no headless mode", def[0])
	}
	cmd, full := config.Defaults().Agent.Command, a.Exec().Command
	if len(cmd) == 0 || len(cmd) > len(full) || !slices.Equal(cmd, full[:len(cmd)]) {
		t.Errorf("config's default command %q is not the start of %s's headless argv %q", cmd, def[0], full)
	}
}
