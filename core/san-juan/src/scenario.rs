//! Scenarios: a TOML file that sets up a position and plays actions from it.
//! The snapshot tests, `sanjuan scenario` and `sanjuan score` all read this
//! one format (docs/scenarios.md).

use std::collections::BTreeMap;
use std::sync::Arc;

use engine_game::scenario::Expected;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cards::{CardIdx, Kind};
use crate::error::{GameError, LoadError};
use crate::game::{Covered, Game, Player, Slot};
use crate::rng;
use crate::ruleset::Ruleset;

engine_game::scenario_seat! {
    /// One seat of a scenario.
    pub struct PlayerSpec {
        /// Buildings in play, in the order built.
        pub buildings: Vec<String>,
        /// Buildings that carry a good (one entry per good).
        pub goods: Vec<String>,
        /// Hand cards.
        pub hand: Vec<String>,
        /// Cards set aside face up (a reserve zone, out of the hand), in the order reserved.
        pub reserve: Vec<String>,
        /// Number of cards under a building (chapel, bank, harbor).
        pub under: BTreeMap<String, usize>,
        /// Buildings covered by a building in play: `{ palace = ["chapel"] }`.
        pub covered: BTreeMap<String, Vec<String>>,
        /// The counter of a building (its first copy in play): `{ granary = 3 }`.
        pub counters: BTreeMap<String, i32>,
        /// The player's named counters (a script's `player_counter` effect): `{ toll = 2 }`.
        pub player_counters: BTreeMap<String, i32>,
        /// The round a building in play (its first copy) was built: `{ library = 3 }` (0, the default: before the game).
        pub built: BTreeMap<String, u32>,
    }
}

engine_game::scenario_expect! {
    /// What `sanjuan scenario --check` verifies after the actions: the keys
    /// every game has, and these.
    pub struct Expect {
        /// Buildings with a good per seat.
        pub goods: Option<Vec<Vec<String>>>,
        /// Cards under buildings per seat.
        pub under: Option<Vec<BTreeMap<String, usize>>>,
        /// The top cards of the draw pile, top first (only as many as given).
        pub deck_top: Option<Vec<String>>,
        /// Building counters per seat that are not 0, by building id.
        pub counters: Option<Vec<BTreeMap<String, i32>>>,
        /// The players' named counters per seat.
        pub player_counters: Option<Vec<BTreeMap<String, i32>>>,
        /// The cards in each seat's reserve, in the order reserved.
        pub reserve: Option<Vec<Vec<String>>>,
    }
}

engine_game::scenario_file! {
    /// The scenario file: the head every game has, and the position.
    pub struct ScenarioFile {
        /// Seat holding the governor card.
        pub governor: usize,
        /// Round number (round 1 has no round-start effects).
        pub round: Option<u32>,
        /// Run the start-of-round effects (chapel, hand limit, …) before the first role.
        pub round_start: bool,
        /// Top of the trading tile stack, as price lists.
        pub trading_tiles: Vec<Vec<i32>>,
        /// Top of the draw pile, top first.
        pub deck: Vec<String>,
        /// Cards in the discard pile.
        pub discard: Vec<String>,
    }
    players: PlayerSpec, expect: Expect,
    scenario: Scenario of Game, runs to Game,
    help: "the scenario format is in docs/scenarios.md",
}

impl Scenario {
    /// The position `[from_game]` reaches by play; a position written beside it would be ignored, so it is refused.
    fn played_to(&self, from: &engine_game::saved::FromGame, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
        const POSITION: &[&str] =
            &["governor", "round", "round_start", "deck", "discard", "trading_tiles", "players", "seed"];
        self.check_expect(&rs)?;
        from.play_in::<Game>(&self.doc, POSITION, rs)
    }

    /// The position the scenario sets up, before its actions: the face-up
    /// cards where written (buildings, hands, the top of the deck, the discard
    /// pile), then the face-down ones (goods, cards under buildings) from the
    /// shuffled rest, then the trading tiles.
    pub fn setup(&self, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
        let f = &self.file;
        if let Some(from) = &f.from_game {
            return self.played_to(from, rs);
        }
        let n = f.players.len();
        let rules = &rs.rules;
        if n < rules.min_players || n > rules.max_players {
            return Err(self.err(
                "players",
                format!("{n} players; ruleset `{}` is for {} to {}", rs.id, rules.min_players, rules.max_players),
            ));
        }
        if f.governor >= n {
            return Err(self.err("governor", format!("governor {} is not a seat (seats 0 to {})", f.governor, n - 1)));
        }
        if let Some(round) = f.round
            && !(1..=rules.max_rounds).contains(&round)
        {
            return Err(self
                .err("round", format!("round {round}: rounds count from 1 to max_rounds ({})", rules.max_rounds))
                .help("leave `round` out for the first round"));
        }
        self.check_expect(&rs)?;
        let mut game = Game::empty(Arc::clone(&rs), n, ChaCha8Rng::seed_from_u64(f.seed));
        game.governor = f.governor;
        game.round = f.round.unwrap_or(1);
        let mut pool = game.all_deck_cards();
        let top = self.place_face_up(&rs, &mut game, &mut pool)?;
        rng::shuffle(&mut game.rng, &mut pool);
        self.place_face_down(&rs, &mut game, &mut pool)?;
        game.deck = pool;
        game.deck.extend(top.iter().rev());
        game.tiles = self.trading_tiles(&rs, &mut game)?.into();
        game.refresh_hook_masks();
        game.start_round(!f.round_start);
        if f.round_start {
            game.hear_new_round().map_err(|e| self.err("round_start", format!("starting the round: {e}")))?;
        }
        game.advance().map_err(|e| self.err("players", format!("setting up: {e}")))?;
        Ok(game)
    }

    /// The card `id`, or an error at `path`.
    fn lookup(&self, rs: &Ruleset, id: &str, path: &str) -> Result<CardIdx, LoadError> {
        rs.cards.lookup(id).map_err(|e| {
            self.err(path, e).help("card ids are the snake_case ids of the card files; `sanjuan cards` lists them")
        })
    }

    /// Takes a copy of `c` out of the deck cards (`pool`) or the public cards.
    fn take(
        &self,
        pool: &mut Vec<CardIdx>,
        game: &mut Game,
        c: CardIdx,
        what: &str,
        path: &str,
    ) -> Result<(), LoadError> {
        if let Some(i) = pool.iter().position(|&x| x == c) {
            pool.swap_remove(i);
            return Ok(());
        }
        if let Some(i) = game.public.iter().position(|&x| x == c) {
            game.public.swap_remove(i);
            return Ok(());
        }
        let cards = &game.rs.cards;
        let id = cards.id(c);
        Err(self
            .err(path, format!("{what}: no copy of `{id}` is left (the ruleset has {})", cards.get(c).copies))
            .help("every card is in exactly one place; place at most as many copies as the deck holds"))
    }

    /// The face-up cards: each seat's buildings (and what they cover) and hand,
    /// the discard pile; returns the cards written on top of the deck, top first.
    fn place_face_up(&self, rs: &Ruleset, game: &mut Game, pool: &mut Vec<CardIdx>) -> Result<Vec<CardIdx>, LoadError> {
        let f = &self.file;
        let (rules, cards) = (&rs.rules, &rs.cards);
        for (seat, p) in f.players.iter().enumerate() {
            for (i, b) in p.buildings.iter().enumerate() {
                let path = format!("players.{seat}.buildings.{i}");
                let c = self.lookup(rs, b, &path)?;
                if rules.unique_city_buildings && cards.get(c).kind == Kind::City && game.players[seat].owns(c) {
                    return Err(self
                        .err(&path, format!("seat {seat} has `{b}` twice; a city building may be built only once"))
                        .help("the ruleset's unique_city_buildings allows one of each city building per player"));
                }
                self.take(pool, game, c, &format!("seat {seat} buildings"), &path)?;
                game.players[seat].city.push(Slot::new(c, true));
            }
            for (top, below) in &p.covered {
                let base = format!("players.{seat}.covered.{top}");
                let t = self.lookup(rs, top, &base)?;
                let Some(slot) = game.players[seat].city.iter().position(|s| s.card == t) else {
                    return Err(self.doc.key_error(
                        &base,
                        format!("seat {seat}: `{top}` covers buildings but is not among its buildings"),
                    ));
                };
                for (i, b) in below.iter().enumerate() {
                    let path = format!("{base}.{i}");
                    let c = self.lookup(rs, b, &path)?;
                    self.take(pool, game, c, &format!("seat {seat} covered"), &path)?;
                    game.players[seat].city[slot].covered.push(Covered { card: c, built_round: 0, counter: 0 });
                }
            }
            for (i, h) in p.hand.iter().enumerate() {
                let path = format!("players.{seat}.hand.{i}");
                let c = self.lookup(rs, h, &path)?;
                self.take(pool, game, c, &format!("seat {seat} hand"), &path)?;
                game.players[seat].hand.push(c);
            }
            for (i, r) in p.reserve.iter().enumerate() {
                let path = format!("players.{seat}.reserve.{i}");
                let c = self.lookup(rs, r, &path)?;
                self.take(pool, game, c, &format!("seat {seat} reserve"), &path)?;
                game.players[seat].reserve.push(c);
            }
        }
        let mut top = Vec::new();
        for (i, d) in f.deck.iter().enumerate() {
            let path = format!("deck.{i}");
            let c = self.lookup(rs, d, &path)?;
            self.take(pool, game, c, "deck", &path)?;
            top.push(c);
        }
        for (i, d) in f.discard.iter().enumerate() {
            let path = format!("discard.{i}");
            let c = self.lookup(rs, d, &path)?;
            self.take(pool, game, c, "discard", &path)?;
            game.discard.push(c);
        }
        Ok(top)
    }

    /// The face-down cards, from the shuffled cards left: goods, cards under buildings; and the counters.
    fn place_face_down(&self, rs: &Ruleset, game: &mut Game, pool: &mut Vec<CardIdx>) -> Result<(), LoadError> {
        let f = &self.file;
        // Goods and cards under buildings are face down: any unplaced cards will do.
        for (seat, p) in f.players.iter().enumerate() {
            for (i, g) in p.goods.iter().enumerate() {
                let path = format!("players.{seat}.goods.{i}");
                let c = self.lookup(rs, g, &path)?;
                let Some(slot) = game.players[seat]
                    .city
                    .iter()
                    .position(|s| s.card == c && s.good.is_none() && (rs.cards.get(s.card).holds_good))
                else {
                    return Err(self.err(&path, format!("seat {seat}: no empty `{g}` to put a good on")).help("list the building in `buildings` once per good; only production buildings (and cards with holds_good) carry goods"));
                };
                let good = pool.pop().ok_or_else(|| self.err(&path, "no cards left for goods"))?;
                game.players[seat].city[slot].good = Some(good);
            }
            for (b, &count) in &p.under {
                let path = format!("players.{seat}.under.{b}");
                let c = self.lookup(rs, b, &path)?;
                let Some(slot) =
                    game.players[seat].city.iter().position(|s| s.card == c || s.covered_cards().any(|x| x == c))
                else {
                    return Err(self.err(&path, format!("seat {seat}: cards under `{b}`, which is not built")));
                };
                for _ in 0..count {
                    let card = pool.pop().ok_or_else(|| self.err(&path, "no cards left to put under buildings"))?;
                    game.players[seat].city[slot].under.push(card);
                }
                game.players[seat].city[slot].under_from = Some(c);
            }
            for (b, &value) in &p.counters {
                let path = format!("players.{seat}.counters.{b}");
                let c = self.lookup(rs, b, &path)?;
                let Some(slot) = game.players[seat].city.iter().position(|s| s.card == c) else {
                    return Err(self.err(&path, format!("seat {seat}: a counter on `{b}`, which is not built")));
                };
                game.players[seat].city[slot].counter = value;
            }
            for (b, &round) in &p.built {
                let path = format!("players.{seat}.built.{b}");
                let c = self.lookup(rs, b, &path)?;
                let Some(slot) = game.players[seat].city.iter().position(|s| s.card == c) else {
                    return Err(
                        self.err(&path, format!("seat {seat}: `{b}` was built when? It is not in its buildings"))
                    );
                };
                if round > game.round {
                    return Err(self
                        .err(&path, format!("round {round} is after this scenario's round {}", game.round))
                        .help("a building in play was built in this round or before"));
                }
                game.players[seat].city[slot].built_round = round;
            }
            for (name, &value) in &p.player_counters {
                let path = format!("players.{seat}.player_counters.{name}");
                if name.is_empty() || name.len() > 40 {
                    return Err(self.err(&path, "a counter's name has 1 to 40 characters, as a script writes it"));
                }
                std::sync::Arc::make_mut(&mut game.players[seat].counters).push((name.as_str().into(), value));
            }
        }
        Ok(())
    }

    /// The trading tiles: those written on top in order, the rest shuffled.
    fn trading_tiles(&self, rs: &Ruleset, game: &mut Game) -> Result<Vec<usize>, LoadError> {
        let rules = &rs.rules;
        let f = &self.file;
        let mut tiles: Vec<usize> = (0..rules.trading_tiles.len()).collect();
        rng::shuffle(&mut game.rng, &mut tiles);
        for (k, t) in f.trading_tiles.iter().enumerate() {
            // Only tiles not yet placed on top: a tile listed twice, or more tiles than the
            // ruleset has, is an error rather than an insertion past the end.
            let unplaced = tiles.get(k..).unwrap_or_default();
            let Some(i) = unplaced.iter().position(|&i| &rules.trading_tiles[i] == t).map(|i| i + k) else {
                return Err(self
                    .err(
                        &format!("trading_tiles.{k}"),
                        format!("trading tile {t:?} is not one of the ruleset's {} tiles, or is listed more often than the ruleset has it", rules.trading_tiles.len()),
                    )
                    .help(format!("tiles: {:?}", rules.trading_tiles)));
            };
            let tile = tiles.remove(i);
            tiles.insert(k, tile);
        }
        Ok(tiles)
    }

    /// Refuses an `[expect]` entry that could never fail or never pass: an
    /// action that is not well-formed, a card id the ruleset lacks, a breakdown
    /// source that is neither `buildings` nor a card.
    fn check_expect(&self, rs: &Ruleset) -> Result<(), LoadError> {
        let Some(e) = &self.file.expect else { return Ok(()) };
        let cards = &rs.cards;
        let help = "an [expect] entry that names what cannot exist can never fail; docs/scenarios.md lists the keys";
        let lists = [("legal", &e.legal), ("legal_includes", &e.legal_includes), ("legal_excludes", &e.legal_excludes)];
        for (key, list) in lists {
            for (i, a) in list.iter().flatten().enumerate() {
                // A script's options (`choose sell`) are words it offers while the game runs.
                let option = a.strip_prefix("choose ").is_some_and(|w| {
                    w.split_whitespace()
                        .all(|w| w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
                        && !w.trim().is_empty()
                });
                if let (false, Err(why)) = (option, crate::actions::parse_line(a, cards)) {
                    return Err(self
                        .err(&format!("expect.{key}.{i}"), format!("`{a}` is not an action: {why}"))
                        .help(help));
                }
            }
        }
        let card = |id: &str, path: String| -> Result<(), LoadError> {
            cards.lookup(id).map(|_| ()).map_err(|why| self.err(&path, why).help(help))
        };
        let key_card = |id: &str, path: String| -> Result<(), LoadError> {
            cards.lookup(id).map(|_| ()).map_err(|why| self.doc.key_error(&path, why).help(help))
        };
        for (seat, m) in e.breakdown.iter().flatten().enumerate() {
            for k in m.keys().filter(|k| *k != "buildings") {
                cards.lookup(k).map_err(|why| {
                    self.doc
                        .key_error(&format!("expect.breakdown.{seat}.{k}"), format!("no breakdown source `{k}`: {why}"))
                        .help("a breakdown source is `buildings` or the id of a card that scores")
                })?;
            }
        }
        let seat_lists =
            [("hands", &e.hands), ("buildings", &e.buildings), ("goods", &e.goods), ("reserve", &e.reserve)];
        for (key, lists) in seat_lists {
            for (seat, ids) in lists.iter().flatten().enumerate() {
                for (i, id) in ids.iter().enumerate() {
                    card(id, format!("expect.{key}.{seat}.{i}"))?;
                }
            }
        }
        for (i, id) in e.deck_top.iter().flatten().enumerate() {
            card(id, format!("expect.deck_top.{i}"))?;
        }
        for (seat, m) in e.under.iter().flatten().enumerate() {
            for k in m.keys() {
                key_card(k, format!("expect.under.{seat}.{k}"))?;
            }
        }
        for (seat, m) in e.counters.iter().flatten().enumerate() {
            for k in m.keys() {
                key_card(k, format!("expect.counters.{seat}.{k}"))?;
            }
        }
        Ok(())
    }

    /// Sets up and plays the scenario's actions.
    pub fn play(&self, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
        self.play_to_error(rs).map(|(game, _)| game)
    }

    /// Sets up and plays the scenario's actions. An action that fails is an
    /// error, unless `[expect] error` awaits one: then the run stops there, and
    /// the game before it comes back with the action's index and error.
    pub fn play_to_error(&self, rs: Arc<Ruleset>) -> Result<(Game, Option<(usize, String)>), LoadError> {
        let mut game = self.setup(rs)?;
        let awaits_error = self.file.expect.as_ref().is_some_and(|e| e.error.is_some());
        for (i, action) in self.file.actions.iter().enumerate() {
            if awaits_error {
                // A refused action changes nothing, so the game is the position before it.
                let mut tried = game.clone();
                match tried.apply_text(action) {
                    Ok(_) => game = tried,
                    Err(e) => return Ok((game, Some((i, e.to_string())))),
                }
                continue;
            }
            game.apply_text(action).map_err(|e| {
                let path = format!("actions.{i}");
                let at = self.err(&path, "");
                match e {
                    // The script is where the problem is; the action is what ran it.
                    crate::error::GameError::Script(se) => {
                        let mut err = LoadError::from(*se);
                        err.message = format!("action {} `{action}`: {}", i + 1, err.message);
                        err.help(format!("the action is at {}:{}:{}", at.file, at.pos.line, at.pos.col))
                    }
                    e => self.err(&path, format!("action {} `{action}`: {e}", i + 1)).help(
                        "each action answers the pending decision; `sanjuan scenario FILE --json` shows it with the legal actions",
                    ),
                }
            })?;
        }
        Ok((game, None))
    }

    /// Checks `[expect]` against a game; returns the failures.
    pub fn check(&self, game: &Game) -> Result<Vec<String>, crate::error::GameError> {
        self.check_run(game, None)
    }

    /// Checks `[expect]` against a game a run stopped at, with the action
    /// that failed and its error (`None`: every action passed).
    pub fn check_run(
        &self,
        game: &Game,
        error: Option<&(usize, String)>,
    ) -> Result<Vec<String>, crate::error::GameError> {
        let Some(e) = &self.file.expect else { return Ok(Vec::new()) };
        let mut fails = Vec::new();
        engine_game::scenario::check(&e.common(), &Reported(game), &mut fails)?;
        check_own(e, game, &mut fails);
        engine_game::scenario::check_error(&e.common(), error, self.file.actions.len(), &mut fails);
        Ok(fails)
    }
}

/// A game as `[expect]`'s keys every game has read it.
struct Reported<'a>(&'a Game);

impl engine_game::scenario::Report for Reported<'_> {
    type Error = crate::error::GameError;

    fn scores(&self) -> Result<Vec<engine_game::Score>, GameError> {
        self.0.scores()
    }

    fn hands(&self) -> Vec<Vec<String>> {
        let cards = &self.0.rs.cards;
        self.0.players.iter().map(|p| p.hand.iter().map(|&c| cards.id(c).to_owned()).collect()).collect()
    }

    fn holdings(&self) -> Vec<Vec<String>> {
        let cards = &self.0.rs.cards;
        self.0.players.iter().map(|p| p.city.iter().map(|x| cards.id(x.card).to_owned()).collect()).collect()
    }

    fn winners(&self) -> Result<Vec<usize>, GameError> {
        self.0.winners()
    }

    fn over(&self) -> bool {
        self.0.is_over()
    }

    fn pending(&self) -> Option<(String, usize)> {
        self.0.pending().map(|d| (d.name().to_owned(), d.seat()))
    }

    fn legal(&self) -> Vec<String> {
        self.0.legal_actions().iter().map(|a| a.text(&self.0.rs.cards)).collect()
    }

    fn deck_size(&self) -> usize {
        self.0.deck_size()
    }

    fn discard_size(&self) -> usize {
        self.0.discard_size()
    }

    fn round(&self) -> u32 {
        self.0.round()
    }
}

/// The `[expect]` entries only San Juan has: goods, cards under buildings, the
/// top of the deck and the counters.
fn check_own(e: &Expect, game: &Game, fails: &mut Vec<String>) {
    let cards = &game.rs.cards;
    let mut eq = |what: &str, want: String, got: String| {
        if want != got {
            fails.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    let per_seat = |f: &dyn Fn(&Player) -> String| game.players.iter().map(f).collect::<Vec<_>>();
    if let Some(want) = &e.goods {
        let got: Vec<Vec<&str>> = game
            .players
            .iter()
            .map(|p| p.city.iter().filter(|x| x.good.is_some()).map(|x| cards.id(x.card)).collect())
            .collect();
        eq("goods", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = &e.under {
        let got = per_seat(&|p| {
            let mut m: BTreeMap<String, usize> = BTreeMap::new();
            for x in &p.city {
                if let Some(f) = x.under_from {
                    *m.entry(cards.id(f).to_owned()).or_default() += x.under.len();
                }
            }
            format!("{m:?}")
        });
        eq("under", seats(&maps(want)), seats(&got));
    }
    if let Some(want) = &e.deck_top {
        let got: Vec<&str> = game.deck.iter().rev().take(want.len()).map(|&c| cards.id(c)).collect();
        eq("deck top", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = &e.counters {
        let got = per_seat(&|p| {
            let m: BTreeMap<&str, i32> =
                p.city.iter().filter(|x| x.counter != 0).map(|x| (cards.id(x.card), x.counter)).collect();
            format!("{m:?}")
        });
        eq("counters", seats(&maps(want)), seats(&got));
    }
    if let Some(want) = &e.reserve {
        let got: Vec<Vec<&str>> =
            game.players.iter().map(|p| p.reserve.iter().map(|&c| cards.id(c)).collect()).collect();
        eq("reserve", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = &e.player_counters {
        let got = per_seat(&|p| {
            let m: BTreeMap<&str, i32> = p.counters.iter().map(|(k, v)| (&**k, *v)).collect();
            format!("{m:?}")
        });
        eq("player counters", seats(&maps(want)), seats(&got));
    }
}

/// Maps per seat as `check_own` compares them, one `{…}` each.
fn maps<V: std::fmt::Debug>(want: &[BTreeMap<String, V>]) -> Vec<String> {
    want.iter().map(|m| format!("{m:?}")).collect()
}

/// A line of per-seat maps as a person reads them: `[{"cistern": 9}, {}]`, not escaped twice.
fn seats(maps: &[String]) -> String {
    format!("[{}]", maps.join(", "))
}
