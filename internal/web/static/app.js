"use strict";
// The page draws only from the status JSON (/api/v1/status, the same shape
// as each SSE "status" event): one card per agent, or above GRID_AT agents a
// tile per agent (grid.js). Events only mark agents dirty; one frame draws
// them all, so 1,000 agents pulsing stay one redraw a frame.
const agents = new Map(); // name -> {data, el, seen, tile, state}
const dirty = new Set();
let frame = 0;
let connected = false;
// lost: the stream failed and has not come back. Not while it first
// connects: the cards drawn from /api/v1/status are fresh.
let lost = false;
let pausable = false;
const $ = (sel, el = document) => el.querySelector(sel);
// setText writes only a change: each frame relabels the page, and a write
// of the same words would still make the browser lay it out again.
const setText = (el, s) => { s = shown(s); if (el.textContent !== s) el.textContent = s; };

// The labels in Japanese, for agents whose state says language "ja". Check
// names, levels, IDs and alert lines stay English: machines read them too.
const JA = {
  "never": "なし", "now": "今", "no pulse": "パルスなし", "paused": "一時停止中",
  "outside active hours": "活動時間外", "always": "常時作業", "working": "作業中", "waiting": "待機中",
  "heartbeat": "ハートビートID", "last proof": "最新の活動の証明", "none yet": "まだなし",
  "introspection": "内省", "deep work": "深い作業", "none": "なし", "left": "残り",
  "next wakeup": "次の起動", "stopped (recovery gave up)": "なし（回復を断念）", "in flight": "エージェントの応答待ち",
  "wakeup": "起動", "since": "開始", "daily cap": "1日の上限", "of": "/", "no limit": "上限なし",
  "breaker": "ブレーカー", "until resumed": "再開まで", "none while paused": "一時停止中はなし", "held until active hours": "活動時間まで保留", "active hours": "活動時間",
  "outside: schedule and idle wakeups wait": "活動時間外：定期とアイドルの起動は保留中",
  "Resume": "再開", "Pause": "一時停止", "recent alerts": "最近の警報",
  "pause requested; shows within one pulse": "一時停止を要求しました。1パルス以内に反映されます",
  "resume requested; shows within one pulse": "再開を要求しました。1パルス以内に反映されます",
  "offline": "オフライン", "host": "ホスト", "last seen": "最後の受信",
  "live": "接続中", "connecting…": "接続しています…", "connection to the watchdog lost; retrying": "watchdog との接続が切れました。再接続しています",
  "Bearer token for pause, resume and answers": "一時停止・再開・応答用のアクセストークン（Bearer）", "token": "アクセストークン",
  "check": "チェック", "level": "レベル",
  "waiting for you today": "今日の応答待ち",
  "client": "クライアント", "no hook event yet": "フックのイベントはまだありません", "channels": "経路",
  "hooks": "フック", "telemetry": "テレメトリ", "exec": "実行の出力", "transcript": "トランスクリプト", "waiting for you": "あなたの応答待ち",
  "cost today": "今日のコスト", "ghosts today": "今日のゴースト", "no runs booked": "実行の記録なし", "prices": "価格",
  "usage unknown": "使用量不明", "price unknown": "価格不明", "theme": "テーマ", "last log": "最新の活動ログ", "last work": "直近の作業",
  "Needs you: the agent waits for your answer in its terminal": "対応が必要です：エージェントが端末であなたの応答を待っています",
  "Needs you: answer its question above, or in its terminal": "対応が必要です：上の質問に答えるか、端末で応答してください",
  "needs you": "要対応", "error": "エラー", "budget spent": "予算切れ", "all": "すべて", "search by name": "名前で検索",
  "sort": "並べ替え", "state": "状態", "name": "名前", "last activity": "最新の活動", "close": "閉じる",
  "blocked": "起動なし", "gave up": "回復を断念", "daily cap reached": "1日の上限に到達", "breaker open": "ブレーカー作動中",
  "held by the service": "モデルのサービス側の制限で保留中", "until": "まで",
};
// BLOCKED names, in a word, why no wakeup can reach the agent (the
// state's chambers.schedule.blocked.why).
const BLOCKED = {
  paused: "paused", gave_up: "gave up", budget_spent: "budget spent", daily_cap: "daily cap reached",
  breaker_open: "breaker open", held_service: "held by the service", outside_active_hours: "outside active hours",
};
// BLOCKED_JA says in Japanese why no wakeup can reach the agent: the
// state's reason is English, and its numbers are on the card's other rows
// (the daily cap, the next wakeup's time).
const BLOCKED_JA = {
  paused: "一時停止中です。一時停止が終わるまでエージェントを起こさず、無活動・内省の警報も出しません",
  gave_up: "回復を試みても立ち直らなかったため、起こすのをやめています。チェックが正常に戻るか、再開するか、設定された待ち時間が過ぎると、また起こします",
  budget_spent: "今日の予算を使い切りました。深夜0時までエージェントを起こしません",
  daily_cap: "1日の起動の上限に達しました。深夜0時までエージェントを起こしません（回復は警報のみ）",
  breaker_open: "失敗が続いたため、ブレーカーが起動を止めています",
  held_service: "モデルのサービスが休止を求めたため、起動を保留しています",
  outside_active_hours: "活動時間外のため、定期とアイドルの起動は保留中です",
};
// blockedReason is why no wakeup can reach the agent, in its language.
const blockedReason = (b, a) => (ja(a) && BLOCKED_JA[b.why]) || b.reason;
// BREAKER_JA names the circuit breaker's states in Japanese, the state kept
// beside it as status prints it.
const BREAKER_JA = { closed: "正常（closed）", open: "作動中（open）", "half-open": "試行中（half-open）" };
const breakerWord = (s, a) => (ja(a) && BREAKER_JA[s]) || s;
// capLine is the daily cap's use: "3 of 10", or the count with no limit.
const capLine = (cap, a) => ja(a)
  ? (cap.limit ? (cap.used || 0) + "回 / " + cap.limit + "回" : (cap.used || 0) + "回（上限なし）")
  : (cap.limit ? cap.used + " " + tr(a, "of") + " " + cap.limit : (cap.used || 0) + " (" + tr(a, "no limit") + ")");

// blockedWord is that word, with when it lifts by itself: a time within a
// day needs no date ("budget spent until 00:00", as status says it).
function blockedWord(b, a) {
  const w = tr(a, BLOCKED[b.why] || b.why);
  if (!b.until) return w;
  const soon = new Date(b.until).getTime() - Date.now() < 86400e3;
  const t = soon ? clockTime(b.until).slice(0, ja(a) ? 8 : 5) : clock(b.until, a);
  return ja(a) ? w + "（" + t + tr(a, "until") + "）" : w + " until " + t;
}
// tr is s in the agent's language; for the page itself, in the language
// every agent shares.
const tr = (a, s) => (a && a.language === "ja" && JA[s]) || s;
const pageLang = () => {
  const all = [...agents.values()].map((r) => r.data);
  return all.length && all.every((a) => a.language === "ja") ? { language: "ja" } : null;
};

const ja = (a) => !!a && a.language === "ja";

// span renders seconds as 42s, 7m or 1.5h (in Japanese 42秒, 7分,
// 1時間30分: the docs' durations, never a decimal hour).
function span(s, a) {
  const [sec, min, hr] = ja(a) ? ["秒", "分", "時間"] : ["s", "m", "h"];
  if (s < 90) return s + sec;
  if (s < 5400) return Math.round(s / 60) + min;
  if (ja(a)) {
    const m = Math.round(s / 60);
    return Math.floor(m / 60) + hr + (m % 60 ? (m % 60) + min : "");
  }
  return (s / 3600).toFixed(1) + hr;
}
function ago(t, a) {
  if (!t) return tr(a, "never");
  const s = Math.max(0, Math.round((Date.now() - new Date(t).getTime()) / 1000));
  return ja(a) ? span(s, a) + "前" : span(s, a) + " ago";
}
function until(t, a) {
  const s = Math.round((new Date(t).getTime() - Date.now()) / 1000);
  if (s <= 0) return tr(a, "now");
  return ja(a) ? span(s, a) + "後" : "in " + span(s, a);
}
function left(t, a) {
  const s = Math.max(0, Math.round((new Date(t).getTime() - Date.now()) / 1000));
  return ja(a) ? "残り" + span(s, a) : span(s, a) + " left";
}
// pauseLine says a pause: "until 18:37 (in 1.9h) · by root · model
// migration", or "until resumed · …".
function pauseLine(p, a) {
  const j = ja(a);
  const end = p.until ? (j ? clock(p.until, a) + " まで（" + until(p.until, a) + "）" : "until " + clock(p.until, a) + " (" + until(p.until, a) + ")") : tr(a, "until resumed");
  return [end, p.by ? (j ? p.by + " による" : "by " + p.by) : "", p.reason || ""].filter(Boolean).join(j ? "・" : " · ");
}

// deepWorkLine says a declaration: "strict since 14:02, 12m left: drawing
// the bulges" (its ID is its start; the activity is the agent's words).
function deepWorkLine(d, a) {
  const id = String(d.id || "");
  // A time as the rest of the page writes it: HH:MM in English, HH:MM:SS
  // in Japanese (clock's two forms).
  const since = /^\d{14}$/.test(id) ? id.slice(8, 10) + ":" + id.slice(10, 12) + (ja(a) ? ":" + id.slice(12, 14) : "") : "";
  const mode = d.mode; // flexible, strict: the tool's own words in both languages
  const head = ja(a) ? mode + (since ? "（" + since + " から" + (d.deadline ? "、" + left(d.deadline, a) : "") + "）" : d.deadline ? "（" + left(d.deadline, a) + "）" : "")
    : mode + (since ? " since " + since : "") + (d.deadline ? (since ? ", " : " ") + left(d.deadline, a) : "");
  return d.activity ? head + (ja(a) ? "：" : ": ") + d.activity : head;
}
function intervalMs(a) {
  // pulse_interval is a Go duration string like "1m0s" or "500ms".
  const m = String(a.pulse_interval || "").match(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g) || [];
  const unit = { h: 3600e3, m: 60e3, s: 1e3, ms: 1, us: 1e-3, "µs": 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const part of m) { const [, n, u] = part.match(/([\d.]+)(\D+)/); ms += parseFloat(n) * unit[u]; }
  return ms || 60e3;
}
function worst(a) {
  const order = ["ok", "info", "warning", "error"];
  let w = 0;
  for (const c of Object.values(a.checks || {})) w = Math.max(w, order.indexOf(c.level));
  return order[w];
}
function fact(dl, a, name, value) {
  const dt = document.createElement("dt"); dt.textContent = tr(a, name);
  const dd = document.createElement("dd"); dd.textContent = shown(value);
  dd.dataset.fact = name;
  dl.append(dt, dd);
}

// silent: no pulse from the agent. A fleet view judges presence itself (3
// missed pulses, or the watchdog's last will); a watchdog's own page guesses
// from the pulse times.
function silent(rec) {
  const a = rec.data, pr = a.presence;
  if (pr) return !pr.online;
  return Date.now() - rec.seen > 3 * intervalMs(a) || Date.now() - new Date(a.pulse_at).getTime() > 3 * intervalMs(a);
}

// dayMarkSig sums up what of a state the day strip draws.
function dayMarkSig(a) {
  const c = a.counters || {}, sc = (a.chambers && a.chambers.schedule) || {};
  const levels = Object.keys(a.checks || {}).sort().map((k) => a.checks[k].level).join();
  return [!!a.pause, !!sc.outside_active_hours, a.client && a.client.mode, a.work && a.work.mode, levels, c.wakeups, c.ghosts].join("|");
}

function draw(name) {
  const rec = agents.get(name);
  const a = rec.data;
  if (!rec.el) {
    rec.el = $("#card").content.firstElementChild.cloneNode(true);
    rec.el.dataset.agent = name;
    $(".pause", rec.el).addEventListener("click", () => togglePause(name));
    wireTell(rec.el, name);
    loadStrip($(".strip", rec.el), name, ja(a));
    if (!grid.on) { // the grid's opener places the card
      const cards = $("#cards");
      const after = [...cards.children].find((c) => c.dataset.agent > name);
      cards.insertBefore(rec.el, after || null);
    }
  }
  // What adds a mark to the day (a change of mode, a check's level, a
  // wakeup) fetches the strip again at once, besides once a minute.
  const sig = dayMarkSig(a);
  if (rec.daySig !== undefined && rec.daySig !== sig && rec.el.isConnected) loadStrip($(".strip", rec.el), name, ja(a));
  rec.daySig = sig;
  const el = rec.el;
  $(".name", el).textContent = shown(name);
  const pr = a.presence;
  const offline = !!pr && !pr.online;
  const stale = lost || silent(rec);
  const paused = !!a.pause;
  const breakerOpen = a.circuit_breaker && a.circuit_breaker.state && a.circuit_breaker.state !== "closed";
  const sc = (a.chambers && a.chambers.schedule) || {};
  // blocked: no wakeup can reach the agent (paused, gave up, budget or cap
  // spent, breaker open, held by the service, outside active hours).
  const blocked = sc.blocked;
  const w = worst(a);
  el.className = "card " + w;
  el.classList.toggle("blocked", !!blocked);
  if (stale) el.classList.add("stale");
  else if (paused || breakerOpen || blocked) el.classList.add("still");
  else if (a.chambers && a.chambers.schedule && a.chambers.schedule.in_flight) el.classList.add("flight");
  else if (w === "ok" || w === "info") el.classList.add("healthy");
  // A client waiting for a person is the one state that needs the
  // operator: said in words on the badge and a line of its own.
  const asking = !!a.client && a.client.mode === "waiting_for_you";
  el.classList.toggle("ask", asking);
  const needs = $(".needs-you", el);
  needs.hidden = !asking;
  const offered = questions.some((q) => q.agent === name);
  needs.textContent = !asking ? "" : offered ? tr(a, "Needs you: answer its question above, or in its terminal")
    : tr(a, "Needs you: the agent waits for your answer in its terminal");
  // The badge says what the fleet's tile says first (an error before the
  // work mode), so a tile and its card never disagree; a blocked agent is
  // never "waiting" for a wakeup that would be dropped.
  const badge = offline ? tr(a, "offline") : stale ? tr(a, "no pulse") : asking ? tr(a, "waiting for you") : w === "error" ? tr(a, "error")
    : blocked ? blockedWord(blocked, a) : paused ? tr(a, "paused") : sc.outside_active_hours ? tr(a, "outside active hours") : tr(a, (a.work && a.work.mode) || w);
  $(".badge", el).textContent = badge;
  $(".alerts summary", el).textContent = tr(a, "recent alerts");
  if (!$(".daynav", el).dataset.date) $(".history summary", el).textContent = stripWord("alerts_24h", ja(a)); // else the day browsed names them
  // The filters' labels and their "all": the alert lines stay English,
  // the words around them are the card's language.
  setText($(".f-check", el).parentNode.firstChild, tr(a, "check") + " ");
  setText($(".f-level", el).parentNode.firstChild, tr(a, "level") + " ");
  for (const sel of [$(".f-check", el), $(".f-level", el)]) setText(sel.options[0], tr(a, "all"));

  const dl = $(".facts", el); dl.replaceChildren();
  const none = tr(a, "none"), noneYet = tr(a, "none yet");
  if (pr) {
    fact(dl, a, "host", pr.host || "–");
    fact(dl, a, "last seen", ago(pr.last_seen, a) + (offline && pr.reason ? " · " + pr.reason : ""));
  }
  nowFacts(dl, a, rec, name, fact, ja(a));
  workFact(dl, a, fact, ja(a));
  fact(dl, a, "heartbeat", a.heartbeat_id || "–");
  fact(dl, a, "last proof", a.last_proof ? ago(a.last_proof.mod_time, a) : noneYet);
  fact(dl, a, "introspection", a.last_introspection ? ago(a.last_introspection.mod_time, a) : noneYet);
  fact(dl, a, "client", clientLine(a));
  // Time spent waiting for a person, apart from the agent's own work.
  const waitedToday = waitedLine(a);
  if (waitedToday) fact(dl, a, "waiting for you today", waitedToday);
  $('dd[data-fact="client"]', dl).classList.toggle("ask", asking);
  // When each channel of the client last spoke (hooks, telemetry, exec
  // output, transcript): a silent one is the channel_silent check's.
  const chs = Object.entries(a.channels || {}).sort();
  if (chs.length) fact(dl, a, "channels", chs.map(([n, t]) => tr(a, n) + " " + ago(t, a)).join(" · "));
  const dw = (a.deep_work || []).map((d) => deepWorkLine(d, a));
  fact(dl, a, "deep work", dw.length ? dw.join(", ") : none);
  // The next wakeup only where one can come: not while paused, outside
  // active hours or with no watchdog pulsing.
  fact(dl, a, "next wakeup", stale ? "–" : blocked ? none + " · " + blockedWord(blocked, a) : sc.stopped ? tr(a, "stopped (recovery gave up)") : paused ? tr(a, "none while paused")
    : sc.outside_active_hours ? tr(a, "held until active hours") : sc.next_wakeup ? until(sc.next_wakeup, a) + " · " + stripWord(sc.next_source, ja(a)) : none);
  if (blocked && !stale) fact(dl, a, "blocked", blockedReason(blocked, a));
  if (sc.in_flight) fact(dl, a, "in flight", (sc.in_flight_source ? stripWord(sc.in_flight_source, ja(a)) : tr(a, "wakeup")) + " · " + ago(sc.in_flight_since, a));
  const cap = a.daily_cap || {};
  fact(dl, a, "daily cap", capLine(cap, a));
  fact(dl, a, "breaker", breakerWord((a.circuit_breaker && a.circuit_breaker.state) || "closed", a));
  for (const [k, v] of costLines(a)) fact(dl, a, k, v);
  if (paused) fact(dl, a, "paused", pauseLine(a.pause, a));
  if (sc.outside_active_hours) fact(dl, a, "active hours", tr(a, "outside: schedule and idle wakeups wait"));

  const ul = $(".checks", el); ul.replaceChildren();
  for (const [check, c] of Object.entries(a.checks || {}).sort()) {
    const li = document.createElement("li");
    li.className = "lvl " + c.level;
    li.dataset.check = check;
    li.dataset.level = c.level;
    li.textContent = check + ": " + c.level;
    li.title = shown(c.message || "");
    ul.append(li);
  }
  labelTell(el, a);
  const btn = $(".pause", el);
  btn.hidden = !pausable;
  btn.textContent = tr(a, paused ? "Resume" : "Pause");
  const ol = $(".alerts ol", el); ol.replaceChildren();
  for (const al of (a.alerts || []).slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = shown(clockTime(al.time) + " " + al.check + " " + al.level + ": " + al.message);
    ol.append(li);
  }
}

function update(a) {
  const rec = agents.get(a.agent) || {};
  rec.data = a;
  rec.seen = Date.now();
  agents.set(a.agent, rec);
  redraw(a.agent);
}

// redraw marks agents for the next frame (every agent when none is named).
function redraw(...names) {
  for (const n of names.length ? names : agents.keys()) dirty.add(n);
  if (!frame) frame = requestAnimationFrame(flush);
}

let drawnOnce = false;
function flush() {
  frame = 0;
  if (!grid.on && agents.size > GRID_AT) enterGrid();
  if (grid.on) {
    gridFlush(dirty);
    if (grid.open && dirty.has(grid.open)) draw(grid.open);
  } else {
    for (const name of dirty) draw(name);
  }
  dirty.clear();
  labelPage();
  if (!drawnOnce && agents.size) {
    drawnOnce = true;
    // The first full picture on screen, for the load benchmark: after the
    // next paint.
    requestAnimationFrame(() => setTimeout(() => performance.mark("drawn")));
  }
}

// drawFleet shows today's cost of the whole page when it shows several agents.
function drawFleet() {
  const f = $("#fleet");
  setText(f, fleetCost([...agents.values()].map((r) => r.data), pageLang()));
  f.hidden = !f.textContent;
}

// labelPage puts the page's own labels in the language every agent shares.
function labelPage() {
  const l = pageLang();
  if (document.documentElement.lang !== (l ? "ja" : "en")) document.documentElement.lang = l ? "ja" : "en";
  setText($("#auth summary"), tr(l, "token"));
  setText($("#auth label").firstChild, tr(l, "Bearer token for pause, resume and answers") + " ");
  if (connected) setText($("#conn"), tr(l, "live"));
  if (grid.on) labelGrid(l);
  drawFleet();
  drawAsks();
}

async function togglePause(name) {
  const rec = agents.get(name);
  const action = rec.data.pause ? "resume" : "pause";
  const msg = $(".act-msg", rec.el);
  const token = $("#token").value || sessionStorage.getItem("watchdog-token") || "";
  if (token) sessionStorage.setItem("watchdog-token", token);
  try {
    const r = await fetch("api/v1/agents/" + encodeURIComponent(name) + "/" + action, {
      method: "POST", headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" }, body: "{}",
    });
    const body = await r.json().catch(() => ({}));
    msg.textContent = r.ok ? tr(rec.data, action + " requested; shows within one pulse") : (body.error || r.statusText);
    if (r.status === 401) $("#auth").open = true;
  } catch (e) {
    msg.textContent = String(e);
  }
}

function setConn(ok, text) {
  connected = ok;
  lost = !ok;
  const c = $("#conn");
  c.textContent = tr(pageLang(), text);
  c.classList.toggle("lost", !ok);
  redraw();
}

function connect() {
  const es = new EventSource("api/v1/events");
  es.addEventListener("open", () => setConn(true, "live"));
  es.addEventListener("error", () => setConn(false, "connection to the watchdog lost; retrying"));
  es.addEventListener("status", (e) => update(JSON.parse(e.data)));
  es.addEventListener("asks", (e) => setAsks(JSON.parse(e.data).asks || []));
  es.addEventListener("alert", (e) => {
    const al = JSON.parse(e.data);
    const rec = agents.get(al.agent);
    if (!rec) return;
    rec.data.alerts = (rec.data.alerts || []).concat([al]).slice(-20);
    redraw(al.agent);
  });
}

async function start() {
  const t = sessionStorage.getItem("watchdog-token");
  if (t) $("#token").value = t;
  try {
    const r = await fetch("api/v1/status");
    if (r.ok) {
      // The whole fleet at once: the first frame knows whether it is a
      // grid, before the event stream repeats each agent.
      const body = await r.json();
      pausable = !!body.pausable;
      for (const a of body.agents || []) update(a);
    }
  } catch (e) { /* the event stream reports the connection */ }
  await loadAsks();
  connect();
  // Ages and the faded state follow the clock between events; the strips
  // on screen follow the day, all on one timer.
  setInterval(() => redraw(), 1000);
  setInterval(() => {
    for (const rec of agents.values()) if (rec.el && rec.el.isConnected) loadStrip($(".strip", rec.el), rec.data.agent, ja(rec.data));
  }, 60000);
}
start();
