package telemetry

import (
	"fmt"
	"strings"
)

// The resource attributes the watchdog gives an exec run (through
// OTEL_RESOURCE_ATTRIBUTES, which Claude Code 2.1.197, Gemini CLI 0.61.0
// and Codex 0.169.0 were each seen to put on every record): a record that
// carries them says which agent's run it belongs to, where its arrival time
// would say only when it came.
const (
	AttrAgent = "ai_heart.agent"
	AttrRun   = "ai_heart.run"
)

// RunEnv is env with the agent's and the run's attributes added to
// OTEL_RESOURCE_ATTRIBUTES (kept as the operator set it, the watchdog's
// last, so they win).
func RunEnv(env []string, agent, run string) []string {
	const name = "OTEL_RESOURCE_ATTRIBUTES"
	tags := fmt.Sprintf("%s=%s,%s=%s", AttrAgent, Escape(agent), AttrRun, Escape(run))
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			if v != "" {
				tags = v + "," + tags
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, name+"="+tags)
}

// Escape percent-encodes what OTEL_RESOURCE_ATTRIBUTES cannot carry as is
// (its separators, spaces, anything beyond printable ASCII). A client may
// hand the value on decoded or as it came.
func Escape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c > ' ' && c < 0x7f && c != ',' && c != '=' && c != '%' && c != '"' && c != '\\' && c != ';' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
