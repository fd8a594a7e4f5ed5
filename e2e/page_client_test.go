package e2e

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/web"
)

// states is a web.Source of fixed states: the page's words for what the
// hooks and the cost ledger put in a state file, whatever the daemon's
// timing (the daemon's side has its own tests).
type states []state.State

func (s states) Statuses() []state.State { return s }

// The client and cost facts on the page, in a real Chromium, in English and
// Japanese: a client in a turn, one waiting for its next prompt, one waiting
// for a person (said in words on the badge and a line of its own), one with
// no hook event yet, one with a single tool call, today's cost with the ghosts' share, and the fleet's total. A
// tool name is the agent's text: it shows as text, never as markup.
func TestE2EStatusPageClientAndCost(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, problems := browser(t)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	// The page shows local times: Tokyo's, whatever this machine's zone.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"})
		return err
	})); err != nil {
		t.Fatalf("set the page's time zone: %v", err)
	}
	now := time.Now()
	today := now.In(tokyo) // a time of today's reads without its date
	since := time.Date(today.Year(), today.Month(), today.Day(), 14, 2, 5, 0, tokyo)
	toolAt := now.Add(-20 * time.Second)
	const evil = `<img src=x onerror="document.title='owned'">`

	agent := func(name string, l lang.Lang, c *state.Client, k *cost.Summary, checks map[string]state.CheckState) state.State {
		return state.State{Agent: name, Language: l, PulseAt: now, StartedAt: now, PulseInterval: config.Duration(time.Hour),
			HeartbeatID: "20261125140205", Checks: checks, Client: c, Cost: k}
	}
	inTurn := &state.Client{Mode: state.ClientInTurn, Since: &since, LastEvent: now, LastTool: "Bash", LastToolAt: &toolAt,
		ToolCalls: 14, Repeats: 12, LoopTools: "Bash"}
	spent := &cost.Summary{Today: cost.Period{By: cost.Split{"schedule": {
		cost.Worked: {Runs: 2, Tokens: cost.Tokens{Input: 2000, Output: 340, CacheRead: 1000}, USD: 0.004},
		cost.Ghost:  {Runs: 1, Tokens: cost.Tokens{Input: 120}, USD: 0.0002},
	}}}}
	waiting := &state.Client{Mode: state.ClientWaiting, LastEvent: now}
	// withChannels gives st the times its client's channels last spoke.
	withChannels := func(st state.State) state.State {
		st.Channels = state.Channels{"hooks": now.Add(-20 * time.Second), "telemetry": now.Add(-3 * time.Minute)}
		return st
	}
	waitingChecks := map[string]state.CheckState{"waiting_for_you": {Level: "warning", Message: "waiting for you"}, "tool_loop": {Level: "ok"}}

	// fact reads one fact of a card; visible whether a selector shows.
	fact := func(agent, name string) string {
		return evalIn[string](t, ctx, `document.querySelector('[data-agent="`+agent+`"] dd[data-fact="`+name+`"]').textContent`)
	}
	text := func(sel string) string {
		return evalIn[string](t, ctx, `document.querySelector('`+sel+`').textContent`)
	}
	visible := func(sel string) bool {
		return evalIn[bool](t, ctx, `(() => { const e = document.querySelector('`+sel+`'); return !!e && !e.hidden && e.offsetParent !== null; })()`)
	}
	open := func(src states, first string) {
		t.Helper()
		srv := httptest.NewServer(web.New(src, web.Options{}))
		// The page's event stream lasts until the browser leaves: cut it,
		// or Close waits for it.
		t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
		c, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(c, chromedp.Navigate(srv.URL+"/"),
			chromedp.WaitVisible(`[data-agent="`+first+`"] dd[data-fact="client"]`)); err != nil {
			t.Fatalf("load page: %v", err)
		}
		waitUntil(t, "every card drawn", 5*time.Second, func() bool {
			return evalIn[int](t, ctx, `document.querySelectorAll('article.card').length`) == len(src)
		})
	}
	match := func(what, got, pattern string) {
		t.Helper()
		if !regexp.MustCompile(pattern).MatchString(got) {
			t.Errorf("%s = %q, want %s", what, got, pattern)
		}
	}

	{ // English
		evilClient := &state.Client{Mode: state.ClientWaitingForYou, Since: &since, LastEvent: now, Asking: "permission",
			LastTool: evil, LastToolAt: &toolAt, ToolCalls: 3}
		unpriced := &cost.Summary{Today: cost.Period{By: cost.Split{"idle": {cost.Worked: {Runs: 2, Tokens: cost.Tokens{Input: 500}, Unpriced: 2}}}}}
		open(states{
			withChannels(agent("ann", lang.English, inTurn, spent, nil)),
			agent("bob", lang.English, evilClient, unpriced, waitingChecks),
			agent("cara", lang.English, nil, nil, nil),
			agent("dora", lang.English, &state.Client{Mode: state.ClientWaiting, LastEvent: now, LastTool: "Read", LastToolAt: &toolAt, ToolCalls: 1}, nil, nil),
		}, "ann")

		match("ann's client", fact("ann", "client"), `^in a turn since 14:02; 14 tool calls in 5m, last Bash \d+s ago; Bash repeated 12 times$`)
		match("ann's channels", fact("ann", "channels"), `^hooks \d+s ago · telemetry 3m(0s)? ago$`)
		if evalIn[bool](t, ctx, `!!document.querySelector('[data-agent="cara"] dd[data-fact="channels"]')`) {
			t.Error("cara's card shows channels her state does not hold")
		}
		match("ann's cost", fact("ann", "cost today"), `^3 runs: 3,460 tokens, \$0\.0042$`)
		match("ann's ghosts", fact("ann", "ghosts today"), `^1 ghost today, 120 tokens, \$0\.0002$`)
		if visible(`[data-agent="ann"] .needs-you`) {
			t.Error("ann's card says it needs you while its client is in a turn")
		}

		match("bob's client", fact("bob", "client"), `^WAITING FOR YOU since 14:02 \(permission\); 3 tool calls in 5m, last `+regexp.QuoteMeta(evil)+` \d+s ago$`)
		if b := text(`[data-agent="bob"] .badge`); b != "waiting for you" {
			t.Errorf("bob's badge %q, want waiting for you", b)
		}
		if !visible(`[data-agent="bob"] .needs-you`) || !strings.Contains(text(`[data-agent="bob"] .needs-you`), "waits for your answer") {
			t.Error("bob's card has no line saying it needs you")
		}
		if l := text(`[data-agent="bob"] li[data-check="waiting_for_you"]`); l != "waiting_for_you: warning" {
			t.Errorf("bob's check %q", l)
		}
		if evalIn[int](t, ctx, `document.querySelectorAll('img').length`) != 0 || evalIn[string](t, ctx, `document.title`) == "owned" {
			t.Error("the agent's tool name became markup")
		}
		match("bob's cost", fact("bob", "cost today"), `^2 runs: 500 tokens, price unknown$`)
		match("bob's ghosts", fact("bob", "ghosts today"), `^0 ghosts today, 0 tokens, \$0$`)

		match("cara's client", fact("cara", "client"), `^no hook event yet$`)
		match("dora's client", fact("dora", "client"), `^waiting; 1 tool call in 5m, last Read \d+s ago$`)
		if evalIn[bool](t, ctx, `!!document.querySelector('[data-agent="cara"] dd[data-fact="cost today"]')`) {
			t.Error("cara's card shows a cost her state does not hold")
		}
		if visible("#fleetbar") || visible("#grid") {
			t.Error("four agents drawn as a fleet grid, not as cards")
		}
		if !visible("#fleet") {
			t.Fatal("no fleet total on a page of four agents")
		}
		match("fleet total", text("#fleet"), `^cost today, all 4 agents: 5 runs: 3,960 tokens, \$0\.0042 \+ price unknown for 2 runs$`)
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		testutil.SaveScreenshot(t, "status-page-client.png", shot)
	}

	{ // Japanese: every agent speaks it, so the page does too
		asking := &state.Client{Mode: state.ClientWaitingForYou, Since: &since, LastEvent: now, Asking: "question"}
		open(states{
			agent("hoshi", lang.Japanese, asking, nil, waitingChecks),
			agent("kumo", lang.Japanese, waiting, nil, nil),
			withChannels(agent("tsuki", lang.Japanese, inTurn, spent, nil)),
			agent("sora", lang.Japanese, nil, nil, nil),
		}, "tsuki")

		match("tsuki's client", fact("tsuki", "client"), `^14:02:05 から作業中。5分間のツール呼び出し14回、最後は Bash（\d+秒前）。Bash を12回繰り返し$`)
		match("tsuki's channels", fact("tsuki", "channels"), `^フック \d+秒前 · テレメトリ 3分(0秒)?前$`)
		match("tsuki's cost", fact("tsuki", "cost today"), `^3回の実行：3,460トークン、\$0\.0042$`)
		match("tsuki's ghosts", fact("tsuki", "ghosts today"), `^1回：120トークン、\$0\.0002$`)
		labels := evalIn[string](t, ctx, `[...document.querySelectorAll('[data-agent="tsuki"] dt')].map((d) => d.textContent).join(" ")`)
		for _, l := range []string{"クライアント", "今日のコスト", "今日のゴースト"} {
			if !strings.Contains(labels, l) {
				t.Errorf("tsuki's labels %q lack %s", labels, l)
			}
		}

		match("kumo's client", fact("kumo", "client"), `^待機中$`)
		match("sora's client", fact("sora", "client"), `^フックのイベントはまだありません$`)
		match("hoshi's client", fact("hoshi", "client"), `^あなたの応答待ち（14:02:05 から、質問）$`)
		if b := text(`[data-agent="hoshi"] .badge`); b != "あなたの応答待ち" {
			t.Errorf("hoshi's badge %q", b)
		}
		match("kumo's client", fact("kumo", "client"), `^待機中$`)
		match("hoshi's line", text(`[data-agent="hoshi"] .needs-you`), `^対応が必要です：`)
		match("fleet total", text("#fleet"), `^今日のコスト（全4エージェント）：3回の実行：3,460トークン、\$0\.0042$`)
	}

	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}
