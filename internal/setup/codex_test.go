package setup

import (
	"strings"
	"testing"
)

// TestMergeCodexConfig: the TOML merge edits text, so comments, order and
// the keys of the mcp-heart table init does not own survive; a document it
// cannot edit safely is an error, never a rewrite.
func TestMergeCodexConfig(t *testing.T) {
	w := Wiring{Dir: "/home/ai/ai-works", MCPHeart: "/usr/bin/mcp-heart"}
	ours := "command = '/usr/bin/mcp-heart'\nargs = ['--workspace', '/home/ai/ai-works']\n"
	tests := []struct {
		name, old, want, wantErr string
	}{
		{"empty", "", "[mcp_servers.mcp-heart]\n" + ours, ""},
		{"no final newline", "model = \"o3\"", "model = \"o3\"\n\n[mcp_servers.mcp-heart]\n" + ours, ""},
		{"already there", "[mcp_servers.mcp-heart]\n" + ours, "[mcp_servers.mcp-heart]\n" + ours, ""},
		{"moved binary, comments and env kept",
			"# top\n[mcp_servers.\"mcp-heart\"] # ours\n# why\ncommand = \"/old/mcp-heart\" # old\nenv = { A = \"1\" }\nargs = [\"--workspace\", \"/old\"]\n\n[mcp_servers.other]\ncommand = \"x\"\n",
			"# top\n[mcp_servers.\"mcp-heart\"] # ours\n# why\ncommand = '/usr/bin/mcp-heart'\nenv = { A = \"1\" }\nargs = ['--workspace', '/home/ai/ai-works']\n\n[mcp_servers.other]\ncommand = \"x\"\n", ""},
		{"table without args", "[mcp_servers.mcp-heart]\ncommand = \"/old/mcp-heart\"\n",
			"[mcp_servers.mcp-heart]\nargs = ['--workspace', '/home/ai/ai-works']\ncommand = '/usr/bin/mcp-heart'\n", ""},
		{"dotted keys elsewhere", "[mcp_servers]\nmcp-heart.command = \"/old\"\n", "", "by hand"},
		{"multi-line args", "[mcp_servers.mcp-heart]\ncommand = \"/old\"\nargs = [\n  \"--workspace\",\n  \"/old\",\n]\n", "", "by hand"},
		{"inline servers", "mcp_servers = { other = { command = \"x\" } }\n", "", "by hand"},
		{"not TOML", "[mcp_servers\n", "", "not valid TOML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mergeCodexConfig([]byte(tt.old), w, new(notes))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("mergeCodexConfig(%q) = %q, %v; want an error with %q", tt.old, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("mergeCodexConfig(%q) =\n%s\n(%v), want\n%s", tt.old, got, err, tt.want)
			}
		})
	}
}
