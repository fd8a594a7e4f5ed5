package client

// HooksOff is a workspace file in which a setting of the client's turns its
// hooks off, all of them or heart-hook's: the budget gate and every hook
// live in files the agent can write, so the watchdog reads them and says
// so (the check hooks_off).
type HooksOff struct {
	Path string // workspace-relative, slash-separated
	// Read lists the settings in the file's content that turn the hooks
	// off, as "key: value" ("disableAllHooks: true"); none when it turns
	// none off or is not a file the client would read.
	Read func(data []byte) []string
}
