package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/lang"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript_*.txtar from what the binary says now")

// TestTranscript pins mcp-heart's protocol, in English and in Japanese: the
// exact JSON-RPC the real binary writes on stdout, driven over stdio by
// mcp-go's client, for initialize, tools/list, one good call per tool and
// bad calls (unknown parameter, wrong type, out of bounds, several problems
// at once, the lenient forms real clients send). The transcripts live in
// testdata/transcript_<lang>.txtar; `go test -run Transcript -update
// ./cmd/mcp-heart` rewrites them once a change is meant, and the diff shows
// the agent-visible change.
//
// The binary runs on the real clock, so what depends on the time is
// normalised before comparing (see normalise): timestamps, clock times,
// elapsed seconds and durations of a few seconds, and the build's version.
func TestTranscript(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) {
			got := transcript(t, l)
			golden := filepath.Join("testdata", "transcript_"+string(l)+".txtar")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			gotA, wantA := parseTxtar(got), parseTxtar(want)
			for i := range max(len(gotA), len(wantA)) {
				switch {
				case i >= len(gotA):
					t.Errorf("missing exchange %s", wantA[i].name)
				case i >= len(wantA):
					t.Errorf("new exchange %s", gotA[i].name)
				case gotA[i].name != wantA[i].name || gotA[i].data != wantA[i].data:
					t.Errorf("exchange %s changed (-update rewrites the golden once meant):\n%s", gotA[i].name, lineDiff(gotA[i].data, wantA[i].data))
				}
			}
		})
	}
}

// step is one exchange: a method and its params, for a call the tool's
// name and arguments.
type step struct {
	name   string
	method string
	tool   string
	args   any
}

// transcriptSteps are the exchanges after initialize and tools/list. The
// arguments are the same in both languages: the agent's words are its own.
func transcriptSteps() []step {
	theme := func(extra string) json.RawMessage {
		return json.RawMessage(`{"theme_start_id":"` + curID + `","theme_directory_part":"tides"` + extra + `}`)
	}
	old := func(extra string) json.RawMessage {
		return json.RawMessage(`{"theme_start_id":"` + themeID + `","theme_directory_part":"` + themePart + `"` + extra + `}`)
	}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	return []step{
		// One good call per tool, some in the forms sloppy clients send.
		{"elapsed", "tools/call", "get_heartbeat_elapsed_time", nil},
		{"preview", "tools/call", "preview_next_theme", raw(`{}`)},
		{"start theme, one string for a list, themebox/ prefix", "tools/call", "start_theme", raw(`{"theme_name":" Tides\nand moons ","theme_directory_part":"tides","reason":"from the themebox","activity_content":"read the idea","themebox_file":"themebox/idea.md","parent_theme_start_id":"","parent_theme_directory_part":null}`)},
		{"expert context", "tools/call", "create_theme_expert_context", theme(`,"theme_name":"Tides","expert_role":"an oceanographer","expert_perspective":["forces"],"constraints":"cite tables","expected_outcome":["a diagram",""," "]`)},
		{"latest context", "tools/call", "get_latest_theme_context", theme(``)},
		{"checkpoint, newline flattened", "tools/call", "checkpoint", raw(`{"current_activity":"reading\nthe tables"}`)},
		{"deep work, mode in capitals, minutes as a string", "tools/call", "start_deep_work", raw(`{"mode":"Strict","activity_description":"checking the tide tables","planned_duration_minutes":"20"}`)},
		{"activity log, loose type, ./ artifact, null evaluation", "tools/call", "create_activity_log", theme(`,"activity_type":"**Thinking**","activity_content":["read about the Moon"],"artifacts":["./themebox/processed.idea.md"],"evaluation":null`)},
		{"theme status", "tools/call", "check_theme_status", theme(`,"include_subthemes":false`)},
		{"latest logs, a whole float", "tools/call", "get_latest_activity_log", theme(`,"num_logs":2.0`)},
		{"artifacts", "tools/call", "list_theme_artifacts", old(`,"include_subdirectories":true,"limit":"5"`)},
		{"feedback", "tools/call", "check_and_process_item", raw(`{}`)},
		{"tool usage", "tools/call", "report_tool_usage", raw(`{"tool_id":"gemini.google.search","status":"quota_exceeded"}`)},
		{"end theme", "tools/call", "end_theme", theme(`,"reason":"answered","achievements":["a diagram"]`)},
		{"activity log, a Japanese activity type, one string for content", "tools/call", "create_activity_log", theme(`,"activity_type":"内省","activity_content":"looked back"`)},

		// Bad calls.
		{"unknown parameter", "tools/call", "checkpoint", raw(`{"current_activty":"reading","note":"x"}`)},
		{"no parameters taken", "tools/call", "preview_next_theme", raw(`{"theme":"x"}`)},
		{"arguments not an object", "tools/call", "checkpoint", raw(`["reading"]`)},
		{"wrong type", "tools/call", "checkpoint", raw(`{"current_activity":42}`)},
		{"out of bounds", "tools/call", "get_latest_activity_log", old(`,"num_logs":11`)},
		{"minutes out of bounds", "tools/call", "start_deep_work", raw(`{"mode":"strict","activity_description":"checking the tide tables","planned_duration_minutes":500}`)},
		{"several problems: deep work", "tools/call", "start_deep_work", raw(`{"mode":"nap","activity_description":"short","planned_duration_minutes":2.5}`)},
		{"several problems: flexible with minutes", "tools/call", "start_deep_work", raw(`{"mode":"flexible","activity_description":["a list"],"planned_duration_minutes":true}`)},
		{"several problems: activity log", "tools/call", "create_activity_log", raw(`{"activity_type":"nap time","activity_content":[],"artifacts":[3],"evaluation":7,"theme_start_id":"abc","theme_directory_part":"a/b","parent_theme_start_id":"` + themeID + `"}`)},
		{"several problems: artifacts and themes", "tools/call", "create_activity_log", raw(`{"activity_type":"thinking","activity_content":[" "],"artifacts":["../outside.md"],"theme_start_id":"","parent_theme_directory_part":"x"}`)},
		{"several problems: start theme", "tools/call", "start_theme", raw(`{"theme_name":"","theme_directory_part":"..","activity_content":{"a":1},"parent_theme_start_id":"1","parent_theme_directory_part":"p","themebox_file":5}`)},
		{"bad themebox file", "tools/call", "start_theme", raw(`{"theme_name":"T","theme_directory_part":"t2","reason":"r","themebox_file":"draft.idea.md"}`)},
		{"several problems: end theme", "tools/call", "end_theme", raw(`{"theme_start_id":"` + themeID + `","theme_directory_part":"` + themePart + `","reason":" ","achievements":[1,"x"]}`)},
		{"several problems: expert context", "tools/call", "create_theme_expert_context", raw(`{"expert_role":"` + strings.Repeat("x", 501) + `"}`)},
		{"several problems: listing", "tools/call", "list_theme_artifacts", old(`,"include_subdirectories":"yes","limit":"ten","cursor":5`)},
		{"several problems: status", "tools/call", "check_theme_status", raw(`{"theme_start_id":"1","theme_directory_part":"x","include_subthemes":"no"}`)},
		{"status, include_subthemes not a boolean", "tools/call", "check_theme_status", old(`,"include_subthemes":"no"`)},
		{"tool usage not lenient about case", "tools/call", "report_tool_usage", raw(`{"tool_id":".hidden","status":"SUCCESS"}`)},
		{"latest logs, a number as a bad string", "tools/call", "get_latest_activity_log", old(`,"num_logs":"2.5"`)},
		{"context of a missing theme", "tools/call", "get_latest_theme_context", raw(`{"theme_start_id":"` + themeID + `","theme_directory_part":"nope"}`)},
		{"unknown tool", "tools/call", "no_such_tool", raw(`{}`)},
	}
}

// transcript runs the binary in language l over a fresh workspace and
// returns the normalised transcript.
func transcript(t *testing.T, l lang.Lang) []byte {
	ws := newWorkspace(t)
	for rel, body := range map[string]string{
		"themebox/idea.md":        "# Tides\nWhy two a day?\n",
		"feedbackbox/001_note.md": "Please cite the tide tables.\n",
		"artifacts/" + themeID + "_" + themePart + "/notes.md":         "notes\n",
		"artifacts/" + themeID + "_" + themePart + "/figures/moon.svg": "<svg/>\n",
	} {
		if err := os.MkdirAll(filepath.Dir(ws.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ws.Path(rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(t.TempDir(), "watchdog.yaml")
	if err := os.WriteFile(cfg, []byte("language: "+string(l)+"\ntimezone: UTC\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	c := startRecorded(t, rec, "--workspace", ws.Root, "--config", cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var out bytes.Buffer
	fmt.Fprintf(&out, "mcp-heart over stdio in %s, as mcp-go's client drives it (TestTranscript).\n", l)
	out.WriteString("Normalised: <time> RFC 3339 times, <date> dates, <clock> clock times, <n> elapsed seconds,\n<dur> durations under a minute, <version> the build's version.\n")
	n := 0
	section := func(name string) {
		n++
		fmt.Fprintf(&out, "-- %02d %s --\n", n, name)
		out.Write(rec.take())
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "transcript", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	section("initialize")
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	section("tools/list")
	for _, s := range transcriptSteps() {
		req := mcp.CallToolRequest{}
		req.Params.Name = s.tool
		req.Params.Arguments = s.args
		_, err := c.CallTool(ctx, req)
		if err != nil && s.tool != "no_such_tool" {
			t.Fatalf("%s: %v", s.name, err)
		}
		section(s.tool + ": " + s.name)
	}
	return normalise(out.Bytes(), ws.Root)
}

// startRecorded runs the binary with args, its stdin and stdout recorded
// by rec, and returns mcp-go's client on its stdio.
func startRecorded(t *testing.T, rec *recorder, args ...string) *client.Client {
	t.Helper()
	cmd := exec.Command(bin(), args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	tr := transport.NewIO(io.TeeReader(stdout, writerFunc(rec.recv)), teeCloser{stdin, writerFunc(rec.sent)}, io.NopCloser(strings.NewReader("")))
	c := client.NewClient(tr)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// recorder keeps what went each way since the last take.
type recorder struct {
	mu      sync.Mutex
	in, out bytes.Buffer
}

func (r *recorder) sent(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.in.Write(p)
}

func (r *recorder) recv(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Write(p)
}

// take is the exchange since the last take: each line sent ("> "), each
// line received ("< "), JSON indented for reading.
func (r *recorder) take() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b bytes.Buffer
	for _, part := range []struct {
		mark string
		buf  *bytes.Buffer
	}{{">", &r.in}, {"<", &r.out}} {
		for line := range strings.Lines(part.buf.String()) {
			var ind bytes.Buffer
			if err := json.Indent(&ind, []byte(strings.TrimSpace(line)), "", "  "); err != nil {
				ind.WriteString(strings.TrimSpace(line))
			}
			fmt.Fprintf(&b, "%s %s\n", part.mark, ind.String())
		}
		part.buf.Reset()
	}
	return b.Bytes()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// teeCloser writes to w and to a copy, and closes w.
type teeCloser struct {
	w    io.WriteCloser
	copy io.Writer
}

func (t teeCloser) Write(p []byte) (int, error) {
	t.copy.Write(p)
	return t.w.Write(p)
}

func (t teeCloser) Close() error { return t.w.Close() }

// What normalise replaces. Durations are those under a minute, as the
// few seconds between calls give; the thresholds (5m, 10m, 30m) stay. A
// number may follow a JSON string's \n, so a word boundary will not do.
var (
	rfc3339Re  = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	dateTimeRe = regexp.MustCompile(`\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)`)
	clockRe    = regexp.MustCompile(`(^|\D)\d\d:\d\d:\d\d(\D|$)`)
	secondsRe  = regexp.MustCompile(`("(?:since_[a-z_]+|heartbeat_age|notices_age|elapsed|remaining|duration)_seconds": )-?\d+`)
	durationRe = regexp.MustCompile(`(^|\D)\d{1,2}(ms|s|ミリ秒|秒)([^A-Za-z0-9]|$)`)
	versionRe  = regexp.MustCompile(`("serverInfo": \{\s+"name": "mcp-heart",\s+"version": )"[^"]*"`)
)

// normalise replaces what depends on the clock, the build and the temp
// folder with placeholders.
func normalise(b []byte, root string) []byte {
	s := strings.ReplaceAll(string(b), root, "<workspace>")
	s = rfc3339Re.ReplaceAllString(s, "<time>")
	s = dateTimeRe.ReplaceAllString(s, "<date> ${1}")
	s = clockRe.ReplaceAllString(s, "${1}<clock>${2}")
	s = secondsRe.ReplaceAllString(s, "${1}<n>")
	s = durationRe.ReplaceAllString(s, "${1}<dur>${3}")
	s = versionRe.ReplaceAllString(s, `${1}"<version>"`)
	return []byte(s)
}

// archiveFile is one file of a txtar archive.
type archiveFile struct{ name, data string }

// parseTxtar splits a txtar archive (golang.org/x/tools/txtar's format:
// a comment, then "-- name --" lines each opening a file) into its files.
func parseTxtar(b []byte) []archiveFile {
	var out []archiveFile
	for line := range strings.Lines(string(b)) {
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- "); ok && strings.HasSuffix(name, " --") {
			out = append(out, archiveFile{name: strings.TrimSuffix(name, " --")})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].data += line
		}
	}
	return out
}

// lineDiff shows the first differing lines of got and want with context.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			lo := max(0, i-2)
			return "got:\n  " + strings.Join(g[lo:min(len(g), i+4)], "\n  ") + "\nwant:\n  " + strings.Join(w[lo:min(len(w), i+4)], "\n  ")
		}
	}
	return ""
}
