package clients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// codexMCPNamespace is the namespace Codex 0.169 gives mcp-heart's tools in
// the Responses API's tools list: "mcp__" and the server's name with "-"
// made "_". A call names the namespace and the bare tool; its hooks see
// the two joined, mcp__mcp_heart__checkpoint.
const codexMCPNamespace = "mcp__mcp_heart"

// codexStandIn answers Codex CLI's streaming Responses API (POST
// /v1/responses with "stream": true, one request per model step, the tool
// results sent back as function_call_output items in the next request's
// input), following s. Fail is not played: Codex retries on its own, which
// no test here needs yet.
func codexStandIn(t testing.TB, s *script) string {
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
			// Model lists and the like: Codex carries on without them.
			http.NotFound(w, r)
			return
		}
		if enc := r.Header.Get("Content-Encoding"); enc != "" {
			// A compressed body would read as no tool results at all.
			t.Errorf("codex stand-in: request body is %s-encoded; only plain JSON is read", enc)
			http.Error(w, "compressed request", http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Stream bool              `json:"stream"`
			Tools  []json.RawMessage `json:"tools"`
			Input  []struct {
				Type    string          `json:"type"`
				Role    string          `json:"role"`
				Output  json.RawMessage `json:"output"` // function_call_output: text, or content items for MCP tools
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"input"`
		}
		if err := json.Unmarshal(body, &req); err != nil || !req.Stream {
			t.Errorf("codex stand-in: want a streaming Responses request, got %.300s", body)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		step := 0
		var last, prompt string
		for _, it := range req.Input {
			switch {
			case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
				step++
				last = string(it.Output)
			case s.PerTurn && it.Type == "message" && it.Role == "user" && len(it.Content) > 0 && strings.HasPrefix(it.Content[0].Text, "Heartbeat: "):
				// A heartbeat the watchdog typed (Codex also sends its
				// instructions and context as user messages).
				step, prompt = 0, it.Content[0].Text
			}
		}
		s.heard(step, prompt, last)

		item := map[string]any{"type": "message", "id": "msg_final", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": s.Final, "annotations": []any{}}}}
		if step < len(s.Calls) {
			c := s.Calls[step]
			args, _ := json.Marshal(c.Args)
			if c.Args == nil {
				args = []byte("{}")
			}
			n := toolUseID.Add(1) // one id per call across turns
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
				"name": c.Tool, "namespace": codexMCPNamespace, "arguments": string(args), "status": "completed"}
			if c.Builtin != "" {
				item["name"] = c.Builtin
				delete(item, "namespace")
			}
			if len(req.Tools) == 0 {
				item = codeModeCall(step, c, args)
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(typ string, v map[string]any) {
			v["type"] = typ
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		}
		id := fmt.Sprintf("resp_%d", step)
		ev("response.created", map[string]any{"response": map[string]any{"id": id, "status": "in_progress"}})
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": item})
		ev("response.output_item.done", map[string]any{"output_index": 0, "item": item})
		// Codex ends the step only on response.completed, and takes the
		// step's usage from it.
		ev("response.completed", map[string]any{"response": map[string]any{"id": id, "status": "completed",
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 2},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 1}, "total_tokens": 15}}})
	}))
}

// codeModeCall is c as Codex's "code mode" takes it, which 0.169 uses for
// its default model: the request has no tools list, only one freeform
// "exec" tool (in an additional_tools input item) that runs JavaScript
// calling every tool through a global tools object (tools.exec_command,
// tools.mcp__mcp_heart__checkpoint). The script hands the tool's reply
// back as text.
func codeModeCall(step int, c call, args []byte) map[string]any {
	name := c.Builtin
	if name == "" {
		name = codexMCPNamespace + "__" + c.Tool
	}
	js := fmt.Sprintf("const r = await tools.%s(%s);\ntext(typeof r === \"string\" ? r : JSON.stringify(r));", name, args)
	return map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", step), "call_id": fmt.Sprintf("call_%d", step),
		"name": "exec", "input": js, "status": "completed"}
}
