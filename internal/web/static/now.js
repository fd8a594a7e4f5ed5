"use strict";
// What an agent is on now: its theme (the folder of its newest activity
// log) and that log, a line of it on the card and the whole of it, read
// only, a click away (/api/v1/agents/{name}/log: the watchdog's own page;
// a fleet view keeps no logs and the line stays without its link).

const NOW_WORDS = { open: ["open", "開く"], since: ["since", "から"] };

// themeOf reads a theme from a log's path: artifacts/<ID>_<name>/histories/…
function themeOf(path) {
  const m = /^artifacts\/(\d{14})_([^/]+)\/histories\//.exec(path || "");
  return m ? { id: m[1], name: m[2] } : null;
}

// logLine is a log's activity type and first line of content: "thinking —
// Two bulges, …" (English or Japanese headings).
function logLine(text) {
  const lines = text.split("\n").map((l) => l.trim());
  let type = "", first = "";
  for (let i = 0; i < lines.length; i++) {
    if (/^## (Activity type|活動種別)/.test(lines[i])) type = (lines.slice(i + 1).find((l) => l) || "");
    if (/^## (Activity content|活動内容)/.test(lines[i])) first = (lines.slice(i + 1).find((l) => l) || "").replace(/^- /, "");
  }
  const line = [type, first].filter(Boolean).join(" — ");
  return line.length > 160 ? line.slice(0, 159) + "…" : line;
}

// nowFacts adds the theme and the newest log to a card's facts, fetching
// the log when the state names a new one.
function nowFacts(dl, a, rec, name, fact, ja) {
  const log = a.last_log;
  const t = a.theme; // the watchdog's word, from the theme records
  if (t && t.ended) {
    fact(dl, a, "theme", ja ? "なし（" + t.dir + " は終了）" : "none (" + t.dir + " ended)");
  } else {
    // A fleet view's pulse carries no theme: the newest log's folder says it.
    const th = t ? { id: t.start_id || "", name: t.name || t.dir } : log && themeOf(log.path);
    if (th) {
      const since = /^\d{14}$/.test(th.id) ? clock(new Date(+th.id.slice(0, 4), +th.id.slice(4, 6) - 1, +th.id.slice(6, 8), +th.id.slice(8, 10), +th.id.slice(10, 12), +th.id.slice(12, 14)), a) : "";
      fact(dl, a, "theme", since ? (ja ? th.name + "（" + since + " から）" : th.name + " (since " + since + ")") : th.name);
    }
  }
  if (!log) return;
  if (rec.logPath !== log.path) {
    rec.logPath = log.path;
    rec.logLine = "";
    rec.logOpen = false;
    fetch("api/v1/agents/" + encodeURIComponent(name) + "/log?path=" + encodeURIComponent(log.path))
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((t) => { if (rec.logPath === log.path) { rec.logLine = logLine(t); rec.logOpen = true; draw(name); } })
      .catch(() => {});
  }
  fact(dl, a, "last log", rec.logLine || log.path);
  if (rec.logOpen) {
    const dd = dl.querySelector('dd[data-fact="last log"]');
    const link = document.createElement("a");
    link.href = "api/v1/agents/" + encodeURIComponent(name) + "/log?path=" + encodeURIComponent(log.path);
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = NOW_WORDS.open[ja ? 1 : 0];
    dd.append(" ", link);
  }
}

// workLine is the newest answered wakeup's work in words, beside what the
// agent said of it, and the run of answers that changed nothing:
// "nothing changed · said: “…” · 3 in a row changed nothing".
function workLine(p, ja) {
  const recent = p.recent || [], r = recent[recent.length - 1], parts = [];
  if (r) {
    let c = r.files || r.commits ? (ja ? "ファイル" + r.files + "件" : r.files + (r.files === 1 ? " file" : " files")) : (ja ? "変化なし" : "nothing changed");
    if (r.commits) {
      const lines = "(+" + (r.lines_added || 0) + " −" + (r.lines_removed || 0) + ")";
      c += ja ? "、コミット" + r.commits + "件" + lines : ", " + r.commits + (r.commits === 1 ? " commit " : " commits ") + lines;
    }
    parts.push(c);
    if (r.said) parts.push((ja ? "活動ログ：「" + r.said + "」" : "said: “" + r.said + "”"));
  }
  if (p.unchanged) parts.push(ja ? p.unchanged + "回続けて変化なし" : p.unchanged + " in a row changed nothing");
  return parts.join(" · ");
}

// workFact adds the agent's last work to a card, where the watchdog
// watches it.
function workFact(dl, a, fact, ja) {
  if (a.progress && ((a.progress.recent || []).length || a.progress.unchanged)) fact(dl, a, "last work", workLine(a.progress, ja));
}
