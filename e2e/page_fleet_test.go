package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/web"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// fleetKinds are the grid's states in its order of severity; agent i of a
// test fleet is in fleetKinds[i%7].
var fleetKinds = []string{"needs_you", "error", "budget_spent", "offline", "paused", "working", "waiting"}

// fleetAgent is agent i of an n-agent fleet in state kind, as its state
// file would say it. Its last proof is older the lower i is, so the
// activity sort is the name sort reversed.
func fleetAgent(i, n int, kind string, now time.Time) state.State {
	proof := now.Add(-time.Duration(n-i) * time.Minute)
	st := state.State{Agent: fmt.Sprintf("agent-%04d", i), PulseAt: now, StartedAt: now.Add(-time.Hour),
		PulseInterval: config.Duration(time.Minute), HeartbeatID: "20261125140205", Work: state.Work{Mode: state.WorkWaiting},
		LastProof: &workspace.Proof{Path: "memory/proof.md", ModTime: proof},
		Checks:    map[string]state.CheckState{"inactivity": {Level: "ok"}, "introspection": {Level: "ok"}}}
	switch kind {
	case "needs_you":
		st.Client = &state.Client{Mode: state.ClientWaitingForYou, LastEvent: proof, Asking: "permission"}
		st.Checks["waiting_for_you"] = state.CheckState{Level: "warning", Message: "waiting for you"}
	case "error":
		st.Checks["inactivity"] = state.CheckState{Level: "error", Message: "no proof of activity for 3h"}
	case "budget_spent":
		st.Cost = &cost.Summary{Budget: &cost.BudgetState{DailyTokens: 1000, UsedTokens: 1200, Spent: true, Reason: "1200 of 1000 tokens used today"},
			Today: cost.Period{By: cost.Split{"schedule": {cost.Worked: {Runs: 3, Tokens: cost.Tokens{Input: 1000, Output: 200}, USD: 0.0042}}}}}
	case "offline":
		st.PulseAt = now.Add(-10 * time.Minute) // 10 missed pulses
	case "paused":
		st.Pause = &pause.Pause{Since: now.Add(-time.Hour), Reason: "model migration"}
	case "working":
		st.Work.Mode = state.WorkWorking
		st.Client = &state.Client{Mode: state.ClientInTurn, LastEvent: proof}
	}
	return st
}

func fleetStates(n int, now time.Time) states {
	s := make(states, n)
	for i := range s {
		s[i] = fleetAgent(i, n, fleetKinds[i%len(fleetKinds)], now)
	}
	return s
}

// openFleet serves src through the real web server and loads the page; it
// returns the server (to publish updates) and loadGrid's measure.
func openFleet(tb testing.TB, ctx context.Context, src states) (*web.Server, float64) {
	tb.Helper()
	s := web.New(src, web.Options{})
	srv := httptest.NewServer(s)
	// The page's event stream lasts until the browser leaves: cut it, or
	// Close waits for it.
	tb.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return s, loadGrid(tb, ctx, srv.URL+"/", len(src))
}

// loadGrid loads a fleet page and returns the page's own measure of its
// first full picture (navigation start to the paint after it, in ms),
// after checking it held all n tiles.
func loadGrid(tb testing.TB, ctx context.Context, url string, n int) float64 {
	tb.Helper()
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate(url)); err != nil {
		tb.Fatalf("load page: %v", err)
	}
	drawn, err := chromedp.Run(c, chromedp.Evaluate[float64](`new Promise((done) => {
		const f = () => { const m = performance.getEntriesByName("drawn")[0]; m ? done(m.startTime) : setTimeout(f, 5); };
		f();
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("the page never drew: %v", err)
	}
	if got := evalIn[int](tb, ctx, `document.querySelectorAll('#grid .tile').length`); got != n {
		tb.Fatalf("%d tiles drawn on the first picture, want %d", got, n)
	}
	return drawn
}

// The fleet grid in a real Chromium, for the paper's 75 agents and a fleet
// view's 1,000: a count per state, a filter, three sorts, a search by
// name, a tile opening the agent's full card, a live update, and a phone's
// width without a sideways scroll.
func TestE2EStatusPageFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	for _, n := range []int{75, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) { testFleetPage(t, n) })
	}
}

func testFleetPage(t *testing.T, n int) {
	ctx, problems := browser(t)
	now := time.Now()
	srv, drawn := openFleet(t, ctx, fleetStates(n, now))
	t.Logf("%d agents: load to drawn %.0f ms", n, drawn)
	// The goal (a fifth of a second at 1,000) is BenchmarkPageFleetLoad's;
	// here, under the race detector beside other tests on two cores, only
	// a regression of an order of magnitude fails.
	if drawn >= 3000 {
		t.Errorf("%d agents took %.0f ms from navigation to the first full picture, want under 3 s (BenchmarkPageFleetLoad: about 200 ms)", n, drawn)
	}

	want := map[string]int{"": n}
	for i := range n {
		want[fleetKinds[i%len(fleetKinds)]]++
	}
	counts := func() map[string]int {
		var got map[string]int
		raw := evalIn[string](t, ctx, `JSON.stringify(Object.fromEntries([...document.querySelectorAll('#counts button')].map((b) => [b.dataset.state, +b.dataset.count])))`)
		if err := json.Unmarshal([]byte(raw), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("counts %v, want %v", got, want)
	}
	if b := evalIn[string](t, ctx, `document.querySelector('#counts button[data-state="budget_spent"]').textContent`); b != fmt.Sprintf("$ budget spent %d", want["budget_spent"]) {
		t.Errorf("budget count reads %q", b)
	}
	// Each tile says its state in a word and a symbol, not in colour alone.
	for i, kind := range fleetKinds {
		tile := fmt.Sprintf(`#grid .tile[data-agent="agent-%04d"]`, i)
		word := strings.ReplaceAll(kind, "_", " ")
		if got := evalIn[string](t, ctx, `document.querySelector('`+tile+` .tstate').textContent`); got != word {
			t.Errorf("agent-%04d's tile says %q, want %q", i, got, word)
		}
		if evalIn[string](t, ctx, `document.querySelector('`+tile+` .sym').textContent`) == "" {
			t.Errorf("agent-%04d's tile has no symbol", i)
		}
	}
	visible := func() []string {
		return evalIn[[]string](t, ctx, `[...document.querySelectorAll('#grid .tile')].filter((t) => t.checkVisibility()).map((t) => t.dataset.agent + " " + t.dataset.state)`)
	}
	do := func(what string, a ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(c, a...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// The default sort is by severity: states in fleetKinds' order, names
	// in order within each.
	if v := visible(); len(v) != n || !sortedByState(v) || v[0] != "agent-0000 needs_you" || v[n-1] != fmt.Sprintf("agent-%04d waiting", lastOf(n, 6)) {
		t.Fatalf("by state: %d tiles, first %q, last %q", len(v), v[0], v[len(v)-1])
	}
	// A count filters; pressed again, it shows all.
	do("filter errors", chromedp.Click(`#counts button[data-state="error"]`))
	v := visible()
	for _, s := range v {
		if !strings.HasSuffix(s, " error") {
			t.Fatalf("the error filter shows %q", s)
		}
	}
	if len(v) != want["error"] {
		t.Fatalf("the error filter shows %d tiles, want %d", len(v), want["error"])
	}
	if s := evalIn[string](t, ctx, `document.querySelector('#shown').textContent`); s != fmt.Sprintf("showing %d of %d", want["error"], n) {
		t.Errorf("#shown says %q", s)
	}
	do("unfilter", chromedp.Click(`#counts button[data-state="error"]`))
	if len(visible()) != n {
		t.Fatal("pressing the filter again does not show every tile")
	}
	sortBy := func(key string) []string {
		evalIn[bool](t, ctx, `(() => { const s = document.querySelector('#sort'); s.value = '`+key+`'; return s.dispatchEvent(new Event('change')); })()`)
		return visible()
	}
	if v := sortBy("name"); v[0] != "agent-0000 needs_you" || v[1] != "agent-0001 error" || !strings.HasPrefix(v[n-1], fmt.Sprintf("agent-%04d ", n-1)) {
		t.Errorf("by name: %q, %q … %q", v[0], v[1], v[n-1])
	}
	if v := sortBy("activity"); !strings.HasPrefix(v[0], fmt.Sprintf("agent-%04d ", n-1)) || v[n-1] != "agent-0000 needs_you" {
		t.Errorf("by last activity: %q … %q", v[0], v[n-1])
	}
	sortBy("state")

	// A search by name, typed.
	do("search", chromedp.SendKeys(`#search`, "AGENT-004"))
	if v := visible(); len(v) != 10 || v[0] != "agent-0042 needs_you" {
		t.Errorf("searching agent-004 shows %q", v)
	}
	if got := counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a search changed the counts: %v", got)
	}
	evalIn[bool](t, ctx, `(() => { const s = document.querySelector('#search'); s.value = ''; return s.dispatchEvent(new Event('input')); })()`)

	// A tile opens the full card, with what a card shows; close hides it.
	do("open a tile", chromedp.Click(`#grid .tile[data-agent="agent-0001"]`),
		chromedp.WaitVisible(`#detail [data-agent="agent-0001"] li[data-check="inactivity"][data-level="error"]`))
	if b := evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="agent-0001"] .badge').textContent`); b != "error" {
		t.Errorf("the error tile's card is badged %q: the tile and its card must agree", b)
	}
	if id := evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="agent-0001"] dd[data-fact="heartbeat"]').textContent`); id != "20261125140205" {
		t.Errorf("the opened card's heartbeat %q", id)
	}
	if c := evalIn[int](t, ctx, `document.querySelectorAll('article.card').length`); c != 1 {
		t.Errorf("%d cards drawn for one opened tile", c)
	}
	// The open card follows its agent's pulses.
	next := fleetAgent(1, n, "error", now)
	next.HeartbeatID = "20261125150000"
	srv.Publish(next)
	waitUntil(t, "the open card to show the new heartbeat", 5*time.Second, func() bool {
		return evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="agent-0001"] dd[data-fact="heartbeat"]').textContent`) == "20261125150000"
	})

	// Live: one agent's pulse moves its tile and the counts within a frame.
	changed := fleetAgent(6, n, "needs_you", time.Now())
	srv.Publish(changed)
	waitUntil(t, "agent-0006 to need you", 5*time.Second, func() bool {
		return evalIn[string](t, ctx, `document.querySelector('#grid .tile[data-agent="agent-0006"]').dataset.state`) == "needs_you"
	})
	if got := counts(); got["needs_you"] != want["needs_you"]+1 || got["waiting"] != want["waiting"]-1 {
		t.Errorf("after agent-0006 asks: %v", got)
	}
	// The tile moved alone, to its place among those who need you.
	if v := visible(); !sortedByState(v) || v[1] != "agent-0006 needs_you" {
		t.Errorf("after agent-0006 asks, the tiles are out of order: %q", v[:3])
	}
	if n == 75 {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		testutil.SaveScreenshot(t, "status-page-fleet.png", shot)
	}
	// Sorted by last activity, a new proof moves its tile first.
	sortBy("activity")
	srv.Publish(fleetAgent(0, n, "needs_you", now.Add(time.Duration(2*n)*time.Minute)))
	waitUntil(t, "agent-0000's tile to lead the activity sort", 5*time.Second, func() bool {
		return strings.HasPrefix(visible()[0], "agent-0000 ")
	})
	if v := visible(); !strings.HasPrefix(v[1], fmt.Sprintf("agent-%04d ", n-1)) || !strings.HasPrefix(v[n-1], "agent-0001 ") {
		t.Errorf("by last activity after agent-0000's proof: %q, %q … %q", v[0], v[1], v[n-1])
	}
	sortBy("state")
	do("close the card", chromedp.Click(`#detail .close`))
	if evalIn[bool](t, ctx, `!document.querySelector('#detail').hidden`) {
		t.Error("the card stays open after close")
	}

	// A phone's width: the toolbar wraps, the tiles take two columns, and
	// nothing scrolls sideways, with a card open too.
	do("phone width", chromedp.EmulateViewport(390, 844))
	noSideways := func(what string) {
		t.Helper()
		if w := evalIn[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
			t.Errorf("%s at 390 px: %d px wide, scrolls sideways", what, w[0])
		}
	}
	noSideways("the grid")
	if cols := evalIn[int](t, ctx, `getComputedStyle(document.querySelector('#grid')).gridTemplateColumns.split(' ').length`); cols < 2 {
		t.Errorf("%d column of tiles on a phone", cols)
	}
	do("open a tile on a phone", chromedp.Click(`#grid .tile[data-agent="agent-0000"]`), chromedp.WaitVisible(`#detail [data-agent="agent-0000"] .needs-you`))
	noSideways("an open card")

	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}

// sortedByState: tiles ("name state") by severity, then by name.
func sortedByState(v []string) bool {
	rank := map[string]int{}
	for i, k := range fleetKinds {
		rank[k] = i
	}
	return slices.IsSortedFunc(v, func(a, b string) int {
		an, as, _ := strings.Cut(a, " ")
		bn, bs, _ := strings.Cut(b, " ")
		return cmp.Or(rank[as]-rank[bs], strings.Compare(an, bn))
	})
}

// A page that starts with a few cards (a fleet view still hearing its
// agents' retained states) turns into the grid when the 13th arrives, and
// drops the cards; the grid fades when the stream is lost.
func TestE2EStatusPageGrowsIntoAGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, problems := browser(t)
	now := time.Now()
	all := fleetStates(13, now)
	s := web.New(all[:3], web.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#cards [data-agent="agent-0002"] dd[data-fact="heartbeat"]`)); err != nil {
		t.Fatalf("load page: %v", err)
	}
	for _, st := range all[3:] {
		s.Publish(st)
	}
	waitUntil(t, "13 tiles", 5*time.Second, func() bool {
		return evalIn[int](t, ctx, `[...document.querySelectorAll('#grid .tile')].filter((t) => t.checkVisibility()).length`) == 13
	})
	if n := evalIn[int](t, ctx, `document.querySelectorAll('article.card').length`); n != 0 {
		t.Errorf("%d cards left on the page beside the grid", n)
	}
	if a := evalIn[string](t, ctx, `document.querySelector('#counts button[data-state=""]').textContent`); a != "all 13" {
		t.Errorf("the all count reads %q", a)
	}
	// The watchdog gone, the grid fades as the cards do.
	srv.CloseClientConnections()
	srv.Close()
	waitUntil(t, "the grid to fade", 10*time.Second, func() bool {
		return evalIn[bool](t, ctx, `document.querySelector('#grid').classList.contains("lost")`)
	})
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}

// A fleet whose agents all speak Japanese gets its toolbar and tiles in
// Japanese.
func TestE2EStatusPageFleetInJapanese(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, problems := browser(t)
	src := fleetStates(13, time.Now())
	for i := range src {
		src[i].Language = lang.Japanese
	}
	openFleet(t, ctx, src)
	text := func(sel string) string {
		return evalIn[string](t, ctx, `document.querySelector('`+sel+`').textContent`)
	}
	for sel, want := range map[string]string{
		`#counts button[data-state=""]`:                "すべて 13",
		`#counts button[data-state="needs_you"]`:       "⚠ 要対応 2",
		`#counts button[data-state="offline"]`:         "⊘ オフライン 2",
		`#grid .tile[data-agent="agent-0002"] .tstate`: "予算切れ",
		`#grid .tile[data-agent="agent-0005"] .tstate`: "作業中",
		`#shown`:      "13 / 13 件を表示",
		`#sort-label`: "並べ替え ",
	} {
		if got := text(sel); got != want {
			t.Errorf("%s reads %q, want %q", sel, got, want)
		}
	}
	if p := evalIn[string](t, ctx, `document.querySelector('#search').placeholder`); p != "名前で検索" {
		t.Errorf("search placeholder %q", p)
	}
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}

// lastOf is the highest i < n with i%7 == k.
func lastOf(n, k int) int {
	i := n - 1
	for i%7 != k {
		i--
	}
	return i
}
