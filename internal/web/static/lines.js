"use strict";
// The client and cost facts, in the words of `watchdog status` (clientRow,
// costRows): one reading of the state for the terminal and the page. Loaded
// before app.js, whose tr, ja and ago these call when a card is drawn.

// shown is text as status shows it (termsafe): the agent's words may carry
// control characters (C0, DEL, C1) and the bidirectional controls that make
// a name read other than it is ("abc\u202etxt.md" reads "abcdm.txt"); each is
// written out as an escape, visibly, and nothing acts. Newline and tab stay.
const unsafeChars = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
function shown(s) {
  return String(s).replace(unsafeChars, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? "\\x" + n.toString(16).padStart(2, "0") : "\\u" + n.toString(16).padStart(4, "0");
  });
}

// clock is a local time as status shows it, 14:02 (in Japanese 14:02:05,
// the one form the Japanese texts use).
function clock(t, a) {
  const d = new Date(t);
  const p = (n) => String(n).padStart(2, "0");
  const hm = p(d.getHours()) + ":" + p(d.getMinutes());
  // Another day's time says its date: a prompt waiting since yesterday
  // must not read as today's.
  const day = d.toDateString() === new Date().toDateString() ? "" : ja(a) ? (d.getMonth() + 1) + "月" + d.getDate() + "日 " : isoDate(d) + " ";
  return day + (ja(a) ? hm + ":" + p(d.getSeconds()) : hm);
}

// isoDate is a local date as the day files name it, "2026-11-25".
function isoDate(d) {
  return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
}

// askWhat names what a waiting agent asks about; in English the hook's own
// word, as status prints it.
function askWhat(asking, a) {
  if (!ja(a)) return asking;
  if (asking === "question") return "質問";
  if (asking === "elicitation_dialog") return "入力フォーム";
  if (/permission/i.test(asking)) return "許可の確認";
  return asking;
}

// calls is "1 tool call", "14 tool calls".
function calls(n) {
  return n === 1 ? "1 tool call" : n + " tool calls";
}

// clientLine says what the client's hooks show: in a turn since when and
// how busy; waiting; or waiting for a person. Tool names and the rest are
// the agent's words: the caller sets them as text, never as markup.
function clientLine(a) {
  const c = a.client;
  if (!c) return tr(a, "no hook event yet");
  const j = ja(a);
  let v;
  if (c.mode === "in_turn") {
    v = j ? (c.since ? clock(c.since, a) + " から" : "") + "作業中" : "in a turn" + (c.since ? " since " + clock(c.since, a) : "");
  } else if (c.mode === "waiting_for_you") {
    if (j) {
      const why = [c.since ? clock(c.since, a) + " から" : "", c.asking ? askWhat(c.asking, a) : ""].filter(Boolean);
      v = "あなたの応答待ち" + (why.length ? "（" + why.join("、") + "）" : "");
    } else {
      v = "WAITING FOR YOU" + (c.since ? " since " + clock(c.since, a) : "") + (c.asking ? " (" + c.asking + ")" : "");
    }
  } else {
    v = tr(a, "waiting");
  }
  const n = c.tool_calls_5m || 0;
  if (c.last_tool_at && c.running) {
    const s = span(Math.max(0, Math.round((Date.now() - new Date(c.last_tool_at).getTime()) / 1000)), a);
    v += j ? "。" + c.last_tool + " を実行中（" + s + "）。5分間のツール呼び出し" + n + "回"
      : "; running " + c.last_tool + " for " + s + "; " + calls(n) + " in 5m";
  } else if (c.last_tool_at) {
    v += j ? "。5分間のツール呼び出し" + n + "回、最後は " + c.last_tool + "（" + ago(c.last_tool_at, a) + "）"
      : "; " + calls(n) + " in 5m, last " + c.last_tool + " " + ago(c.last_tool_at, a);
  }
  if (c.repeats > 1) v += j ? "。" + c.loop_tools + " を" + c.repeats + "回繰り返し" : "; " + c.loop_tools + " repeated " + c.repeats + " times";
  if (c.failure) v += j ? "。モデルのサービスでエラー：" + c.failure : "; the model's service failed: " + c.failure;
  return v;
}

// thousands writes n with comma separators: 2,340.
const thousands = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// usd shows dollars with the digits that matter for small sums: $0.004,
// $1.25, $0.000325 (status's usd).
function usd(v) {
  if (v === 0) return "$0";
  if (v >= 1) return "$" + v.toFixed(2);
  let s = String(Number(v.toPrecision(3)));
  if (s.includes("e")) s = v.toFixed(20).replace(/0+$/, "");
  return "$" + s;
}

const tokensOf = (t) => (t ? (t.input || 0) + (t.output || 0) + (t.cache_read || 0) + (t.cache_write || 0) : 0);

// cellSum adds a period's cells (source -> outcome -> cell) of one outcome,
// or of all where outcome is "".
function cellSum(by, outcome) {
  const c = { runs: 0, unknown: 0, unpriced: 0, tokens: 0, usd: 0 };
  for (const byOut of Object.values(by || {})) {
    for (const [o, x] of Object.entries(byOut || {})) {
      if (outcome && o !== outcome) continue;
      c.runs += x.runs || 0; c.unknown += x.unknown || 0; c.unpriced += x.unpriced || 0;
      c.tokens += tokensOf(x.tokens); c.usd += x.usd || 0;
    }
  }
  return c;
}
function addCells(c, d) {
  return { runs: c.runs + d.runs, unknown: c.unknown + d.unknown, unpriced: c.unpriced + d.unpriced, tokens: c.tokens + d.tokens, usd: c.usd + d.usd };
}

// runs counts runs: "3 runs" (3回).
const runs = (n, a) => (ja(a) ? thousands(n) + "回" : n === 1 ? "1 run" : thousands(n) + " runs");

// cellCost says what a cell's runs used: tokens and dollars, and what is
// not known (runs with no usage reported, runs with no price).
function cellCost(c, a) {
  const j = ja(a), sep = j ? "、" : ", ";
  const tok = (n) => thousands(n) + (j ? "トークン" : " tokens");
  if (!c.runs) return tok(0) + sep + "$0";
  const measured = c.runs - c.unknown;
  if (measured === 0) return tr(a, "usage unknown");
  let v = tok(c.tokens);
  const priced = measured - c.unpriced;
  if (priced === 0) v += sep + tr(a, "price unknown");
  else if (c.unpriced > 0) v += sep + usd(c.usd) + (j ? "＋" + runs(c.unpriced, a) + "は価格不明" : " + price unknown for " + runs(c.unpriced, a));
  else v += sep + usd(c.usd);
  if (c.unknown > 0) v += j ? sep + runs(c.unknown, a) + "は使用量不明" : ", usage unknown for " + runs(c.unknown, a);
  return v;
}

// runsCost is "3 runs: 2,340 tokens, $0.004", or that none was booked.
function runsCost(c, a) {
  if (!c.runs) return tr(a, "no runs booked");
  return ja(a) ? runs(c.runs, a) + "の実行：" + cellCost(c, a) : runs(c.runs, a) + ": " + cellCost(c, a);
}

// costLines are the cost facts of a card: today's runs, and the ghosts'
// share beside their count (status's "cost today" and "ghosts today").
function costLines(a) {
  const k = a.cost;
  if (!k) return [];
  const all = cellSum(k.today && k.today.by, "");
  let v = runsCost(all, a);
  const b = k.budget;
  if (b && b.spent) v += ja(a) ? "。予算を使い切ったため、深夜0時までエージェントを起こしません" : "; budget spent: no wakeups until midnight";
  const out = [["cost today", v]];
  if (all.runs) {
    const g = cellSum(k.today.by, "ghost");
    out.push(["ghosts today", ja(a) ? runs(g.runs, a) + "：" + cellCost(g, a)
      : (g.runs === 1 ? "1 ghost" : thousands(g.runs) + " ghosts") + " today, " + cellCost(g, a)]);
  }
  // The models no price covers, and the config line that prices them (as
  // status's "prices" row says it).
  const m = k.unpriced_models || [];
  if (m.length) {
    const entries = m.map((x) => JSON.stringify(x) + ": {input: …, output: …}").join(", ");
    out.push(["prices", (ja(a) ? "価格不明のモデル：" + m.join("、") + "。設定に追加してください：" : "price unknown for " + m.join(", ") + ": add ")
      + "prices: {" + entries + "}" + (ja(a) ? "（100万トークンあたりの USD）" : " to the config (USD per million tokens)")]);
  }
  return out;
}

// fleetCost is today's cost of every agent that books it, or "" when the
// page shows one agent.
function fleetCost(list, l) {
  if (list.length < 2) return "";
  let c = cellSum({}, "");
  for (const a of list) if (a.cost) c = addCells(c, cellSum(a.cost.today && a.cost.today.by, ""));
  return ja(l) ? "今日のコスト（全" + list.length + "エージェント）：" + runsCost(c, l)
    : "cost today, all " + list.length + " agents: " + runsCost(c, l);
}
