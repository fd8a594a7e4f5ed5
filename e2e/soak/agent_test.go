//go:build soak

package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The stand-in agent: this test binary run as
// `soak.test soak-agent RUNDIR "{prompt}"` by the watchdog's exec delivery.
// It reads its settings from RUNDIR/agent.json, picks a behaviour, and
// keeps its own ledger in RUNDIR/ledger (off the small disk): every start,
// end and SIGTERM; every tool call's reply with its token; every usage it
// reported.

const agentMode = "soak-agent"

// agentSettings is what the driver tells every run.
type agentSettings struct {
	Workspace string `json:"workspace"`
	MCPHeart  string `json:"mcp_heart"`
	Seed      uint64 `json:"seed"`
	OTLP      string `json:"otlp"` // the telemetry URL, with the agent's key
	ThemeID   string `json:"theme_id"`
	Hour      string `json:"hour"` // an agent hour, as a Go duration
}

// Behaviours and their weights.
var behaviours = []struct {
	name   string
	weight int
}{
	{"healthy", 34}, {"slow", 14}, {"stall", 10}, {"hang", 6}, {"fail", 10}, {"idle", 16}, {"refused", 5}, {"telemetry", 5},
}

// Ledger records, one JSON line each.
type runRec struct {
	Ev        string    `json:"ev"` // start, end, sigterm
	PID       int       `json:"pid"`
	PGID      int       `json:"pgid"`
	At        time.Time `json:"at"`
	Behaviour string    `json:"behaviour,omitempty"`
	Others    []int     `json:"others,omitempty"` // other live agents seen at start
	Code      int       `json:"code,omitempty"`
}

type ackRec struct {
	PID   int       `json:"pid"`
	Tool  string    `json:"tool"`
	Token string    `json:"token"`
	OK    bool      `json:"ok"`
	Path  string    `json:"path,omitempty"`
	Err   string    `json:"err,omitempty"`
	At    time.Time `json:"at"`
}

type usageRec struct {
	PID    int   `json:"pid"`
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

var ledgerMu sync.Mutex

func appendJSON(path string, v any) {
	b, _ := json.Marshal(v)
	ledgerMu.Lock()
	defer ledgerMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// agentMain is the stand-in agent's whole run; it returns the exit code.
func agentMain(args []string) int {
	if len(args) < 1 {
		return 2
	}
	run := args[0]
	var set agentSettings
	b, err := os.ReadFile(filepath.Join(run, "agent.json"))
	if err != nil || json.Unmarshal(b, &set) != nil {
		return 2
	}
	hour, _ := time.ParseDuration(set.Hour)
	led := filepath.Join(run, "ledger")
	pid := os.Getpid()
	pgid, _ := syscall.Getpgid(0)
	rng := rand.New(rand.NewPCG(set.Seed, uint64(pid)))
	beh := pick(rng)
	if f, err := os.ReadFile(filepath.Join(run, "force")); err == nil {
		if s := strings.TrimSpace(string(f)); s != "" {
			beh = s
			if !strings.HasSuffix(s, "!") { // "fail!" holds for a burst; others once
				os.Remove(filepath.Join(run, "force"))
			}
			beh = strings.TrimSuffix(beh, "!")
		}
	}
	ignoreTerm := beh == "hang" && rng.IntN(2) == 0
	appendJSON(filepath.Join(led, "runs.jsonl"), runRec{Ev: "start", PID: pid, PGID: pgid, At: time.Now(), Behaviour: beh, Others: otherAgents(pid)})
	end := func(code int) int {
		appendJSON(filepath.Join(led, "runs.jsonl"), runRec{Ev: "end", PID: pid, At: time.Now(), Code: code})
		return code
	}
	term := make(chan os.Signal, 1)
	if ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	} else {
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			<-term
			appendJSON(filepath.Join(led, "runs.jsonl"), runRec{Ev: "sigterm", PID: pid, At: time.Now()})
			os.Exit(143)
		}()
	}
	out := json.NewEncoder(os.Stdout)
	out.Encode(map[string]any{"type": "system", "subtype": "init", "session_id": fmt.Sprint(pid), "model": "soak-model"})
	ctx := context.Background()
	var mc *client.Client
	call := func(tool string, a map[string]any) {
		token := fmt.Sprintf("tok-%d-%d", pid, rng.Uint32())
		switch tool {
		case "checkpoint":
			a = map[string]any{"current_activity": "soak " + token}
		case "create_activity_log":
			a = map[string]any{"activity_type": "observation", "activity_content": []string{"soak " + token}, "theme_start_id": set.ThemeID, "theme_directory_part": "soak"}
		}
		out.Encode(map[string]any{"type": "assistant", "message": map[string]any{"id": token, "model": "soak-model",
			"content": []any{map[string]any{"type": "tool_use", "id": token, "name": "mcp__mcp-heart__" + tool}}}})
		rec := ackRec{PID: pid, Tool: tool, Token: token}
		if mc == nil {
			c, err := client.NewStdioMCPClient(set.MCPHeart, nil, "--workspace", set.Workspace)
			if err == nil {
				ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
				req := mcp.InitializeRequest{}
				req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
				req.Params.ClientInfo = mcp.Implementation{Name: "soak-agent", Version: "1"}
				_, err = c.Initialize(ictx, req)
				cancel()
				if err != nil {
					c.Close()
				} else {
					mc = c
				}
			}
			if mc == nil {
				rec.Err, rec.At = fmt.Sprint("start mcp-heart: ", err), time.Now()
				appendJSON(filepath.Join(led, "acks.jsonl"), rec)
				return
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, a
		res, err := mc.CallTool(cctx, req)
		rec.At = time.Now()
		switch {
		case err != nil:
			rec.Err = err.Error()
		case res.IsError:
			rec.Err = replyText(res)
		default:
			rec.OK = true
			if m, ok := res.StructuredContent.(map[string]any); ok {
				rec.Path, _ = m["path"].(string)
			}
		}
		appendJSON(filepath.Join(led, "acks.jsonl"), rec)
		out.Encode(map[string]any{"type": "user", "message": map[string]any{"content": []any{map[string]any{"type": "tool_result", "tool_use_id": token}}}})
	}
	defer func() {
		if mc != nil {
			mc.Close()
		}
	}()
	child := func(d time.Duration) *exec.Cmd { // a tool child, in the run's process group
		c := exec.Command("sleep", strconv.FormatFloat(d.Seconds(), 'f', 2, 64))
		if c.Start() != nil {
			return nil
		}
		return c
	}
	reply, refused := "did a step of the work", false
	switch beh {
	case "healthy", "telemetry":
		call("checkpoint", nil)
		if rng.IntN(3) == 0 {
			if c := child(time.Duration(500+rng.IntN(2500)) * time.Millisecond); c != nil {
				c.Wait()
			}
		}
		call("create_activity_log", nil)
		if beh == "telemetry" {
			postTelemetry(set.OTLP, pid, led)
		}
	case "slow":
		call("checkpoint", nil)
		time.Sleep(hour * time.Duration(55+rng.IntN(30)) / 100)
		call("checkpoint", nil)
		time.Sleep(hour * time.Duration(55+rng.IntN(30)) / 100)
		call("create_activity_log", nil)
	case "stall":
		time.Sleep(7 * hour) // no proof: recovery or the timeout ends it
	case "hang":
		child(17 * hour)
		for i := 0; i < 20; i++ {
			call("checkpoint", nil)
			time.Sleep(hour * 85 / 100)
		}
	case "fail":
		return end(3)
	case "idle":
		reply = "[IDLE]"
	case "refused":
		refused = true
	}
	in, outT := int64(1000+rng.IntN(8000)), int64(100+rng.IntN(800))
	appendJSON(filepath.Join(led, "usage.jsonl"), usageRec{PID: pid, Input: in, Output: outT})
	res := map[string]any{"type": "result", "subtype": "success", "result": reply,
		"usage":      map[string]any{"input_tokens": in, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0, "output_tokens": outT},
		"modelUsage": map[string]any{"soak-model": map[string]any{"inputTokens": in, "outputTokens": outT, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0}}}
	if refused {
		res["permission_denials"] = []any{map[string]any{"tool_name": "Bash"}}
	}
	out.Encode(map[string]any{"type": "assistant", "message": map[string]any{"id": "final", "model": "soak-model", "content": []any{map[string]any{"type": "text", "text": reply}}}})
	out.Encode(res)
	return end(0)
}

func pick(rng *rand.Rand) string {
	total := 0
	for _, b := range behaviours {
		total += b.weight
	}
	n := rng.IntN(total)
	for _, b := range behaviours {
		if n < b.weight {
			return b.name
		}
		n -= b.weight
	}
	return "healthy"
}

func replyText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// otherAgents lists the stand-in agents alive beside this one.
func otherAgents(self int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !bytes.Contains(b, []byte("\x00"+agentMode+"\x00")) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if pid != self && pid != 0 {
			out = append(out, pid)
		}
	}
	return out
}

// postTelemetry sends one OTLP/JSON log record, a prompt event (no usage,
// so the ledger's counts stay the stream's), as Claude Code exports it.
func postTelemetry(url string, pid int, led string) {
	body := fmt.Sprintf(`{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claude-code"}}]},"scopeLogs":[{"logRecords":[{"timeUnixNano":"%d","body":{"stringValue":"claude_code.user_prompt"},"attributes":[{"key":"event.name","value":{"stringValue":"user_prompt"}},{"key":"session.id","value":{"stringValue":"%d"}},{"key":"prompt","value":{"stringValue":"<REDACTED>"}}]}]}]}]}`, time.Now().UnixNano(), pid)
	c := http.Client{Timeout: 5 * time.Second}
	code := 0
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err == nil {
		code = resp.StatusCode
		resp.Body.Close()
	}
	appendJSON(filepath.Join(led, "telemetry.jsonl"), map[string]any{"pid": pid, "code": code, "at": time.Now()})
}
