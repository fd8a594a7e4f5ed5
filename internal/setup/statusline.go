package setup

// statusLineCommand is heart-hook's status line for the client name: it
// reads the rate limits Claude Code hands its status line, and prints a
// short status.
func (w Wiring) statusLineCommand(name string) string {
	return shQuote(w.HeartHook) + " --client " + name + " --statusline --workspace " + shQuote(w.Dir)
}

// setStatusLine makes heart-hook the settings' statusLine. One of the
// user's own is kept, with a note on how to chain it through heart-hook.
func (w Wiring) setStatusLine(name string, root *object, n *notes) error {
	cmd := w.statusLineCommand(name)
	if v, ok := root.get("statusLine"); ok {
		o, isObj := v.(*object)
		if !isObj {
			n.add("statusLine %s is kept as you set it; the watchdog reads the rate limits from heart-hook's status line", jsonText(v))
			return nil
		}
		if c, _ := o.get("command"); c != nil {
			if s, _ := c.(string); !isHeartHook(s) {
				n.add("statusLine (%s) is kept as you set it; to let the watchdog read the rate limits too, chain it through heart-hook, which hands it the same input and prints what it prints: %s -- sh -c %s", s, cmd, shQuote(s))
				return nil
			}
		}
	}
	root.set("statusLine", objectOf(kv{"type", "command"}, kv{"command", cmd}, kv{"padding", 0}))
	return nil
}
