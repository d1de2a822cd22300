"use strict";
// The card table's shared core: talking to the server, the page's state (in
// the one object `Page`), long polling, never drawing an older table over a
// newer one, the busy sign, the log (with names, not ids, and what happened
// since your last click shown line by line), the final scores, card texts on
// hover and tap, and the first page. Each game draws its own board:
// A game's own board (assets/boards/<game>.js, served together as boards.js)
// registers in `Games` under the game's id; any other game is drawn by `anyGame`.

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c]));
const plural = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const cap = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);

/// The renderers, by game id: each is {title, names(facts), board(s, claim), hint(s), help(s), source(key)}.
const Games = {};

/// Everything the page knows and keeps, in one place.
const Page = {
  parts: location.pathname.split("/").filter(Boolean),
  /// A hot-seat page holds every person's token (`/play/<table>/<t0>.<t1>…`)
  /// and shows the seat to move; a join link holds one.
  tokens: [],
  /// The token the page asks with now.
  token: undefined,
  /// Hot-seat: each person's seat and its token, learnt by asking with each token.
  tokenOf: {},
  /// The last state drawn (never replaced by an older one).
  state: null,
  /// The state drawn before it (what changed is marked).
  prev: null,
  /// Requests under way: the page shows it is waiting and takes no second click.
  busy: 0,
  /// What everyone may know of the game's cards (`/cards`).
  facts: {},
  /// Card ids (and the like) and the names shown for them.
  names: new Map(),
  nameRe: null,
  /// The seat's log as far as the page has it: lines `base` on. Each request asks only for the lines after these.
  log: {base: 0, lines: []},
  /// The first log line that is new since this seat's last click (highlighted).
  mark: 0,
  /// Log lines shown so far: the new ones appear one by one, `step` ms apart.
  shown: 0,
  step: 450,
  timer: null,
  /// Hot-seat: each seat's `mark`, kept while another person has the screen.
  marks: {},
  /// `?still`: one view, no waiting for changes (for screenshots).
  still: false,
  /// The line being drawn was just told (it fades in).
  ticked: false,
};
Page.tokens = Page.parts[0] === "play" && Page.parts.length === 3 ? Page.parts[2].split(".") : [];
Page.token = Page.tokens[0];

const LOG_SHOWN = 400;
const logHave = () => Page.log.base + Page.log.lines.length;

// ---------------------------------------------------------------- the server

async function api(path, body) {
  return apiRaw(path, body === undefined ? undefined : JSON.stringify(body));
}
async function apiRaw(path, body) {
  const r = await fetch(path, body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"}, body});
  const data = await r.json().catch(() => ({error: r.statusText}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}
const tableApi = (rest) => `/api/tables/${Page.parts[1]}/${rest}`;

function setBusy(d) {
  Page.busy += d;
  document.body.dataset.busy = Page.busy > 0;
  for (const b of document.querySelectorAll("#main button.act, #make")) b.disabled = Page.busy > 0;
}

// ---------------------------------------------------------------- names, not ids

/// Names for ids: every id the game's renderer knows, replaced where it stands as a word.
function setNames(map) {
  Page.names = map;
  const ids = [...map.keys()].filter((id) => /^\w+$/.test(id)).sort((a, b) => b.length - a.length);
  Page.nameRe = ids.length ? new RegExp(`\\b(${ids.join("|")})\\b`, "g") : null;
}
const named = (text) => (Page.nameRe ? String(text).replace(Page.nameRe, (id) => Page.names.get(id)) : String(text));
const nameOf = (id) => Page.names.get(id) || id;
const game = (s) => Games[(s || Page.state || {}).game] || anyGame(s || Page.state || {});

/// The board of a game that brings no renderer of its own: what the seat may
/// see as the server sends it, and every legal answer a button under "Your
/// move" (with its words). Enough to play any game the engine registers.
function anyGame(s) {
  const value = (v) => (v === null || v === undefined ? "–" : typeof v !== "object" ? esc(v) :
    Array.isArray(v) ? (v.length ? (v.some((x) => x && typeof x === "object") ? v.map(value).join("") : v.map(value).join(", ")) : "–") :
    `<dl>${Object.entries(v).map(([k, x]) => `<dt>${esc(k)}</dt><dd>${value(x)}</dd>`).join("")}</dl>`);
  return {
    title: String(s.title || s.game || "game"),
    names: () => new Map(),
    board: (s) => `<section class="anyview">${value(s.view)}</section>`,
    hint: (s) => (s.to_move === s.seat ? "Choose one of the answers below." : ""),
    help: () => "",
    source: (k) => k,
  };
}

/// The name a person typed for seat `i`, if they did.
const typedName = (s, i) => (s.names && typeof s.names[i] === "string" ? s.names[i] : "");

/// "seat 2 (greedy)", "Ana" (a name its person typed), or "you".
function seatName(s, i, you) {
  if (i === s.seat && you !== false) return "you";
  return typedName(s, i) || `seat ${i} (${s.seats[i]})`;
}

/// A seat's head on the board, as HTML: "<b>Ana</b> (seat 0) — you", "<b>Seat 1</b> (balance)".
function seatHead(s, i) {
  const name = typedName(s, i);
  const you = i === s.seat ? " — you" : "";
  return name ? `<b class="name">${esc(name)}</b> <span>(seat ${i})${you}</span>` : `<b>Seat ${i}</b> <span>(${esc(s.seats[i])})${you}</span>`;
}

/// The engine's words about the deciding seat, said to that seat: "seat 0 has" → "you have".
function toYou(s, text) {
  const n = s.seat;
  return String(text)
    .replace(new RegExp(`\\bseat ${n} (already )?has\\b`, "g"), (_, a) => `you ${a || ""}have`)
    .replace(new RegExp(`\\bseat ${n}'s\\b`, "g"), "your")
    .replace(new RegExp(`\\bseat ${n}\\b`, "g"), "you");
}

/// Why a card cannot be played now (the server's `why_not` for this seat), in words with names; "" if it can.
function whyNot(s, zone, card) {
  const w = (s.why_not || []).find((x) => x.zone === zone && x.card === String(card));
  return w ? cap(named(toYou(s, w.why))) : "";
}

/// The "why not?" mark on a card that cannot be played now (its reason in the card's text).
const whyMark = (why) => (why ? `<div class="whynot" data-whynot="${esc(why)}">why not?</div>` : "");

// ---------------------------------------------------------------- legal answers on cards

/// The legal answers (each with its card and the zone the card lies in, as
/// the server says), handed out to the elements that show that card in that
/// zone. What no card shows stays a button under "Your move". A click sends
/// the answer's id and the version it was offered at: nothing is parsed.
function claimer(legal) {
  const claimed = new Set();
  const claim = (test) => legal.filter((a) => {
    if (claimed.has(a.id) || !test(a)) return false;
    claimed.add(a.id);
    return true;
  });
  return {
    take: (zone, id, verbs) => claim((a) => a.zone === zone && a.card === id && !a.over && verbs.includes(a.verb)),
    /// `build <id> over <other>` (a crane): for a menu on the card.
    over: (zone, id) => claim((a) => a.zone === zone && a.card === id && a.over),
    left: () => legal.filter((a) => !claimed.has(a.id)),
  };
}

/// A card's answers as buttons (the verb on the card; the whole answer in words on hover).
const buttons = (acts) => acts.map((a) =>
  `<button class="act" data-id="${a.id}" data-action="${esc(a.text)}" title="${esc(named(a.label))}">${esc(a.verb === "role" ? "choose" : a.verb)}</button>`).join("");

/// A menu of `build <id> over <other>` answers, shown on the card.
function overMenu(acts) {
  if (!acts.length) return "";
  return `<select class="over" title="build it over one of your buildings"><option value="">build over…</option>${acts.map((a) =>
    `<option value="${a.id}" data-action="${esc(a.text)}">${esc(nameOf(a.over))}</option>`).join("")}</select>`;
}

/// Marks the ids of `now` that were not in `before` (a multiset: two of a kind, one new).
function newOnes(before, now) {
  const left = {};
  for (const id of before || []) left[id] = (left[id] || 0) + 1;
  return (now || []).map((id) => {
    if (left[id]) { left[id] -= 1; return false; }
    return true;
  });
}

// ---------------------------------------------------------------- card texts: hover and tap

/// Shows the text of the element (its `data-tip`: the first line is its title) next to it.
function showTip(el, pinned) {
  const tip = $("tip");
  const lines = el.dataset.tip.split("\n");
  tip.innerHTML = `<b>${esc(lines[0])}</b>${lines.slice(1).map((l) => `<br>${esc(l)}`).join("")}`;
  tip.hidden = false;
  tip.dataset.pinned = pinned;
  tip.dataset.for = el.dataset.card || el.dataset.role || el.dataset.money || "";
  const r = el.getBoundingClientRect();
  const w = tip.offsetWidth, h = tip.offsetHeight;
  const left = Math.max(4, Math.min(r.left, window.innerWidth - w - 4));
  const below = r.bottom + 6 + h <= window.innerHeight;
  tip.style.left = `${left}px`;
  tip.style.top = `${below ? r.bottom + 6 : Math.max(4, r.top - h - 6)}px`;
}
function hideTip() {
  const tip = $("tip");
  tip.hidden = true;
  tip.dataset.pinned = false;
}
function tips() {
  document.addEventListener("mouseover", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (el) showTip(el, false);
    else if ($("tip").dataset.pinned !== "true") hideTip();
  });
  document.addEventListener("mouseout", (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (el && !el.contains(e.relatedTarget) && $("tip").dataset.pinned !== "true") hideTip();
  });
  // A tap (phones have no hover) shows the text until the next tap.
  document.addEventListener("click", (e) => {
    // A click on an answer changes the table: the text of the card it was on goes.
    if (e.target.closest("button, select, a, input")) { hideTip(); return; }
    const el = e.target.closest("[data-tip]");
    if (el) showTip(el, true);
    else hideTip();
  });
  window.addEventListener("scroll", () => { if ($("tip").dataset.pinned !== "true") hideTip(); }, {passive: true});
}

// ---------------------------------------------------------------- the log, step by step

/// Takes the state's log lines after those the page has.
function takeLog(s) {
  const L = Page.log;
  if (s.log_start >= L.base && s.log_start <= logHave()) L.lines = L.lines.slice(0, s.log_start - L.base).concat(s.log);
  else { L.base = s.log_start; L.lines = s.log; }
  if (L.lines.length > LOG_SHOWN) { L.base += L.lines.length - LOG_SHOWN; L.lines = L.lines.slice(-LOG_SHOWN); }
  if (Page.shown > logHave()) Page.shown = logHave();
  if (Page.mark > logHave()) Page.mark = logHave();
}

/// A new click: what happens from here on is new.
function markNow() {
  Page.mark = logHave();
  Page.shown = Math.max(Page.shown, Page.mark);
}

/// Shows the next new line, then the one after, `step` ms apart.
function revealNext() {
  Page.timer = null;
  if (Page.shown >= logHave()) return;
  Page.shown += 1;
  Page.ticked = true;
  drawLog();
  Page.ticked = false;
  if (Page.shown < logHave()) Page.timer = setTimeout(revealNext, Page.step);
}
function revealLater() {
  if (Page.timer === null && Page.shown < logHave()) Page.timer = setTimeout(revealNext, Page.shown > Page.mark ? Page.step : 60);
}
function revealAll() {
  if (Page.timer !== null) clearTimeout(Page.timer);
  Page.timer = null;
  Page.shown = logHave();
  drawLog();
}

/// Seats their people named, named so in the log too ("seat 1 builds" → "Ana builds").
function seatNames(text) {
  const s = Page.state;
  if (!s || !s.names) return text;
  return text.replace(/\bseat (\d+)\b/g, (m, i) => typedName(s, +i) || m);
}

function logLine(l) {
  const cause = l.by ? `<span class="cause">${esc(nameOf(l.by))}</span>` : "";
  return `${cause}${esc(seatNames(named(l.text)))}`;
}

function drawLog() {
  const {base, lines} = Page.log;
  // Only the lines told so far: lines still to come are not drawn at all, so
  // the log, scrolled to its end, always shows its latest lines (hidden lines
  // at the end once left it blank while the bots' moves were told).
  const logged = lines.slice(0, Math.max(0, Page.shown - base));
  $("log").innerHTML = logged.map((l, i) => {
    const n = base + i;
    const cls = n >= Page.mark ? "fresh" : "";
    const why = whyAttrs(n), classes = [cls, why ? "why" : ""].filter(Boolean).join(" ");
    return `<div${classes ? ` class="${classes}"` : ""}${l.by ? ` data-by="${esc(l.by)}"` : ""}${why}>${logLine(l)}</div>${whyBox(n)}`;
  }).join("");
  $("log").scrollTop = $("log").scrollHeight;
  // What happened since the last click, as it is told.
  const from = Math.max(Page.mark, base), to = Math.min(Page.shown, logHave());
  const news = lines.slice(from - base);
  const told = Math.max(0, to - from), waiting = news.length - told;
  document.body.dataset.revealed = told;
  document.body.dataset.unrevealed = waiting;
  const box = $("happened");
  box.hidden = news.length === 0;
  if (!news.length) return;
  // Every new line has its place from the start, so the board under the panel
  // does not move while they appear (a click aimed at a card would miss it);
  // the lines still to come are wholly invisible, their numbers too.
  box.innerHTML = `<h3><span>Since your last move <span class="muted">(${told} of ${news.length})</span></span><button id="showall"${waiting ? "" : ' style="visibility:hidden"'}>show all</button></h3><ol>${news.map((l, i) =>
    `<li${i >= told ? ' class="later"' : i === told - 1 && Page.ticked ? ' class="just"' : ""}>${logLine(l)}</li>`).join("")}</ol>`;
  $("showall").onclick = revealAll;
  // The line told last stays in view in a long list.
  const ol = box.querySelector("ol"), last = ol.children[Math.max(0, told - 1)];
  if (last) ol.scrollTop = Math.max(0, last.offsetTop + last.offsetHeight - ol.clientHeight);
}

// ---------------------------------------------------------------- why a bot moved so

/// Explanations fetched (`/why`), by log line; the line whose explanation is open.
Page.whys = {};
Page.whyOpen = null;

/// A log line that starts a bot's move the server can explain (`state.why`) opens like a button.
function whyAttrs(n) {
  const lines = (Page.state && Page.state.why) || [];
  if (!lines.includes(n)) return "";
  return ` data-why="${n}" role="button" tabindex="0" aria-expanded="${Page.whyOpen === n}" title="why did the bot do that?"`;
}

/// The open explanation under its line: the options with the bot's values, the chosen marked, and the drivers.
function whyBox(n) {
  if (Page.whyOpen !== n) return "";
  const w = Page.whys[n];
  if (!w) return `<div class="explain" id="why${n}">Asking the server…</div>`;
  if (w.error) return `<div class="explain" id="why${n}">${esc(w.error)}</div>`;
  const num = (x) => (x === undefined || x === null ? "" : (Math.abs(x) < 5e-4 ? 0 : x).toFixed(3));
  const best = (w.options.find((o) => o.chosen) || {}).value;
  const rows = w.options.map((o) => `<tr${o.chosen ? ' class="chosen"' : ""}><td>${o.chosen ? "▸ " : ""}${esc(named(o.label))}</td><td class="num">${num(o.value)}</td><td class="num">${!o.chosen && o.value !== undefined && best !== undefined ? `${o.value - best >= 0 ? "+" : ""}${num(o.value - best)}` : ""}</td>${o.visits !== undefined ? `<td class="num">${o.visits} visits</td>` : ""}</tr>`).join("");
  const more = w.answers > w.options.length ? `<p class="muted">… ${plural(w.answers - w.options.length, "more answer")}</p>` : "";
  const short = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  const drivers = w.against ? `<p class="drivers">Over <b>${esc(named(w.against))}</b>${w.lead !== undefined ? ` (${w.lead >= 0 ? "+" : ""}${num(w.lead)})` : ""}${w.drivers.length ? ", driven by:" : ": no feature's weight tells them apart"}</p>${w.drivers.length ? `<ul class="drivers">${w.drivers.map((d) => `<li><code>${esc(d.feature)}</code> ${d.effect >= 0 ? "+" : ""}${d.effect.toFixed(2)} <span class="muted">(${short(d.chosen)} vs ${short(d.other)})</span></li>`).join("")}</ul>` : ""}` : "";
  return `<div class="explain" id="why${n}"><p><b>Why ${esc(seatName(Page.state, w.seat, false))} chose so</b>${w.unit ? ` <span class="muted">(values: ${esc(w.unit)})</span>` : ""}: ${esc(w.how)}</p>${w.options.length ? `<table>${rows}</table>` : ""}${more}${drivers}</div>`;
}

/// Opens (or closes) line `n`'s explanation, asking the server for it the first time.
async function toggleWhy(n) {
  Page.whyOpen = Page.whyOpen === n ? null : n;
  const draw = () => {
    drawLog();
    const box = $(`why${n}`);
    if (box) box.scrollIntoView({block: "nearest"});
  };
  draw();
  if (Page.whyOpen !== n || Page.whys[n]) return;
  try { Page.whys[n] = await api(tableApi(`why?token=${Page.token}&line=${n}`)); }
  catch (e) { Page.whys[n] = {error: e.message}; }
  if (Page.whyOpen === n) draw();
}

/// A click, or Enter or Space on a focused line, opens its explanation.
function whyClicks() {
  const open = (e) => {
    const el = e.target.closest && e.target.closest("#log [data-why]");
    if (!el) return;
    e.preventDefault();
    toggleWhy(+el.dataset.why).then(() => { const again = document.querySelector(`#log [data-why="${el.dataset.why}"]`); if (again) again.focus(); });
  };
  document.addEventListener("click", open);
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") open(e); });
}

// ---------------------------------------------------------------- drawing a state

/// Who the table waits for, in words.
function waitingText(s) {
  if (s.to_move === null || s.to_move === undefined) return "";
  const who = cap(seatName(s, s.to_move, false));
  return s.thinking === s.to_move ? `${who} is thinking…` : `${who} is deciding`;
}

/// How far the balance bot's learning is, in words (the server learns a ruleset's model once).
function learningText(l) {
  if (!l) return "";
  if (!l.all) return "The balance bot is about to learn how to play this ruleset (once per server; up to a minute).";
  const pct = Math.floor((100 * l.done) / l.all);
  return `The balance bot is learning how to play this ruleset: ${pct}% (${l.done} of ${l.all} practice games; once per server).`;
}

/// The winner line and each seat's points by source.
function finalScores(s) {
  const f = s.final_scores;
  if (!f) return "";
  const g = game(s);
  const players = f.players || [];
  const keys = [];
  for (const p of players) for (const k of Object.keys((p.score && p.score.breakdown) || {})) if (!keys.includes(k)) keys.push(k);
  const winners = f.winners || [];
  const total = (i) => { const p = players.find((x) => x.seat === i); return p ? p.score.total : 0; };
  let line;
  if (winners.length === 1) {
    const w = winners[0];
    line = w === s.seat && Page.tokens.length === 1 ? `You win with ${plural(total(w), "point")}!` : `${cap(seatName(s, w, false))} wins with ${plural(total(w), "point")}.`;
  } else if (winners.length > 1) {
    line = `${winners.map((w) => seatName(s, w, false)).join(" and ")} share the win with ${plural(total(winners[0]), "point")}.`;
    line = cap(line);
  } else {
    line = "Nobody wins.";
  }
  // The total comes right after the seat: on a phone the parts scroll, the total stays in view.
  const head = `<tr><th>seat</th><th class="num total">total</th>${keys.map((k) => `<th class="num">${esc(g.source(k))}</th>`).join("")}</tr>`;
  const rows = players.map((p) => {
    const b = (p.score && p.score.breakdown) || {};
    return `<tr class="${winners.includes(p.seat) ? "won" : ""}" data-seat="${p.seat}"><td>${esc(cap(seatName(s, p.seat)))}${winners.includes(p.seat) ? " — <b>winner</b>" : ""}</td><td class="num total"><b>${p.score.total}</b></td>${keys.map((k) => `<td class="num">${b[k] === undefined ? "–" : b[k]}</td>`).join("")}</tr>`;
  }).join("");
  return `<p id="winner">${esc(line)}</p><div class="scroll"><table class="scores"><caption>${esc(g.sources || "Points by source")}</caption>${head}${rows}</table></div>`;
}

function render(s) {
  const g = game(s);
  document.body.dataset.version = s.version;
  document.body.dataset.over = s.over;
  document.body.dataset.seat = s.seat;
  document.body.dataset.game = s.game;
  $("title").textContent = `${g.title} · ${s.ruleset} · you are seat ${s.seat}${Page.tokens.length > 1 ? " (hot-seat)" : ""}`;
  const away = s.waiting_for_people || [];
  $("status").textContent = s.broken ? s.broken : s.over ? "The game is over"
    : away.length ? `Waiting for ${away.map((i) => `seat ${i}`).join(" and ")} to come back: each uploads their own download of this game (or give the seat to a bot below)`
    : s.to_move === s.seat ? "Your turn" : waitingText(s);
  $("learning").hidden = !s.learning;
  $("learning").textContent = learningText(s.learning);
  // A card's text shown on hover belongs to the table drawn before: it goes (a tapped one stays).
  if ($("tip").dataset.pinned !== "true") hideTip();
  if (document.activeElement !== $("myname")) $("myname").value = typedName(s, s.seat);
  $("naming").hidden = s.seats[s.seat] !== "human";
  const claim = claimer(s.legal);
  $("table").innerHTML = g.board(s, claim);
  $("hint").textContent = named(g.hint(s));
  const help = g.help(s);
  $("help").hidden = !help;
  $("helptext").innerHTML = help;
  const left = claim.left();
  $("actions").innerHTML = left.length
    ? left.map((a) => `<button class="act" data-id="${a.id}" data-action="${esc(a.text)}">${esc(named(a.label))}</button>`).join("")
    : s.legal.length ? "" : `<p class="muted">${s.over ? "No more moves." : esc(waitingText(s))}</p>`;
  for (const b of document.querySelectorAll("#main .act")) b.onclick = () => act(+b.dataset.id);
  for (const m of document.querySelectorAll("#main select.over")) m.onchange = () => m.value !== "" && act(+m.value);
  // A script's choice (a building asks): a dialog with its answers.
  const ask = $("ask"), v = s.view, by = v.pending && v.pending.by;
  if (by && s.legal.length && s.to_move === s.seat) {
    const c = g.card ? g.card(by) : null;
    $("asktitle").textContent = `Your ${nameOf(by)} asks`;
    $("asktext").textContent = c && c.text ? c.text : "";
    $("askactions").innerHTML = s.legal.map((a) => `<button class="act ask" data-id="${a.id}" data-action="${esc(a.text)}">${esc(named(a.label))}</button>`).join("");
    for (const b of document.querySelectorAll("#askactions .act")) b.onclick = () => { ask.close(); act(+b.dataset.id); };
    if (!ask.open) ask.show();
  } else {
    if (ask.open) ask.close();
    $("askactions").innerHTML = "";
  }
  $("final").innerHTML = finalScores(s);
  // Once the game is over there is no move to make: the box goes.
  $("moves").hidden = s.over && !s.legal.length;
  const people = s.seats.map((b, i) => [b, i]).filter(([b]) => b === "human").map(([, i]) => i);
  $("undo").hidden = people.length !== 1 || s.over;
  // A scenario tells every hand: at a table with one person, or once the game is over.
  $("moment").hidden = people.length !== 1 && !s.over;
  $("scenario").href = tableApi(`scenario?token=${Page.token}`);
  $("recordline").hidden = !s.over;
  $("record").href = tableApi(`record?token=${Page.token}`);
  // Another person's seat can be handed to a bot only while it has been deciding a while (the server says how long).
  const idle = people.filter((i) => i !== s.seat && (i === s.to_move || away.includes(i)));
  $("leave").hidden = s.over;
  const chosen = $("leaveseat").value;
  $("leaveseat").innerHTML = idle.map((i) => `<option value="${i}">${esc(typedName(s, i) || `seat ${i}`)} (${away.includes(i) ? "not back yet" : `deciding for ${s.waiting_for} s`})</option>`).join("") +
    `<option value="${s.seat}">my own seat ${s.seat}</option>`;
  if ([...$("leaveseat").options].some((o) => o.value === chosen)) $("leaveseat").value = chosen;
  drawLog();
  revealLater();
}

/// Shows a state, or (hot-seat) covers the table when the move passes to another person here.
async function show(s) {
  // Answers can arrive out of order (a long poll, a click): never draw an older table over a newer one.
  if (Page.state && s.seat === Page.state.seat && s.version < Page.state.version) return;
  // Hot-seat: an answer for a seat that has passed the screen on (a click's answer arriving late) is not drawn.
  if (Page.tokens.length > 1 && Page.tokenOf[s.seat] !== undefined && Page.tokenOf[s.seat] !== Page.token) return;
  document.body.dataset.version = s.version;
  document.body.dataset.over = s.over;
  const mover = s.to_move;
  if (Page.tokens.length > 1 && mover !== null && mover !== undefined && mover !== s.seat && s.seats[mover] === "human" && Page.tokenOf[mover]) {
    Page.token = Page.tokenOf[mover];
    // Another seat reads another log; this seat's new lines start after its last click.
    Page.marks[s.seat] = Page.mark;
    Page.log = {base: 0, lines: []};
    Page.state = null;
    hideTip();
    $("board").hidden = true; $("moves").hidden = true; $("side").hidden = true; $("cover").hidden = false;
    $("covertitle").textContent = `Seat ${mover}'s turn: pass the screen`;
    $("uncover").textContent = `I am seat ${mover}: show my hand`;
    document.body.dataset.covered = "true";
    return;
  }
  const first = Page.state === null || Page.state.seat !== s.seat;
  takeLog(s);
  if (first) {
    // Line numbers are this seat's: another seat's explanations are not its.
    Page.whys = {};
    Page.whyOpen = null;
    // What this seat saw before the screen passed (hot-seat) is told again step by step; a new page starts quiet.
    const mark = Page.marks[s.seat];
    Page.mark = mark === undefined ? logHave() : Math.min(mark, logHave());
    Page.shown = Page.mark;
  }
  Page.prev = first ? null : Page.state;
  Page.state = s;
  if (first || s.over) remember(s);
  render(s);
  // A long poll can draw the next answers while a click is still being sent:
  // they wait, disabled, for its answer (a click on them would be dropped unseen).
  if (Page.busy > 0) setBusy(0);
}

async function uncover() {
  $("cover").hidden = true; $("board").hidden = false; $("moves").hidden = false; $("side").hidden = false;
  document.body.dataset.covered = "false";
  $("save").href = tableApi(`save?token=${Page.tokens.join(".")}`);
  try { await show(await api(tableApi(`state?token=${Page.token}&log=${logHave()}`))); } catch (e) { $("error").textContent = e.message; }
}

async function post(path, body) {
  if (Page.busy > 0) return;
  $("error").textContent = "";
  hideTip();
  markNow();
  if (Page.timer !== null) { clearTimeout(Page.timer); Page.timer = null; }
  setBusy(1);
  try { await show(await api(tableApi(path), Object.assign({token: Page.token, log: logHave()}, body))); }
  catch (e) {
    $("error").textContent = e.message;
    // A refused click: the table as it is now (someone may have moved meanwhile).
    try { await show(await api(tableApi(`state?token=${Page.token}&log=${logHave()}`))); } catch (_) { /* the message says enough */ }
  }
  finally { setBusy(-1); }
}

/// The seat links this browser opened (kept on this device only), newest first: a lost link is found again on the first page.
const MINE = "sanjuan.tables";
function myTables() {
  try { const t = JSON.parse(localStorage.getItem(MINE) || "[]"); return Array.isArray(t) ? t : []; } catch (e) { return []; }
}
function remember(s) {
  try {
    const path = location.pathname;
    const entry = {path, title: `${game(s).title} · ${s.ruleset}`, seat: Page.tokens.length > 1 ? "hot-seat" : `seat ${s.seat}`, over: !!s.over, when: Date.now()};
    const list = [entry].concat(myTables().filter((t) => t.path !== path)).slice(0, 20);
    localStorage.setItem(MINE, JSON.stringify(list));
  } catch (e) { /* private browsing: nothing is kept */ }
}
const act = (id) => post("act", {choice: id, version: Page.state.version});

async function tablePage() {
  const q = new URLSearchParams(location.search);
  Page.still = q.has("still");
  if (q.has("step")) Page.step = Math.max(0, +q.get("step") || 0);
  $("undo").onclick = () => post("undo", {});
  $("takeover").onclick = () => {
    const seat = +$("leaveseat").value, bot = $("leavebot").value;
    const whose = seat === Page.state.seat ? "your own seat: you will not play it again" : `seat ${seat}: its person will not play it again`;
    if (confirm(`Let a ${bot} bot play ${whose}?`)) post("takeover", {seat, bot});
  };
  $("uncover").onclick = uncover;
  $("naming").onsubmit = (e) => { e.preventDefault(); post("name", {name: $("myname").value}); };
  $("board").hidden = false; $("moves").hidden = false; $("side").hidden = false;
  $("save").href = tableApi(`save?token=${Page.tokens.join(".")}`);
  let first = null;
  try {
    first = await api(tableApi(`state?token=${Page.token}`));
    Page.facts = await api(tableApi("cards"));
    setNames(game(first).names(Page.facts));
  } catch (e) { /* the page works without card texts */ }
  if (Page.tokens.length > 1) {
    for (const t of Page.tokens) {
      try { Page.tokenOf[(await api(tableApi(`state?token=${t}`))).seat] = t; } catch (e) { /* a seat a bot took over */ }
    }
  }
  let since = null;
  for (;;) {
    try {
      const w = since === null ? "" : `&since=${since}`;
      const s = await api(tableApi(`state?token=${Page.token}${w}&log=${logHave()}`));
      since = s.version;
      if (document.body.dataset.covered !== "true") await show(s);
      if (Page.still) return;
    } catch (e) {
      $("error").textContent = e.message;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// ---------------------------------------------------------------- the first page

// `balance~1`: the balance bot blurred by a point of noise, an easier opponent for a play-test.
const BOTS = ["human", "balance", "balance~1", "greedy", "random", "mcts:200", "mcts:1000"];

function seatPicker() {
  const n = +$("players").value;
  $("seatpick").innerHTML = Array.from({length: n}, (_, i) =>
    `<label>Seat ${i} <select class="seat">${BOTS.map((b) => `<option${(i === 0 ? b === "human" : b === "balance") ? " selected" : ""}>${b}</option>`).join("")}</select></label>`).join("");
}

function showLinks(t) {
  if ($("hotseat").checked && t.seats.length > 1) {
    location.href = `/play/${t.table}/${t.seats.map((s) => s.token).join(".")}`;
    return;
  }
  $("links").innerHTML = "<p>Send each person their own link (it is their seat's key):</p>" +
    t.seats.map((s) => `<p>Seat ${s.seat}: <a class="seatlink" href="${s.url}">${esc(location.origin + s.url)}</a></p>`).join("");
}

/// Words about the chosen ruleset: its name and description, as its file gives them.
function aboutRuleset(rulesets) {
  const r = rulesets.find((x) => x.id === $("ruleset").value);
  return r ? r.about || `A ${r.game} ruleset.` : "";
}

/// "Your tables": the seat links this browser opened, to find a lost one again.
function drawMyTables() {
  const list = myTables().filter((t) => typeof t.path === "string" && /^\/play\/[\w.]+\/[\w.]+$/.test(t.path));
  $("mine").hidden = !list.length;
  $("minelist").innerHTML = list.map((t) => `<li><a class="mytable" href="${esc(t.path)}">${esc(t.title || "a table")}</a> <span class="muted">${esc(t.seat || "")}${t.over ? " · over" : ""} · ${esc(new Date(t.when || 0).toLocaleString())}</span></li>`).join("");
}

async function createPage() {
  $("create").hidden = false;
  drawMyTables();
  $("forget").onclick = () => { try { localStorage.removeItem(MINE); } catch (e) { /* nothing kept */ } drawMyTables(); };
  const rulesets = await api("/api/rulesets");
  $("ruleset").innerHTML = rulesets.map((r) => `<option value="${esc(r.id)}">${esc(r.game)}: ${esc(r.id)}</option>`).join("");
  const about = () => { $("aboutruleset").textContent = aboutRuleset(rulesets); };
  $("ruleset").onchange = about;
  about();
  $("players").onchange = seatPicker;
  seatPicker();
  $("resume").onchange = async () => {
    const file = $("resume").files[0];
    if (!file) return;
    try { showLinks(await api("/api/resume", {saved: await file.text()})); }
    catch (e) { $("links").textContent = e.message; }
  };
  $("make").onclick = async () => {
    if (Page.busy > 0) return;
    const seats = [...document.querySelectorAll(".seat")].map((s) => s.value);
    const seed = $("seed").value.trim();
    if (seed && !/^\d+$/.test(seed)) { $("links").textContent = "the seed is a whole number"; return; }
    setBusy(1);
    $("links").textContent = "Making the table…";
    try {
      // The seed is sent as written: a number above 2^53 would lose digits in JavaScript.
      const explain = $("explain").checked ? `,"explain":true` : "";
      const body = `{"ruleset":${JSON.stringify($("ruleset").value)},"seats":${JSON.stringify(seats)}${seed ? `,"seed":${seed}` : ""}${explain}}`;
      showLinks(await apiRaw("/api/tables", body));
    } catch (e) { $("links").textContent = e.message; }
    finally { setBusy(-1); }
  };
}

document.addEventListener("DOMContentLoaded", () => {
  tips();
  whyClicks();
  if (Page.tokens.length) tablePage(); else createPage();
});
