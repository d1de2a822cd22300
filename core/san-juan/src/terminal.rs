//! San Juan's words at a terminal: the table, the screen before a person's
//! decision with every legal answer in words, the short forms a person may
//! type, and the final scores. Plain data: the front end prints it.

use engine_game::Game as _;
use engine_game::Line;

use crate::actions::{Action, Role};
use crate::cards::{CardIdx, CardTable};
use crate::error::GameError;
use crate::game::{Decision, DiscardReason, Game, Player, Slot};

/// "1 card", "2 goods".
fn count(n: i32, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The state as seen by `viewer` (or everything).
pub fn table_text(game: &Game, viewer: Option<usize>) -> Vec<String> {
    let cards = &game.rules().cards;
    let mut out = vec![format!(
        "round {}, governor seat {}, deck {}, discard {}",
        game.round(),
        game.governor(),
        game.deck_size(),
        game.discard_size()
    )];
    if let Some(tile) = game.trading_tile_text() {
        out.push(format!("trading tile: {tile}"));
    }
    for seat in 0..game.num_players() {
        let p = game.player(seat);
        // Others' cards under chapel/bank/harbor, and so their scores, are hidden.
        let sees_all = viewer.is_none_or(|v| v == seat);
        let city: Vec<String> = p.city.iter().map(|s| building_label(cards, s, sees_all, false)).collect();
        let score = match game.score(seat) {
            Ok(s) if sees_all => format!(" ({} VP)", s.total),
            _ => String::new(),
        };
        out.push(format!("seat {seat}: {} buildings{score}: {}{}", p.city.len(), city.join(" "), player_counters(p)));
        if sees_all {
            let mut hand: Vec<&str> = p.hand.iter().map(|&c| cards.id(c)).collect();
            hand.sort_unstable();
            out.push(format!("        hand ({}): {}", hand.len(), hand.join(" ")));
        } else {
            out.push(format!("        hand: {} cards", p.hand.len()));
        }
    }
    if let Some(d) = game.pending() {
        let legal: Vec<String> = game.legal_actions().iter().map(|a| a.text(cards)).collect();
        out.push(format!("seat {} decides: {} -> {}", d.seat(), d.name(), legal.join(" | ")));
        if !game.limbo().is_empty() && viewer.is_none_or(|v| v == d.seat()) {
            let offered: Vec<&str> = game.limbo().iter().map(|&c| cards.id(c)).collect();
            out.push(format!("offered: {}", offered.join(" ")));
        }
    }
    out
}

/// The screen before `seat` decides: with `full`, the table first.
pub fn screen(game: &Game, seat: usize, seats: &[String], full: bool) -> Vec<Line> {
    let s = Screen { game, cards: &game.rules().cards, human: seat };
    let mut out = Vec::new();
    if full {
        s.table(seats, &mut out);
    }
    s.hand(&mut out);
    s.choices(&mut out);
    out
}

/// What the person at `seat` sees, and the words for it.
struct Screen<'a> {
    game: &'a Game,
    cards: &'a CardTable,
    human: usize,
}

impl Screen<'_> {
    fn id(&self, c: CardIdx) -> &str {
        self.cards.id(c)
    }

    fn name(&self, c: CardIdx) -> String {
        // A script owner past the cards is the rules script.
        self.cards.cards.get(usize::from(c)).map_or_else(|| "the rules".to_owned(), |d| d.name.to_lowercase())
    }

    fn table(&self, seats: &[String], out: &mut Vec<Line>) {
        let g = self.game;
        let phase = match g.phase() {
            Some(ph) => format!("{} phase, chosen by seat {}", ph.role, ph.chooser),
            None => "choosing roles".into(),
        };
        out.push(Line::plain(""));
        out.push(Line::bold(format!("== round {} · governor seat {} · {phase} ==", g.round(), g.governor())));
        let mut table = format!("deck {} · discard {}", g.deck_size(), g.discard_size());
        if let Some(tile) = g.trading_tile_text() {
            table.push_str(&format!(" · trading tile: {tile}"));
        }
        for &c in g.public_cards() {
            table.push_str(&format!(" · on the table: {} ({})", self.id(c), self.cards.get(c).text));
        }
        out.push(Line::plain(table));
        for seat in 0..g.num_players() {
            out.push(Line::plain(self.city_line(seat, seats)));
        }
        let left: Vec<&str> = Role::ALL.into_iter().filter(|r| !g.roles_taken().contains(r)).map(Role::name).collect();
        if !matches!(g.pending(), Some(Decision::Role { .. })) && g.phase().is_some() {
            out.push(Line::plain(format!(
                "roles left this round: {}",
                if left.is_empty() { "none".into() } else { left.join(", ") }
            )));
        }
    }

    fn city_line(&self, seat: usize, seats: &[String]) -> String {
        let g = self.game;
        let p = g.player(seat);
        let mine = seat == self.human;
        let city: Vec<String> = p.city.iter().map(|s| building_label(self.cards, s, mine, true)).collect();
        let who = if mine { "you".to_owned() } else { seats.get(seat).cloned().unwrap_or_default() };
        let score = match g.score(seat) {
            Ok(s) if mine => format!(" · {} VP", s.total),
            _ => String::new(),
        };
        format!(
            "seat {seat} ({who}){score} · hand {} · {}: {}{}",
            p.hand.len(),
            count(p.city.len() as i32, "building"),
            city.join(" "),
            player_counters(p)
        )
    }

    fn card_line(&self, c: CardIdx) -> String {
        let def = self.cards.get(c);
        format!("{:<16} cost {} · {} VP · {}", def.id, def.cost, def.vp, def.text)
    }

    fn hand(&self, out: &mut Vec<Line>) {
        let mut hand = self.game.player(self.human).hand.clone();
        hand.sort_by_key(|&c| (self.cards.get(c).cost, self.id(c).to_owned()));
        out.push(Line::plain(format!("your hand ({}):", hand.len())));
        for c in hand {
            out.push(Line::plain(format!("    {}", self.card_line(c))));
        }
    }

    /// What the pending decision asks, and the legal answers as numbered choices.
    fn choices(&self, out: &mut Vec<Line>) {
        let g = self.game;
        let Some(d) = g.pending() else { return };
        out.push(Line::bold(self.heading(d)));
        for (i, a) in g.legal_actions().iter().enumerate() {
            out.push(Line::plain(format!("  {:>2}  {}", i + 1, self.describe(d, a))));
        }
        if let Decision::Build { options, .. } = d {
            let mut blocked: Vec<CardIdx> = Vec::new();
            for &c in g.player(self.human).hand.iter().chain(g.public_cards()) {
                if !options.iter().any(|o| o.card == c) && !blocked.contains(&c) {
                    blocked.push(c);
                }
            }
            for c in blocked {
                let why = g.why_illegal(Action::Build { card: c, over: None }).unwrap_or_default();
                out.push(Line::dim(format!("      cannot build {}: {why}", self.id(c))));
            }
        }
    }

    fn heading(&self, d: &Decision) -> String {
        let g = self.game;
        match d {
            Decision::Role { .. } => "Choose a role (everyone takes its action; you also get its privilege):".into(),
            Decision::Build { .. } => "Build one building, or pass:".into(),
            Decision::Pay { card, remaining, .. } => {
                format!("Pay for the {}: {} left to pay:", self.id(*card), count(*remaining, "card"))
            }
            Decision::Produce { left, .. } => format!("Produce: {} left, or stop:", count(*left, "good")),
            Decision::Sell { left, .. } => format!("Sell: {} left, or stop:", count(*left, "good")),
            Decision::Keep { left, .. } => format!("Keep {} of the cards you drew:", count(*left as i32, "card")),
            Decision::Discard { left, reason, .. } => {
                let why = match reason {
                    DiscardReason::HandLimit => " (hand limit)",
                    DiscardReason::Council => " (your archive: from the whole hand)",
                    DiscardReason::Setup => " (back to the starting hand)",
                    DiscardReason::Building(b) => &format!(" ({})", self.name(*b)),
                };
                format!("Discard {}{why}:", count(*left as i32, "card"))
            }
            Decision::Reveal { slot, .. } => {
                let by = self.name(g.player(self.human).city[*slot].card);
                let shown: Vec<&str> = g.limbo().iter().map(|&c| self.id(c)).collect();
                format!("Your {by} revealed {}. Keep one, or pass:", shown.join(", "))
            }
            Decision::Tuck { slot, .. } => {
                let card = g.player(self.human).city[*slot].card;
                let vp = self.cards.get(card).under_vp;
                format!("Put hand cards face down under your {} ({vp} VP each at the end), or stop:", self.name(card))
            }
            Decision::Exchange { .. } => "Exchange hand cards (discard now, draw as many after), or stop:".into(),
            Decision::Choose { owner, slot, .. } => {
                let by = g.card_at(*owner, *slot);
                format!("The {} asks you to choose ({}):", self.name(by), self.cards.get(by).text)
            }
            Decision::Pick { owner, slot, from, left, .. } => {
                let by = g.card_at(*owner, *slot);
                format!("Choose {} from your {} for the {}:", count(*left as i32, "card"), from.name(), self.name(by))
            }
            Decision::Give { to, left, cause, .. } => {
                format!("Give {} to seat {to} ({}):", count(*left as i32, "card"), self.name(*cause))
            }
            Decision::Look { slot, .. } => {
                let by = self.name(g.player(self.human).city[*slot].card);
                let shown: Vec<&str> = g.limbo().iter().map(|&c| self.id(c)).collect();
                format!("Your {by} shows you the top of the draw pile: {}. Discard one, or pass:", shown.join(", "))
            }
        }
    }

    /// A role choice in words: what everyone does, and the privilege.
    fn role_words(&self, boost: i32, role: Role, used: bool) -> String {
        let rules = &self.game.rules().rules;
        let factor = if used { boost } else { 1 };
        let boosted = if factor > 1 { format!(" (×{factor})") } else { String::new() };
        let privilege = |n: i32| n * factor;
        let what = match role {
            Role::Builder => format!(
                "everyone may build 1 building; privilege{boosted}: pay {} less",
                count(privilege(rules.builder_discount), "card")
            ),
            Role::Producer => format!(
                "everyone produces {}; privilege{boosted}: {} more",
                count(rules.produce, "good"),
                privilege(rules.producer_privilege)
            ),
            Role::Trader => format!(
                "everyone sells {}; privilege{boosted}: {} more",
                count(rules.sell, "good"),
                privilege(rules.trader_privilege)
            ),
            Role::Councillor => format!(
                "everyone draws {} and keeps {}; privilege{boosted}: draw {} more",
                rules.council_draw,
                rules.council_keep,
                privilege(rules.council_privilege)
            ),
            Role::Prospector => {
                format!("no action; privilege{boosted}: draw {}", count(privilege(rules.prospector_privilege), "card"))
            }
        };
        let plain = if !used && boost > 1 { ", keeping your boost for later" } else { "" };
        format!("{:<11} {what}{plain}", role.name())
    }

    /// One legal action in words.
    fn describe(&self, d: &Decision, a: &Action) -> String {
        let g = self.game;
        match (d, a) {
            (Decision::Role { boost, .. }, Action::Role { role, boost: used }) => self.role_words(*boost, *role, *used),
            (Decision::Build { options, .. }, Action::Build { card, over }) => {
                let p = g.player(self.human);
                let opt = options.iter().find(|o| o.card == *card && o.over.map(|s| p.city[s].card) == *over);
                let over_text = over.map(|o| format!(" over {}", self.id(o))).unwrap_or_default();
                let cost = opt.map_or(String::new(), |o| {
                    let goods = if o.goods_as_cards > 0 && o.cost > 0 {
                        format!(" (goods may pay up to {})", o.goods_as_cards.min(o.cost))
                    } else {
                        String::new()
                    };
                    match o.cost {
                        0 => "free".to_owned(),
                        n => format!("pay {}{goods}", count(n, "card")),
                    }
                });
                format!("build {}{over_text}: {cost} — {}", self.id(*card), self.cards.get(*card).text)
            }
            (_, Action::Pay(c)) => format!("pay with {}", self.id(*c)),
            (_, Action::Spend(b)) => format!("pay with the good on {}", self.id(*b)),
            (_, Action::SpendOf(b, whose)) => format!("pay with the good on seat {whose}'s {}", self.id(*b)),
            (_, Action::Produce(b)) => {
                let good = self.cards.get(*b).good_name.clone().unwrap_or_else(|| "a good".into());
                format!("produce {good} on {}", self.id(*b))
            }
            (_, Action::Sell(b)) => {
                format!("sell the good on {} for {}", self.id(*b), count(g.price_of(self.human, *b), "card"))
            }
            (_, Action::Keep(c)) => format!("keep {}", self.card_line(*c)),
            (Decision::Exchange { .. }, Action::Discard(c)) => format!("exchange {}", self.id(*c)),
            (_, Action::Discard(c)) => format!("discard {}", self.card_line(*c)),
            (Decision::Tuck { slot, .. }, Action::Tuck(c)) => {
                format!("put {} under your {}", self.id(*c), self.name(g.player(self.human).city[*slot].card))
            }
            (Decision::Build { .. }, Action::Pass) => "pass: build nothing".into(),
            (Decision::Produce { .. }, Action::Pass) => "stop producing".into(),
            (Decision::Sell { .. }, Action::Pass) => "stop selling".into(),
            (Decision::Reveal { .. }, Action::Pass) => "keep none".into(),
            (Decision::Exchange { .. }, Action::Pass) => "stop, and draw as many as you discarded".into(),
            (_, Action::Pass) => "stop".into(),
            (_, a) => a.text(self.cards),
        }
    }
}

/// The short forms that work now.
pub fn hints(game: &Game) -> Vec<String> {
    let mut help = Vec::new();
    if matches!(game.pending(), Some(Decision::Role { .. })) {
        help.push("b p t c pr: a role".into());
    } else {
        help.push("a card's name or its start".into());
    }
    if game.legal_actions().contains(&Action::Pass) {
        help.push("x: pass".into());
    }
    help
}

/// San Juan's lines of the help.
pub const HELP: &str = "  b p t c pr   builder, producer, trader, councillor, prospector (when choosing a role)
  x or pass    pass, or stop (producing, selling, putting cards under a building)
  lib          the choice on the card whose name starts with `lib`, if only one does
  build library pay well statue
               the full notation: several steps at once (`sanjuan scenario` files use it)
Cards marked * carry a good; [n under] counts cards under your chapel, bank or harbor;
{n} is a building's counter (a script's).";

/// What a person typed, as a line in the notation.
pub fn resolve(game: &Game, input: &str) -> Result<String, String> {
    let legal = game.legal_actions();
    let cards = &game.rules().cards;
    let lower = input.to_lowercase();
    let word = lower.as_str();
    if matches!(word, "x" | "pass") {
        return Ok("pass".into());
    }
    if matches!(game.pending(), Some(Decision::Role { .. })) {
        let role = match word {
            "b" => Some(Role::Builder),
            "p" => Some(Role::Producer),
            "t" => Some(Role::Trader),
            "c" => Some(Role::Councillor),
            "pr" => Some(Role::Prospector),
            _ => {
                let hits: Vec<Role> = Role::ALL.into_iter().filter(|r| r.name().starts_with(word)).collect();
                if let [r] = hits[..] { Some(r) } else { None }
            }
        };
        if let Some(role) = role {
            return Ok(format!("role {role}"));
        }
    }
    // A script's option by its name alone: `sell` answers the bazaar's `choose sell`.
    let option = format!("choose {word}");
    if legal.iter().any(|a| a.text(cards) == option) {
        return Ok(option);
    }
    let verbs = ["role", "build", "pay", "spend", "produce", "sell", "keep", "discard", "tuck", "give", "choose"];
    // The ruleset's own verbs (`buy coffee_roaster`) are typed as written too.
    let own = |v: &str| cards.verbs.iter().any(|w| w.first().is_some_and(|f| f == v));
    if word.split_whitespace().next().is_some_and(|v| verbs.contains(&v) || own(v)) {
        return Ok(word.to_owned());
    }
    // A card's id or name, or their start, picks the one choice on that card.
    let matches = |c: CardIdx, exact: bool| {
        let (id, name) = (cards.id(c), cards.get(c).name.to_lowercase());
        if exact { id == word || name == word } else { id.starts_with(word) || name.starts_with(word) }
    };
    for exact in [true, false] {
        let hits: Vec<(usize, &Action)> =
            legal.iter().enumerate().filter(|(_, a)| card_of(a).is_some_and(|c| matches(c, exact))).collect();
        match hits.as_slice() {
            [] => continue,
            [(_, a)] => return Ok(a.text(cards)),
            many => {
                let list: Vec<String> = many.iter().map(|(i, a)| format!("{} {}", i + 1, a.text(cards))).collect();
                return Err(format!("`{input}` could be: {}; type the number", list.join(", ")));
            }
        }
    }
    Err(format!("`{input}` is none of the choices; type a number from 1 to {}, or ? for help", legal.len()))
}

/// The card an action is about, if one.
fn card_of(a: &Action) -> Option<CardIdx> {
    match *a {
        Action::Build { card, .. }
        | Action::Pay(card)
        | Action::Spend(card)
        | Action::SpendOf(card, _)
        | Action::Produce(card)
        | Action::Sell(card)
        | Action::Keep(card)
        | Action::Discard(card)
        | Action::Tuck(card)
        | Action::Pick(card)
        | Action::Give(card) => Some(card),
        Action::Role { .. } | Action::Choose(_) | Action::Pass | Action::Act(_) => None,
    }
}

/// The final table, everything face up, and the scores with where they came from.
pub fn end_text(game: &Game, seat: usize, seats: &[String]) -> Result<Vec<Line>, GameError> {
    let mut out = vec![Line::plain(""), Line::bold("== game over ==")];
    out.extend(table_text(game, None).into_iter().map(Line::plain));
    out.push(Line::bold("final scores:"));
    for (s, score) in game.scores()?.iter().enumerate() {
        let who = if s == seat { "you".to_owned() } else { seats.get(s).cloned().unwrap_or_default() };
        let parts: Vec<String> = score.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
        out.push(Line::plain(format!(
            "  seat {s} ({who}): {} VP ({}; tie-break: {} cards in hand and goods)",
            score.total,
            parts.join(", "),
            score.tie_break
        )));
    }
    let winners = game.winners()?;
    let names: Vec<String> = winners.iter().map(|w| format!("seat {w}")).collect();
    let you = if winners.contains(&seat) { " — you win!" } else { "" };
    out.push(Line::plain(format!("winner: {}{you}", names.join(" and "))));
    Ok(out)
}

/// A building in a city line: `statue(over chapel)*[3 under]{4}`: what it
/// covers, a good, the cards under it (for their owner only: face down), its counter.
fn building_label(cards: &CardTable, s: &Slot, sees_under: bool, covered: bool) -> String {
    let mut t = cards.id(s.card).to_owned();
    if let Some(c) = s.covered.last().map(|c| c.card).filter(|_| covered) {
        t.push_str(&format!("(over {})", cards.id(c)));
    }
    if s.good.is_some() {
        t.push('*');
    }
    if sees_under && !s.under.is_empty() {
        t.push_str(&format!("[{} under]", s.under.len()));
    }
    if s.counter != 0 {
        t.push_str(&format!("{{{}}}", s.counter));
    }
    t
}

/// A player's named counters, ` · counters: toll 2, sales 3`, or nothing.
fn player_counters(p: &Player) -> String {
    if p.counters.is_empty() {
        return String::new();
    }
    let list: Vec<String> = p.counters.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!(" · counters: {}", list.join(", "))
}
