package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/ai-heart/ai-heart/internal/demo"
	"github.com/ai-heart/ai-heart/internal/lang"
)

// runDemoAgent is the hidden `watchdog demo-agent`: one run of the demo's
// scripted agent, started by the demo's exec delivery with the prompt.
func runDemoAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	dir := fs.String("workspace", "", "the demo workspace")
	mh := fs.String("mcp-heart", "mcp-heart", "the mcp-heart binary")
	narrate := fs.String("narrate", "", "append narration events here")
	pause := fs.Duration("pause", 700*time.Millisecond, "time between tool calls")
	langFlag := fs.String("lang", "en", "the workspace's language")
	received := fs.String("received", "", "append every text the agent reads here, one JSON string a line")
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *dir == "" {
		fmt.Fprintln(stderr, "usage: watchdog demo-agent --workspace DIR [--mcp-heart PATH] [--narrate FILE] PROMPT")
		return 2
	}
	say := func(string, string) {}
	if *narrate != "" {
		say = demo.FileNarrate(*narrate)
	}
	l, err := lang.Parse(*langFlag)
	if err != nil {
		fmt.Fprintf(stderr, "demo-agent: --lang: %v\n", err)
		return 2
	}
	var got func(string)
	if *received != "" {
		got = demo.FileReceived(*received)
	}
	var n demo.Bytes
	reply, err := demo.RunAgent(ctx, fs.Arg(0), demo.AgentOptions{Workspace: *dir, MCPHeart: *mh, Pause: *pause, StallMax: 40 * time.Second, Narrate: say, Bytes: &n, Lang: l, Received: got})
	if err != nil {
		// A run the watchdog ended (recovery taking over the stall, or the
		// demo's end) is canceled: the stall's expected end, not an error.
		switch {
		case errors.Is(err, context.Canceled) && l == lang.Japanese:
			say(demo.KindAgent, "実行は打ち切られました")
		case errors.Is(err, context.Canceled):
			say(demo.KindAgent, "the run was ended by the watchdog")
		default:
			say(demo.KindAgent, "error: "+err.Error())
		}
		fmt.Fprintf(stderr, "demo-agent: %v\n", err)
		return 1
	}
	switch {
	case reply == demo.Idle && l == lang.Japanese:
		say(demo.KindAgent, "[IDLE] と応答：今することはありません")
	case reply == demo.Idle:
		say(demo.KindAgent, "replies [IDLE]: nothing to do right now")
	case l == lang.Japanese:
		say(demo.KindAgent, "応答："+reply)
	default:
		say(demo.KindAgent, "replies: "+reply)
	}
	// Claude Code's stream-json, as the demo's exec delivery reads it: the
	// model's name, then the result with its usage. The scripted agent
	// calls no model; its "tokens" are its bytes / 4, priced in the demo's
	// config at an example rate, so the summary shows what the cost
	// display looks like.
	n.Wrote += len(reply)
	enc := json.NewEncoder(stdout)
	enc.Encode(map[string]any{"type": "system", "subtype": "init", "model": demoModel})
	enc.Encode(map[string]any{"type": "result", "subtype": "success", "result": reply,
		"usage": map[string]int{"input_tokens": n.Read / 4, "output_tokens": n.Wrote / 4}})
	return 0
}

// demoModel names the scripted agent's "model" in the demo's prices.
const demoModel = "scripted-demo"
