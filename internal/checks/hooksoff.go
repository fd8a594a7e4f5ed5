package checks

import (
	"fmt"
	"strings"
)

// HookSwitch is a setting in a client file of the workspace that turns the
// client's hooks off: the file (workspace-relative) and the setting.
type HookSwitch struct{ File, Setting string }

// hooksOff is an error while a setting in the workspace turns the client's
// hooks off: heart-hook then hears nothing, and the budget gate, which is
// one of the hooks, refuses nothing. The agent can write those files, so
// this is the operator's to know at once. For the operator only: no notice.
func (e *eval) hooksOff() Finding {
	f := Finding{Check: HooksOff, Message: "no setting in the workspace turns the client's hooks off"}
	if len(e.cfg.HooksOff) == 0 {
		return f
	}
	var said []string
	for _, s := range e.cfg.HooksOff {
		said = append(said, s.File+" ("+s.Setting+")")
	}
	f.Level = Error
	f.Message = fmt.Sprintf("the client's hooks are turned off by %s: heart-hook hears no turn or tool call, and the budget gate "+
		"(budget.enforce: turn) refuses nothing; remove the setting (the agent can write this file)", strings.Join(said, ", "))
	return f
}
