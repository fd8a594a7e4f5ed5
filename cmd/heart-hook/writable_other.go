//go:build !unix

package main

// writable: without access(2), every file is taken as the agent's to
// write, and --mcp-heart names nothing but the mcp-heart next to heart-hook.
func writable(string) bool { return true }
