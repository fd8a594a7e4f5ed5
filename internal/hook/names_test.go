package hook

// Client names for the spool's tests (the clients' adapters, which own
// them, import this package).
const (
	ClaudeCode = "claude-code"
	Gemini     = "gemini"
)
