// Package demo is `watchdog demo`: a scripted agent that plays one working
// day against a real mcp-heart, and the narration a person reads while the
// watchdog looks after it.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/google/renameio/v2"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// memoryFile is where the demo agent keeps its place in the day between
// wakeups, inside the demo workspace.
const memoryFile = "stats/demo_agent.json"

// Memory is the demo agent's place in its scripted day.
type Memory struct {
	Step        int       `json:"step"`
	ThemeID     string    `json:"theme_start_id,omitempty"`
	ThemePart   string    `json:"theme_directory_part,omitempty"`
	StrictUntil time.Time `json:"strict_until,omitzero"`
	Stalled     bool      `json:"stalled,omitempty"` // a run is hanging on purpose
	// Introspected is set by the first introspection: strict deep work
	// waits for it, so the forgotten introspection always comes first.
	Introspected bool `json:"introspected,omitempty"`
	Recovered    bool `json:"recovered,omitempty"`
	// Polished counts the diagram's label passes: each writes one more.
	Polished int  `json:"polished,omitempty"`
	Done     bool `json:"done,omitempty"`
}

// ReadMemory reads the agent's memory; a missing file is the day's start.
func ReadMemory(ws *workspace.Workspace) (Memory, error) {
	var m Memory
	b, err := os.ReadFile(ws.Path(memoryFile))
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

func writeMemory(ws *workspace.Workspace, m Memory) error {
	b, _ := json.MarshalIndent(m, "", "  ")
	return renameio.WriteFile(ws.Path(memoryFile), append(b, '\n'), 0o644)
}

// AgentOptions say where the agent lives and how it talks.
type AgentOptions struct {
	Workspace string
	MCPHeart  string        // the mcp-heart binary
	Pause     time.Duration // "thinking" between tool calls, so a person can follow
	StallMax  time.Duration // the longest a stalled run hangs
	Narrate   func(kind, text string)
	// Bytes, when set, counts what the run read (the prompt, the tools'
	// replies) and wrote (the tools' arguments, the reply): the demo
	// reports them as a model would its tokens, estimated at 4 bytes each.
	Bytes *Bytes
	// Lang is the workspace's language: the agent writes its logs in it
	// and reads its notices in it.
	Lang lang.Lang
	// Received, when set, gets every text the agent read: the prompt and
	// each tool's reply, as a model would see them.
	Received func(text string)
}

// Bytes is what one run read and wrote.
type Bytes struct{ Read, Wrote int }

// agent is one wakeup's run: an MCP session with mcp-heart.
type agent struct {
	opts AgentOptions
	ws   *workspace.Workspace
	mcp  *session
	mem  Memory
}

// RunAgent answers one heartbeat prompt the way the scripted day says, and
// returns the final reply ("[IDLE]" when there is nothing to do).
func RunAgent(ctx context.Context, text string, opts AgentOptions) (string, error) {
	ws, err := workspace.New(opts.Workspace, nil)
	if err != nil {
		return "", err
	}
	if _, _, ok := prompt.Parse(text); !ok {
		return "", fmt.Errorf("not a heartbeat prompt: %.40q", text)
	}
	mem, err := ReadMemory(ws)
	if err != nil {
		return "", err
	}
	a := &agent{opts: opts, ws: ws, mem: mem}
	if opts.Received != nil {
		opts.Received(text)
	}
	if opts.Bytes != nil {
		opts.Bytes.Read += len(text)
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := startSession(ictx, opts.MCPHeart, "--workspace", ws.Root)
	if err != nil {
		return "", fmt.Errorf("start mcp-heart: %w", err)
	}
	defer c.Close()
	a.mcp = c
	reply, err := a.day(ctx, text)
	if err != nil {
		return "", err
	}
	return reply, writeMemory(ws, a.mem)
}

// call runs one tool and narrates it; a tool error ends the run.
func (a *agent) call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	if a.opts.Pause > 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(a.opts.Pause):
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := a.mcp.callTool(cctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	if a.opts.Received != nil {
		a.opts.Received(res.text())
	}
	var out map[string]any
	b, _ := json.Marshal(res.Structured)
	json.Unmarshal(b, &out)
	if n := a.opts.Bytes; n != nil {
		in, _ := json.Marshal(args)
		n.Read, n.Wrote = n.Read+len(b), n.Wrote+len(in)
	}
	if res.IsError {
		return nil, fmt.Errorf("%s failed: %s", tool, res.text())
	}
	a.opts.Narrate("tool", tool+" "+a.summary(tool, args, out))
	return out, nil
}

// summary is the one line a person needs about a tool call.
func (a *agent) summary(tool string, args, out map[string]any) string {
	s := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
	switch tool {
	case "start_theme":
		return fmt.Sprintf(a.say("%q → %s", "「%s」→ %s"), args["theme_name"], s(out, "theme_folder"))
	case "create_activity_log":
		// The type as the agent's language names it: 「観測」, not observation.
		typ, _ := workspace.ParseActivityType(s(args, "activity_type"))
		return fmt.Sprintf(a.say("%s → %s", "「%s」→ %s"), typ.Name(a.opts.Lang), s(out, "path"))
	case "checkpoint":
		return fmt.Sprintf(a.say("%q", "「%s」"), args["current_activity"])
	case "start_deep_work":
		if d := s(out, "deadline"); d != "" {
			return a.say(fmt.Sprintf("%s, %v min (until %s)", s(out, "mode"), args["planned_duration_minutes"], clock(d)),
				fmt.Sprintf("%s、%v分（%sまで）", s(out, "mode"), args["planned_duration_minutes"], clock(d)))
		}
		return s(out, "mode") + a.say(": checkpoints keep it going until the next activity log", "：次の活動ログまで、チェックポイントを書きながら続きます")
	case "end_theme":
		return fmt.Sprintf(a.say("%s → %s", "「%s」→ %s"), args["theme_directory_part"], s(out, "end_record"))
	}
	return ""
}

func clock(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return rfc3339
	}
	return t.Local().Format("15:04:05")
}
