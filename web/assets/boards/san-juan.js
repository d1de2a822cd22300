"use strict";
// San Juan's board, drawn from the ruleset's cards (`/cards`): a card's colour
// and shape come from its kind (production buildings by the good they make,
// city buildings violet and arched), so a designer's new card looks right too.

(() => {
  /// The usual goods' colours; a good a ruleset adds gets one of the palette's.
  const GOODS = {indigo: "#34479a", sugar: "#cfc8b4", tobacco: "#9a6b34", coffee: "#4a2f1d", silver: "#7f8c99"};
  const PALETTE = ["#2a9d8f", "#e76f51", "#8ab17d", "#b5838d", "#457b9d", "#e9c46a", "#6d597a"];
  const KINDS = {city: "#6f4a9a"};
  const hash = (s) => [...String(s)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

  const byId = () => {
    const out = {};
    for (const c of Page.facts.cards || []) out[c.id] = c;
    return out;
  };
  let cards = {};

  function goodColour(good, index) {
    if (GOODS[good]) return GOODS[good];
    return PALETTE[(index ?? hash(good)) % PALETTE.length];
  }
  /// Dark text on a light colour, white on a dark one.
  function ink(hex) {
    const n = parseInt(hex.slice(1), 16);
    const l = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return l > 150 ? "#222" : "#fff";
  }
  function colour(c) {
    if (!c) return "#888";
    if (c.good) return goodColour(c.good, c.good_index);
    return KINDS[c.kind] || PALETTE[hash(c.kind) % PALETTE.length];
  }
  const kindClass = (c) => (c && /^[a-z_]+$/.test(c.kind) ? c.kind : "other");

  /// The card's text for hover and tap: name, then what it is, then its text.
  function tip(id) {
    const c = cards[id];
    if (!c) return id;
    const what = c.good ? `production building: produces ${c.good}` : `${c.kind} building`;
    return `${c.name}\n${what} · costs ${c.cost} · ${plural(c.vp, "victory point")}${c.text ? "\n" + c.text : ""}`;
  }

  /// A card as a card: its band (kind, good), name, cost and points, any
  /// tags (a good on it, cards under it), and the answers about it.
  function card(id, acts, opts) {
    opts = opts || {};
    const c = cards[id];
    const col = colour(c);
    // The band says what the card is: the good a production building makes, else its kind.
    const band = `<div class="band" style="color:${ink(col)}"><span>${esc(c ? c.good || c.kind : "card")}</span></div>`;
    const nums = c ? `<div class="nums"><span class="cost" title="cost">${c.cost}</span><span class="vp" title="victory points">${c.vp}</span></div>` : "";
    const tags = (opts.tags || []).map((t) => `<span class="tag${t.cls ? " " + t.cls : ""}"${t.style ? ` style="${t.style}"` : ""}>${esc(t.text)}</span>`).join("");
    const extra = opts.extra || "";
    const cls = ["card", kindClass(c), opts.small ? "small" : "", acts.length || extra ? "playable" : "", opts.isNew ? "new" : "", opts.why ? "blocked" : ""].filter(Boolean).join(" ");
    const actions = acts.length || extra ? `<div class="acts">${buttons(acts)}${extra}</div>` : "";
    const text = tip(id) + (opts.why ? `\nNot now: ${opts.why}` : "");
    return `<div class="${cls}" data-card="${esc(id)}" data-tip="${esc(text)}" style="--c:${col}">${band}<div class="name">${esc(c ? c.name : id)}</div>${tags ? `<div>${tags}</div>` : ""}${nums}${actions}${whyMark(opts.why)}</div>`;
  }

  function goodNames() {
    const names = [];
    for (const c of Object.values(cards)) if (c.good && c.good_index !== null && c.good_index !== undefined) names[c.good_index] = c.good;
    return names;
  }

  function roleRow(v, claim) {
    const by = {};
    for (const r of v.roles || []) (by[r.role] = by[r.role] || []).push(r.seat);
    return `<h3>Roles</h3><div class="roles">${(Page.facts.roles || []).map(({role, text}) => {
      const acts = claim.take("roles", role, ["role"]);
      const chosen = by[role] ? `chosen by seat ${by[role].join(", seat ")}` : "open";
      const cls = ["role", by[role] ? "taken" : "", v.phase === role ? "current" : ""].filter(Boolean).join(" ");
      return `<div class="${cls}" data-role="${esc(role)}" data-tip="${esc(`${cap(role)}\n${text}`)}"><b>${esc(cap(role))}</b> · <i>${esc(chosen)}</i><span class="rtext">${esc(text)}</span>${buttons(acts)}</div>`;
    }).join("")}</div>`;
  }

  function board(s, claim) {
    cards = byId();
    const v = s.view, players = v.players || [];
    const names = goodNames();
    const general = [["round", v.round], ["governor", `seat ${v.governor}`], ["deck", v.deck_size], ["discard pile", v.discard_size]];
    let html = `<div class="kv">${general.map(([k, x]) => `<b>${k}</b>: ${esc(x)}`).join(" · ")}</div>`;
    // Everyone's points as anyone can count them; cards under buildings are face down until the end.
    html += `<div id="scoreline" title="Points anyone can count: buildings and their bonuses; cards under buildings count only at the end">${s.over ? "<b>Final score</b>" : "<b>Points showing</b>"}: ${players.map((p) =>
      `<span data-seat="${p.seat}">${esc(cap(seatName(s, p.seat)))} <b>${esc(shown(s, p))}</b></span>`).join("")}</div>`;
    html += roleRow(v, claim);
    if (v.trading_tile) {
      html += `<div class="kv"><b>trading tile</b> (cards a good sells for): ${v.trading_tile.map((p, i) => {
        const g = names[i] || `good ${i}`, col = goodColour(g, i);
        return `<span class="tag good" style="--g:${col};--gt:${ink(col)}">${esc(g)} ${p}</span>`;
      }).join("")}</div>`;
    }
    if (v.public && v.public.length) {
      html += `<h3>For anyone to build</h3><div class="cards">${v.public.map((id) => card(id, claim.take("public", id, ["build"]), {why: whyNot(s, "public", id)})).join("")}</div>`;
    }
    const p0 = v.pending;
    if (p0 && p0.offered && p0.seat === s.seat) {
      html += `<h3>Offered to you</h3><div class="cards">${p0.offered.map((id) => card(id, claim.take("offered", id, ["keep", "discard", "build"]))).join("")}</div>`;
    }
    const before = Page.prev && Page.prev.view && Page.prev.view.players ? Page.prev.view.players : [];
    const me = players.find((p) => (p.seat ?? 0) === s.seat);
    if (me && me.hand) {
      const was = before.find((p) => p.seat === s.seat);
      const fresh = newOnes(was && was.hand, me.hand);
      html += `<div class="hand" data-seat="${s.seat}"><h3>Your hand (${me.hand.length})</h3><div class="cards">${me.hand.map((id, i) =>
        card(id, claim.take("hand", id, ["build", "pay", "discard", "tuck", "give", "pick"]), {extra: overMenu(claim.over("hand", id)), isNew: Page.prev && fresh[i], why: whyNot(s, "hand", id)})).join("")}</div></div>`;
    }
    html += players.map((p) => {
      const seat = p.seat;
      const mine = seat === s.seat;
      const goods = [...(p.goods || [])];
      const counters = Object.fromEntries((p.counters || []).map((c) => [c.building, c.value]));
      const was = before.find((x) => x.seat === seat);
      const fresh = newOnes(was && was.buildings, p.buildings);
      const city = (p.buildings || []).map((id, i) => {
        const tags = [];
        const g = goods.indexOf(id);
        if (g >= 0) {
          goods.splice(g, 1);
          const c = cards[id], col = goodColour(c && c.good, c && c.good_index);
          tags.push({text: `${c && c.good ? c.good : "good"}`, cls: "good", style: `--g:${col};--gt:${ink(col)}`});
        }
        if (p.under && p.under[id]) tags.push({text: `${p.under[id]} under`});
        if (counters[id] !== undefined) tags.push({text: `counter ${counters[id]}`});
        const acts = mine ? claim.take("city", id, ["produce", "sell", "spend", "pick", "act"]) : [];
        return card(id, acts, {small: true, tags, isNew: Page.prev && was && fresh[i]});
      }).join("");
      const facts = [`${plural(p.hand_size, "card")} in hand`, plural((p.buildings || []).length, "building"), plural((p.goods || []).length, "good")];
      if (seat === v.governor) facts.push("governor");
      const counters2 = Object.entries(p.player_counters || {}).map(([k, x]) => `${k} ${x}`);
      if (counters2.length) facts.push("counters: " + counters2.join(", "));
      if (p.covered && p.covered.length) facts.push("covered: " + p.covered.map(nameOf).join(", "));
      if (p.reserve && p.reserve.length) facts.push("reserve: " + p.reserve.map(nameOf).join(", "));
      const cls = ["player", mine ? "me" : "", seat === s.to_move ? "turn" : ""].filter(Boolean).join(" ");
      return `<div class="${cls}" data-seat="${seat}"><div class="who">${seatHead(s, seat)} <span class="score">${esc(points(s, p))}</span> <span class="kv">${esc(facts.join(" · "))}</span></div><div class="cards">${city}</div></div>`;
    }).join("");
    return html;
  }

  /// A seat's final score once the game is over.
  function final(s, seat) {
    const f = s.over && s.final_scores && (s.final_scores.players || []).find((x) => x.seat === seat);
    return f ? f.score.total : null;
  }
  /// The points shown for a seat in the score line: the final score, else what anyone can count.
  function shown(s, p) {
    const f = final(s, p.seat);
    if (f !== null) return String(f);
    return p.public_score ? String(p.public_score.total) : p.score ? String(p.score.total) : "?";
  }
  /// A seat's points beside its name: the final score at the end; meanwhile what anyone can
  /// count, and for one's own seat also with the cards under one's buildings.
  function points(s, p) {
    const f = final(s, p.seat);
    if (f !== null) return `final score: ${f} VP`;
    const pub = p.public_score ? p.public_score.total : null;
    if (p.score && pub !== null && p.score.total !== pub) return `${p.score.total} VP (${pub} showing)`;
    if (p.score) return `${p.score.total} VP`;
    return pub === null ? "" : `${pub} VP showing`;
  }

  /// What to do now, in a line.
  function hint(s) {
    const p = s.view.pending;
    if (!p || p.seat !== s.seat || !s.legal.length) return "";
    if (p.task) return p.task;
    const what = {role: "choose a role", build: "build: choose a card in your hand, or pass", pay: "pay: choose the cards in your hand to pay with",
      produce: "produce: choose a production building", sell: "sell: choose a building with a good", keep: "keep: choose the cards to keep",
      discard: "discard: choose the cards to give up", tuck: "tuck: choose a card to put under the building", give: "give: choose a card"}[p.decision];
    return what || `decide: ${p.decision}`;
  }

  /// What the pending decision means, from the rules and the current role's text.
  const DECISIONS = {
    role: "Choose one of the open roles. Every player, starting with you, then does that role's action; you alone also get its privilege (the bonus in its text). Each role is chosen once a round.",
    build: "Build one building from your hand, or pass. Its cost is paid with other cards from your hand (cards are money), less any discount. A production building makes goods; a city (violet) building has a lasting effect, and a city holds one of each.",
    pay: "Choose the cards from your hand that pay for the building: each card is worth one.",
    produce: "Put a good on one of your empty production buildings (with the privilege, on one more).",
    sell: "Sell a good: take it off one of your production buildings and draw as many cards as the trading tile shows for that good.",
    keep: "Choose the cards to keep; the rest go to the discard pile.",
    discard: "Choose cards to discard: at the end of a round, hands above the limit (7, more with some buildings) are cut down.",
    tuck: "Choose a card from your hand to put face down under the building: each counts for points at the end.",
  };
  function help(s) {
    const p = s.view.pending;
    if (!p || p.seat !== s.seat) return "";
    let html = "";
    const role = s.view.phase && (Page.facts.roles || []).find((r) => r.role === s.view.phase);
    if (role) html += `<p><b>${esc(cap(role.role))} phase.</b> ${esc(role.text)}</p>`;
    html += `<p>${esc(DECISIONS[p.decision] || "A building's script asks you to choose: see its text.")}</p>`;
    if (p.by && cards[p.by]) html += `<p><b>${esc(cards[p.by].name)}:</b> ${esc(cards[p.by].text || "")}</p>`;
    html += `<p class="muted">The game ends after the round in which a city reaches 12 buildings: most victory points wins. Hover over or tap a card for its text.</p>`;
    return html;
  }

  /// A score source's name: printed points, or the building that scores.
  const source = (k) => (k === "buildings" ? "Buildings" : cards[k] ? cards[k].name : cap(k));

  /// Every card id, named.
  function names(facts) {
    const map = new Map();
    for (const c of facts.cards || []) map.set(c.id, c.name);
    return map;
  }

  Games["san-juan"] = {title: "San Juan", board, hint, help, source, names, card: (id) => byId()[id]};
})();
