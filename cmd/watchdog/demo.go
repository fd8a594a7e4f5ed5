package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/demo"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/setup"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The demo's durations: the defaults scaled down so a whole day fits in
// about two minutes. They are printed on screen beside the defaults.
const demoYAML = `name: demo
pulse: {interval: 1s}
thresholds: {inactivity_warning: 4s, inactivity_error: 7s, introspection: 8s, max_strict_deep_work: 2m}
schedule: {every: 4s}
recovery: {max_attempts: 3, max_wait_cycles: 5}
http: {listen: "127.0.0.1:0"}
prices: {scripted-demo: {input: 3, output: 15}}
`

// demoReceivedFile is every text the demo agent read (prompts and tool
// replies), one JSON string a line, so a test can read what it was told.
const demoReceivedFile = "stats/demo_received.jsonl"

// demoNarrationFile is where the demo agent's runs tell the demo what they
// did, inside the demo workspace.
const demoNarrationFile = "stats/demo_timeline.jsonl"

// runDemo is `watchdog demo [--keep] [DIR]`: a watchdog, the status page and
// a scripted agent that plays one day, narrated in the terminal.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keep := fs.Bool("keep", false, "keep running after the scripted day, until Ctrl-C")
	langFlag := fs.String("lang", "en", "the agent's `LANG`: en or ja (docs, tool texts, notices and its own logs)")
	rest, code := parseInterspersed(fs, args)
	if code >= 0 {
		return code
	}
	dir := "ai-heart-demo"
	if len(rest) > 1 {
		fmt.Fprintln(stderr, "watchdog demo: at most one DIR")
		return 2
	}
	if len(rest) == 1 {
		dir = rest[0]
	}
	l, err := lang.Parse(*langFlag)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog demo: --lang: %v\n", err)
		return 2
	}
	d, err := newDemo(dir, l, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog demo: %v\n", err)
		return 1
	}
	return d.run(ctx, *keep)
}

type demoRun struct {
	dir, mcpHeart string
	stateDir      string // the watchdog's own state, a temp folder removed at the end
	ws            *workspace.Workspace
	cfg           *config.Config
	say           *demo.Narrator
	lang          lang.Lang

	ctx context.Context // the demo's: done once the day is over or Ctrl-C

	mu         sync.Mutex
	last       state.State
	wakeups    int
	recoveries int
	done       chan struct{}
	doneOnce   sync.Once
}

// newDemo lays out the demo workspace (never a real one) and its config.
func newDemo(dir string, l lang.Lang, stdout io.Writer) (*demoRun, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := refuseRealWorkspace(abs); err != nil {
		return nil, err
	}
	mh := setup.FindMCPHeart("", nil, nil)
	if !mh.Found {
		return nil, errors.New("mcp-heart not found next to watchdog or on PATH: run `make build` first")
	}
	if _, err := setup.Init(abs, setup.Options{MCPHeart: mh.Path, Language: l, WorkspaceOnly: true}); err != nil {
		return nil, err
	}
	ws, err := workspace.New(abs, nil)
	if err != nil {
		return nil, err
	}
	// A new day: the agent's memory and the narration start over (the
	// watchdog's state is new each time), so a second demo here counts its
	// own day.
	if err := startOver(abs); err != nil {
		return nil, err
	}
	for _, f := range []string{"stats/demo_agent.json", demoNarrationFile, demoReceivedFile} {
		if err := os.Remove(ws.Path(f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if err := ws.WriteFile("stats/demo_agent.json", []byte("{}\n")); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	argv, _ := json.Marshal([]string{self, "demo-agent", "--workspace", abs, "--mcp-heart", mh.Path, "--narrate", ws.Path(demoNarrationFile),
		"--lang", string(l), "--received", ws.Path(demoReceivedFile), "--", "{prompt}"})
	// The watchdog's own state (lock, state file, cap, ledger, day strip,
	// pause) lives outside the workspace: for the demo, in a temporary
	// folder of its own, removed when the demo ends, so the demo writes
	// nothing outside its folder and the temp dir, and each demo counts its
	// own day.
	stateDir, err := os.MkdirTemp("", "ai-heart-demo-state-")
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(fmt.Appendf(nil, "%sworkspace: %q\nstate_dir: %q\nlanguage: %s\nagent: {delivery: exec, command: %s, timeout: 60s, output: stream-json}\n", demoYAML, abs, stateDir, l, argv))
	if err != nil {
		os.RemoveAll(stateDir)
		return nil, fmt.Errorf("demo config: %w", err)
	}
	say := demo.NewNarrator(stdout, cfg.Location())
	say.Lang = l
	return &demoRun{dir: abs, stateDir: stateDir, mcpHeart: mh.Path, ws: ws, cfg: cfg, say: say, lang: l, done: make(chan struct{})}, nil
}

// refuseRealWorkspace keeps the demo out of a workspace with an agent's
// work in it: only a new folder or an earlier demo's is used.
func refuseRealWorkspace(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "stats", "demo_agent.json")); err == nil {
		return nil
	}
	return fmt.Errorf("%s is not a demo workspace (no stats/demo_agent.json): give a new folder, e.g. `watchdog demo ai-heart-demo`", dir)
}

func (d *demoRun) run(ctx context.Context, keep bool) int {
	defer os.RemoveAll(d.stateDir)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.ctx = ctx
	sink, _ := alert.NewSink(zerolog.Nop(), "")
	sink.Subscribe(d.alerted)
	win, err := newWindow(d.cfg, sink)
	if err != nil {
		d.say.Printf("watchdog demo: %v\n", err)
		return 1
	}
	def := config.Defaults()
	th, dth := d.cfg.Thresholds, def.Thresholds
	if d.lang == lang.Japanese {
		d.headerJa(win.Addr())
	} else {
		d.say.Printf("ai-heart demo: a scripted agent's day, looked after by the watchdog (about 2 minutes; Ctrl-C stops it)\n\n")
		d.say.Printf("  status page   http://%s/\n", win.Addr())
		d.say.Printf("  workspace     %s (left for you to open)\n", d.dir)
		d.say.Printf("  the agent     a built-in script, woken by exec like `gemini -p`, calling a real mcp-heart over stdio\n")
		d.say.Printf("  scaled down   pulse %s (default %s) · wakeups every %s (%s) · inactivity warning %s / error %s (%s / %s)\n",
			h(d.cfg.Pulse.Interval), h(def.Pulse.Interval), h(d.cfg.Schedule.Every), h(def.Schedule.Every),
			h(th.InactivityWarning), h(th.InactivityError), h(dth.InactivityWarning), h(dth.InactivityError))
		d.say.Printf("                introspection due after %s of work (%s)\n\n", h(th.Introspection), h(dth.Introspection))
	}

	opts := daemon.Options{Log: zerolog.New(narratingLog{d}).Level(zerolog.DebugLevel), Alerts: sink,
		Subscribers: []func(daemon.PulseEvent){win.pulsed, d.pulsed}}
	dm, err := daemon.New(d.cfg, opts)
	if err != nil {
		d.say.Printf("watchdog demo: %v\n", err)
		return 1
	}
	win.serve(ctx, dm, zerolog.Nop())
	go d.say.Follow(ctx, d.ws.Path(demoNarrationFile), 100*time.Millisecond)
	stopped := make(chan error, 1)
	go func() { stopped <- dm.Run(ctx) }()
	select {
	case <-ctx.Done():
	case <-d.done:
		if keep {
			d.say.Say(time.Now(), "demo", d.t("the scripted day is over; the watchdog keeps going until Ctrl-C", "台本の一日は終わりました。watchdog は Ctrl-C まで動き続けます"))
			<-ctx.Done()
		}
	case err := <-stopped:
		d.say.Printf("watchdog demo: the watchdog stopped: %v\n", err)
		return 1
	}
	cancel()
	<-stopped
	d.summary()
	return 0
}

// h spells a config duration for a person: 4s, 5m, 1h.
func h(d config.Duration) string { return humanize.Duration(d.D()) }

// narratingLog turns the daemon's log lines into timeline lines: the
// wakeups it delivers and anything that went wrong.
type narratingLog struct{ d *demoRun }

func (l narratingLog) Write(p []byte) (int, error) {
	var e struct {
		Level, Message, Source, Error string
		HeartbeatID                   string `json:"heartbeat_id"`
	}
	if json.Unmarshal(p, &e) != nil {
		return len(p), nil
	}
	switch {
	case e.Message == "delivering wakeup":
		l.d.mu.Lock()
		l.d.wakeups++
		n := l.d.wakeups
		l.d.mu.Unlock()
		if l.d.lang == lang.Japanese {
			l.d.say.Say(time.Now(), demo.KindWakeup, fmt.Sprintf("#%d %s、ハートビート %s", n, sourceNamesJa[e.Source], e.HeartbeatID))
		} else {
			l.d.say.Say(time.Now(), demo.KindWakeup, fmt.Sprintf("#%d from %s, heartbeat %s", n, sourceNames[e.Source], e.HeartbeatID))
		}
	case l.d.ctx != nil && l.d.ctx.Err() != nil && strings.Contains(e.Error, context.Canceled.Error()):
		// The demo ending (or Ctrl-C) stops the run in flight: that is
		// the end of the day, not an error to narrate.
	case e.Level == "warn" || e.Level == "error":
		msg := e.Message
		if e.Error != "" {
			msg += ": " + e.Error
		}
		l.d.say.Say(time.Now(), "watchdog", msg)
	}
	return len(p), nil
}

var sourceNames = map[string]string{"schedule": "the schedule", "idle": "the idle chamber", "recovery": "recovery", "feedback": "urgent feedback"}

// alerted narrates an alert: its level in words, the check and message.
func (d *demoRun) alerted(a alert.Alert) {
	kind := "alert"
	if a.Check == "recovery" || a.Check == "gave_up" {
		kind = "recovery"
		if a.Level == checks.OK {
			d.mu.Lock()
			d.recoveries++
			d.mu.Unlock()
		}
	}
	d.say.Say(a.Time, kind, strings.ToUpper(a.Level.String())+" "+a.Check+": "+a.Message)
}

// pulsed notes ghosts as they are counted, and ends the demo one pulse
// after the scripted day is done.
func (d *demoRun) pulsed(e daemon.PulseEvent) {
	d.mu.Lock()
	prev := d.last
	d.last = e.State
	d.mu.Unlock()
	if n := e.State.Counters.Ghosts - prev.Counters.Ghosts; n > 0 && prev.Agent != "" {
		d.say.Say(time.Now(), "ghost", d.t(fmt.Sprintf("the [IDLE] reply is counted as a ghost (%d so far): no transcript, nothing to do", e.State.Counters.Ghosts),
			fmt.Sprintf("[IDLE] だけの応答はゴーストとして数えます（これまでに%d回）。トランスクリプトは残らず、エージェントのすることもありません", e.State.Counters.Ghosts)))
	}
	if m, err := demo.ReadMemory(d.ws); err == nil && m.Done && !e.State.Chambers.Schedule.InFlight {
		d.doneOnce.Do(func() { close(d.done) })
	}
}

func (d *demoRun) summary() {
	d.mu.Lock()
	c, rec, cs := d.last.Counters, d.recoveries, d.last.Cost
	d.mu.Unlock()
	if d.lang == lang.Japanese {
		d.summaryJa(c, rec, cs)
		return
	}
	d.say.Printf("\n%s\n", summaryLine(lang.English, c, rec))
	if cs != nil {
		all, g := cs.Today.By.Sum(""), cs.Today.By.Sum(cost.Ghost)
		d.say.Printf("The day's cost: %s: %s; %s of them ghosts: %s; the pulse $0. (The scripted agent calls no model: its tokens are its bytes / 4, priced at an example $3 / $15 per million.)\n",
			countOf(all.Runs, "run"), cellCost(all), countOf(g.Runs, "run"), cellCost(g))
	}
	d.say.Printf("The demo workspace is %s: the agent's logs are under artifacts/, the watchdog's published state in stats/watchdog_state.json (its own state folder went with the demo).\n", d.dir)
	wd := watchdogCommand()
	d.say.Printf("To look after a real agent: `%s init ai-works`, then `%s run` (see README: Setting up a workspace).\n", wd, wd)
}

func plural(n int64, one string) string {
	if n == 1 {
		return "1 " + one
	}
	if strings.HasSuffix(one, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(one, "y"))
	}
	return fmt.Sprintf("%d %ss", n, one)
}
