package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// hookName is the name init gives heart-hook's hooks.
const hookName = "heart-hook"

// HooksOff: Gemini CLI 0.61 runs no hook when hooksConfig.enabled is false
// ("Canonical toggle for the hooks system"), and not the hooks whose name
// (or, without one, command) hooksConfig.disabled lists. It reads its
// settings with comments stripped (strip-json-comments): so are they here.
func (a Adapter) HooksOff() []client.HooksOff {
	events := client.WiredEvents(a.Setup(), SettingsFile)
	return []client.HooksOff{{Path: SettingsFile, Read: hooksOff, Wired: func(b []byte) []string {
		return client.MissingHooks(StripComments(b), events)
	}}}
}

func hooksOff(data []byte) ([]string, error) {
	root, err := client.Members(StripComments(data))
	if err != nil {
		return nil, err
	}
	out := client.CaseTwins(root, "hooksConfig", "hooks")
	raw, ok := root["hooksConfig"]
	if !ok || string(raw) == "null" {
		return out, nil
	}
	cfg, err := client.Members(raw)
	if err != nil {
		return nil, err
	}
	out = append(out, client.CaseTwins(cfg, "enabled", "disabled")...)
	if string(cfg["enabled"]) == "false" {
		out = append(out, "hooksConfig.enabled: false")
	}
	var disabled []any
	json.Unmarshal(cfg["disabled"], &disabled) // not a list: nothing disabled
	for _, d := range disabled {
		if name, _ := d.(string); strings.Contains(name, hookName) {
			out = append(out, "hooksConfig.disabled: "+name)
		}
	}
	return out, nil
}

// StripComments blanks the // and /* */ comments of JSONC outside strings,
// keeping every other byte where it was.
func StripComments(b []byte) []byte {
	out := []byte(nil)
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '*'):
			if out == nil {
				out = append([]byte(nil), b...)
			}
			end := len(b)
			if b[i+1] == '/' {
				for j := i; j < len(b); j++ {
					if b[j] == '\n' {
						end = j
						break
					}
				}
			} else if j := bytes.Index(b[i+2:], []byte("*/")); j >= 0 {
				end = i + 2 + j + 2
			}
			for j := i; j < end; j++ {
				if out[j] != '\n' && out[j] != '\r' {
					out[j] = ' '
				}
			}
			i = end - 1
		}
	}
	if out == nil {
		return b
	}
	return out
}
