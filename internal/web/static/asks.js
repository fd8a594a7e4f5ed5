"use strict";
// The questions the agents' clients wait on (a permission request): a card
// each above the agents, its tool and input, Allow and Deny, answered with
// the page's token by POST; and each agent's box of words for it (a
// feedback item). The list comes whole, from /api/v1/asks and each SSE
// "asks" event.
let questions = [];
let answerable = false;

const ASK_JA = {
  "{agent} asks to run {tool}": "{agent} が {tool} の実行の許可を求めています", "waiting since": "待機開始", "offered until": "受付終了",
  "then only the client's own dialog answers": "以降はクライアント自身のダイアログでのみ応答できます",
  "Allow": "許可", "Deny": "拒否", "words for the agent, with a denial (optional)": "拒否に添えるエージェントへの言葉（任意）",
  "allowed: handed to the client's hook": "許可しました。クライアントのフックに渡しました",
  "denied: handed to the client's hook": "拒否しました。クライアントのフックに渡しました",
  "Questions waiting for you": "あなたの応答を待っている質問",
  "words for the agent": "エージェントへの言葉", "urgent (wakes it now)": "緊急（すぐに起動する）", "Send": "送信",
  "written to": "書き込み先", "waiting for you today": "今日の応答待ち",
};
const atr = (a, s) => (a && a.language === "ja" && ASK_JA[s]) || s;

function askToken() {
  const token = $("#token").value || sessionStorage.getItem("watchdog-token") || "";
  if (token) sessionStorage.setItem("watchdog-token", token);
  return token;
}

async function loadAsks() {
  try {
    const r = await fetch("api/v1/asks");
    if (!r.ok) return;
    const body = await r.json();
    answerable = !!body.answerable;
    setAsks(body.asks || []);
  } catch (e) { /* the event stream reports the connection */ }
}

function setAsks(list) {
  questions = list;
  drawAsks();
}

// agentOf is the agent's state as the page knows it, for its language.
function agentOf(name) {
  const rec = agents.get(name);
  return rec ? rec.data : null;
}

function drawAsks() {
  const sec = $("#asks");
  const l = pageLang();
  setText($("h2", sec), atr(l, "Questions waiting for you"));
  const have = new Map([...sec.querySelectorAll(".askcard")].map((c) => [c.dataset.id, c]));
  const want = new Set(questions.map((q) => q.agent + "/" + q.id));
  // An answered card stays, saying so, until the next list without it.
  for (const [key, c] of have) if (!want.has(key) && !c.dataset.done) c.remove();
  for (const q of questions) {
    const key = q.agent + "/" + q.id;
    let c = have.get(key);
    if (!c) {
      c = $("#askcard").content.firstElementChild.cloneNode(true);
      c.dataset.id = key;
      $(".allow", c).addEventListener("click", () => answer(q, "allow", c));
      $(".deny", c).addEventListener("click", () => answer(q, "deny", c));
      sec.append(c);
    }
    const a = agentOf(q.agent) || l;
    setText($(".q-title", c), atr(a, "{agent} asks to run {tool}").replace("{agent}", shown(q.agent)).replace("{tool}", shown(q.tool)));
    setText($(".q-input", c), prettyInput(q.input));
    setText($(".q-when", c), atr(a, "waiting since") + " " + clockTime(q.since) + " · " + atr(a, "offered until") + " " + clockTime(q.hold_until) +
      " (" + atr(a, "then only the client's own dialog answers") + ") · " + q.id);
    $(".q-msg", c).placeholder = atr(a, "words for the agent, with a denial (optional)");
    setText($(".allow", c), atr(a, "Allow"));
    setText($(".deny", c), atr(a, "Deny"));
    $(".allow", c).hidden = $(".deny", c).hidden = !answerable;
  }
  sec.hidden = !sec.querySelector(".askcard");
}

function prettyInput(input) {
  if (input === undefined || input === null) return "";
  try { return JSON.stringify(typeof input === "string" ? JSON.parse(input) : input, null, 2); } catch (e) { return String(input); }
}

async function answer(q, decision, card) {
  const a = agentOf(q.agent);
  const msg = $(".q-result", card);
  for (const b of card.querySelectorAll("button")) b.disabled = true;
  try {
    const r = await fetch("api/v1/asks/" + encodeURIComponent(q.id) + "/answer", {
      method: "POST", headers: { Authorization: "Bearer " + askToken(), "Content-Type": "application/json" },
      body: JSON.stringify({ decision, agent: q.agent, message: $(".q-msg", card).value }),
    });
    const body = await r.json().catch(() => ({}));
    if (r.ok) {
      card.dataset.done = decision;
      card.classList.add("done", decision);
      msg.textContent = atr(a, decision === "allow" ? "allowed: handed to the client's hook" : "denied: handed to the client's hook");
      return;
    }
    msg.textContent = body.error || r.statusText;
    if (r.status === 401) $("#auth").open = true;
  } catch (e) {
    msg.textContent = String(e);
  }
  for (const b of card.querySelectorAll("button")) b.disabled = false;
}

// wireTell makes the words box of an agent's card send its text.
function wireTell(el, name) {
  $(".tell-send", el).addEventListener("click", async () => {
    const a = agentOf(name);
    const msg = $(".tell-msg", el);
    const text = $(".tell-text", el).value;
    if (!text.trim()) return;
    try {
      const r = await fetch("api/v1/agents/" + encodeURIComponent(name) + "/tell", {
        method: "POST", headers: { Authorization: "Bearer " + askToken(), "Content-Type": "application/json" },
        body: JSON.stringify({ text, urgent: $(".tell-urgent", el).checked }),
      });
      const body = await r.json().catch(() => ({}));
      if (r.ok) {
        $(".tell-text", el).value = "";
        msg.textContent = atr(a, "written to") + " " + shown(body.file);
        return;
      }
      msg.textContent = body.error || r.statusText;
      if (r.status === 401) $("#auth").open = true;
    } catch (e) {
      msg.textContent = String(e);
    }
  });
}

// labelTell writes the words box's labels, and hides it where nothing can
// be told (a fleet view).
function labelTell(el, a) {
  $(".tell", el).hidden = !answerable;
  $(".tell-text", el).placeholder = atr(a, "words for the agent");
  setText($(".tell-urgent-label", el).lastChild, " " + atr(a, "urgent (wakes it now)"));
  setText($(".tell-send", el), atr(a, "Send"));
}

// waitedLine is how long the agent's questions waited for a person today,
// apart from its own work ("" when none waited).
function waitedLine(a) {
  const q = a.asks;
  if (!q || !q.today) return "";
  return span(Math.round(q.waited_today_s), a) + " (" + q.today + ")";
}
