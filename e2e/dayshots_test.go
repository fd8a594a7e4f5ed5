package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// aDay writes the marks of a whole day the way the daemon records them:
// outside active hours until 07:00 (and an hour without a watchdog), hourly wakeups answered after some
// work, a paused lunch, an afternoon stall raising inactivity and a
// recovery, a permission prompt, ghost wakeups in the evening, outside
// again from 23:00. The day is the one before today, so it is whole. Marks
// go in the order of their times, as the daemon writes them, and the
// alerts' lines are its words for these events.
func aDay(t *testing.T, stateDir, date string) {
	t.Helper()
	midnight, err := time.ParseInLocation(time.DateOnly, date, time.Local)
	if err != nil {
		t.Fatal(err)
	}
	rec := day.NewRecorder(stateDir, time.Local)
	at := func(hm string) time.Time {
		d, err := time.ParseDuration(strings.Replace(hm, ":", "h", 1) + "m")
		if err != nil {
			t.Fatalf("bad time %s", hm)
		}
		return midnight.Add(d)
	}
	mode := func(hm, m string) {
		if err := rec.Mode(at(hm), m); err != nil {
			t.Fatal(err)
		}
	}
	add := func(m day.Mark) {
		if err := rec.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	wake := func(hm, source, outcome string) {
		add(day.Mark{Time: at(hm), Kind: day.KindWakeup, Source: source, Outcome: outcome})
	}
	alert := func(hm, level, check, msg string) {
		add(day.Mark{Time: at(hm), Kind: day.KindAlert, Level: level, Check: check, Message: msg})
	}
	mode("00:00", day.Outside)
	mode("05:00", day.Stopped) // the machine rebooted: no watchdog for an hour
	mode("06:00", day.Outside)
	mode("07:00", day.Waiting)
	work := func(from, to string) {
		wake(from, "schedule", "delivered")
		mode(from, day.Working)
		mode(to, day.Waiting)
	}
	work("07:00", "07:40")
	work("08:00", "09:50")
	work("10:00", "11:30")
	mode("12:00", day.Paused)
	work("13:00", "13:50")
	work("14:00", "14:20")
	wake("15:00", "schedule", "delivered")
	mode("15:00", day.Working)
	alert("15:10", "warning", "inactivity", "no activity log or checkpoint for 10m (warning after 10m, error after 20m; wakeup delivered at 15:00:00, no proof since)")
	alert("15:20", "error", "inactivity", "no activity log or checkpoint for 20m (warning after 10m, error after 20m; wakeup delivered at 15:00:00, no proof since)")
	wake("15:21", "recovery", "delivered")
	alert("15:21", "warning", "recovery", "recovery attempt 1 of 3: inactivity error")
	alert("15:40", "ok", "recovery", "no check that starts recovery is at error any more; recovery finished")
	mode("16:10", day.Waiting)
	wake("17:00", "schedule", "delivered")
	mode("17:00", day.Working)
	mode("17:20", day.WaitingForYou)
	alert("17:20", "warning", "waiting_for_you", "waiting for you since 17:20:00: permission for Bash; answer in the agent's terminal")
	mode("17:50", day.Working)
	mode("18:30", day.Waiting)
	for _, hm := range []string{"19:00", "20:00", "21:00", "22:00"} {
		wake(hm, "idle", "ghost")
	}
	mode("23:00", day.Outside)
}

// The day in pictures, taken by the test: yesterday (a whole day recorded
// in the watchdog's state folder) drawn by `watchdog status --day` (and --brief) as text and by the page's
// strip after ‹, each checked slot by slot, then saved as status-terminal.png
// and status-day.png (in $SCREENSHOT_DIR, else a temporary folder).
func TestE2EScreenshotsOfADay(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, problems := browser(t)
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("pulse: {interval: 200ms}\nschedule: {every: 0s}\nhttp: {listen: %q}\n", addr))
	yesterday := time.Now().AddDate(0, 0, -1).Format(time.DateOnly)
	aDay(t, stateDirOf(t, cfg), yesterday)
	testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg))
	waitUntil(t, "the first pulse", 10*time.Second, func() bool { return readState(t, ws) != nil })

	// The terminal: yesterday, a character per half hour.
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg, "--day", yesterday).CombinedOutput()
	if err != nil {
		t.Fatalf("status --day: %v\n%s", err, out)
	}
	want := "~~~~~~~~~~" + "  " + "~~" + // 00:00-07:00 outside, 05:00-06:00 no watchdog
		"█·" + "████" + "███·" + // 07:00-12:00: work and waiting
		"‖‖" + "██" + "█·" + // 12:00 paused, 13:00 and 14:00 work
		"!█" + "··" + // 15:00 the stall (warning, then error), recovery
		"?▒" + "█·" + // 17:00 work, then the permission prompt
		"········" + // 19:00-23:00 ghosts in waiting
		"~~" // 23:00 outside
	if !strings.Contains(string(out), "|"+want+"|") || !strings.Contains(string(out), yesterday+": █ working") {
		t.Fatalf("status --day %s, want the strip\n|%s|\n%s", yesterday, want, out)
	}
	for _, bad := range []string{"yesterday", time.Now().AddDate(0, 0, 1).Format(time.DateOnly), time.Now().AddDate(0, 0, -day.Keep).Format(time.DateOnly)} {
		if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg, "--day", bad).CombinedOutput(); err == nil || !strings.Contains(string(out), "--day") {
			t.Errorf("status --day %s: %v, want a refusal naming --day\n%s", bad, err, out)
		}
	}

	// The page: the card's ‹ shows yesterday, each slot in words.
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate("http://"+addr+"/"), chromedp.WaitVisible(`[data-agent] .daynav .prev`)); err != nil {
		t.Fatalf("load page: %v", err)
	}
	if err := chromedp.Do(c, chromedp.Click(`[data-agent] .daynav .prev`)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "yesterday's strip", 10*time.Second, func() bool {
		return evalIn[string](t, ctx, `document.querySelector('[data-agent] .daynav .date').textContent`) == yesterday
	})
	title := func(slot int) string {
		return evalIn[string](t, ctx, fmt.Sprintf(`document.querySelectorAll('[data-agent] .strip .slot')[%d].title`, slot))
	}
	for slot, words := range map[int]string{0: "00:00-00:15 outside active hours", 48: "12:00-12:15 paused", 61: "15:15-15:30 working; 1 wakeup (recovery); error",
		70: "17:30-17:45 waiting for you", 76: "19:00-19:15 waiting; 1 ghost", 95: "23:45-00:00 outside active hours"} {
		if got, _, _ := strings.Cut(title(slot), "\n"); got != words {
			t.Errorf("slot %d says %q, want %q", slot, got, words)
		}
	}
	// A slot's title (a tap's line) has its alerts' lines after its words.
	if got := title(61); !strings.Contains(got, "\n15:20:00 inactivity error: no activity log or checkpoint for 20m") || !strings.Contains(got, "\n15:21:00 recovery warning: recovery attempt 1 of 3") {
		t.Errorf("slot 61's title lacks its alerts: %q", got)
	}
	if got := title(20); !strings.HasPrefix(got, "05:00-05:15 no watchdog") {
		t.Errorf("slot 20 (no watchdog) says %q", got)
	}
	// Wakeups are ticks by source, and a key says what this day shows.
	if got := evalIn[string](t, ctx, `[60, 61, 76].map((i) => [...document.querySelectorAll('[data-agent] .strip .slot')[i].classList].filter((c) => c.startsWith("wk-")).join("")).join(",")`); got != "wk-schedule,wk-recovery,wk-ghost" {
		t.Errorf("the ticks of 15:00, 15:15 and 19:00: %q", got)
	}
	if got := evalIn[string](t, ctx, `[...document.querySelectorAll('[data-agent] .strip-key > span')].map((s) => s.textContent).join(", ")`); got != "working, waiting, waiting for you, paused, outside active hours, no watchdog, recovery, schedule, ghosts, error, warning" {
		t.Errorf("the strip's key: %q", got)
	}
	// A tap on a slot says it in a line (a title shows only on hover).
	if err := chromedp.Do(c, chromedp.Click(`[data-agent] .strip .slot:nth-child(71)`)); err != nil {
		t.Fatal(err)
	}
	if got := evalIn[string](t, ctx, `(() => { const p = document.querySelector('[data-agent] .slotinfo'); return p.hidden ? "(hidden)" : p.textContent; })()`); got != "17:30-17:45 waiting for you" {
		t.Errorf("a tap on 17:30 says %q", got)
	}
	if label := evalIn[string](t, ctx, `document.querySelector('[data-agent] .strip').getAttribute('aria-label')`); !strings.HasPrefix(label, yesterday+": ") {
		t.Errorf("the strip's label %q: want it to name the day shown", label)
	}
	if evalIn[bool](t, ctx, `!document.querySelector('[data-agent] .alerts').hidden`) {
		t.Error("the live list of recent alerts is shown beside the day's, repeating them")
	}
	if n := evalIn[int](t, ctx, `document.querySelectorAll('[data-agent] .history li[data-check="inactivity"]').length`); n != 2 {
		t.Errorf("yesterday's history lists %d inactivity alerts, want 2", n)
	}
	// The history names the day it lists, and its times are on the 24-hour
	// clock like every time on the page; a pulse's redraw keeps both.
	if _, err := chromedp.Run(c, chromedp.Evaluate[bool](`new Promise((done) => {
		const rec = [...agents.values()][0], first = rec.data.pulse_at;
		const f = () => rec.data.pulse_at !== first && !frame ? done(true) : requestAnimationFrame(f);
		f();
	})`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("no pulse redrew the card: %v", err)
	}
	if got := evalIn[string](t, ctx, `document.querySelector('[data-agent] .history summary').textContent`); got != "alerts on "+yesterday {
		t.Errorf("the history's title %q, want %q", got, "alerts on "+yesterday)
	}
	if got := evalIn[string](t, ctx, `document.querySelector('[data-agent] .history li[data-check="waiting_for_you"]').textContent`); !strings.HasPrefix(got, "17:20:00 waiting_for_you warning") {
		t.Errorf("the history's line %q, want it to start with 17:20:00", got)
	}
	evalIn[bool](t, ctx, `(document.querySelector('[data-agent] .history').open = true, true)`)
	card, err := chromedp.Run(c, chromedp.Screenshot(`[data-agent]`, chromedp.NodeVisible))
	if err != nil {
		t.Fatal(err)
	}
	testutil.SaveScreenshot(t, "status-day.png", card)

	// The terminal's picture: the same output in a monospace block, on a
	// blank page (the status page's script would redraw its own).
	if err := chromedp.Do(c, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	evalIn[bool](t, ctx, `(() => {
		document.body.replaceChildren();
		const pre = document.createElement("pre");
		pre.id = "term";
		pre.style.cssText = "display:inline-block;margin:0;padding:12px 16px;background:#111;color:#ddd;font:13px/1.35 'DejaVu Sans Mono',monospace";
		document.body.append(pre);
		return true;
	})()`)
	brief, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", cfg, "--brief", "--day", yesterday).CombinedOutput()
	if err != nil || !strings.Contains(string(brief), "|"+want+"|") {
		t.Fatalf("status --brief --day: %v, want the strip\n%s", err, brief)
	}
	if err := chromedp.Do(c, chromedp.SetJavascriptAttribute(`#term`, "textContent", "$ watchdog status --brief --day "+yesterday+"\n"+string(brief))); err != nil {
		t.Fatal(err)
	}
	term, err := chromedp.Run(c, chromedp.Screenshot(`#term`, chromedp.NodeVisible))
	if err != nil {
		t.Fatal(err)
	}
	testutil.SaveScreenshot(t, "status-terminal.png", term)
	for _, p := range problems() {
		t.Errorf("browser: %s", p)
	}
}
