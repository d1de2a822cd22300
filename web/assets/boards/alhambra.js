"use strict";
// Alhambra's board, drawn from the ruleset (`/cards`): each currency in its own
// colour (money as notes with their value), each building type in its own
// colour (arched building cards with their price), the construction yard, the
// money display, and who leads in each type with the points of the next scoring.

(() => {
  /// Colours by position in the ruleset's lists: a ruleset's own currencies and types get theirs too.
  const CURRENCY = ["#2f6db5", "#2e8b57", "#d9822b", "#a23b72", "#6b5b95", "#7a7a2a", "#008b8b", "#8b4513"];
  const TYPES = {pavilion: "#3a86c8", seraglio: "#c0392b", arcades: "#a0722d", chambers: "#7d5ba6", garden: "#3d8b4a", tower: "#c9a227"};
  const MORE = ["#e76f51", "#2a9d8f", "#6d597a", "#457b9d", "#b5838d", "#8ab17d", "#264653", "#9c6644"];

  const facts = () => Page.facts;
  const types = () => facts().types || [];
  const currencies = () => facts().currencies || [];
  function currencyColour(id) {
    const i = currencies().findIndex((c) => c.id === id);
    return CURRENCY[(i < 0 ? 0 : i) % CURRENCY.length];
  }
  function typeColour(id) {
    if (TYPES[id]) return TYPES[id];
    const i = types().findIndex((t) => t.id === id);
    return MORE[(i < 0 ? 0 : i) % MORE.length];
  }
  const typeName = (id) => { const t = types().find((x) => x.id === id); return t ? t.name : id; };
  const currencyName = (id) => { const c = currencies().find((x) => x.id === id); return c ? c.name : id; };
  /// A money card: its currency and value (from the ruleset's list; else read from the id).
  function money(id) {
    const m = (facts().money || []).find((x) => x.id === id);
    if (m) return m;
    const g = /^(\D+)(\d+)$/.exec(id);
    return g ? {id, currency: g[1], value: +g[2]} : {id, currency: id, value: "?"};
  }
  function building(id) {
    const b = (facts().buildings || []).find((x) => x.id === id);
    if (b) return b;
    const g = /^(\D+)(\d+)$/.exec(id);
    return g ? {id, type: g[1], price: +g[2]} : {id, type: id, price: "?"};
  }
  /// "5 denars", "1 denar"; a money card of its own by its name ("Joker").
  function moneyName(m) {
    if (m.name) return m.name;
    const name = currencyName(m.currency);
    return `${m.value} ${m.value === 1 && name.endsWith("s") ? name.slice(0, -1) : name}`;
  }

  /// What each scoring gives for a type, in words (for a building's text).
  function pointsOf(typeId) {
    const i = types().findIndex((t) => t.id === typeId);
    return (facts().scorings || []).map((sc) => `scoring ${sc.name}: ${sc.ranks.map((r) => r[i]).filter((x) => x !== undefined).join(" / ")}`).join("; ");
  }

  function buildingCard(b, acts, extra, slot, why) {
    const col = typeColour(b.type);
    const tip = `${typeName(b.type)} (price ${b.price})\nPoints by rank (1st / 2nd / 3rd) for the most buildings of this type: ${pointsOf(b.type)}${why ? `\nNot now: ${why}` : ""}`;
    return `<div class="card building${slot ? " slot" : ""}${acts.length ? " playable" : ""}${why ? " blocked" : ""}"${slot ? ` data-slot="${slot}"` : ""} data-card="${esc(b.id)}" data-tip="${esc(tip)}" style="--c:${col}"><div class="band">&nbsp;</div><div class="name">${esc(typeName(b.type))}</div>${extra || ""}<div class="nums"><span class="cost" title="price">${b.price}</span></div>${acts.length ? `<div class="acts">${buttons(acts)}</div>` : ""}${whyMark(why)}</div>`;
  }

  function coin(id, acts, why) {
    const m = money(id);
    // A money card of its own says what it does in its name; "any" and "none" are no currency of the ruleset.
    const pays = m.currency === "any" ? "pays in any slot (its card says when and how much)"
      : m.currency === "none" ? "never pays for a building"
      : `pays for buildings in slots of the ${currencyName(m.currency)}`;
    const tip = `${moneyName(m)}${m.name ? ` (counts ${m.value} when taken)` : ""}\nA money card: ${pays}.${why ? `\nNot now: ${why}` : ""}`;
    const label = m.name || currencyName(m.currency);
    return `<div class="card coin${acts.length ? " playable" : ""}${why ? " blocked" : ""}" data-money="${esc(id)}" data-tip="${esc(tip)}" style="--c:${currencyColour(m.currency)}"><span class="value">${esc(m.value)}</span><span class="cur">${esc(label)}</span>${acts.length ? `<div class="acts">${buttons(acts)}</div>` : ""}${whyMark(why)}</div>`;
  }

  const chip = (id, isNew) => {
    const b = building(id);
    return `<span class="tag${isNew ? " new" : ""}" style="background:${typeColour(b.type)};color:#fff" data-card="${esc(id)}" data-tip="${esc(`${typeName(b.type)} (price ${b.price})`)}">${esc(typeName(b.type))} ${esc(b.price)}</span>`;
  };

  function board(s, claim) {
    const v = s.view, players = v.players || [];
    const ts = types();
    const general = [["turn", v.turn], ["money deck", v.deck_size], ["building deck", v.building_deck_size], ["scored", (v.scored || []).join(", ") || "none yet"]];
    let html = `<div class="kv">${general.map(([k, x]) => `<b>${k}</b>: ${esc(x)}`).join(" · ")}</div>`;
    const next = v.next_scoring;
    if (next) {
      html += `<div class="kv" id="nextscoring"><b>next scoring: ${esc(next.name)}</b> — ${next.card
        ? `its card comes after ${next.draws_min}–${next.draws_max} more money cards are drawn`
        : `at the game end, when the building deck (${v.building_deck_size} left) cannot fill the yard`}</div>`;
    }
    html += `<h3>Construction yard</h3><div class="cards">${(v.building_display || []).map((b) => {
      const acts = claim.take("yard", String(b.slot), ["buy"]);
      const pay = `<div class="slotpay"><span class="curdot" style="--c:${currencyColour(b.currency)}"></span>slot ${b.slot} · pay in ${esc(currencyName(b.currency))}</div>`;
      if (!b.building) return `<div class="card slot empty" data-slot="${b.slot}"><div class="name">empty</div>${pay}</div>`;
      return buildingCard(building(b.building), acts, pay, b.slot, whyNot(s, "yard", b.slot));
    }).join("")}</div>`;
    html += `<h3>Money display</h3><div class="cards">${(v.money_display || []).map((m) => coin(m, claim.take("display", m, ["take"]), whyNot(s, "display", m))).join("")}</div>`;
    const me = players.find((p) => p.seat === s.seat);
    if (me && me.hand) {
      const sums = {};
      for (const id of me.hand) { const m = money(id); sums[m.currency] = (sums[m.currency] || 0) + (+m.value || 0); }
      const totals = currencies().filter((c) => sums[c.id]).map((c) => `<span class="curdot" style="--c:${currencyColour(c.id)}"></span>${sums[c.id]} ${esc(c.name)}`).join(" · ");
      html += `<div class="hand" data-seat="${s.seat}"><h3>Your money (${me.hand.length})${totals ? ` <span class="kv">${totals}</span>` : ""}</h3><div class="cards">${me.hand.map((m) =>
        coin(m, claim.take("hand", m, ["pay"]), "")).join("")}</div></div>`;
    }
    // Buildings by type and the points each rank would bring at the next scoring.
    const collectors = players.map((p) => ({label: p.seat === s.seat ? "you" : typedName(s, p.seat) || `seat ${p.seat}`, p})).concat(v.neutral ? [{label: v.neutral.name, p: v.neutral}] : []);
    const scoring = next && (facts().scorings || []).find((x) => x.name === next.name);
    const head = `<tr><th>type</th>${collectors.map((c) => `<th>${esc(c.label)}</th>`).join("")}${scoring ? `<th>${esc(scoring.name)}: points by rank</th>` : ""}</tr>`;
    const rows = ts.map((t, i) => {
      const counts = collectors.map((c) => (c.p.counts || {})[t.id] || 0);
      const top = Math.max(...counts);
      const points = scoring ? scoring.ranks.map((r) => r[i]).filter((x) => x !== undefined).join(" / ") : "";
      return `<tr data-type="${esc(t.id)}"><td><span class="curdot" style="--c:${typeColour(t.id)}"></span>${esc(t.name)}</td>${counts.map((n) => `<td${n > 0 && n === top ? ' class="lead"' : ""}>${n}</td>`).join("")}${scoring ? `<td>${esc(points)}</td>` : ""}</tr>`;
    }).join("");
    const totals = `<tr><th>points</th>${collectors.map((c) => `<th class="points">${c.p.score ? c.p.score.total : 0}</th>`).join("")}${scoring ? "<th></th>" : ""}</tr>`;
    html += `<h3>Buildings by type, and the scores</h3><div class="scroll"><table class="scores" id="majorities">${head}${rows}${totals}</table></div>`;
    const before = Page.prev && Page.prev.view && Page.prev.view.players ? Page.prev.view.players : [];
    html += players.map((p) => {
      const cls = ["player", p.seat === s.seat ? "me" : "", p.seat === s.to_move ? "turn" : ""].filter(Boolean).join(" ");
      const was = before.find((x) => x.seat === p.seat);
      const fresh = newOnes(was && was.buildings, p.buildings);
      const chips = (p.buildings || []).map((id, i) => chip(id, Page.prev && was && fresh[i])).join("");
      // A ruleset's reserve: buildings set aside face up, not yet in the Alhambra.
      const reserve = (p.reserve || []).map((id) => chip(id, false)).join("");
      return `<div class="${cls}" data-seat="${p.seat}"><div class="who">${seatHead(s, p.seat)} <span class="score">${plural(p.score ? p.score.total : 0, "point")}${s.over ? " (final)" : ""}</span> <span class="kv">${plural(p.hand_size, "money card")} · ${plural((p.buildings || []).length, "building")}</span></div>${chips ? `<div>${chips}</div>` : ""}${reserve ? `<div class="reserve"><span class="kv">reserve</span> ${reserve}</div>` : ""}</div>`;
    }).join("");
    if (v.neutral && (v.neutral.buildings || []).length) {
      html += `<div class="player" data-neutral="true"><div class="who"><b>${esc(v.neutral.name)}</b> <span class="kv">the neutral collector · ${plural(v.neutral.score ? v.neutral.score.total : 0, "point")}</span></div><div>${v.neutral.buildings.map((id) => chip(id, false)).join("")}</div></div>`;
    }
    return html;
  }

  function hint(s) {
    const p = s.view.pending;
    if (!p || p.seat !== s.seat || !s.legal.length) return "";
    return p.task || `decide: ${p.decision}`;
  }

  function help(s) {
    const p = s.view.pending;
    if (!p || p.seat !== s.seat) return "";
    const limit = facts().take_limit;
    const take = `Take money: one card from the money display, or several whose values total at most ${limit === undefined ? "the take limit" : limit}.`;
    const buy = "Or buy a building from the construction yard, paying with money of the currency its slot shows: pay the exact price and you take another turn; pay more and you get no change.";
    const text = {
      turn: `${take} ${buy}`,
      take: `${take} When you are done, say so.`,
      pay: "Choose money cards of the slot's currency until the price is covered. An exact payment gives you another turn.",
      donate: `Keep the building, or give it to ${facts().neutral || "the neutral collector"}, who competes for the majorities too.`,
    }[p.decision] || "Choose one of the answers.";
    return `<p>${esc(text)}</p><p class="muted">At each scoring (A and B come with their cards in the money deck, C at the end) whoever has the most buildings of a type scores its points; the table shows the points by rank. Hover over or tap a card for its text.</p>`;
  }

  const source = (k) => k;

  /// Ids the log and answers use: money cards ("5 denars"), buildings ("Garden 10"), types, scoring cards.
  function names(f) {
    Page.facts = f;
    const map = new Map();
    for (const m of f.money || []) map.set(m.id, moneyName(m));
    for (const b of f.buildings || []) map.set(b.id, `${typeName(b.type)} ${b.price}`);
    for (const t of f.types || []) map.set(t.id, t.name);
    for (const sc of f.scorings || []) if (sc.card) map.set(sc.card, `the scoring ${sc.name} card`);
    return map;
  }

  Games.alhambra = {title: "Alhambra", board, hint, help, source, names, sources: "Points at each scoring"};
})();
