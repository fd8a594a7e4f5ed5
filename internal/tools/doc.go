// Package tools is the domain of mcp-heart: its 14 tools, the six of the
// heartbeat (create_activity_log, checkpoint, start_deep_work,
// get_heartbeat_elapsed_time, start_theme, end_theme) and the eight of the
// old system's theme server (preview_next_theme, check_and_process_item,
// report_tool_usage, create_theme_expert_context, get_latest_theme_context,
// check_theme_status, get_latest_activity_log, list_theme_artifacts), as
// plain methods on Tools that take validated inputs and return typed
// results, plus the thin adapter in mcp.go that turns them into MCP tools.
//
// Caveats:
//   - The current heartbeat ID is always read from
//     stats/current_heartbeat_id.txt; the agent never supplies it.
//   - No call walks the activity history: the last log, introspection and
//     checkpoint come from the latest-proof index (stats/latest_proof.json),
//     which every write updates. Only stats/deep_work is listed.
//   - A bad call writes nothing: every input is checked before the first
//     write. A failure after a write (for example the index update) is
//     reported but leaves the written file in place.
package tools
