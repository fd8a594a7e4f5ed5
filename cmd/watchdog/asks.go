package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/user"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/config"
)

// The commands a person answers the agent with, through the running
// watchdog's asks socket of each agent (only its user or root may).

// callWait bounds a call to the watchdog: an answer waits for the hook to
// be handed the decision.
const callWait = 10 * time.Second

// runAsks is `watchdog asks`: the questions the agents' clients wait on.
func runAsks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("asks", flag.ContinueOnError)
	load := configFlag(fs)
	name := fs.String("agent", "", "only the agent `NAME`")
	asJSON := fs.Bool("json", false, "a JSON array of the questions (id, agent, client, tool, input, since, hold_until)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog asks: %v\n", err)
		return 2
	}
	agents, err := askAgents(cfg, *name)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog asks: %v\n", err)
		return 2
	}
	all, code := []asks.Question{}, 0
	for _, a := range agents {
		rep, err := asks.Call(a.AsksSocket(), asks.Request{Op: asks.OpList}, callWait)
		if err != nil {
			fmt.Fprintf(stderr, "watchdog asks: %s: %v\n", a.DisplayName(), reach(err))
			code = 1
			continue
		}
		all = append(all, rep.Asks...)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return code
	}
	if len(all) == 0 && code == 0 {
		fmt.Fprintln(stdout, "no question waits for you")
	}
	now := time.Now()
	for _, q := range all {
		fmt.Fprintf(stdout, "%s  %s  %s: %s\n    waiting %s; offered until %s (then only the client's own dialog)\n",
			q.ID, q.Agent, q.Tool, clipLine(string(q.Input), 300), now.Sub(q.Since).Round(time.Second), q.Hold.In(cfg.Location()).Format("15:04:05"))
	}
	return code
}

// runAnswer is `watchdog answer ID allow|deny`.
func runAnswer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("answer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	load := configFlag(fs)
	name := fs.String("agent", "", "the agent `NAME` whose question it is (default: whichever has it)")
	msg := fs.String("message", "", "with deny: your `TEXT` for the agent, with the reason")
	rest, code := parseInterspersed(fs, args)
	if code >= 0 {
		return code
	}
	if len(rest) != 2 {
		fmt.Fprintln(stderr, "watchdog answer: want ID allow|deny")
		return 2
	}
	allow, err := asks.ParseWord(rest[1])
	if err != nil {
		fmt.Fprintf(stderr, "watchdog answer: %v\n", err)
		return 2
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog answer: %v\n", err)
		return 2
	}
	agents, err := askAgents(cfg, *name)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog answer: %v\n", err)
		return 2
	}
	req := asks.Request{Op: asks.OpAnswer, ID: rest[0], Allow: allow, Message: *msg, By: localUser()}
	var last error = asks.ErrUnknown
	for _, a := range agents {
		rep, err := asks.Call(a.AsksSocket(), req, callWait)
		if errors.Is(err, asks.ErrUnknown) {
			continue // another agent's, maybe
		}
		if err != nil {
			last = fmt.Errorf("%s: %w", a.DisplayName(), reach(err))
			if errors.Is(err, asks.ErrAnswered) || errors.Is(err, asks.ErrGone) || errors.Is(err, asks.ErrNotYours) {
				break
			}
			continue
		}
		q := rep.Question
		fmt.Fprintf(stdout, "%s: %s %s for %s (%s): handed to the client's hook\n", q.ID, pastTense(allow), q.Tool, a.DisplayName(), clipLine(string(q.Input), 200))
		return 0
	}
	fmt.Fprintf(stderr, "watchdog answer: %s: %v\n", rest[0], last)
	return 1
}

// runTell is `watchdog tell TEXT`: a feedback item for the agent.
func runTell(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tell", flag.ContinueOnError)
	fs.SetOutput(stderr)
	load := configFlag(fs)
	name := fs.String("agent", "", "the agent `NAME` (default: the config's only agent)")
	urgent := fs.Bool("urgent", false, "an urgent item (interrupt.): it wakes the agent at once")
	rest, code := parseInterspersed(fs, args)
	if code >= 0 {
		return code
	}
	text := strings.Join(rest, " ")
	if strings.TrimSpace(text) == "" {
		fmt.Fprintln(stderr, "watchdog tell: want the TEXT to tell")
		return 2
	}
	cfg, _, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "watchdog tell: %v\n", err)
		return 2
	}
	agents, err := askAgents(cfg, *name)
	if err == nil && len(agents) != 1 {
		err = errors.New("the config has several agents: name one with --agent")
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchdog tell: %v\n", err)
		return 2
	}
	rep, err := asks.Call(agents[0].AsksSocket(), asks.Request{Op: asks.OpTell, Text: text, Urgent: *urgent, By: localUser()}, callWait)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog tell: %s: %v\n", agents[0].DisplayName(), reach(err))
		return 1
	}
	fmt.Fprintf(stdout, "%s: wrote %s\n", agents[0].DisplayName(), rep.File)
	return 0
}

// askAgents are the config's agents (or the one named) whose questions
// can be asked for.
func askAgents(cfg *config.Config, name string) ([]config.AgentConfig, error) {
	var out []config.AgentConfig
	for _, a := range cfg.AgentConfigs() {
		if name == "" || a.DisplayName() == name {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no agent named %q in the config", name)
	}
	return out, nil
}

// reach explains a socket that cannot be reached.
func reach(err error) error {
	if errors.Is(err, asks.ErrNotYours) || errors.Is(err, asks.ErrUnknown) || errors.Is(err, asks.ErrAnswered) || errors.Is(err, asks.ErrGone) {
		return err
	}
	if !asks.Supported {
		return err
	}
	return fmt.Errorf("no watchdog answers on its asks socket (is `watchdog run` running with this config, as your user, and asks.hold above 0?): %w", err)
}

func localUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}

func pastTense(allow bool) string {
	if allow {
		return "allowed"
	}
	return "denied"
}

// clipLine is s on one line, at most n bytes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
