package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The fleet view's page as a grid, against a real Mosquitto: 13 agents of
// two watchdog processes are tiles; kill -9 of one process turns its agent's
// tile offline (the view's verdict, from the watchdog's last will) and the
// counts follow; its tile opens the card with the host and the will.
func TestE2EFleetGridInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, problems := browser(t)
	b := testutil.Mosquitto(t, nil)
	mqtt := fmt.Sprintf("{broker: %q, keepalive: 2s}", b.URL)
	var many []string
	for i := range 12 {
		many = append(many, fmt.Sprintf("a%02d", i))
	}
	p1 := startFleetProcess(t, mqtt, 5*time.Second, many...)
	p2 := startFleetProcess(t, mqtt, 5*time.Second, "bob")
	view := freeAddr(t)
	testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "fleet", "--mqtt", b.URL, "--http", view))
	waitUntil(t, "13 agents in the view", 20*time.Second, func() bool { return len(statusOf(view)) == 13 })

	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+view+"/"), chromedp.WaitVisible(`#grid .tile[data-agent="bob"]`)); err != nil {
		t.Fatalf("load the fleet page: %v", err)
	}
	count := func(state string) int {
		return evalIn[int](t, ctx, `+document.querySelector('#counts button[data-state="`+state+`"]').dataset.count`)
	}
	tile := func(agent string) string {
		return evalIn[string](t, ctx, `document.querySelector('#grid .tile[data-agent="`+agent+`"]').dataset.state`)
	}
	// No schedule: each agent is always working.
	waitUntil(t, "13 working tiles", 10*time.Second, func() bool { return count("working") == 13 })
	if n := evalIn[int](t, ctx, `document.querySelectorAll('article.card').length`); n != 0 {
		t.Errorf("%d cards drawn on a 13-agent page before any tile was opened", n)
	}
	// A pause travels with its reason and end: the tile and the card say so.
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "pause", "-c", p1.cfg, "--agent", "a11", "--for", "2h", "--reason", "model migration").CombinedOutput(); err != nil {
		t.Fatalf("pause a11: %v\n%s", err, out)
	}
	waitUntil(t, "a11's tile paused", 10*time.Second, func() bool { return tile("a11") == "paused" })
	if err := chromedp.Do(c, chromedp.Click(`#grid .tile[data-agent="a11"]`), chromedp.WaitVisible(`#detail [data-agent="a11"] dd[data-fact="paused"]`)); err != nil {
		t.Fatalf("open a11's tile: %v", err)
	}
	if got := evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="a11"] dd[data-fact="paused"]').textContent`); !strings.Contains(got, "until") || strings.Contains(got, "until resumed") || !strings.Contains(got, "model migration") {
		t.Errorf("a11's card in the fleet view says paused %q: want its end and reason", got)
	}
	if got := evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="a11"] dd[data-fact="next wakeup"]').textContent`); got != "none while paused" {
		t.Errorf("a11's next wakeup while paused: %q", got)
	}
	out, _ := exec.Command(filepath.Join(binDir, "watchdog"), "status", "--mqtt", b.URL).CombinedOutput()
	if !regexpLine(string(out), "a11", "paused until") {
		t.Errorf("status --mqtt does not say until when a11 is paused:\n%s", out)
	}
	p2.cmd.Process.Kill()
	waitUntil(t, "bob's tile to go offline", 10*time.Second, func() bool { return tile("bob") == "offline" })
	if count("offline") != 1 || count("working") != 11 || count("paused") != 1 || tile("a00") != "working" {
		t.Errorf("after bob's kill: offline %d, working %d, paused %d, a00 %s", count("offline"), count("working"), count("paused"), tile("a00"))
	}
	// A count filters, and a search keeps the names that match.
	visible := func() string {
		return evalIn[string](t, ctx, `[...document.querySelectorAll('#grid .tile')].filter((t) => t.checkVisibility()).map((t) => t.dataset.agent).join(",")`)
	}
	if err := chromedp.Do(c, chromedp.Click(`#counts button[data-state="offline"]`)); err != nil {
		t.Fatal(err)
	}
	if v := visible(); v != "bob" {
		t.Errorf("the offline filter shows %q", v)
	}
	if err := chromedp.Do(c, chromedp.Click(`#counts button[data-state="offline"]`), chromedp.SendKeys(`#search`, "a1")); err != nil {
		t.Fatal(err)
	}
	if v := visible(); v != "a11,a10" && v != "a10,a11" {
		t.Errorf("searching a1 shows %q", v)
	}
	evalIn[bool](t, ctx, `(() => { const s = document.querySelector('#search'); s.value = ''; return s.dispatchEvent(new Event('input')); })()`)
	if err := chromedp.Do(c, chromedp.Click(`#grid .tile[data-agent="bob"]`), chromedp.WaitVisible(`#detail [data-agent="bob"] dd[data-fact="host"]`)); err != nil {
		t.Fatalf("open bob's tile: %v", err)
	}
	if badge := evalIn[string](t, ctx, `document.querySelector('#detail [data-agent="bob"] .badge').textContent`); badge != "offline" {
		t.Errorf("bob's card badge %q", badge)
	}
	// The card has bob's day as the view heard it: working, then offline.
	var v struct{ Marks []struct{ Kind, Mode string } }
	if code := getJSON(t, "http://"+view+"/api/v1/agents/bob/day", &v); code != 200 {
		t.Fatalf("the fleet view's day of bob: %d", code)
	}
	var modes []string
	for _, m := range v.Marks {
		if m.Kind == "mode" {
			modes = append(modes, m.Mode)
		}
	}
	if strings.Join(modes, ",") != "working,offline" {
		t.Errorf("bob's day in the view: modes %v, want working then offline", modes)
	}
	waitUntil(t, "bob's strip on his card", 10*time.Second, func() bool {
		return evalIn[bool](t, ctx, `(() => { const s = document.querySelector('#detail [data-agent="bob"] .strip'); return !!s && !s.hidden && s.querySelectorAll('.slot').length === 96 && !!s.querySelector('.slot.m-working, .slot.m-offline'); })()`)
	})
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}

// getJSON decodes a GET's JSON body into v and returns the status code.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer r.Body.Close()
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: not JSON: %v", url, err)
	}
	return r.StatusCode
}
