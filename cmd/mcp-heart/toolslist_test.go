package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxToolsList bounds the tools/list reply: every client keeps it in its
// model's context for the whole session and decodes it at every start.
const maxToolsList = 20_000

// The real tools/list reply, as the binary sends it, in the workspace's
// language: under maxToolsList bytes, in that language alone (the activity
// types too), each long description said once, and each tool still
// declaring that its structured reply leads with "text", where every
// instruction is.
func TestToolsListIsSmall(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) {
			raw := rawReply(t, initWorkspace(t, l), "tools/list", map[string]any{})
			t.Logf("tools/list reply: %d bytes", len(raw))
			if len(raw) >= maxToolsList {
				t.Errorf("tools/list reply is %d bytes, want under %d", len(raw), maxToolsList)
			}
			var reply struct {
				Result struct {
					Tools []struct {
						Name         string `json:"name"`
						Description  string `json:"description"`
						InputSchema  schema `json:"inputSchema"`
						OutputSchema schema `json:"outputSchema"`
					} `json:"tools"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(raw), &reply); err != nil {
				t.Fatal(err)
			}
			if len(reply.Result.Tools) != 14 {
				t.Fatalf("%d tools, want 14", len(reply.Result.Tools))
			}
			seen := map[string]string{}
			once := func(where, d string) {
				if len([]rune(d)) < 60 {
					return // a short reminder may recur
				}
				if first, ok := seen[d]; ok {
					t.Errorf("%s repeats the description of %s: %q", where, first, d)
				}
				seen[d] = where
			}
			for _, tool := range reply.Result.Tools {
				once(tool.Name, tool.Description)
				for name, p := range tool.InputSchema.Properties {
					once(tool.Name+"."+name, p.Description)
					// Values that exist in both languages (the activity
					// types) are offered in the list's.
					ja, en := 0, 0
					for _, v := range p.Enum {
						if kana(v) {
							ja++
						} else {
							en++
						}
					}
					if ja > 0 && (en > 0 || l != lang.Japanese) {
						t.Errorf("%s.%s offers %v in a %s list", tool.Name, name, p.Enum, l)
					}
				}
				if p, ok := tool.OutputSchema.Properties["text"]; !ok || p.Type != "string" || len(tool.OutputSchema.Required) == 0 || tool.OutputSchema.Required[0] != "text" {
					t.Errorf("%s: the output schema does not lead with a required text: %+v", tool.Name, tool.OutputSchema)
				}
				// One schema with one $id for every tool: the TypeScript
				// SDK's clients compile a schema with an $id once.
				if first := reply.Result.Tools[0].OutputSchema; tool.OutputSchema.ID == "" || tool.OutputSchema.ID != first.ID {
					t.Errorf("%s: output schema $id %q, want one $id shared by every tool (the first's is %q)", tool.Name, tool.OutputSchema.ID, first.ID)
				}
			}
		})
	}
}

// schema is what the test reads of a JSON schema.
type schema struct {
	ID         string `json:"$id"`
	Type       any    `json:"type"`
	Properties map[string]struct {
		Type        any      `json:"type"`
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
	} `json:"properties"`
	Required []string `json:"required"`
}

func kana(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x3040 && r <= 0x30ff || r >= 0x4e00 && r <= 0x9fff })
}

// rawReply starts the binary on root, initializes, and returns the reply
// line to one request of method, byte for byte.
func rawReply(t *testing.T, root, method string, params any) string {
	t.Helper()
	cmd := exec.Command(bin(), "--workspace", root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	r := bufio.NewReaderSize(out, 1<<20)
	send := func(id int, method string, params any) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := in.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return strings.TrimSuffix(line, "\n")
	}
	send(0, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "toolslist", "version": "1"}})
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return send(1, method, params)
}

// BenchmarkToolsListClient is tools/list through mcp-go's client over
// stdio against the real binary, in each language: the request, the reply
// through the pipe, and the client's decoding of it. "first" is a new
// session's first list (the binary started and initialized, untimed);
// "again" a list on an open session.
//
//	go test -run '^$' -bench ToolsListClient -benchtime 200x ./cmd/mcp-heart
func BenchmarkToolsListClient(b *testing.B) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		root := b.TempDir()
		ws, err := workspace.New(root, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := ws.EnsureSkeleton(); err != nil {
			b.Fatal(err)
		}
		if err := ws.WriteFile(workspace.LanguageFile, []byte(string(l)+"\n")); err != nil {
			b.Fatal(err)
		}
		connect := func(b *testing.B) (*client.Client, context.Context) {
			c, err := client.NewStdioMCPClient(bin(), nil, "--workspace", root)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			b.Cleanup(cancel)
			req := mcp.InitializeRequest{}
			req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			req.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
			if _, err := c.Initialize(ctx, req); err != nil {
				b.Fatal(err)
			}
			return c, ctx
		}
		list := func(b *testing.B, c *client.Client, ctx context.Context) {
			res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(res.Tools) != 14 {
				b.Fatalf("tools/list: %v, %d tools", err, len(res.Tools))
			}
		}
		b.Run(fmt.Sprintf("%s/first", l), func(b *testing.B) {
			var took time.Duration
			for range b.N {
				c, ctx := connect(b)
				t0 := time.Now()
				list(b, c, ctx)
				took += time.Since(t0)
				c.Close()
			}
			b.ReportMetric(float64(took.Microseconds())/float64(b.N)/1000, "list-ms")
		})
		b.Run(fmt.Sprintf("%s/again", l), func(b *testing.B) {
			c, ctx := connect(b)
			defer c.Close()
			list(b, c, ctx)
			b.ResetTimer()
			for range b.N {
				list(b, c, ctx)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "list-ms")
		})
	}
}
