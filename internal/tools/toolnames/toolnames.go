// Package toolnames is the one list of mcp-heart's tool names. Package
// tools defines a tool under each (and only these); heart-hook, which runs
// on the agent's critical path and links the standard library alone, knows
// mcp-heart's tools by them: a spent budget refuses every other tool, and
// init's Claude Code allow rule grants these, one by one.
package toolnames

// mcp-heart's tools.
const (
	GetLatestActivityLog     = "get_latest_activity_log"
	ListThemeArtifacts       = "list_theme_artifacts"
	CheckThemeStatus         = "check_theme_status"
	CreateThemeExpertContext = "create_theme_expert_context"
	GetLatestThemeContext    = "get_latest_theme_context"
	PreviewNextTheme         = "preview_next_theme"
	CheckAndProcessItem      = "check_and_process_item"
	ReportToolUsage          = "report_tool_usage"
	CreateActivityLog        = "create_activity_log"
	Checkpoint               = "checkpoint"
	StartDeepWork            = "start_deep_work"
	GetHeartbeatElapsedTime  = "get_heartbeat_elapsed_time"
	StartTheme               = "start_theme"
	EndTheme                 = "end_theme"
)

// All lists every tool mcp-heart serves, in the order it lists them.
var All = []string{
	GetLatestActivityLog, ListThemeArtifacts, CheckThemeStatus, CreateThemeExpertContext,
	GetLatestThemeContext, PreviewNextTheme, CheckAndProcessItem, ReportToolUsage,
	CreateActivityLog, Checkpoint, StartDeepWork, GetHeartbeatElapsedTime, StartTheme, EndTheme,
}

// Is reports whether name is one of mcp-heart's tools.
func Is(name string) bool {
	for _, n := range All {
		if n == name {
			return true
		}
	}
	return false
}
