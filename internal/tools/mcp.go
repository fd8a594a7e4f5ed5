package tools

import (
	"context"
	"errors"
	"runtime/debug"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// result is every tool result: structured content with words for the
// agent, and the heartbeat ID the call used, for its log line.
type result interface {
	Text(l lang.Lang) string
	heartbeatID() string
}

// hints sets all four annotation hints; mcp-go's defaults claim destructive
// and open-world, which would make clients ask the user before every call.
func hints(readOnly, destructive, idempotent bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(readOnly)
		t.Annotations.DestructiveHint = mcp.ToBoolPtr(destructive)
		t.Annotations.IdempotentHint = mcp.ToBoolPtr(idempotent)
		t.Annotations.OpenWorldHint = mcp.ToBoolPtr(false)
	}
}

// Shared schema fragments for the theme parameters.
func (t *Tools) themeParams() []mcp.ToolOption {
	return []mcp.ToolOption{
		mcp.WithString(pThemeStartID, mcp.Required(), mcp.Pattern(`^[0-9]{14}$`),
			mcp.Description(t.tr("The theme's start ID: 14 digits YYYYMMDDHHMMSS, the first part of the theme folder name artifacts/<theme_start_id>_<theme_directory_part>/ (start_theme returns it)."))),
		mcp.WithString(pThemePart, mcp.Required(), mcp.MaxLength(workspace.MaxPartLen),
			mcp.Description(t.tr("The theme folder's name after the ID and underscore, e.g. ai_research for artifacts/20250101120000_ai_research/. One folder name: no / or \\, no .., no leading dot."))),
		mcp.WithString(pParentThemeStartID, mcp.Pattern(`^[0-9]{14}$`),
			mcp.Description(t.tr("Only for a sub-theme (artifacts/<parent>/subthemes/<theme>/): the parent theme's 14-digit start ID. Give it together with parent_theme_directory_part, or leave both out."))),
		mcp.WithString(pParentThemePart, mcp.MaxLength(workspace.MaxPartLen),
			mcp.Description(t.tr("Only for a sub-theme: the parent theme's directory part. Give it together with parent_theme_start_id, or leave both out."))),
	}
}

// Definitions returns the tools with their schemas and annotations,
// bound to t.
func (t *Tools) Definitions() []server.ServerTool {
	maxMin := int(t.Thresholds.MaxStrictDeepWork.D() / time.Minute)
	warn := humanize.Duration(t.Thresholds.InactivityWarning.D())
	errAt := humanize.Duration(t.Thresholds.InactivityError.D())
	theme := t.themeParams()
	parent := theme[2:]

	logTool := mcp.NewTool("create_activity_log", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Create activity log")), hints(false, false, false), mcp.WithOutputSchema[LogResult](),
			mcp.WithDescription(t.tr("Write the activity log that closes the current activity cycle, into the theme's histories folder, named by the current heartbeat ID (read from the workspace; never pass it). " +
				"Also completes any active deep-work declaration. Call it at the end of each cycle. The reply gives the file path, the time since the previous log and checkpoint, and advice.")),
			mcp.WithString(pActivityType, mcp.Required(), mcp.Enum(activityTypeNames()...),
				mcp.Description(t.tr("What kind of activity this cycle was. After deep work: the log that ends it records the work itself; the log after that one is the introspection."))),
			mcp.WithArray(pActivityContent, mcp.Required(), mcp.MinItems(1), mcp.WithStringItems(),
				mcp.Description(t.tr("What you did in this cycle, one item per point (at least one). Each item is written as one bullet line."))),
			mcp.WithArray(pArtifacts, mcp.WithStringItems(),
				mcp.Description(t.tr("Optional: files you created or changed, as paths relative to the workspace (e.g. artifacts/20250101120000_ai_research/notes.md). Each must exist inside the workspace."))),
			mcp.WithString(pEvaluation,
				mcp.Description(t.tr("Optional: your self-evaluation of this cycle, free text (several lines allowed)."))),
		}, theme)...)

	checkpointTool := mcp.NewTool("checkpoint",
		mcp.WithToolTitle(t.tr("Checkpoint")), hints(false, false, false), mcp.WithOutputSchema[CheckpointResult](),
		mcp.WithDescription(t.tr("Record a one-line note that you are still consciously working on something long, cheaper than an activity log; it counts as proof of activity for the watchdog. "+
			"Call it at natural breaks in your work; there is no need to watch the clock. It is progress, not the end of a cycle: an activity log still closes the cycle. "+
			"The reply gives elapsed times and the watchdog's current notices, if any.")),
		mcp.WithString(pCurrentActivity, mcp.Required(), mcp.MinLength(1), mcp.MaxLength(maxCheckpointLen),
			mcp.Description(t.trf("What you are working on right now, one short line (up to %d characters). Newlines are replaced by spaces.", maxCheckpointLen))),
	)

	deepTool := mcp.NewTool("start_deep_work",
		mcp.WithToolTitle(t.tr("Start deep work")), hints(false, false, false), mcp.WithOutputSchema[DeepWorkResult](),
		mcp.WithDescription(t.tr("Declare a period of long, focused work. flexible: lasts until your next activity log; the introspection check pauses; keep writing checkpoints at natural breaks. "+
			"strict: lasts planned_duration_minutes; the inactivity, introspection and stale_id checks pause until the deadline (every other check stays on). "+
			"A new declaration supersedes (expires) an older active one. The activity log that ends deep work records the work; the next activity log after it must be an introspection.")),
		mcp.WithString(pMode, mcp.Required(), mcp.Enum("flexible", "strict"),
			mcp.Description(t.tr("flexible (until the next activity log; checkpoints still count) or strict (fixed minutes; inactivity, introspection and stale_id paused)."))),
		mcp.WithString(pActivityDesc, mcp.Required(), mcp.MinLength(minDescLen), mcp.MaxLength(maxDescLen),
			mcp.Description(t.trf("What you will work on, %d to %d characters on one line.", minDescLen, maxDescLen))),
		mcp.WithInteger(pPlannedDuration, mcp.Min(1), mcp.Max(float64(maxMin)),
			mcp.Description(t.trf("Strict mode only, and required there: planned length in whole minutes, 1 to %d. Leave it out for flexible mode.", maxMin))),
	)

	elapsedTool := mcp.NewTool("get_heartbeat_elapsed_time",
		mcp.WithToolTitle(t.tr("Get heartbeat elapsed time")), hints(true, false, true), mcp.WithOutputSchema[ElapsedResult](),
		mcp.WithDescription(t.trf("Read-only status: time since your latest activity log, checkpoint and introspection, deep work in force and time left, "+
			"each watchdog threshold (%s and %s without proof) and whether it is crossed, and the watchdog's current notices. Takes no parameters.", warn, errAt)),
	)

	startTool := mcp.NewTool("start_theme", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Start theme")), hints(false, false, false), mcp.WithOutputSchema[StartThemeResult](),
			mcp.WithDescription(t.tr("Start a long-running theme: creates artifacts/<current heartbeat ID>_<theme_directory_part>/histories/ (or under the parent theme's subthemes/), writes the start record in artifacts/theme_histories/, " +
				"and marks the themebox file it came from as processed. The reply gives theme_start_id and theme_directory_part to use in create_activity_log.")),
			mcp.WithString(pThemeName, mcp.Required(), mcp.MaxLength(maxThemeNameLen), mcp.Description(t.tr("The theme's title, one line."))),
			mcp.WithString(pThemePart, mcp.Required(), mcp.MaxLength(workspace.MaxPartLen),
				mcp.Description(t.tr("A short folder name for the theme, e.g. ai_research; the folder becomes artifacts/<current heartbeat ID>_<theme_directory_part>/. One folder name: no / or \\, no .., no leading dot."))),
			mcp.WithString(pReason, mcp.Required(), mcp.Description(t.tr("Why you start this theme, free text."))),
			mcp.WithArray(pActivityContent, mcp.WithStringItems(), mcp.Description(t.tr("Optional: what you did to start the theme, one item per point."))),
			mcp.WithString(pThemeboxFile, mcp.Description(t.tr("Optional: the name of the themebox/ file this theme comes from (e.g. next_theme.md); it is renamed to processed.<name>. Files starting with draft. are not ready: leave them."))),
		}, parent)...)

	endTool := mcp.NewTool("end_theme", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("End theme")), hints(false, false, false), mcp.WithOutputSchema[EndThemeResult](),
			mcp.WithDescription(t.tr("End a theme: writes its end record artifacts/theme_histories/<current heartbeat ID>_end_<theme_directory_part>.md. The theme folder must exist; it is kept as it is.")),
		}, theme, []mcp.ToolOption{
			mcp.WithString(pReason, mcp.Required(), mcp.Description(t.tr("Why the theme ends now, free text."))),
			mcp.WithArray(pAchievements, mcp.Required(), mcp.MinItems(1), mcp.WithStringItems(), mcp.Description(t.tr("What the theme achieved, one item per point (at least one)."))),
		})...)

	previewTool := mcp.NewTool("preview_next_theme",
		mcp.WithToolTitle(t.tr("Preview next theme")), hints(true, false, true), mcp.WithOutputSchema[InboxItemResult](),
		mcp.WithDescription(t.tr("Read-only: the next theme idea in themebox/ (the first *.md by name that is not draft. or processed.) and its text, and how many more wait. "+
			"Nothing changes; to take it, call start_theme with themebox_file. Takes no parameters.")),
	)
	itemTool := mcp.NewTool("check_and_process_item",
		mcp.WithToolTitle(t.tr("Check and process feedback")), hints(false, false, false), mcp.WithOutputSchema[InboxItemResult](),
		mcp.WithDescription(t.tr("Take the first unprocessed feedback file in feedbackbox/: the reply gives its text, and the file is renamed processed.<name> so it is handed over once. "+
			"Act on it, then record what you did in an activity log. Takes no parameters.")),
	)
	usageTool := mcp.NewTool("report_tool_usage",
		mcp.WithToolTitle(t.tr("Report tool usage")), hints(false, false, false), mcp.WithOutputSchema[ToolUsageResult](),
		mcp.WithDescription(t.trf("After using a rate-limited tool (a web search, an image API), report it: success starts its cooldown (%s), "+
			"quota_exceeded locks it (%s). The watchdog reminds you while the restriction lasts and lifts it by itself.",
			humanize.Duration(t.restrictions().Cooldown.D()), humanize.Duration(t.restrictions().Lock.D()))),
		mcp.WithString(pToolID, mcp.Required(), mcp.Pattern(toolIDRe.String()),
			mcp.Description(t.tr("The tool's ID, e.g. gemini.google.search: letters, digits, _, . and -."))),
		mcp.WithString(pStatus, mcp.Required(), mcp.Enum("success", "quota_exceeded"),
			mcp.Description(t.tr("success (it worked: cooldown) or quota_exceeded (its quota or rate limit hit: lock)."))),
	)

	ctxTool := mcp.NewTool("create_theme_expert_context", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Create theme expert context")), hints(false, false, false), mcp.WithOutputSchema[ThemeContextResult](),
			mcp.WithDescription(t.tr("Write the expert persona you take on for a theme into <theme folder>/contexts/<current heartbeat ID>.md: the expert's role, perspective, constraints and expected outcome. " +
				"The theme must exist (start_theme); an existing context is never overwritten. get_latest_theme_context reads it back.")),
			mcp.WithString(pThemeName, mcp.Required(), mcp.MaxLength(maxThemeNameLen), mcp.Description(t.tr("The theme's title, one line."))),
			mcp.WithString(pExpertRole, mcp.Required(), mcp.MaxLength(500), mcp.Description(t.tr("The expert you become for this theme, one line, e.g. a marine biologist who writes for children."))),
			mcp.WithArray(pExpertPerspective, mcp.Required(), mcp.MinItems(1), mcp.WithStringItems(), mcp.Description(t.tr("How this expert looks at the theme, one point per item (at least one)."))),
			mcp.WithArray(pConstraints, mcp.Required(), mcp.MinItems(1), mcp.WithStringItems(), mcp.Description(t.tr("What this expert must keep to, one point per item (at least one)."))),
			mcp.WithArray(pExpectedOutcome, mcp.Required(), mcp.MinItems(1), mcp.WithStringItems(), mcp.Description(t.tr("What the theme should produce, one point per item (at least one)."))),
		}, theme)...)
	latestCtxTool := mcp.NewTool("get_latest_theme_context", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Get latest theme context")), hints(true, false, true), mcp.WithOutputSchema[ThemeContextResult](),
			mcp.WithDescription(t.tr("Read-only: the newest expert context of a theme (<theme folder>/contexts/). A sub-theme without one of its own gets its parent theme's, marked inherited.")),
		}, theme)...)

	statusTool := mcp.NewTool("check_theme_status", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Check theme status")), hints(true, false, true), mcp.WithOutputSchema[ThemeStatus](),
			mcp.WithDescription(t.tr("Read-only: a theme's start record and name, whether it has ended, its activity log count and newest log, and its sub-themes (the same for each).")),
		}, theme, []mcp.ToolOption{
			mcp.WithBoolean(pIncludeSubthemes, mcp.Description(t.tr("Whether to report the sub-themes too; true when left out."))),
		})...)

	latestLogTool := mcp.NewTool("get_latest_activity_log", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("Get latest activity log")), hints(true, false, true), mcp.WithOutputSchema[LatestLogsResult](),
			mcp.WithDescription(t.tr("Read-only: the text of a theme's newest activity logs, newest first, to pick up where you left off.")),
		}, theme, []mcp.ToolOption{
			mcp.WithInteger(pNumLogs, mcp.Min(1), mcp.Max(maxNumLogs), mcp.Description(t.trf("How many of the newest logs to return, 1 to %d; 1 when left out.", maxNumLogs))),
		})...)
	artifactsTool := mcp.NewTool("list_theme_artifacts", opts(
		[]mcp.ToolOption{
			mcp.WithToolTitle(t.tr("List theme artifacts")), hints(true, false, true), mcp.WithOutputSchema[ArtifactsResult](),
			mcp.WithDescription(t.trf("Read-only: the files of a theme folder by path, with sizes and times; histories/ and sub-theme folders are left out. A page holds up to limit files (%d when left out); pass next_cursor as cursor for the next page.", defaultListLimit)),
		}, theme, []mcp.ToolOption{
			mcp.WithBoolean(pIncludeSubdirs, mcp.Description(t.tr("Whether to list the theme folder's own sub-folders too; false when left out."))),
			mcp.WithInteger(pLimit, mcp.Min(1), mcp.Max(maxListLimit), mcp.Description(t.trf("Files per page, 1 to %d; %d when left out.", maxListLimit, defaultListLimit))),
			mcp.WithString(pCursor, mcp.Description(t.tr("The next_cursor of the previous page, to get the page after it; leave it out for the first page."))),
		})...)

	for _, tool := range []*mcp.Tool{&latestLogTool, &artifactsTool, &statusTool, &ctxTool, &latestCtxTool, &previewTool, &itemTool,
		&usageTool, &logTool, &checkpointTool, &deepTool, &elapsedTool, &startTool, &endTool} {
		t.localizeOutput(tool)
	}
	return []server.ServerTool{
		{Tool: latestLogTool, Handler: handle(t, latestLogTool.Name, t.GetLatestActivityLog)},
		{Tool: artifactsTool, Handler: handle(t, artifactsTool.Name, t.ListThemeArtifacts)},
		{Tool: statusTool, Handler: handle(t, statusTool.Name, t.CheckThemeStatus)},
		{Tool: ctxTool, Handler: handle(t, ctxTool.Name, t.CreateThemeExpertContext)},
		{Tool: latestCtxTool, Handler: handle(t, latestCtxTool.Name, t.GetLatestThemeContext)},
		{Tool: previewTool, Handler: handle(t, previewTool.Name, t.PreviewNextTheme)},
		{Tool: itemTool, Handler: handle(t, itemTool.Name, t.CheckAndProcessItem)},
		{Tool: usageTool, Handler: handle(t, usageTool.Name, t.ReportToolUsage)},
		{Tool: logTool, Handler: handle(t, logTool.Name, t.CreateActivityLog)},
		{Tool: checkpointTool, Handler: handle(t, checkpointTool.Name, t.Checkpoint)},
		{Tool: deepTool, Handler: handle(t, deepTool.Name, t.StartDeepWork)},
		{Tool: elapsedTool, Handler: handle(t, elapsedTool.Name, t.GetHeartbeatElapsedTime)},
		{Tool: startTool, Handler: handle(t, startTool.Name, t.StartTheme)},
		{Tool: endTool, Handler: handle(t, endTool.Name, t.EndTheme)},
	}
}

// localizeOutput puts the descriptions of a tool's output schema (from the
// result types' jsonschema tags) into the agent's language.
func (t *Tools) localizeOutput(tool *mcp.Tool) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if s, ok := y.(string); ok && k == "description" {
					x[k] = t.tr(s)
				} else {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(tool.OutputSchema.Properties)
	walk(tool.OutputSchema.Defs)
}

// opts concatenates option lists.
func opts(lists ...[]mcp.ToolOption) []mcp.ToolOption {
	var out []mcp.ToolOption
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// handle adapts a domain method to an MCP handler: it passes the arguments,
// turns an InputError into an isError result the agent can act on, any
// other failure into an isError result saying nothing may have been recorded,
// and a panic into an isError result, so the server keeps serving.
func handle[R result](t *Tools, name string, run func(Args) (R, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		start := t.now()
		log := t.Log.With().Str("tool", name).Logger()
		defer func() {
			if p := recover(); p != nil {
				log.Error().Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
				res = mcp.NewToolResultError(t.trf("%s failed with an internal error (%v). This is a bug in mcp-heart; check the files it names before calling again.", name, p))
			}
		}()
		args, ok := req.Params.Arguments.(map[string]any)
		if req.Params.Arguments != nil && !ok {
			return mcp.NewToolResultError(t.tr("arguments: must be a JSON object of named parameters. Fix: pass the parameters listed in this tool's input schema by name.")), nil
		}
		out, err := run(Args(args))
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			log.Info().Str("problem", ie.Error()).Dur("took", t.now().Sub(start)).Msg("bad call")
			return mcp.NewToolResultError(ie.In(t.Lang)), nil
		case err != nil:
			log.Error().Err(err).Dur("took", t.now().Sub(start)).Msg("call failed")
			return mcp.NewToolResultError(t.trf("%s failed: %v. Check the workspace (permissions, disk space) and try again.", name, err)), nil
		}
		log.Info().Str("heartbeat_id", out.heartbeatID()).Dur("took", t.now().Sub(start)).Msg("call")
		return mcp.NewToolResultStructured(out, out.Text(t.Lang)), nil
	}
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
	s.AddTools(t.Definitions()...)
	return s
}
