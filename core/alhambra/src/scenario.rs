//! Scenarios: a TOML file that sets up a position, plays actions from it and
//! checks the outcome (`[expect]`). The scenario tests read this format
//! (`snapshots/alhambra/*.toml`).
//!
//! A position lists what matters; every card it does not place is dealt at
//! random from the seed: money into the money deck below the listed top (or
//! onto the discard pile with `unplaced_money = "discard"`), buildings into the
//! building deck below the listed top. A scoring card neither listed in `deck`
//! nor `scored` lies at the bottom of the money deck.
//!
//! With `deal` instead, the game is set up by the rules (starting capital,
//! start player, displays, piles) from a money deck whose top is `deal`.

use engine_game::Game as _;
use std::collections::BTreeMap;
use std::sync::Arc;

use engine_game::scenario::Expected;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{GameError, LoadError};
use crate::game::{Decision, Draw, Game, Player};
use crate::rng;
use crate::ruleset::{BuildingIdx, Money, Ruleset};

/// A building a scenario's seat owns: its id (or type), or a table with its history.
#[derive(Clone, Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum BuildingSpec {
    /// A card id (`garden10`) or a type (`garden`).
    Id(String),
    /// A card with its history.
    Held(HeldBuilding),
}

/// A building with its history (`ctx.table`'s `bought` and `exact`).
#[derive(Clone, Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeldBuilding {
    /// A card id (`garden10`) or a type (`garden`).
    pub id: String,
    /// It was bought with an exact payment.
    #[serde(default)]
    pub exact: bool,
    /// The turn it was acquired in (0: before the first).
    #[serde(default)]
    pub bought: u32,
}

impl BuildingSpec {
    /// The card id or type, the turn acquired, bought exactly.
    fn parts(&self) -> (&str, u32, bool) {
        match self {
            BuildingSpec::Id(id) => (id, 0, false),
            BuildingSpec::Held(h) => (&h.id, h.bought, h.exact),
        }
    }
}

engine_game::scenario_seat! {
    /// One seat of a scenario (or the neutral collector).
    pub struct PlayerSpec {
        /// Money in hand.
        pub hand: Vec<String>,
        /// Buildings owned: card ids (`garden10`) or types (`garden`: any card of it left, the cheapest
        /// first), or tables with their history (`{ id = "arcades4", exact = true, bought = 3 }`).
        pub buildings: Vec<BuildingSpec>,
        /// Points from earlier scorings.
        pub score: i32,
        /// Per building type id: the seat's counter of the type (a script's `counter` effect).
        pub counters: BTreeMap<String, i32>,
        /// The seat's named counters (a script's `player_counter` effect).
        pub player_counters: BTreeMap<String, i32>,
        /// Buildings in the seat's reserve (a ruleset's `reserve` zone): card ids or types.
        pub reserve: Vec<String>,
    }
}

engine_game::scenario_expect! {
    /// What the scenario test verifies after the actions: the keys every game
    /// has, and these.
    pub struct Expect {
        /// The neutral collector's total.
        pub neutral_score: Option<i32>,
        /// Buildings per type per seat (types not given must be 0).
        pub counts: Option<Vec<BTreeMap<String, u8>>>,
        /// The neutral collector's number of buildings.
        pub neutral_buildings: Option<usize>,
        /// The money display, in order.
        pub money_display: Option<Vec<String>>,
        /// The building display, slot by slot (`-` for an empty slot).
        pub building_display: Option<Vec<String>>,
        /// Scorings done, in order.
        pub scored: Option<Vec<String>>,
        /// Buildings nobody got at the end.
        pub unclaimed: Option<Vec<String>>,
        /// The seat that took the first turn.
        pub start_player: Option<usize>,
        /// Cards in the building deck.
        pub building_deck_size: Option<usize>,
        /// Per seat: the counters of building types (types not given must be 0).
        pub counters: Option<Vec<BTreeMap<String, i32>>>,
        /// Per seat: the named counters (names not given must be 0).
        pub player_counters: Option<Vec<BTreeMap<String, i32>>>,
        /// Per seat: the buildings of its reserve, in order.
        pub reserve: Option<Vec<Vec<String>>>,
    }
}

engine_game::scenario_file! {
    /// The scenario file: the head every game has, and the position.
    pub struct ScenarioFile {
        /// Set up by the rules from a money deck with this top (top first).
        pub deal: Option<Vec<String>>,
        /// The seat whose turn it is.
        pub to_move: usize,
        /// The seat that took the first turn (default: `to_move`).
        pub start_player: Option<usize>,
        /// The turn number.
        pub turn: Option<u32>,
        /// Money face up; absent: dealt from the unplaced money.
        pub money_display: Option<Vec<String>>,
        /// Buildings face up from slot 1 (`-`: an empty slot); slots not given are dealt.
        pub building_display: Vec<String>,
        /// Top of the money deck, top first: money and scoring card ids.
        pub deck: Vec<String>,
        /// Top of the building deck, top first.
        pub building_deck: Vec<String>,
        /// The discard pile.
        pub discard: Vec<String>,
        /// Where unplaced money goes: `deck` (default) or `discard`.
        pub unplaced_money: Option<String>,
        /// Buildings not placed are set aside (out of the game): the building deck holds only `building_deck`.
        pub only_listed_buildings: bool,
        /// Scorings already done (their cards are out of the game).
        pub scored: Vec<String>,
        /// The neutral collector (two players).
        pub neutral: Option<PlayerSpec>,
    }
    players: PlayerSpec, expect: Expect,
    scenario: Scenario of Game, runs to Run,
    help: "a scenario has ruleset, description, a position, players, actions and [expect] (docs/alhambra.md, Scenarios)",
}

/// The keys of a position written out, which a game reached otherwise (by
/// `deal`, or by `[from_game]`) would ignore: each is refused there.
const WRITTEN: &[&str] = &[
    "to_move",
    "start_player",
    "turn",
    "money_display",
    "building_display",
    "deck",
    "building_deck",
    "discard",
    "unplaced_money",
    "only_listed_buildings",
    "scored",
];

/// A scenario played: the game, and the error of the action that failed when `[expect] error` awaits one.
#[derive(Clone, Debug)]
pub struct Run {
    /// The game after the actions.
    pub game: Game,
    /// The error of the action that failed (its index and text).
    pub error: Option<(usize, String)>,
}

/// The cards not yet placed while a written position is set up.
struct Pools {
    money: Vec<Money>,
    buildings: Vec<BuildingIdx>,
    /// The buildings the file names by their own id, wherever: a type's id never takes one of them.
    named: Vec<BuildingIdx>,
}

impl Scenario {
    /// The position `[from_game]` reaches by play; a position written beside it would be ignored, so it is refused.
    fn played_to(&self, from: &engine_game::saved::FromGame, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
        let position: Vec<&str> =
            ["deal"].into_iter().chain(WRITTEN.iter().copied()).chain(["players", "neutral", "seed"]).collect();
        self.check_expect(&rs)?;
        from.play_in::<Game>(&self.doc, &position, rs)
    }

    /// The position the scenario sets up, before its actions: one `deal`t by
    /// the rules, or one written card by card (players, displays, scorings done,
    /// decks), each card taken from the pools so that every card is in one place.
    pub fn setup(&self, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
        let f = &self.file;
        if let Some(from) = &f.from_game {
            return self.played_to(from, rs);
        }
        let n = f.players.len();
        if n < rs.rules.min_players || n > rs.rules.max_players {
            return Err(self.err(
                "players",
                format!("{n} players; ruleset `{}` is for {} to {}", rs.id, rs.rules.min_players, rs.rules.max_players),
            ));
        }
        if f.turn == Some(0) {
            return Err(self.err("turn", "turn 0: turns count from 1").help("leave `turn` out for the first turn"));
        }
        self.check_expect(&rs)?;
        if let Some(deal) = &f.deal {
            return self.dealt(rs, deal);
        }
        if f.to_move >= n {
            return Err(self.err("to_move", format!("seat {} is not a seat (seats 0 to {})", f.to_move, n - 1)));
        }
        if let Some(start) = f.start_player.filter(|&s| s >= n) {
            return Err(self.err("start_player", format!("seat {start} is not a seat (seats 0 to {})", n - 1)));
        }
        let mut game = Game::empty(Arc::clone(&rs), n, ChaCha8Rng::seed_from_u64(f.seed));
        if game.neutral.is_none() && f.neutral.is_some() {
            return Err(self.err("neutral", "only a two-player game has a neutral collector"));
        }
        let mut pools = Pools { money: game.all_money(), buildings: game.all_buildings(), named: self.named(&rs) };
        self.place_players(&rs, &mut game, &mut pools)?;
        self.place_displays(&rs, &mut game, &mut pools)?;
        let scoring_left = self.scored(&rs, &mut game)?;
        self.place_decks(&rs, &mut game, &mut pools, scoring_left)?;
        game.start_player = f.start_player.unwrap_or(f.to_move);
        game.turns = f.turn.unwrap_or(1);
        game.pending = Some(Decision::Turn { seat: f.to_move });
        game.advance().map_err(|e| self.err("players", format!("setting up: {e}")))?;
        Ok(game)
    }

    /// A game `deal`t by the rules from a money deck with the listed cards on top.
    fn dealt(&self, rs: Arc<Ruleset>, deal: &[String]) -> Result<Game, LoadError> {
        let f = &self.file;
        let n = f.players.len();
        // A dealt game is set up by the rules: a position written beside it would be ignored.
        if let Some(key) = WRITTEN.iter().chain(&["neutral"]).find(|k| self.doc.has(k)) {
            return Err(self.err(key, format!("`{key}` has no effect with `deal`")).help(
                "`deal` sets up the game by the rules from a money deck; write a position without `deal` instead",
            ));
        }
        if let Some(s) = f
            .players
            .iter()
            .position(|p| !p.hand.is_empty() || !p.buildings.is_empty() || !p.reserve.is_empty() || p.score != 0)
        {
            return Err(self
                .err(&format!("players.{s}"), "a player's cards have no effect with `deal`")
                .help("`deal` gives every player their starting capital by the rules; leave `[[players]]` empty"));
        }
        let top = deal
            .iter()
            .enumerate()
            .map(|(i, id)| self.money_id(&rs, id, &format!("deal.{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        // More copies of a card than the game has would be rearranged, not refused.
        let all = Game::empty(Arc::clone(&rs), n, ChaCha8Rng::seed_from_u64(0)).all_money();
        if top.len() > all.len() {
            return Err(self.err("deal", format!("{} cards; the money has {}", top.len(), all.len())));
        }
        for (i, m) in top.iter().enumerate() {
            let (listed, have) = (top[..=i].iter().filter(|x| *x == m).count(), all.iter().filter(|x| *x == m).count());
            if listed > have {
                return Err(self
                    .err(
                        &format!("deal.{i}"),
                        format!("`{}` is listed {listed} times; {n} players play with {have}", deal[i]),
                    )
                    .help("every card is in exactly one place; list each money card at most as often as it exists"));
            }
        }
        Game::new_arranged(rs, n, f.seed, &top).map_err(|e| self.err("deal", e.to_string()))
    }

    /// The money card `id`, or an error at `path`.
    fn money_id(&self, rs: &Ruleset, id: &str, path: &str) -> Result<Money, LoadError> {
        rs.lookup_money(id).map_err(|e| self.err(path, e))
    }

    /// Takes the money card `id` out of `pool`.
    fn take_money(&self, rs: &Ruleset, pool: &mut Vec<Money>, id: &str, path: &str) -> Result<Money, LoadError> {
        let m = self.money_id(rs, id, path)?;
        let i = pool.iter().position(|&x| x == m).ok_or_else(|| {
            self.err(path, format!("no copy of `{id}` is left")).help("every card is in exactly one place")
        })?;
        Ok(pool.swap_remove(i))
    }

    /// Every building the file names by its own id (not by its type's), in any list.
    fn named(&self, rs: &Ruleset) -> Vec<BuildingIdx> {
        let f = &self.file;
        let seats = f.players.iter().chain(&f.neutral).flat_map(|p| p.buildings.iter().map(|b| b.parts().0));
        let reserves = f.players.iter().flat_map(|p| p.reserve.iter().map(String::as_str));
        seats
            .chain(reserves)
            .chain(f.building_display.iter().map(String::as_str))
            .chain(f.building_deck.iter().map(String::as_str))
            .filter(|id| rs.lookup_type(id).is_none())
            .filter_map(|id| rs.lookup_building(id).ok())
            .collect()
    }

    /// Takes the building `id` out of the pool; a type's id takes its cheapest
    /// card left that the file does not name by its own id elsewhere, so the
    /// order of the lists does not decide whether a position can be written.
    fn take_building(&self, rs: &Ruleset, pools: &mut Pools, id: &str, path: &str) -> Result<BuildingIdx, LoadError> {
        let pool = &mut pools.buildings;
        let found = match rs.lookup_type(id) {
            Some(t) => {
                let mut of_type: Vec<usize> = (0..pool.len())
                    .filter(|&i| rs.building(pool[i]).kind as usize == t && !pools.named.contains(&pool[i]))
                    .collect();
                of_type.sort_by_key(|&i| (rs.building(pool[i]).price, i));
                of_type.first().copied()
            }
            None => {
                let b = rs.lookup_building(id).map_err(|e| self.err(path, e))?;
                pool.iter().position(|&x| x == b)
            }
        };
        let i = found.ok_or_else(|| {
            self.err(path, format!("no `{id}` building is left")).help("every card is in exactly one place")
        })?;
        Ok(pool.swap_remove(i))
    }

    /// The seats' and the neutral collector's money, buildings and earlier points.
    fn place_players(&self, rs: &Ruleset, game: &mut Game, pools: &mut Pools) -> Result<(), LoadError> {
        let f = &self.file;
        let n = f.players.len();
        let specs: Vec<(String, &PlayerSpec)> = f
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| (format!("players.{s}"), p))
            .chain(f.neutral.iter().map(|p| ("neutral".to_owned(), p)))
            .collect();
        for (c, (base, spec)) in specs.iter().enumerate() {
            let mut p = Player::default();
            for (i, id) in spec.hand.iter().enumerate() {
                if c >= n {
                    return Err(self.err(&format!("{base}.hand"), "the neutral collector holds no money"));
                }
                p.gain_money(self.take_money(rs, &mut pools.money, id, &format!("{base}.hand.{i}"))?);
            }
            for (i, held) in spec.buildings.iter().enumerate() {
                let (id, bought, exact) = held.parts();
                let now = f.turn.unwrap_or(1);
                if bought > now {
                    return Err(self.err(
                        &format!("{base}.buildings.{i}"),
                        format!("bought in turn {bought}, after the scenario's turn {now}"),
                    ));
                }
                let b = self.take_building(rs, pools, id, &format!("{base}.buildings.{i}"))?;
                p.add_building_with(rs, b, bought, exact);
            }
            if spec.score != 0 {
                std::sync::Arc::make_mut(&mut game.earned)[c].add("earlier", spec.score);
            }
            for (id, &v) in &spec.counters {
                let t = rs.lookup_type(id).ok_or_else(|| {
                    let types: Vec<&str> = rs.types.iter().map(|t| t.id.as_str()).collect();
                    self.err(&format!("{base}.counters.{id}"), format!("`{id}` is not a building type"))
                        .help(format!("a counter belongs to a building type: {}", types.join(", ")))
                })?;
                p.counters[t] = v;
            }
            p.player_counters.clone_from(&spec.player_counters);
            for (i, id) in spec.reserve.iter().enumerate() {
                let path = format!("{base}.reserve.{i}");
                if c >= n {
                    return Err(self.err(&path, "the neutral collector has no reserve"));
                }
                let b = self.take_building(rs, pools, id, &path)?;
                if game.reserves.len() <= c {
                    game.reserves.resize(n, Vec::new());
                }
                game.reserves[c].push(b);
            }
            if c < n {
                game.players[c] = p;
            } else {
                game.neutral = Some(p);
            }
        }
        Ok(())
    }

    /// The discard pile and the written parts of the building and money displays.
    fn place_displays(&self, rs: &Ruleset, game: &mut Game, pools: &mut Pools) -> Result<(), LoadError> {
        let f = &self.file;
        for (i, id) in f.discard.iter().enumerate() {
            game.discard.push(self.take_money(rs, &mut pools.money, id, &format!("discard.{i}"))?);
        }
        let slots = game.building_display.len();
        if f.building_display.len() > slots {
            return Err(
                self.err("building_display", format!("{} buildings for {slots} slots", f.building_display.len()))
            );
        }
        for (i, id) in f.building_display.iter().enumerate() {
            if id != "-" {
                game.building_display[i] = Some(self.take_building(rs, pools, id, &format!("building_display.{i}"))?);
            }
        }
        if let Some(display) = &f.money_display {
            if display.len() > rs.rules.money_display {
                return Err(self.err(
                    "money_display",
                    format!("{} cards; the display holds {}", display.len(), rs.rules.money_display),
                ));
            }
            for (i, id) in display.iter().enumerate() {
                game.money_display.push(self.take_money(rs, &mut pools.money, id, &format!("money_display.{i}"))?);
            }
        }
        Ok(())
    }

    /// Records the scorings already done; returns the scorings whose cards are still to place.
    fn scored(&self, rs: &Ruleset, game: &mut Game) -> Result<Vec<u8>, LoadError> {
        let f = &self.file;
        let mut scoring_left: Vec<u8> =
            (0..rs.scorings.len() as u8).filter(|&k| rs.scorings[k as usize].card.is_some()).collect();
        for (i, name) in f.scored.iter().enumerate() {
            let k =
                rs.scorings.iter().position(|s| s.name == *name && s.card.is_some()).ok_or_else(|| {
                    self.err(&format!("scored.{i}"), format!("`{name}` is not a scoring with a card"))
                })?;
            if game.scored.contains(&(k as u8)) {
                return Err(
                    self.err(&format!("scored.{i}"), format!("scoring {name} is listed twice; a scoring happens once"))
                );
            }
            scoring_left.retain(|&x| x as usize != k);
            game.scored.push(k as u8);
            game.scored_turns.push(0);
        }
        Ok(scoring_left)
    }

    /// The money and building decks (the listed tops over the shuffled rest) and
    /// the unwritten display slots filled from them.
    fn place_decks(
        &self,
        rs: &Ruleset,
        game: &mut Game,
        pools: &mut Pools,
        mut scoring_left: Vec<u8>,
    ) -> Result<(), LoadError> {
        let f = &self.file;
        let mut top: Vec<Draw> = Vec::new();
        let mut deck_left: Vec<u8> = (0..rs.deck_cards.len() as u8).collect();
        for (i, id) in f.deck.iter().enumerate() {
            let path = format!("deck.{i}");
            if let Some(d) = rs.lookup_deck_card(id) {
                if !deck_left.contains(&d) {
                    return Err(self.err(&path, format!("`{id}` is listed twice")));
                }
                deck_left.retain(|&x| x != d);
                top.push(Draw::Deck(d));
                continue;
            }
            match rs.lookup_scoring_card(id) {
                Some(k) => {
                    if !scoring_left.contains(&k) {
                        return Err(self.err(&path, format!("`{id}` is listed twice, or its scoring is done")));
                    }
                    scoring_left.retain(|&x| x != k);
                    top.push(Draw::Scoring(k));
                }
                None => top.push(Draw::Money(self.take_money(rs, &mut pools.money, id, &path)?)),
            }
        }
        let mut building_top = Vec::new();
        for (i, id) in f.building_deck.iter().enumerate() {
            building_top.push(self.take_building(rs, pools, id, &format!("building_deck.{i}"))?);
        }
        rng::shuffle(&mut game.rng, &mut pools.money);
        rng::shuffle(&mut game.rng, &mut pools.buildings);
        if f.money_display.is_none() {
            while game.money_display.len() < rs.rules.money_display {
                let Some(m) = pools.money.pop() else { break };
                game.money_display.push(m);
            }
        }
        for slot in game.building_display.iter_mut().skip(f.building_display.len()) {
            *slot = pools.buildings.pop();
        }
        if f.only_listed_buildings {
            game.set_aside = std::mem::take(&mut pools.buildings);
        }
        // The money deck, bottom first: unplaced scoring cards, unplaced money, the listed top.
        // Deck cards not listed lie at the bottom too, under the scoring cards.
        let mut deck: Vec<Draw> = deck_left.iter().map(|&d| Draw::Deck(d)).collect();
        deck.extend(scoring_left.iter().map(|&k| Draw::Scoring(k)));
        match f.unplaced_money.as_deref() {
            None | Some("deck") => deck.extend(std::mem::take(&mut pools.money).into_iter().map(Draw::Money)),
            Some("discard") => game.discard.extend(std::mem::take(&mut pools.money)),
            Some(other) => {
                return Err(self.err("unplaced_money", format!("`{other}`: write `deck` or `discard`")));
            }
        }
        deck.extend(top.iter().rev());
        let len = deck.len();
        for (i, d) in deck.iter().enumerate() {
            if let Draw::Scoring(k) = d {
                // Placed by hand: as far as a player knows, anywhere in the deck.
                game.scoring_range[*k as usize] = (0, len.max(i + 1));
            }
        }
        game.deck = deck;
        pools.buildings.extend(building_top.iter().rev());
        game.building_deck = std::mem::take(&mut pools.buildings);
        Ok(())
    }

    /// Refuses an `[expect]` entry that could never fail or never pass: an
    /// action that is not well-formed, a breakdown source that is neither
    /// `earlier` nor a scoring, a building type, scoring or card the ruleset lacks.
    fn check_expect(&self, rs: &Ruleset) -> Result<(), LoadError> {
        let Some(e) = &self.file.expect else { return Ok(()) };
        let help = "an [expect] entry that names what cannot exist can never fail; docs/alhambra.md lists the keys";
        let lists = [("legal", &e.legal), ("legal_includes", &e.legal_includes), ("legal_excludes", &e.legal_excludes)];
        for (key, list) in lists {
            for (i, a) in list.iter().flatten().enumerate() {
                if let Err(why) = crate::actions::parse_line(a, rs)
                    && !crate::actions::may_be_offered(a, rs)
                {
                    return Err(self
                        .err(&format!("expect.{key}.{i}"), format!("`{a}` is not an action: {why}"))
                        .help(help));
                }
            }
        }
        let scorings: Vec<&str> = rs.scorings.iter().map(|s| s.name.as_str()).collect();
        for (seat, m) in e.breakdown.iter().flatten().enumerate() {
            if let Some(k) =
                m.keys().find(|k| !["earlier", "bonus"].contains(&k.as_str()) && !scorings.contains(&k.as_str()))
            {
                return Err(self
                    .doc
                    .key_error(&format!("expect.breakdown.{seat}.{k}"), format!("no breakdown source `{k}`"))
                    .help(format!(
                        "a breakdown source is `earlier`, `bonus` (the `score` effect) or a scoring: {}",
                        scorings.join(", ")
                    )));
            }
        }
        for (i, name) in e.scored.iter().flatten().enumerate() {
            if !scorings.contains(&name.as_str()) {
                return Err(self
                    .err(&format!("expect.scored.{i}"), format!("no scoring `{name}`"))
                    .help(format!("scorings: {}", scorings.join(", "))));
            }
        }
        for (seat, m) in e.counts.iter().flatten().enumerate() {
            if let Some(k) = m.keys().find(|k| rs.lookup_type(k).is_none()) {
                return Err(self
                    .doc
                    .key_error(&format!("expect.counts.{seat}.{k}"), format!("no building type `{k}`"))
                    .help(help));
            }
        }
        for (seat, m) in e.counters.iter().flatten().enumerate() {
            if let Some(k) = m.keys().find(|k| rs.lookup_type(k).is_none()) {
                return Err(self
                    .doc
                    .key_error(&format!("expect.counters.{seat}.{k}"), format!("no building type `{k}`"))
                    .help(help));
            }
        }
        // Every id with where it is written: `expect.hands.1.0`, `expect.unclaimed.2`.
        let listed = |key: &str, ids: Option<&[String]>| -> Vec<(String, String)> {
            let ids = ids.unwrap_or_default().iter().enumerate();
            ids.map(|(i, id)| (id.clone(), format!("expect.{key}.{i}"))).collect()
        };
        let per_seat = |key: &str, seats: &Option<Vec<Vec<String>>>| -> Vec<(String, String)> {
            let seats = seats.iter().flatten().enumerate();
            seats.flat_map(|(seat, ids)| listed(&format!("{key}.{seat}"), Some(ids))).collect()
        };
        let mut buildings = per_seat("buildings", &e.buildings);
        buildings.extend(per_seat("reserve", &e.reserve));
        buildings.extend(listed("unclaimed", e.unclaimed.as_deref()));
        buildings
            .extend(listed("building_display", e.building_display.as_deref()).into_iter().filter(|(id, _)| id != "-"));
        for (id, path) in buildings {
            rs.lookup_building(&id).map_err(|why| self.err(&path, why).help(help))?;
        }
        let mut money = per_seat("hands", &e.hands);
        money.extend(listed("money_display", e.money_display.as_deref()));
        for (id, path) in money {
            rs.lookup_money(&id).map_err(|why| self.err(&path, why).help(help))?;
        }
        Ok(())
    }

    /// Sets up and plays the scenario's actions. An action that fails is an
    /// error, unless `[expect] error` awaits it: then the run stops there.
    pub fn play(&self, rs: Arc<Ruleset>) -> Result<Run, LoadError> {
        let mut game = self.setup(rs)?;
        let awaits_error = self.file.expect.as_ref().is_some_and(|e| e.error.is_some());
        for (i, action) in self.file.actions.iter().enumerate() {
            if let Err(e) = game.apply_text(action) {
                if awaits_error {
                    return Ok(Run { game, error: Some((i, e.to_string())) });
                }
                let path = format!("actions.{i}");
                return Err(match e {
                    GameError::Script(se) => LoadError::from(*se),
                    e => self.err(&path, format!("action {} `{action}`: {e}", i + 1)),
                });
            }
        }
        Ok(Run { game, error: None })
    }

    /// Checks `[expect]` against a run; returns the failures.
    pub fn check(&self, run: &Run) -> Vec<String> {
        let Some(e) = &self.file.expect else { return Vec::new() };
        let game = &run.game;
        let mut fails = Vec::new();
        let Ok(()) = engine_game::scenario::check(&e.common(), &Reported(game), &mut fails);
        check_own(e, game, &mut fails);
        engine_game::scenario::check_error(&e.common(), run.error.as_ref(), self.file.actions.len(), &mut fails);
        if game.census() != game.census_expected() {
            fails.push("census: a card is missing or doubled".into());
        }
        fails
    }
}

/// A game as `[expect]`'s keys every game has read it.
struct Reported<'a>(&'a Game);

impl engine_game::scenario::Report for Reported<'_> {
    type Error = std::convert::Infallible;

    fn scores(&self) -> Result<Vec<engine_game::Score>, Self::Error> {
        Ok(self.0.scores())
    }

    fn hands(&self) -> Vec<Vec<String>> {
        let rs = self.0.rules();
        (0..self.0.num_players()).map(|s| self.0.player(s).hand().iter().map(|&m| rs.money_id(m)).collect()).collect()
    }

    fn holdings(&self) -> Vec<Vec<String>> {
        let rs = self.0.rules();
        let ids = |bs: &[BuildingIdx]| bs.iter().map(|&b| rs.building(b).id.clone()).collect();
        (0..self.0.num_players()).map(|s| ids(&self.0.player(s).buildings)).collect()
    }

    fn winners(&self) -> Result<Vec<usize>, Self::Error> {
        Ok(self.0.winners())
    }

    fn over(&self) -> bool {
        self.0.is_over()
    }

    fn pending(&self) -> Option<(String, usize)> {
        self.0.pending().map(|d| (d.name().to_owned(), d.seat()))
    }

    fn legal(&self) -> Vec<String> {
        self.0.legal_actions().iter().map(|a| a.text(self.0.rules())).collect()
    }

    fn deck_size(&self) -> usize {
        self.0.deck_size()
    }

    fn discard_size(&self) -> usize {
        self.0.discard().len()
    }

    /// A round is one turn of every player.
    fn round(&self) -> u32 {
        engine_game::Game::rounds(self.0)
    }
}

/// The `[expect]` entries only Alhambra has: the neutral collector, buildings
/// per type, the displays, scorings, unclaimed buildings, the start player and
/// the building deck.
fn check_own(e: &Expect, game: &Game, fails: &mut Vec<String>) {
    let rs = Arc::clone(game.rules());
    let mut eq = |what: &str, want: String, got: String| {
        if want != got {
            fails.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    let ids = |bs: &[BuildingIdx]| bs.iter().map(|&b| rs.building(b).id.clone()).collect::<Vec<_>>();
    if let Some(want) = e.neutral_score {
        let got = game.neutral_score().map_or("no neutral collector".to_owned(), |s| s.total.to_string());
        eq("neutral score", want.to_string(), got);
    }
    for (seat, want) in e.counts.iter().flatten().enumerate().take(game.num_players()) {
        let counts = &game.player(seat).counts;
        let got: BTreeMap<String, u8> = rs
            .types
            .iter()
            .zip(counts)
            .filter(|(t, c)| **c > 0 || want.contains_key(&t.id))
            .map(|(t, c)| (t.id.clone(), *c))
            .collect();
        eq(&format!("seat {seat} buildings per type"), format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = e.neutral_buildings {
        eq("neutral buildings", want.to_string(), game.neutral().map_or(0, |p| p.buildings.len()).to_string());
    }
    if let Some(want) = &e.money_display {
        let got: Vec<String> = game.money_display().iter().map(|&m| rs.money_id(m)).collect();
        eq("money display", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = &e.building_display {
        let got: Vec<String> =
            game.building_display().iter().map(|b| b.map_or("-".to_owned(), |b| rs.building(b).id.clone())).collect();
        eq("building display", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = &e.scored {
        eq("scored", format!("{want:?}"), format!("{:?}", game.scored()));
    }
    if let Some(want) = &e.unclaimed {
        eq("unclaimed", format!("{want:?}"), format!("{:?}", ids(game.unclaimed())));
    }
    for (seat, want) in e.reserve.iter().flatten().enumerate().take(game.num_players()) {
        eq(&format!("seat {seat} reserve"), format!("{want:?}"), format!("{:?}", ids(game.reserve(seat))));
    }
    if let Some(want) = e.start_player {
        eq("start player", want.to_string(), game.start_player().to_string());
    }
    if let Some(want) = e.building_deck_size {
        eq("building deck size", want.to_string(), game.building_deck_size().to_string());
    }
    for (seat, want) in e.counters.iter().flatten().enumerate().take(game.num_players()) {
        let p = game.player(seat);
        let got: BTreeMap<String, i32> = rs
            .types
            .iter()
            .zip(&p.counters)
            .filter(|(t, c)| **c != 0 || want.contains_key(&t.id))
            .map(|(t, c)| (t.id.clone(), *c))
            .collect();
        eq(&format!("seat {seat} counters"), format!("{want:?}"), format!("{got:?}"));
    }
    for (seat, want) in e.player_counters.iter().flatten().enumerate().take(game.num_players()) {
        let p = game.player(seat);
        let got: BTreeMap<String, i32> = p
            .player_counters
            .iter()
            .filter(|(k, v)| **v != 0 || want.contains_key(*k))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        eq(&format!("seat {seat} player counters"), format!("{want:?}"), format!("{got:?}"));
    }
}
