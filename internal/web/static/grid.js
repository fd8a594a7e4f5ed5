"use strict";
// The fleet grid: above GRID_AT agents (75 in the paper's fleet, 1,000 in a
// fleet view) a card per agent is too much to read, so the page shows a tile
// per agent (name, a state in a word and a symbol), a count per state that
// filters, a sort and a search by name; a tile opens the agent's full card.
// Tiles are touched only when their state changes, within the frame app.js
// batches updates into: no per-agent timer or fetch.

const GRID_AT = 12;

// STATES in order of severity: the counts, and the "state" sort.
const STATES = [
  ["needs_you", "needs you", "⚠"], ["error", "error", "✖"], ["budget_spent", "budget spent", "$"],
  ["offline", "offline", "⊘"], ["paused", "paused", "‖"], ["working", "working", "▶"], ["waiting", "waiting", "○"],
];
const RANK = Object.fromEntries(STATES.map(([s], i) => [s, i]));
const grid = { on: false, filter: "", query: "", sort: "state", open: "", shown: -1 };

// tileState is the one state a tile shows: a silent agent is offline
// whatever its last state said; one that waits for a person needs you
// before anything else it says.
function tileState(rec) {
  const a = rec.data;
  if (silent(rec)) return "offline";
  if (a.client && a.client.mode === "waiting_for_you") return "needs_you";
  if (worst(a) === "error") return "error";
  if (a.cost && a.cost.budget && a.cost.budget.spent) return "budget_spent";
  if (a.pause) return "paused";
  const w = a.work && a.work.mode;
  if (w === "working" || w === "always" || (a.client && a.client.mode === "in_turn")) return "working";
  return "waiting";
}

// lastActivity is the newest sign of work: a hook event or a proof.
function lastActivity(a) {
  const t = [a.client && a.client.last_event, a.last_proof && a.last_proof.mod_time].filter(Boolean).map((s) => new Date(s).getTime());
  return t.length ? Math.max(...t) : 0;
}

const SORTS = {
  state: (x, y) => RANK[x.state] - RANK[y.state] || (x.data.agent < y.data.agent ? -1 : 1),
  name: (x, y) => (x.data.agent < y.data.agent ? -1 : 1),
  activity: (x, y) => lastActivity(y.data) - lastActivity(x.data) || (x.data.agent < y.data.agent ? -1 : 1),
};

function enterGrid() {
  grid.on = true;
  // Cards drawn while the page held few agents leave the page (no strip
  // refresh for them); a tile reopens its agent's card.
  $("#cards").replaceChildren();
  $("#cards").hidden = true;
  $("#fleetbar").hidden = false;
  $("#grid").hidden = false;
  const counts = $("#counts");
  for (const s of ["", ...STATES.map(([s]) => s)]) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.state = s;
    b.setAttribute("aria-pressed", String(s === grid.filter));
    b.addEventListener("click", () => { grid.filter = grid.filter === s ? "" : s; refilter(); });
    counts.append(b);
  }
  $("#sort").addEventListener("change", (e) => { grid.sort = e.target.value; resort(null); });
  $("#search").addEventListener("input", (e) => { grid.query = e.target.value.trim().toLowerCase(); refilter(); });
  $("#detail .close").addEventListener("click", closeCard);
}

const matches = (rec) => (!grid.filter || rec.state === grid.filter) && (!grid.query || rec.data.agent.toLowerCase().includes(grid.query));

// gridFlush redraws the tiles of the agents named, then the counts and
// the order: the whole of one frame's work.
function gridFlush(names) {
  const moved = [];
  for (const name of names) {
    const rec = agents.get(name);
    const act = lastActivity(rec.data);
    if (!rec.tile) {
      rec.tile = $("#tile").content.firstElementChild.cloneNode(true);
      rec.tile.dataset.agent = name;
      $(".tname", rec.tile).textContent = shown(name); // a fleet peer names itself
      rec.tile.addEventListener("click", () => openCard(name));
      moved.push(rec);
    } else if (grid.sort === "activity" && act !== rec.act) {
      moved.push(rec);
    }
    rec.act = act;
    const st = tileState(rec);
    if (st !== rec.state || rec.lang !== rec.data.language) {
      if (grid.sort === "state" && rec.state) moved.push(rec);
      rec.state = st;
      rec.lang = rec.data.language;
      const [, word, sym] = STATES[RANK[st]];
      rec.tile.className = "tile s-" + st;
      rec.tile.dataset.state = st;
      $(".sym", rec.tile).textContent = sym;
      $(".tstate", rec.tile).textContent = tr(rec.data, word);
      rec.tile.title = shown(name + ": " + tr(rec.data, word));
    }
    rec.tile.hidden = !matches(rec);
  }
  if (moved.length) resort(moved);
  drawCounts();
  $("#grid").classList.toggle("lost", lost);
}

function drawCounts() {
  const n = {};
  for (const rec of agents.values()) if (rec.state) n[rec.state] = (n[rec.state] || 0) + 1;
  const l = pageLang();
  for (const b of $("#counts").children) {
    const s = b.dataset.state;
    const c = s ? n[s] || 0 : agents.size;
    const text = s ? STATES[RANK[s]][2] + " " + tr(l, STATES[RANK[s]][1]) + " " + c : tr(l, "all") + " " + c;
    if (b.textContent !== text) b.textContent = text;
    b.dataset.count = c;
    b.setAttribute("aria-pressed", String(s === grid.filter));
  }
  let shown = 0;
  for (const rec of agents.values()) if (rec.tile && !rec.tile.hidden) shown++;
  if (shown !== grid.shown) {
    grid.shown = shown;
    $("#shown").textContent = ja(l) ? shown + " / " + agents.size + " 件を表示" : "showing " + shown + " of " + agents.size;
  }
}

// resort puts the tiles in order. With moved (the tiles new or whose key
// changed; the others are still in order among themselves) it moves those
// alone, from the last: each goes just before its successor, so a fleet's
// pulses move a few tiles a frame, not 1,000. Without, it lays them all.
function resort(moved) {
  const want = [...agents.values()].filter((r) => r.tile).sort(SORTS[grid.sort]);
  const el = $("#grid");
  if (!moved) {
    if (want.length !== el.children.length || want.some((r, i) => el.children[i] !== r.tile)) el.append(...want.map((r) => r.tile));
    return;
  }
  const m = new Set(moved);
  for (let k = want.length - 1; k >= 0; k--) {
    if (!m.has(want[k])) continue;
    const next = k + 1 < want.length ? want[k + 1].tile : null;
    if (want[k].tile.nextSibling !== next || !want[k].tile.isConnected) el.insertBefore(want[k].tile, next);
  }
}

function refilter() {
  for (const rec of agents.values()) if (rec.tile) rec.tile.hidden = !matches(rec);
  drawCounts();
}

// openCard shows name's full card above the grid, as the page draws it
// for a few agents (its day strip too).
function openCard(name) {
  grid.open = name;
  draw(name);
  const d = $("#detail");
  d.replaceChildren($(".close", d), agents.get(name).el);
  d.hidden = false;
  d.scrollIntoView({ block: "nearest" });
}

function closeCard() {
  grid.open = "";
  const d = $("#detail");
  d.replaceChildren($(".close", d));
  d.hidden = true;
}

// labelGrid puts the toolbar's words in the page's language.
function labelGrid(l) {
  const search = tr(l, "search by name");
  if ($("#search").placeholder !== search) {
    $("#search").placeholder = search;
    $("#search").setAttribute("aria-label", search);
  }
  setText($("#sort-label"), tr(l, "sort") + " ");
  for (const o of $("#sort").options) setText(o, tr(l, o.value === "activity" ? "last activity" : o.value));
  setText($("#detail .close"), tr(l, "close"));
}
