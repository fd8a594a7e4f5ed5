"use strict";
// The day strip on each card: the last 24 hours (‹ › browse the days
// kept, each from its midnight), a slot per 15 minutes, from /api/v1/agents/{name}/day (a watchdog's own page, or a
// fleet view's: what it heard since it started, offline included; a
// source without days hides the strip). Refreshed every minute.

const STRIP_WORDS = {
  working: ["working", "作業中"], waiting: ["waiting", "待機中"], waiting_for_you: ["waiting for you", "あなたの応答待ち"],
  paused: ["paused", "一時停止"], outside_active_hours: ["outside active hours", "活動時間外"], offline: ["offline", "オフライン"], stopped: ["no watchdog", "watchdog 停止中"],
  schedule: ["schedule", "定期"], idle: ["idle", "アイドル"], recovery: ["recovery", "回復"], feedback: ["feedback", "フィードバック"], extra: ["extra", "追加"],
  wakeups: ["wakeups", "起動"], ghosts: ["ghosts", "ゴースト"], wakeup: ["wakeup", "起動"], work: ["work", "作業"], ghost: ["ghost", "ゴースト"], error: ["error", "エラー"], warning: ["warning", "警告"],
  last_24h: ["last 24 hours", "直近24時間"], yesterday: ["yesterday", "昨日"], alerts_24h: ["alerts, last 24 hours", "直近24時間の警報"],
};

// clockTime is a time of day on the 24-hour clock, as every time on the
// page is written ("17:20:00"), whatever the browser's locale.
function clockTime(t) {
  return new Date(t).toTimeString().slice(0, 8);
}

function stripWord(word, ja) {
  const w = STRIP_WORDS[word];
  return w ? w[ja ? 1 : 0] : word;
}

// slotTitle says a slot in words: "09:15-09:30 working; 2 wakeups; error",
// with "yesterday" before it for a slot of the day before today (the last
// 24 hours cross midnight; today is "YYYY-MM-DD").
function slotTitle(s, minutes, ja, today) {
  const t = new Date(s.start);
  const end = new Date(t.getTime() + minutes * 60000);
  const hm = (d) => d.toTimeString().slice(0, 5);
  const day = today && isoDate(t) < today ? stripWord("yesterday", ja) + " " : "";
  const parts = [day + hm(t) + "-" + hm(end) + " " + (s.mode ? stripWord(s.mode, ja) : "–")];
  if (s.wakeups) {
    const by = Object.entries(s.sources || {}).sort().map(([src, n]) => stripWord(src, ja) + (n > 1 ? " ×" + n : "")).join(", ");
    parts.push(s.wakeups + " " + stripWord(s.wakeups === 1 ? "wakeup" : "wakeups", ja) + (by ? " (" + by + ")" : ""));
  }
  if (s.ghosts) parts.push(s.ghosts + " " + stripWord(s.ghosts === 1 ? "ghost" : "ghosts", ja));
  if (s.worst === "error" || s.worst === "warning") parts.push(stripWord(s.worst, ja));
  return parts.join("; ");
}

// drawStrip fills el from the day view v; label names the day ("today"
// or its date) for a screen reader.
function drawStrip(el, v, ja, label) {
  const seen = new Set();
  const spans = v.slots.map((s) => {
    const span = document.createElement("span");
    const wake = wakeOf(s);
    span.className = "slot" + (s.future ? " future" : s.mode ? " m-" + s.mode : "") + (s.worst === "error" || s.worst === "warning" ? " w-" + s.worst : "") + (wake ? " wk-" + wake : "");
    span.title = shown(slotTitle(s, v.slot_minutes, ja, v.span === "last_24h" ? v.date : "") + alertLines(v.marks, s.start, v.slot_minutes) + workLines(v.marks, s.start, v.slot_minutes, ja));
    if (s.mode && !s.future) seen.add("m-" + s.mode);
    if (wake) seen.add("wk-" + wake);
    if (s.worst === "error" || s.worst === "warning") seen.add("w-" + s.worst);
    return span;
  });
  el.replaceChildren(...spans);
  drawLegend(el.parentElement.querySelector(".legend"), seen, ja);
  // A tap (or a click) on a slot says it in a line under the strip: a
  // title shows only to a pointer that hovers.
  const info = el.parentElement.querySelector(".slotinfo");
  info.hidden = true;
  el.onclick = (e) => {
    const span = e.target.closest(".slot");
    for (const p of el.querySelectorAll(".picked")) p.classList.remove("picked");
    if (!span) return;
    span.classList.add("picked");
    info.textContent = span.title;
    info.hidden = false;
  };
  const counts = {};
  for (const s of v.slots) if (s.mode && !s.future) counts[s.mode] = (counts[s.mode] || 0) + 1;
  el.setAttribute("aria-label", label + ": " + Object.entries(counts).map(([m, n]) => stripWord(m, ja) + " " + (n * v.slot_minutes) + (ja ? "分" : " min")).join(", "));
  el.hidden = false;
}

// alertLines are the lines of the alerts raised in a slot, one per line
// after its title (a tap shows them; the history has them all).
function alertLines(marks, start, minutes) {
  const from = new Date(start).getTime(), to = from + minutes * 60000;
  return (marks || []).filter((m) => m.kind === "alert" && m.level !== "ok" && new Date(m.t).getTime() >= from && new Date(m.t).getTime() < to)
    .map((m) => "\n" + clockTime(m.t) + " " + m.check + " " + m.level + ": " + m.message).join("");
}

// workLines are the slot's answered wakeups' work, one per line: what
// changed beside what the agent said of it.
function workLines(marks, start, minutes, ja) {
  const from = new Date(start).getTime(), to = from + minutes * 60000;
  return (marks || []).filter((m) => m.kind === "work" && new Date(m.t).getTime() >= from && new Date(m.t).getTime() < to)
    .map((m) => "\n" + clockTime(m.t) + " " + stripWord("work", ja) + " (" + stripWord(m.source, ja) + "): " + m.message).join("");
}

// WAKE_ORDER ranks wakeup sources for a slot's tick: the one that says
// most about the agent's health shows when a slot has several.
const WAKE_ORDER = ["recovery", "feedback", "extra", "schedule", "idle"];

// wakeOf is the source a slot's tick shows: its weightiest delivered
// wakeup, else "ghost" for a slot with ghosts only, else "".
function wakeOf(s) {
  const by = s.sources || {};
  return WAKE_ORDER.find((src) => by[src]) || (s.ghosts ? "ghost" : "");
}

// drawLegend explains what this day's strip shows, and only that.
function drawLegend(el, seen, ja) {
  const order = ["m-working", "m-waiting", "m-waiting_for_you", "m-paused", "m-outside_active_hours", "m-offline", "m-stopped",
    ...WAKE_ORDER.map((w) => "wk-" + w), "wk-ghost", "w-error", "w-warning"];
  el.replaceChildren(...order.filter((k) => seen.has(k)).map((k) => {
    const item = document.createElement("span");
    const sw = document.createElement("i");
    sw.className = "slot " + k;
    item.append(sw, stripWord(k.replace(/^(m|wk|w)-/, "").replace(/^ghost$/, "ghosts"), ja));
    return item;
  }));
  el.hidden = !seen.size;
}

// loadStrip fetches name's day into el (the day the card's navigation
// shows, today by default: 7 are kept), and the day's alerts into the
// card's history; a source without days hides them.
async function loadStrip(el, name, ja) {
  const card = el.closest(".card");
  const hist = card.querySelector(".history"), nav = card.querySelector(".daynav");
  if (!nav.wired) {
    nav.wired = true;
    const step = (days) => {
      const d = new Date((nav.dataset.date || nav.dataset.today) + "T12:00:00");
      d.setDate(d.getDate() + days);
      const iso = isoDate(d);
      nav.dataset.date = iso >= nav.dataset.today ? "" : iso;
      loadStrip(el, name, ja);
    };
    nav.querySelector(".prev").addEventListener("click", () => step(-1));
    nav.querySelector(".next").addEventListener("click", () => step(1));
  }
  try {
    const q = nav.dataset.date ? "?date=" + nav.dataset.date : "";
    const r = await fetch("api/v1/agents/" + encodeURIComponent(name) + "/day" + q);
    // The day's alerts replace the live list of recent ones, which would
    // repeat them; a source without days keeps the live list.
    const recent = card.querySelector(".alerts");
    if (!r.ok) { el.hidden = true; hist.hidden = true; nav.hidden = true; recent.hidden = false; return; }
    recent.hidden = true;
    const v = await r.json();
    if (!nav.dataset.date) nav.dataset.today = v.date;
    const live = v.span === "last_24h";
    nav.querySelector(".date").textContent = live ? stripWord("last_24h", ja) : v.date;
    nav.querySelector(".next").disabled = !nav.dataset.date;
    nav.hidden = false;
    drawStrip(el, v, ja, live ? stripWord("last_24h", ja) : v.date);
    hist.querySelector("summary").textContent = live ? stripWord("alerts_24h", ja) : ja ? v.date + " の警報" : "alerts on " + v.date;
    // A question answered from afar (or withdrawn), and words for the
    // agent, are lines of the day too, under "answer".
    drawHistory(hist, v.marks.filter((m) => m.kind === "alert" || m.kind === "answer")
      .map((m) => (m.kind === "answer" ? { ...m, check: "answer", level: "info" } : m)));
    drawNumbers(card, v.numbers, ja);
  } catch (e) {
    el.hidden = true;
  }
}

// drawHistory lists the day's alerts, newest first, filtered by the
// check and level chosen; recovery's lines tell each attempt and its end.
function drawHistory(hist, alerts) {
  hist.hidden = false;
  hist.alerts = alerts;
  const sel = hist.querySelector(".f-check");
  const chosen = sel.value;
  const checks = [...new Set(alerts.map((m) => m.check))].sort();
  sel.replaceChildren(sel.options[0], ...checks.map((c) => { const o = document.createElement("option"); o.textContent = c; return o; }));
  sel.value = checks.includes(chosen) ? chosen : "";
  if (!hist.wired) {
    hist.wired = true;
    for (const s of hist.querySelectorAll("select")) s.addEventListener("change", () => filterHistory(hist));
  }
  filterHistory(hist);
}

function filterHistory(hist) {
  const check = hist.querySelector(".f-check").value, level = hist.querySelector(".f-level").value;
  const items = (hist.alerts || []).filter((m) => (!check || m.check === check) && (!level || m.level === level)).reverse().map((m) => {
    const li = document.createElement("li");
    li.className = "lvl-line " + m.level;
    li.dataset.check = m.check;
    li.textContent = shown(clockTime(m.t) + " " + m.check + " " + m.level + ": " + m.message);
    return li;
  });
  hist.querySelector("ol").replaceChildren(...items);
}

// numbersLine says the field's numbers of a span in a line (what users
// compare supervisors by: docs/measured.md).
function numbersLine(n, ja) {
  const f1 = (x) => (Math.round(x * 10) / 10).toFixed(1);
  const parts = ja ? [
    "未回復の停止 " + f1(n.unrecovered_stalls_per_24h) + "回/24時間",
    "定期の起動 " + n.scheduled_on_time + "/" + n.scheduled_wakeups + " が時刻どおり",
    "レート制限の解除 " + n.resumed_within_10m + "/" + n.rate_limit_resets + " で10分以内に再開",
    "人の介入の間 " + f1(n.hours_alone) + "時間（介入" + n.interventions + "回）",
    "変化のない応答 " + n.nothing_changed + "/" + n.answered_wakeups,
  ] : [
    f1(n.unrecovered_stalls_per_24h) + " unrecovered stalls per 24h",
    n.scheduled_on_time + " of " + n.scheduled_wakeups + " scheduled wakeups on time",
    n.resumed_within_10m + " of " + n.rate_limit_resets + " rate-limit resets resumed within 10m",
    f1(n.hours_alone) + "h alone between interventions (" + n.interventions + ")",
    n.nothing_changed + " of " + n.answered_wakeups + " answers changed nothing",
  ];
  return parts.join(" · ");
}

// drawNumbers writes an agent's numbers under its strip: today and the
// last 7 days; the page's fleet line sums every card's.
function drawNumbers(card, f, ja) {
  const el = card.querySelector(".numbers");
  card.numbers = f || null;
  if (!f) { el.hidden = true; return; }
  el.textContent = (ja ? "今日：" : "today: ") + numbersLine(f.today, ja) + "\n" + (ja ? "7日間：" : "7 days: ") + numbersLine(f.last_7_days, ja);
  el.hidden = false;
  drawFleetNumbers(ja);
}

// drawFleetNumbers sums the last 7 days of every card that shows numbers,
// when there are several.
function drawFleetNumbers(ja) {
  const all = [...document.querySelectorAll("#cards .card")].map((c) => c.numbers).filter(Boolean).map((f) => f.last_7_days);
  const el = document.getElementById("fleet-numbers");
  if (!el) return;
  if (all.length < 2) { el.hidden = true; return; }
  const keys = ["hours", "unrecovered_stalls", "scheduled_wakeups", "scheduled_on_time", "rate_limit_resets", "resumed_within_10m", "interventions", "answered_wakeups", "nothing_changed"];
  const s = {};
  for (const k of keys) s[k] = all.reduce((t, n) => t + (n[k] || 0), 0);
  s.unrecovered_stalls_per_24h = s.hours ? s.unrecovered_stalls / s.hours * 24 : 0;
  s.hours_alone = s.hours / (s.interventions + 1);
  el.textContent = (ja ? "7日間（全" + all.length + "エージェント）：" : "7 days, all " + all.length + " agents: ") + numbersLine(s, ja);
  el.hidden = false;
}
