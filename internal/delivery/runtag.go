package delivery

import (
	"context"

	"github.com/ai-heart/ai-heart/internal/telemetry"
)

type runTagKey struct{}

type runTag struct{ agent, run string }

// WithRun names the agent and the run a delivery starts: an exec run's
// client then tags its telemetry with them (telemetry.RunEnv), so what it
// reports is booked to that run and no other.
func WithRun(ctx context.Context, agent, run string) context.Context {
	return context.WithValue(ctx, runTagKey{}, runTag{agent, run})
}

// runEnv is env with ctx's run tags, when it has them.
func runEnv(ctx context.Context, env []string) []string {
	if t, ok := ctx.Value(runTagKey{}).(runTag); ok && t.run != "" {
		return telemetry.RunEnv(env, t.agent, t.run)
	}
	return env
}

// RunOf is the run ctx names ("" for none): what a stand-in client puts on
// its telemetry, as a real one does through RunEnv.
func RunOf(ctx context.Context) string {
	t, _ := ctx.Value(runTagKey{}).(runTag)
	return t.run
}
