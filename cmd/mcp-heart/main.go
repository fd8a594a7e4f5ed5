// Command mcp-heart is the MCP server (stdio) an agent registers to prove it
// is consciously active: activity logs, checkpoints, deep work, themes.
package main

func main() {}
