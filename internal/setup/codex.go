package setup

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// mcpHeartTable matches the header of [mcp_servers.mcp-heart], its name
// bare or quoted.
var mcpHeartTable = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:mcp-heart|"mcp-heart"|'mcp-heart')[ \t]*\][ \t]*(?:#.*)?$`)

// mergeCodexConfig adds [mcp_servers.mcp-heart] to a Codex config.toml.
// It edits the text rather than re-encoding the document, so the user's
// comments, order and formatting stay: a missing table is appended; an
// existing one has its command and args lines replaced where they are
// init's own (a command or args the user set are kept, with a note, as in
// the JSON files). The result is parsed back and must equal the old
// document with only those keys changed, else nothing is written and the
// error says what to set by hand.
func mergeCodexConfig(old []byte, w Wiring, n *notes) ([]byte, error) {
	var before map[string]any
	if err := toml.Unmarshal(old, &before); err != nil {
		return nil, fmt.Errorf("not valid TOML (%v): fix or move it, then run init again", err)
	}
	if before == nil {
		before = map[string]any{}
	}
	srv, _ := dig(before, "mcp_servers", ServerName)
	var command, args any = w.MCPHeart, []any{"--workspace", w.Dir}
	if srv != nil {
		command, args = mcpHeartArgv(w, n, srv["command"], srv["args"])
		if reflect.DeepEqual(srv["command"], command) && reflect.DeepEqual(srv["args"], args) {
			return old, nil
		}
	}
	var out []byte
	if loc := mcpHeartTable.FindIndex(old); srv != nil && loc != nil {
		change := map[string]any{}
		if !reflect.DeepEqual(srv["command"], command) {
			change["command"] = command
		}
		if !reflect.DeepEqual(srv["args"], args) {
			change["args"] = args
		}
		kvs, err := toml.Marshal(change)
		if err != nil {
			return nil, err
		}
		out = replaceTableKeys(old, loc[1], kvs)
	} else {
		kvs, err := toml.Marshal(struct {
			Command string   `toml:"command"`
			Args    []string `toml:"args"`
		}{w.MCPHeart, []string{"--workspace", w.Dir}})
		if err != nil {
			return nil, err
		}
		out = appendTable(old, append([]byte("[mcp_servers.mcp-heart]\n"), kvs...))
	}
	if err := checkCodexMerge(before, out, command, args); err != nil {
		return nil, fmt.Errorf("cannot add mcp-heart without changing other settings (%v): set [mcp_servers.mcp-heart] command = %q, args = [\"--workspace\", %q] by hand", err, w.MCPHeart, w.Dir)
	}
	return out, nil
}

// appendTable is a TOML document's text with table after it, a blank line
// between them: the user's text stays byte for byte.
func appendTable(doc, table []byte) []byte {
	out := append([]byte{}, doc...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if len(bytes.TrimSpace(out)) > 0 {
		out = append(out, '\n')
	}
	return append(out, table...)
}

// replaceTableKeys rewrites the single-line command and args keys of the
// table whose header ends at start, up to the next header; kvs holds the
// new "command = …" and "args = …" lines. A key not found is added after
// the header.
func replaceTableKeys(doc []byte, start int, kvs []byte) []byte {
	body := doc[start:]
	end := len(body)
	if m := regexp.MustCompile(`(?m)^[ \t]*\[`).FindIndex(body); m != nil {
		end = m[0]
	}
	section := string(body[:end])
	var missing []string
	for _, line := range strings.Split(strings.TrimSpace(string(kvs)), "\n") {
		key := strings.TrimSpace(line[:strings.IndexByte(line, '=')])
		re := regexp.MustCompile(`(?m)^[ \t]*` + key + `[ \t]*=.*$`)
		if re.MatchString(section) {
			section = re.ReplaceAllLiteralString(section, line)
		} else {
			missing = append(missing, line)
		}
	}
	if len(missing) > 0 {
		section = "\n" + strings.Join(missing, "\n") + section
	}
	out := append([]byte{}, doc[:start]...)
	out = append(out, section...)
	return append(out, body[end:]...)
}

// checkCodexMerge parses the merged text and compares it with the old
// document plus mcp-heart's command and args.
func checkCodexMerge(before map[string]any, merged []byte, command, args any) error {
	var after map[string]any
	if err := toml.Unmarshal(merged, &after); err != nil {
		return err
	}
	want := deepCopy(before).(map[string]any)
	servers, ok := want["mcp_servers"].(map[string]any)
	if !ok {
		if _, there := want["mcp_servers"]; there {
			return errors.New("mcp_servers is not a table")
		}
		servers = map[string]any{}
		want["mcp_servers"] = servers
	}
	srv, ok := servers[ServerName].(map[string]any)
	if !ok {
		srv = map[string]any{}
		servers[ServerName] = srv
	}
	srv["command"] = command
	srv["args"] = args
	if !reflect.DeepEqual(after, want) {
		return errors.New("the merged file reads differently")
	}
	return nil
}

// dig follows table keys down a decoded TOML document.
func dig(m map[string]any, keys ...string) (map[string]any, bool) {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	return m, true
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, e := range t {
			c[k] = deepCopy(e)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = deepCopy(e)
		}
		return c
	default:
		return v
	}
}
