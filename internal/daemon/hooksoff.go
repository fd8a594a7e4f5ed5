package daemon

import (
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clients"
)

// The budget gate and every hook live in files the agent can write, and
// one setting there turns them all off (Claude Code's disableAllHooks in
// .claude/settings.local.json, Gemini CLI's hooksConfig, Codex's features).
// Each pulse reads the client's files that can (each adapter names them)
// and hands what turns the hooks off to the check hooks_off.

// hooksOff lists the settings that turn the hooks off in the workspace's
// files of the client named name (every client's when it is not known
// yet).
func (a *agent) hooksOff(name string) []checks.HookSwitch {
	return HooksOff(a.ws.Root, name)
}

// HooksOff is what the check hooks_off takes: the settings in the workspace
// at root that turn off the hooks of the client named name ("" for every
// client's). `watchdog check` reads them too.
func HooksOff(root, name string) []checks.HookSwitch {
	var out []checks.HookSwitch
	for _, s := range clients.HooksOffIn(root, name) {
		out = append(out, checks.HookSwitch{File: s.File, Setting: s.Setting})
	}
	return out
}
