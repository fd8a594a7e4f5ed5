// Command fakeagent stands in for an agent command in exec delivery tests.
// Its first argument picks what it does:
//
//	args A...          print the remaining arguments as a JSON array
//	env                print the environment as a JSON array
//	parentenv          print what /proc/<parent>/environ gave (one variable a line), or why not
//	pwd                print the working directory
//	reply TEXT         print TEXT exactly
//	exit CODE TEXT     print TEXT to stderr and exit with CODE
//	flood N            write N bytes to stdout and N to stderr, exit 1
//	hang PIDFILE       start a child that sleeps, write "PID CHILDPID" to PIDFILE, sleep
//	sleep              sleep for a minute
//	stubborn PIDFILE   ignore SIGTERM, write "PID" to PIDFILE, sleep (only SIGKILL ends it)
//	exclusive LOCK LOG hold an exclusive flock on LOCK and sleep; append "start PID" to LOG,
//	                   or "overlap PID" when another run holds the lock (two runs alive at once)
//	polite PIDFILE     write "PID" to PIDFILE, sleep; on SIGTERM write "term" to PIDFILE.term and exit 0
//	stream FMT N TEXT [model=M] [cost=USD] [nousage]
//	                   stream-json as a client would (FMT gemini or claude):
//	                   N tool calls, then the final TEXT; N < 0: calls forever.
//	                   Each turn reports usage: a call's 100 input, 50 cache
//	                   read, 10 output tokens; the final turn's 100, 50, 20.
//	                   The result sums them (160N+170 tokens) for model M
//	                   (fake-model), with Claude's total_cost_usd = USD when given.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "fakeagent: no mode")
		os.Exit(2)
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "args":
		if args == nil {
			args = []string{}
		}
		json.NewEncoder(os.Stdout).Encode(args)
	case "env":
		json.NewEncoder(os.Stdout).Encode(os.Environ())
	case "parentenv": // what a hostile agent tries: its watchdog's environment
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", os.Getppid()))
		if err != nil {
			fmt.Printf("parentenv: %v", err)
			return
		}
		fmt.Printf("parentenv:\n%s", strings.ReplaceAll(string(b), "\x00", "\n"))
	case "pwd":
		wd, _ := os.Getwd()
		fmt.Print(wd)
	case "reply":
		fmt.Print(args[0])
	case "cat": // a recorded stream, as the client printed it
		b, _ := os.ReadFile(args[0])
		os.Stdout.Write(b)
	case "exit":
		code, _ := strconv.Atoi(args[0])
		fmt.Fprint(os.Stderr, args[1])
		os.Exit(code)
	case "flood":
		n, _ := strconv.Atoi(args[0])
		os.Stdout.WriteString(strings.Repeat("o", n))
		os.Stderr.WriteString(strings.Repeat("e", n-3) + "END")
		os.Exit(1)
	case "hang":
		child := exec.Command(os.Args[0], "sleep")
		child.Stdout = os.Stdout // holds the reply pipe open, as a stray tool would
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.WriteFile(args[0], []byte(fmt.Sprintf("%d %d", os.Getpid(), child.Process.Pid)), 0o644)
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Minute)
	case "retry": // Claude Code waiting out a retry: the wait it announces (ms), how long it waits (ms)
		fmt.Printf(`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":%s,"error_status":429,"error":"rate_limit"}`+"\n", args[0])
		ms, _ := strconv.Atoi(args[1])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Println(`{"type":"result","subtype":"success","is_error":false,"result":"done"}`)
	case "selfkill": // ended by a signal, as the OOM killer would
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		os.WriteFile(args[0], []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(time.Minute)
	case "exclusive":
		lock, err := os.OpenFile(args[0], os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		what := "start"
		if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			what = "overlap" // the kernel frees the lock only when its holder is gone
		}
		log, _ := os.OpenFile(args[1], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		fmt.Fprintf(log, "%s %d\n", what, os.Getpid())
		log.Close()
		time.Sleep(time.Minute)
	case "polite":
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		os.WriteFile(args[0], []byte(strconv.Itoa(os.Getpid())), 0o644)
		select {
		case <-term:
			os.WriteFile(args[0]+".term", []byte("term"), 0o644)
		case <-time.After(time.Minute):
		}
	case "stream":
		n, _ := strconv.Atoi(args[1])
		gemini := args[0] == "gemini"
		model, costUSD, usage := "fake-model", "", true
		for _, a := range args[3:] {
			switch {
			case strings.HasPrefix(a, "model="):
				model = strings.TrimPrefix(a, "model=")
			case strings.HasPrefix(a, "cost="):
				costUSD = strings.TrimPrefix(a, "cost=")
			case a == "nousage":
				usage = false
			}
		}
		emit := func(v any) { b, _ := json.Marshal(v); os.Stdout.Write(append(b, '\n')) }
		turn := func(out int) map[string]any {
			return map[string]any{"input_tokens": 100, "cache_read_input_tokens": 50, "cache_creation_input_tokens": 0, "output_tokens": out}
		}
		msg := func(i, out int, content map[string]any) map[string]any {
			m := map[string]any{"id": fmt.Sprintf("msg_%d", i), "model": model, "content": []any{content}}
			if usage {
				m["usage"] = turn(out)
			}
			return m
		}
		if gemini {
			emit(map[string]any{"type": "init", "session_id": "s", "model": "auto"})
		} else {
			emit(map[string]any{"type": "system", "subtype": "init", "session_id": "s", "model": model})
		}
		i := 0
		for ; n < 0 || i < n; i++ {
			if gemini {
				emit(map[string]any{"type": "tool_use", "tool_name": "mcp_mcp-heart_checkpoint", "tool_id": fmt.Sprint(i)})
				emit(map[string]any{"type": "tool_result", "tool_id": fmt.Sprint(i), "status": "success"})
			} else {
				emit(map[string]any{"type": "assistant", "message": msg(i, 10, map[string]any{"type": "tool_use", "id": fmt.Sprint(i), "name": "mcp__mcp-heart__checkpoint"})})
				emit(map[string]any{"type": "user", "message": map[string]any{"content": []any{map[string]any{"type": "tool_result"}}}})
			}
			time.Sleep(10 * time.Millisecond)
		}
		in, cached, out := int64(100*(n+1)), int64(50*(n+1)), int64(10*n+20)
		if gemini {
			emit(map[string]any{"type": "message", "role": "assistant", "content": args[2], "delta": true})
			res := map[string]any{"type": "result", "status": "success"}
			if usage {
				st := map[string]any{"total_tokens": in + cached + out, "input_tokens": in + cached, "output_tokens": out, "cached": cached, "input": in}
				res["stats"] = map[string]any{"total_tokens": in + cached + out, "input_tokens": in + cached, "output_tokens": out, "cached": cached, "input": in,
					"duration_ms": 1, "tool_calls": n, "models": map[string]any{model: st}}
			}
			emit(res)
		} else {
			emit(map[string]any{"type": "assistant", "message": msg(i, 20, map[string]any{"type": "text", "text": args[2]})})
			res := map[string]any{"type": "result", "subtype": "success", "result": args[2]}
			if usage {
				res["usage"] = map[string]any{"input_tokens": in, "cache_read_input_tokens": cached, "cache_creation_input_tokens": 0, "output_tokens": out}
				res["modelUsage"] = map[string]any{model: map[string]any{"inputTokens": in, "outputTokens": out, "cacheReadInputTokens": cached, "cacheCreationInputTokens": 0}}
			}
			if costUSD != "" {
				res["total_cost_usd"] = json.RawMessage(costUSD)
			}
			emit(res)
		}
	default:
		fmt.Fprintln(os.Stderr, "fakeagent: unknown mode", os.Args[1])
		os.Exit(2)
	}
}
