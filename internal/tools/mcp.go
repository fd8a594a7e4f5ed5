package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// result is every tool result: structured content with words for the
// agent, and the heartbeat ID the call used, for its log line.
type result interface {
	Text(l lang.Lang) string
	heartbeatID() string
}

// hint is a tool's annotation hints: whether it only reads, may destroy,
// and may be repeated to no further effect.
type hint struct{ readOnly, destructive, idempotent bool }

// The two kinds of tool: none destroys anything, none reaches outside the
// workspace.
var (
	reads  = hint{readOnly: true, idempotent: true}
	writes = hint{}
)

// option sets all four annotation hints; mcp-go's defaults claim destructive
// and open-world, which would make clients ask the user before every call.
func (h hint) option() mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(h.readOnly)
		t.Annotations.DestructiveHint = mcp.ToBoolPtr(h.destructive)
		t.Annotations.IdempotentHint = mcp.ToBoolPtr(h.idempotent)
		t.Annotations.OpenWorldHint = mcp.ToBoolPtr(false)
	}
}

// tool is one MCP tool, defined in its own file: name, English title and
// description, hints, input type and handler. Texts are rendered in the
// agent's language when the server is built.
type tool struct {
	name, title, description string
	args                     []func(*Tools) any // the description's format arguments
	hints                    hint
	describe                 func(*Tools) *checker // the input's rules, for its schema
	inputBase                func() map[string]any // mcp-go's schema of the input
	handler                  func(*Tools) server.ToolHandlerFunc
}

// define makes a tool whose parameters are In's fields and whose reply is
// run's result.
func define[In any, PIn interface {
	*In
	input
}, Out any, R interface {
	*Out
	result
}](name, title string, h hint, run func(*Tools, In) (R, error), description string, args ...func(*Tools) any) tool {
	return tool{
		name: name, title: title, description: description, args: args, hints: h,
		describe: describe[In, PIn], inputBase: mcp.SchemaFor[In],
		handler: func(t *Tools) server.ToolHandlerFunc {
			return handle[In, PIn](t, name, func(in In) (R, error) { return run(t, in) })
		},
	}
}

// noInput is the input of a tool that takes no parameters.
type noInput struct{}

func (*noInput) validate(*checker) {}

// registry is every tool mcp-heart serves.
var registry = []tool{
	latestLogTool, artifactsTool, statusTool, ctxTool, latestCtxTool, previewTool, itemTool,
	usageTool, logTool, checkpointTool, deepWorkTool, elapsedTool, startThemeTool, endThemeTool,
}

// Definitions returns the tools with their schemas and annotations in the
// agent's language, bound to t.
func (t *Tools) Definitions() []server.ServerTool {
	out := make([]server.ServerTool, 0, len(registry))
	for _, d := range registry {
		desc := t.tr(d.description)
		if len(d.args) > 0 {
			args := make([]any, len(d.args))
			for i, a := range d.args {
				args[i] = a(t)
			}
			desc = t.trf(d.description, args...)
		}
		mt := mcp.NewTool(d.name, mcp.WithToolTitle(t.tr(d.title)), d.hints.option(), mcp.WithDescription(desc))
		mt.InputSchema = t.inputSchema(d.describe(t), d.inputBase())
		mt.RawOutputSchema = replySchema
		out = append(out, server.ServerTool{Tool: mt, Handler: d.handler(t)})
	}
	return out
}

// replySchema is every tool's output schema: the structured reply leads
// with "text", the reply's words, where every instruction and reason is;
// the fields after it (the result types', in docs/mcp-heart.md) are left
// open. No model is shown an output schema (Claude Code hands its model
// the structured content, Gemini CLI the text), while every client keeps
// the tool list and compiles each schema it declares: the fields' own
// schemas were two thirds of the list, and said again what the text says.
// One $id for all: the TypeScript SDK (Claude Code's, Gemini CLI's)
// compiles a schema with an $id once for every tool that shares it, and
// each schema without one anew at every tools/list. A new schema takes a
// new $id.
var replySchema = json.RawMessage(`{"$id":"urn:mcp-heart:reply:1","type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)

// handle adapts a domain method to an MCP handler: it decodes the arguments
// into In and validates them, turns an InputError into an isError result the agent can act on, any
// other failure into an isError result saying nothing may have been recorded,
// and a panic into an isError result, so the server keeps serving.
func handle[In any, PIn interface {
	*In
	input
}, R result](t *Tools, name string, run func(In) (R, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		start := t.now()
		log := t.Log.With().Str("tool", name).Logger()
		defer func() {
			if p := recover(); p != nil {
				log.Error().Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
				res = mcp.NewToolResultError(t.trf("%s failed with an internal error (`%v`). This is a bug in mcp-heart; check the files it names before calling again.", name, p))
			}
		}()
		args, ok := req.Params.Arguments.(map[string]any)
		if req.Params.Arguments != nil && !ok {
			return mcp.NewToolResultError(t.tr("arguments: must be a JSON object of named parameters. Fix: pass the parameters listed in this tool's input schema by name.")), nil
		}
		out, err := call[In, PIn](t, run, args)
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			log.Info().Str("problem", ie.Error()).Dur("took", t.now().Sub(start)).Msg("bad call")
			return mcp.NewToolResultError(ie.In(t.Lang)), nil
		case err != nil:
			log.Error().Err(err).Dur("took", t.now().Sub(start)).Msg("call failed")
			return mcp.NewToolResultError(t.trf("%s failed: %s. Check the workspace (permissions, disk space) and try again.", name, osReason(err).in(t.Lang))), nil
		}
		log.Info().Str("heartbeat_id", out.heartbeatID()).Dur("took", t.now().Sub(start)).Msg("call")
		text := out.Text(t.Lang)
		structured, err := withText(out, text)
		if err != nil {
			log.Error().Err(err).Msg("encode the reply")
			return mcp.NewToolResultError(t.trf("%s failed with an internal error (`%v`). This is a bug in mcp-heart; check the files it names before calling again.", name, err)), nil
		}
		return mcp.NewToolResultStructured(structured, text), nil
	}
}

// withText is out's structured content with its text first, as "text":
// Claude Code hands its model only the structured content, Gemini CLI only
// the text, so every instruction the text gives must be in both, and a
// fact added to the text can never be missing from the structure.
func withText(out any, text string) (json.RawMessage, error) {
	fields, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	t, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	b := append([]byte(`{"text":`), t...)
	if rest := bytes.TrimSpace(fields[1:]); len(rest) > 1 { // more than "}"
		b = append(b, ',')
		b = append(b, rest...)
		return b, nil
	}
	return append(b, '}'), nil
}

// call decodes args into In, validates it and, when every parameter is
// good, runs run on it.
func call[In any, PIn interface {
	*In
	input
}, R any](t *Tools, run func(In) (R, error), args map[string]any) (R, error) {
	var zero R
	in, c, err := decode[In](t, args)
	if err != nil {
		return zero, err
	}
	PIn(in).validate(c)
	if err := c.err(); err != nil {
		return zero, err
	}
	return run(*in)
}

// Instructions are the server's instructions: the only guide a client that
// does not read GEMINI.md (Claude Desktop, Claude Code) gives its model.
// Served in the agent's language.
const Instructions = "mcp-heart keeps an autonomous agent healthy while it works alone. Read GEMINI.md and ai-docs/ in the workspace for the full rules; the five that matter most:\n" +
	"1. A message starting with \"Heartbeat: <ID>\" wakes you: read its notices first, do one small step of your theme, and close the cycle with create_activity_log. Then wait for the next heartbeat; waiting is healthy.\n" +
	"2. You never type or reuse a heartbeat ID: the tools read the current one and name the files themselves.\n" +
	"3. During long work, call checkpoint at natural breaks; if you will be away from logs for a while, declare start_deep_work first (flexible or strict).\n" +
	"4. The activity log after the one that ends deep work must be an introspection, and introspect regularly anyway.\n" +
	"5. Write only through these tools in stats/ and histories/; never delete anything. The replies of checkpoint, create_activity_log and get_heartbeat_elapsed_time carry the watchdog's current notices: act on them."

// NewServer builds the MCP server with the tools registered.
func NewServer(t *Tools, version string) *server.MCPServer {
	s := server.NewMCPServer("mcp-heart", version,
		server.WithToolCapabilities(false),
		server.WithOutputSchemaValidation(),
		server.WithInstructions(ja.T(t.Lang, Instructions)),
	)
	tools := t.Definitions()
	for i := range tools {
		encodeSchemas(&tools[i].Tool)
	}
	s.AddTools(tools...)
	return s
}

// encodeSchemas turns a tool's schemas into the JSON they are sent as, once:
// mcp-go would otherwise re-encode them, nested maps with sorted keys, for
// every tools/list (and the output schema for every call's validation).
func encodeSchemas(tool *mcp.Tool) {
	in, err := json.Marshal(tool.InputSchema)
	if err != nil {
		panic("tools: " + tool.Name + "'s input schema: " + err.Error())
	}
	tool.InputSchema, tool.RawInputSchema = mcp.ToolInputSchema{}, in
	if tool.RawOutputSchema == nil {
		out, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			panic("tools: " + tool.Name + "'s output schema: " + err.Error())
		}
		tool.OutputSchema, tool.RawOutputSchema = mcp.ToolOutputSchema{}, out
	}
}

// UnknownTool is the agent's reply to a call of a tool mcp-heart does not
// have, in its language (mcp-go's own is English and names no fix).
func UnknownTool(l lang.Lang, name string) string {
	return ja.F(l, "There is no tool named %q. Fix: call one of the tools that tools/list names.", name)
}

// Names are the names of the tools t serves.
func (t *Tools) Names() map[string]bool {
	names := map[string]bool{}
	for _, d := range t.Definitions() {
		names[d.Tool.Name] = true
	}
	return names
}
