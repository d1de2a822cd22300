//! The game state and the state machine that drives it.
//!
//! `Game::pending()` says who must decide what; `Game::apply()` validates an
//! action and advances until the next real decision. Work still to do in the
//! round sits in a queue of [`Step`]s; a step either runs by itself or sets a
//! pending [`Decision`]. Decisions with only one legal answer are answered
//! automatically, so a pending decision is always a real choice.

use std::collections::VecDeque;
use std::sync::Arc;

use smallvec::SmallVec;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

use crate::actions::{Action, Line, Role, parse_line};
use crate::cards::{CardIdx, Kind};
use crate::effects::{Grants, Origin, PickFrom, Queued};
use crate::error::GameError;
use crate::hooks::{self, Answer, Ctx, Hook, ScriptCtx};
use crate::rng;
use crate::ruleset::Ruleset;

/// Slots of a player's city that listen to a hook, in call order.
pub(crate) type Listeners = SmallVec<[usize; 8]>;

/// One building in a player's city: the top card and what lies on or under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The building in play.
    pub card: CardIdx,
    /// Buildings covered by it (crane), out of play.
    pub covered: Vec<CardIdx>,
    /// The good on it: a face-down card.
    pub good: Option<CardIdx>,
    /// Cards under it (chapel, bank, harbor); they stay when it is covered.
    pub under: Vec<CardIdx>,
    /// The building that collected `under` (scores `under_vp` each).
    pub under_from: Option<CardIdx>,
    /// False during the builder phase in which it was built.
    pub active: bool,
    /// How often its offer was taken (a bank's once per game).
    pub uses: u32,
    /// The round in which the top card was built (0: at setup or placed by a scenario).
    pub built_round: u32,
    /// The building's counter, changed by its script's `counter` effect.
    pub counter: i32,
}

impl Slot {
    /// A freshly built (or scenario-placed) building.
    pub fn new(card: CardIdx, active: bool) -> Self {
        Slot {
            card,
            covered: Vec::new(),
            good: None,
            under: Vec::new(),
            under_from: None,
            active,
            uses: 0,
            built_round: 0,
            counter: 0,
        }
    }
}

/// One seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Cards in hand.
    pub hand: Vec<CardIdx>,
    /// Buildings in play, in the order built.
    pub city: Vec<Slot>,
    /// A once-per-round privilege boost was used this round.
    pub boost_used: bool,
    /// The roles chosen this game, a bit per role.
    pub roles_chosen: u8,
    /// Named counters, changed by the `player_counter` effect.
    pub counters: Arc<Vec<(Arc<str>, i32)>>,
    /// One-off grants for the current phase.
    pub grants: Grants,
}

impl Player {
    /// Goods on this player's buildings.
    pub fn goods(&self) -> usize {
        self.city.iter().filter(|s| s.good.is_some()).count()
    }

    /// True if a building of this type is in play.
    pub fn owns(&self, card: CardIdx) -> bool {
        self.city.iter().any(|s| s.card == card)
    }
}

/// Why a player discards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardReason {
    /// Hand limit at round start.
    HandLimit,
    /// Councillor phase with cards taken into the hand first (archive).
    Council,
    /// Setup variant: back down to the start hand.
    Setup,
    /// A building's `discard` effect.
    Building(CardIdx),
}

/// A building the player may build now, with its cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOption {
    /// The card to build.
    pub card: CardIdx,
    /// The slot it would cover.
    pub over: Option<usize>,
    /// Cards to pay after all discounts.
    pub cost: i32,
    /// Goods that may pay part of the cost.
    pub goods_as_cards: i32,
}

/// The buildings a player may build in one turn. A `Vec`, not inline: a
/// decision is moved several times per action, and copying inline options
/// cost more than the allocation (callgrind, 500 games: 810M -> 784M).
pub type BuildOptions = Vec<BuildOption>;

/// What the player at `seat` must decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Choose a role.
    Role {
        /// Who chooses.
        seat: usize,
        /// The privilege factor a boost would give (1 = none).
        boost: i32,
        /// The boost is once per round, so declining it is a real choice.
        optional_boost: bool,
    },
    /// Build one building, or pass.
    Build {
        /// Who builds.
        seat: usize,
        /// What can be built and for how much.
        options: BuildOptions,
    },
    /// Pay the rest of a building cost.
    Pay {
        /// Who pays.
        seat: usize,
        /// The building being built.
        card: CardIdx,
        /// The slot being covered.
        over: Option<usize>,
        /// Cards still to pay.
        remaining: i32,
        /// Goods that may still pay.
        goods_left: i32,
        /// Cards paid so far.
        paid: i32,
    },
    /// Produce goods, one at a time.
    Produce {
        /// Who produces.
        seat: usize,
        /// Goods still allowed.
        left: i32,
        /// Goods produced so far.
        done: i32,
    },
    /// Sell goods, one at a time.
    Sell {
        /// Who sells.
        seat: usize,
        /// Sales still allowed.
        left: i32,
        /// Goods sold so far.
        done: i32,
    },
    /// Keep cards from those drawn (councillor), one at a time.
    Keep {
        /// Who keeps.
        seat: usize,
        /// Cards still to keep.
        left: usize,
    },
    /// Discard hand cards, one at a time.
    Discard {
        /// Who discards.
        seat: usize,
        /// Cards still to discard.
        left: usize,
        /// Why.
        reason: DiscardReason,
    },
    /// Keep one of the revealed cards that may be kept, or pass.
    Reveal {
        /// Who reveals.
        seat: usize,
        /// The building that revealed them.
        slot: usize,
        /// Cards that may be kept.
        keepable: Vec<CardIdx>,
    },
    /// Put hand cards under a building (chapel, bank), or stop.
    Tuck {
        /// Whose building.
        seat: usize,
        /// The building.
        slot: usize,
        /// Cards still allowed.
        left: usize,
        /// Cards tucked so far.
        done: usize,
    },
    /// Discard up to `left` hand cards, then draw as many (office building).
    Exchange {
        /// Who exchanges.
        seat: usize,
        /// Cards still allowed.
        left: usize,
        /// Cards discarded so far.
        done: usize,
    },
    /// Choose one of a script's named options (`choose`).
    Choose {
        /// Who chooses.
        seat: usize,
        /// The seat of the building that asks (small: a decision is moved often).
        owner: u16,
        /// The building that asks.
        slot: u16,
        /// The options (see [`crate::cards::CardTable::word_name`]).
        options: Box<[u16]>,
    },
    /// Choose cards for a script (`choose_cards`), one at a time.
    Pick {
        /// Who chooses.
        seat: usize,
        /// The seat of the building that asks.
        owner: u16,
        /// The building that asks.
        slot: u16,
        /// Where the cards come from.
        from: PickFrom,
        /// Cards still to choose.
        left: usize,
        /// Cards chosen so far.
        picked: Box<[CardIdx]>,
    },
    /// Give hand cards of one's choice to another seat, one at a time.
    Give {
        /// Who gives.
        seat: usize,
        /// Who receives.
        to: usize,
        /// Cards still to give.
        left: usize,
        /// The building whose effect it is.
        cause: CardIdx,
    },
    /// Discard up to `left` of the cards looked at, or stop; the rest go back on top.
    Look {
        /// Who looks.
        seat: usize,
        /// The building that looks.
        slot: usize,
        /// Cards still allowed.
        left: usize,
    },
}

impl Decision {
    /// The seat that must act.
    pub fn seat(&self) -> usize {
        match *self {
            Decision::Role { seat, .. }
            | Decision::Build { seat, .. }
            | Decision::Pay { seat, .. }
            | Decision::Produce { seat, .. }
            | Decision::Sell { seat, .. }
            | Decision::Keep { seat, .. }
            | Decision::Discard { seat, .. }
            | Decision::Reveal { seat, .. }
            | Decision::Tuck { seat, .. }
            | Decision::Exchange { seat, .. }
            | Decision::Choose { seat, .. }
            | Decision::Pick { seat, .. }
            | Decision::Give { seat, .. }
            | Decision::Look { seat, .. } => seat,
        }
    }

    /// The decision's name in JSON and the terminal.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Role { .. } => "role",
            Decision::Build { .. } => "build",
            Decision::Pay { .. } => "pay",
            Decision::Produce { .. } => "produce",
            Decision::Sell { .. } => "sell",
            Decision::Keep { .. } => "keep",
            Decision::Discard { .. } => "discard",
            Decision::Reveal { .. } => "reveal",
            Decision::Tuck { .. } => "tuck",
            Decision::Exchange { .. } => "exchange",
            Decision::Choose { .. } => "choose",
            Decision::Pick { .. } => "choose_cards",
            Decision::Give { .. } => "give",
            Decision::Look { .. } => "look",
        }
    }
}

/// Work still to do, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A round-start offer of one building (chapel, bank, office building).
    Offer { seat: usize, slot: usize },
    /// Check one player's hand limit.
    HandLimit { seat: usize },
    /// Setup variant: discard back to the start hand.
    SetupDiscard { seat: usize },
    /// A player chooses a role.
    ChooseRole { seat: usize },
    /// Things that happen once when a phase starts.
    PhaseStart,
    /// One player's turn in the current phase.
    Turn { seat: usize },
    /// A building reveals cards in the prospector phase.
    Reveal { seat: usize, slot: usize },
    /// Things that happen once when a phase ends.
    PhaseEnd,
    /// The end of a round: its hooks.
    RoundEnd,
    /// The governor passes left; a new round begins.
    NewRound,
    /// The start of one player's turn: its buildings' `on_turn_start`.
    TurnStart { seat: usize },
    /// The game is over (after the effects of its end).
    Over,
}

/// The phase being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    /// Its role.
    pub role: Role,
    /// Who chose it.
    pub chooser: usize,
    /// The privilege factor (2 with a library).
    pub factor: i32,
}

/// "1 card", "3 cards".
pub(crate) fn n_cards(n: impl Into<i64>) -> String {
    count(n, "card")
}

/// "1 good", "3 goods": a number and a noun that takes an s.
pub(crate) fn count(n: impl Into<i64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Who may read an event's full text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Everyone at the table.
    Public,
    /// Only this seat: the text names cards the others cannot see (a hand card
    /// paid, discarded, kept or put under a building; the cards drawn).
    Seat(usize),
}

/// Something that happened, for logs and the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player it concerns, if any.
    pub seat: Option<usize>,
    /// The building whose effect caused it (the library that doubled a privilege,
    /// the well that gave a card), if any.
    pub cause: Option<CardIdx>,
    /// Who may read `text`.
    pub visibility: Visibility,
    /// What happened, in words with card ids, hidden cards included.
    pub text: String,
    /// What the seats that may not read `text` learn instead ("seat 2 keeps 1 card").
    pub public_text: Option<String>,
}

impl Event {
    /// The event as `seat` sees it: the public text in place of one that names
    /// cards hidden from `seat`; `None` if `seat` learns nothing from it.
    pub fn seen_by(&self, seat: usize) -> Option<Event> {
        match self.visibility {
            Visibility::Public => Some(self.clone()),
            Visibility::Seat(s) if s == seat => Some(self.clone()),
            Visibility::Seat(_) => self.public_text.as_ref().map(|text| Event {
                seat: self.seat,
                cause: self.cause,
                visibility: Visibility::Public,
                text: text.clone(),
                public_text: None,
            }),
        }
    }
}

/// No seat: a role nobody chose this round.
const NOBODY: u8 = u8::MAX;

/// A game of San Juan.
#[derive(Clone)]
pub struct Game {
    pub(crate) rs: Arc<Ruleset>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) players: Vec<Player>,
    /// Draw pile; the top card is the last element.
    pub(crate) deck: Vec<CardIdx>,
    pub(crate) discard: Vec<CardIdx>,
    /// Public cards anyone may build (the cathedral).
    pub(crate) public: Vec<CardIdx>,
    /// Cards drawn or revealed and not yet placed (councillor, gold mine, sold goods).
    pub(crate) limbo: Vec<CardIdx>,
    /// Trading tiles, top first.
    pub(crate) tiles: VecDeque<usize>,
    pub(crate) tile: Option<usize>,
    pub(crate) governor: usize,
    pub(crate) round: u32,
    /// Per role (in `Role::ALL` order): the seat that chose it this round, or `NOBODY`.
    pub(crate) chosen_by: [u8; 5],
    pub(crate) phase: Option<Phase>,
    pub(crate) phase_sold: i32,
    pub(crate) steps: VecDeque<Step>,
    pub(crate) pending: Option<Decision>,
    /// The legal answers to `pending`, worked out once per decision.
    pub(crate) legal: Vec<Action>,
    /// Cards paid automatically since the last build (a forced payment).
    pub(crate) auto_paid: Vec<CardIdx>,
    pub(crate) over: bool,
    pub(crate) stalled: bool,
    pub(crate) broken: Option<String>,
    pub(crate) log: Option<Vec<Event>>,
    /// Every action given to `apply`, when recording (saved games, undo).
    pub(crate) record: Option<Vec<Action>>,
    /// The re-deals among the recorded actions (undo), in order.
    pub(crate) redeals: Vec<engine_rules::saved::Redeal>,
    /// Per seat, a bit per hook some building in the city listens to (a quick "nobody").
    pub(crate) hook_mask: Vec<u64>,
    /// Every seat's `hook_mask` together: a quick "nobody at all".
    pub(crate) hook_union: u64,
    /// Effects waiting to be applied, in order (they run before the next step).
    pub(crate) effects: VecDeque<Queued>,
    pub(crate) actions_applied: u64,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("ruleset", &self.rs.id)
            .field("round", &self.round)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A new game: setup per the ruleset, governor chosen by the seed.
    pub fn new(rs: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        let rules = &rs.rules;
        if players < rules.min_players || players > rules.max_players {
            return Err(GameError::Setup(format!(
                "{players} players: ruleset `{}` is for {} to {} players",
                rs.id, rules.min_players, rules.max_players
            )));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let governor = rng::below(&mut rng, players);
        let mut game = Game::empty(rs, players, rng);
        game.governor = governor;
        let mut pool = game.all_deck_cards();
        for p in 0..players {
            for &b in &game.rs.start_buildings.clone() {
                // Loading checks the deck holds enough; never create a card.
                let Some(i) = pool.iter().position(|&c| c == b) else {
                    return Err(GameError::Setup(format!(
                        "the deck has too few `{}` for {players} players' start buildings",
                        game.rs.cards.id(b)
                    )));
                };
                pool.swap_remove(i);
                game.players[p].city.push(Slot::new(b, true));
            }
        }
        rng::shuffle(&mut game.rng, &mut pool);
        game.deck = pool;
        let mut tiles: Vec<usize> = (0..game.rs.rules.trading_tiles.len()).collect();
        rng::shuffle(&mut game.rng, &mut tiles);
        game.tiles = tiles.into();
        let variant = game.rs.rules.setup_variant;
        for k in 0..players {
            let seat = (governor + k) % players;
            let n = if variant { game.rs.rules.setup_variant_draws[k] } else { game.rs.rules.start_hand };
            game.draw_to_hand(seat, n as i32);
            if variant {
                game.steps.push_back(Step::SetupDiscard { seat });
            }
        }
        game.refresh_hook_masks();
        game.start_round(true);
        game.advance()?;
        Ok(game)
    }

    /// A game with no cards dealt; scenarios fill it in.
    pub(crate) fn empty(rs: Arc<Ruleset>, players: usize, rng: ChaCha8Rng) -> Game {
        let public = rs
            .cards
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| c.public)
            .flat_map(|(i, c)| std::iter::repeat_n(i as CardIdx, c.copies as usize))
            .collect();
        Game {
            rs,
            rng,
            players: vec![Player::default(); players],
            deck: Vec::new(),
            discard: Vec::new(),
            public,
            limbo: Vec::new(),
            tiles: VecDeque::new(),
            tile: None,
            governor: 0,
            round: 1,
            chosen_by: [NOBODY; 5],
            phase: None,
            phase_sold: 0,
            steps: VecDeque::new(),
            pending: None,
            legal: Vec::new(),
            auto_paid: Vec::new(),
            over: false,
            stalled: false,
            broken: None,
            log: None,
            record: None,
            redeals: Vec::new(),
            hook_mask: vec![0; players],
            hook_union: 0,
            effects: VecDeque::new(),
            actions_applied: 0,
        }
    }

    /// Every deck card (not public ones), one entry per copy.
    pub(crate) fn all_deck_cards(&self) -> Vec<CardIdx> {
        self.rs
            .cards
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.public)
            .flat_map(|(i, c)| std::iter::repeat_n(i as CardIdx, c.copies as usize))
            .collect()
    }

    /// Turns the event log on (off by default, for speed).
    pub fn log_events(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    /// Turns recording of the answered actions on (off by default, for speed):
    /// [`Game::recorded`] then replays this game from its seed with [`Game::apply_exact`].
    pub fn record_actions(&mut self, on: bool) {
        self.record = on.then(Vec::new);
        self.redeals.clear();
    }

    /// The actions answered since recording was turned on, one atomic action each
    /// (automatic answers to one-choice decisions are not included: replay makes them again).
    pub fn recorded(&self) -> &[Action] {
        self.record.as_deref().unwrap_or_default()
    }

    /// The number of entries a saved game of this game holds: the recorded
    /// actions and the re-deals among them.
    pub fn saved_len(&self) -> usize {
        self.recorded().len() + self.redeals.len()
    }

    /// Deals again, from `seed`, every card `seat` has not seen (the deck and
    /// discard order, the goods, the others' hands and the cards under their
    /// buildings), as [`Game::determinize`] does, and records it: what an undo
    /// does so that taking back a draw shows nothing of the face-down cards.
    pub fn redeal(&mut self, seat: usize, seed: u64) -> Result<(), GameError> {
        if seat >= self.players.len() {
            return Err(GameError::Setup(format!(
                "no seat {seat} to deal again for: the game has {}",
                self.players.len()
            )));
        }
        if self.over {
            return Err(GameError::Over);
        }
        let mut g = self.determinize(seat, seed);
        g.log = self.log.take();
        g.record = self.record.take();
        g.redeals.push(engine_rules::saved::Redeal { at: g.recorded().len(), seat, seed });
        *self = g;
        Ok(())
    }

    /// Events since the last call, hidden cards included (an observer's log);
    /// [`Event::seen_by`] gives what one seat sees of each.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Logs a public event that no building caused.
    pub(crate) fn event(&mut self, seat: Option<usize>, text: impl FnOnce(&Game) -> String) {
        self.log_event(seat, None, None, |g| (text(g), None));
    }

    /// Logs a public event caused by the building `cause` of `seat`.
    pub(crate) fn event_from(&mut self, seat: usize, cause: CardIdx, text: impl FnOnce(&Game) -> String) {
        self.log_event(Some(seat), Some(cause), None, |g| (text(g), None));
    }

    /// Logs an event whose text only `seat` may read; `texts` gives (that text, what the others learn).
    pub(crate) fn secret_event(
        &mut self,
        seat: usize,
        cause: Option<CardIdx>,
        texts: impl FnOnce(&Game) -> (String, String),
    ) {
        self.log_event(Some(seat), cause, Some(seat), |g| {
            let (private, public) = texts(g);
            (private, Some(public))
        });
    }

    pub(crate) fn log_event(
        &mut self,
        seat: Option<usize>,
        cause: Option<CardIdx>,
        only: Option<usize>,
        texts: impl FnOnce(&Game) -> (String, Option<String>),
    ) {
        if self.log.is_some() {
            let (text, public_text) = texts(self);
            let visibility = only.map_or(Visibility::Public, Visibility::Seat);
            if let Some(log) = &mut self.log {
                log.push(Event { seat, cause, visibility, text, public_text });
            }
        }
    }

    /// True while events are logged: work done only to describe an event checks this first.
    pub(crate) fn logging(&self) -> bool {
        self.log.is_some()
    }

    /// A building's name as a sentence names it: `gold mine`.
    pub(crate) fn name_of(&self, card: CardIdx) -> String {
        self.rs.cards.get(card).name.to_lowercase()
    }

    /// Card ids, comma-separated.
    pub(crate) fn ids(&self, cards: &[CardIdx]) -> String {
        cards.iter().map(|&c| self.rs.cards.id(c)).collect::<Vec<_>>().join(", ")
    }

    /// The ruleset this game is played with.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// A player's state.
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }

    /// The seat holding the governor card.
    pub fn governor(&self) -> usize {
        self.governor
    }

    /// Round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Cards in the draw pile.
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// Cards in the discard pile.
    pub fn discard_size(&self) -> usize {
        self.discard.len()
    }

    /// Public cards still on the table (the cathedral).
    pub fn public_cards(&self) -> &[CardIdx] {
        &self.public
    }

    /// Cards drawn or revealed that wait for a decision.
    pub fn limbo(&self) -> &[CardIdx] {
        &self.limbo
    }

    /// The face-up trading tile, if a trader phase is on.
    pub fn trading_tile(&self) -> Option<&[i32]> {
        self.tile.map(|t| self.rs.rules.trading_tiles[t].as_slice())
    }

    /// The face-up trading tile with good names: `indigo 1, sugar 1, tobacco 2, coffee 2, silver 3`.
    pub fn trading_tile_text(&self) -> Option<String> {
        let goods = &self.rs.rules.goods;
        let tile = self.trading_tile()?;
        Some(tile.iter().zip(goods).map(|(price, good)| format!("{good} {price}")).collect::<Vec<_>>().join(", "))
    }

    /// The current phase, if one is being played.
    pub fn phase(&self) -> Option<Phase> {
        self.phase
    }

    /// Roles already chosen this round.
    pub fn roles_taken(&self) -> Vec<Role> {
        Role::ALL.into_iter().filter(|&r| self.taken(r)).collect()
    }

    /// Whether `role` was chosen this round.
    fn taken(&self, role: Role) -> bool {
        self.chosen_by[role as usize] != NOBODY
    }

    /// Roles already chosen this round, each with the seat that chose it.
    pub fn roles_chosen_by(&self) -> Vec<(Role, usize)> {
        Role::ALL.into_iter().filter(|&r| self.taken(r)).map(|r| (r, self.chosen_by[r as usize] as usize)).collect()
    }

    /// The decision waiting for an answer; `None` once the game is over.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// How many copies of each card type are where: the count per type over the
    /// draw pile, discard pile, hands, buildings (top, covered, good, under),
    /// public cards and cards waiting for a decision. Equals the ruleset's copies
    /// at every point of a game.
    pub fn census(&self) -> Vec<u32> {
        let mut count = vec![0u32; self.rs.cards.len()];
        let mut add = |c: &CardIdx| count[*c as usize] += 1;
        self.deck.iter().chain(&self.discard).chain(&self.public).chain(&self.limbo).for_each(&mut add);
        for p in &self.players {
            p.hand.iter().for_each(&mut add);
            for s in &p.city {
                add(&s.card);
                s.covered.iter().chain(&s.under).chain(s.good.iter()).for_each(&mut add);
            }
        }
        count
    }

    /// A game consistent with what `seat` can see: the cards `seat` cannot see
    /// (other hands, the draw and discard piles, goods, cards under other
    /// players' buildings) are dealt again at random, in the same numbers, and
    /// the game's own random stream is replaced. Search bots play on these.
    pub fn determinize(&self, seat: usize, seed: u64) -> Game {
        let mut g = self.clone();
        g.log = None;
        g.record = None;
        g.rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<CardIdx> = Vec::with_capacity(g.deck.len() + g.discard.len() + 32);
        pool.extend_from_slice(&g.deck);
        pool.extend_from_slice(&g.discard);
        for (s, p) in g.players.iter().enumerate() {
            if s != seat {
                pool.extend_from_slice(&p.hand);
            }
            for slot in &p.city {
                pool.extend(slot.good);
                if s != seat {
                    pool.extend_from_slice(&slot.under);
                }
            }
        }
        rng::shuffle(&mut g.rng, &mut pool);
        let mut take = |n: usize| pool.split_off(pool.len() - n);
        let (deck, discard) = (g.deck.len(), g.discard.len());
        g.deck = take(deck);
        g.discard = take(discard);
        for (s, p) in g.players.iter_mut().enumerate() {
            if s != seat {
                let n = p.hand.len();
                p.hand = take(n);
            }
            for slot in &mut p.city {
                if let Some(good) = &mut slot.good {
                    *good = take(1)[0];
                }
                if s != seat {
                    let n = slot.under.len();
                    slot.under = take(n);
                }
            }
        }
        g
    }

    /// True if the game ended by the `max_rounds` safety valve, not by the rules.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// Number of actions applied (including automatic ones).
    pub fn actions_applied(&self) -> u64 {
        self.actions_applied
    }

    /// Applies one action and advances to the next real decision.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        let action = self.as_pick(action);
        self.check_legal(action)?;
        if let Some(record) = &mut self.record {
            record.push(action);
        }
        let result = self.apply_legal(action).and_then(|()| self.advance());
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result.map(|()| self.take_events())
    }

    /// The building in a seat's city slot (of a decision a script asked for).
    pub fn card_at(&self, seat: u16, slot: u16) -> CardIdx {
        self.players[usize::from(seat)].city[usize::from(slot)].card
    }

    /// `choose x` names an option when a script offered one called `x`; when
    /// cards are being chosen it names the card `x`.
    fn as_pick(&self, action: Action) -> Action {
        match (action, &self.pending) {
            (Action::Choose(w), Some(Decision::Pick { .. })) => {
                self.rs.cards.idx(&self.rs.cards.word_name(w)).map_or(action, Action::Pick)
            }
            _ => action,
        }
    }

    /// Applies a line of action text (one or more atomic actions).
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, stop } =
            parse_line(text, &self.rs.cards).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        let seat = self.pending.as_ref().map(Decision::seat);
        let start = self.pending.clone();
        let mut built = match &start {
            Some(Decision::Pay { card, .. }) => Some(*card),
            _ => None,
        };
        for a in &actions {
            if let Action::Build { card, .. } = a {
                built = Some(*card);
            }
            // A forced payment (every hand card) was made automatically; accept it written out.
            if let Action::Pay(c) = a
                && !matches!(self.pending, Some(Decision::Pay { .. }))
                && let Some(i) = self.auto_paid.iter().position(|x| x == c)
            {
                self.auto_paid.swap_remove(i);
                continue;
            }
            // A line answers one seat's decision: what is left once it is over
            // would otherwise answer the next decision, maybe another seat's.
            if let Some(start) = &start
                && !self.continues(start)
            {
                let cards = &self.rs.cards;
                return Err(GameError::Illegal {
                    action: a.text(cards),
                    why: self.line_overrun(start, *a, built),
                    legal: self.legal.iter().map(|a| a.text(cards)).collect(),
                });
            }
            events.extend(self.apply(*a)?);
        }
        // `produce a` means "on a only": stop the same decision if it is still open.
        let last = actions.last().copied();
        if stop
            && last.is_some_and(|a| a.may_stop_after())
            && self.pending.as_ref().map(Decision::seat) == seat
            && self.legal_actions().contains(&Action::Pass)
            && self.same_kind_pending(last.unwrap())
        {
            events.extend(self.apply(Action::Pass)?);
        }
        Ok(events)
    }

    /// Applies the atomic actions of a line exactly as written: unlike
    /// [`Game::apply_text`], `produce a` does not end the decision. Saved games
    /// replay with this, since they hold one recorded action per line.
    pub fn apply_exact(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, .. } =
            parse_line(text, &self.rs.cards).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        for a in actions {
            events.extend(self.apply(a)?);
        }
        Ok(events)
    }

    fn same_kind_pending(&self, last: Action) -> bool {
        matches!(
            (self.pending.as_ref(), last),
            (Some(Decision::Produce { .. }), Action::Produce(_))
                | (Some(Decision::Sell { .. }), Action::Sell(_))
                | (Some(Decision::Tuck { .. }), Action::Tuck(_))
        )
    }

    fn check_legal(&self, action: Action) -> Result<(), GameError> {
        let Some(why) = self.why_illegal(action) else { return Ok(()) };
        let cards = &self.rs.cards;
        Err(GameError::Illegal {
            action: action.text(cards),
            why,
            legal: self.legal.iter().map(|a| a.text(cards)).collect(),
        })
    }

    /// True while the pending decision is still `start`'s seat answering it
    /// (paying for a building continues choosing it).
    fn continues(&self, start: &Decision) -> bool {
        match &self.pending {
            Some(now) => {
                now.seat() == start.seat()
                    && (now.name() == start.name()
                        || matches!((start, now), (Decision::Build { .. }, Decision::Pay { .. })))
            }
            None => false,
        }
    }

    /// Why a line's action `a` comes too late: `start`, the decision the line
    /// answered, is over (an allowance used up, a building paid in full).
    fn line_overrun(&self, start: &Decision, a: Action, built: Option<CardIdx>) -> String {
        let cards = &self.rs.cards;
        let seat = start.seat();
        let only = |left: i64, done: i64, noun: &str| {
            let more = if done > 0 { " more" } else { "" };
            match left {
                1 => format!("only 1{more} {noun}"),
                n => format!("only {n}{more} {noun}s"),
            }
        };
        let why = match start {
            Decision::Produce { left, done, .. } => {
                format!("seat {seat} may produce {}", only((*left).into(), (*done).into(), "good"))
            }
            Decision::Sell { left, done, .. } => {
                format!("seat {seat} may sell {}", only((*left).into(), (*done).into(), "good"))
            }
            Decision::Keep { left, .. } => format!("seat {seat} may keep {}", only(*left as i64, 0, "card")),
            Decision::Discard { left, .. } => format!("seat {seat} discards {}", only(*left as i64, 0, "card")),
            Decision::Tuck { left, slot, .. } => format!(
                "seat {seat} may put {} under its {}",
                only(*left as i64, 0, "card"),
                self.name_of(self.players[seat].city[*slot].card)
            ),
            Decision::Exchange { left, .. } => format!("seat {seat} may exchange {}", only(*left as i64, 0, "card")),
            Decision::Pay { .. } | Decision::Build { .. } if matches!(a, Action::Pay(_) | Action::Spend(_)) => {
                let what = built.map_or("the building".to_owned(), |c| cards.id(c).to_owned());
                format!("seat {seat} has paid all that {what} costs")
            }
            Decision::Role { .. } => format!("seat {seat} chooses one role per turn"),
            _ => format!("seat {seat}'s {} is over", start.name()),
        };
        let next = match &self.pending {
            Some(d) => format!("; now seat {} must {}", d.seat(), self.task(d)),
            None => String::new(),
        };
        format!("{why}{next}")
    }

    /// What the seat of decision `d` must do, in words: `choose a role`.
    fn task(&self, d: &Decision) -> String {
        let cards = &self.rs.cards;
        match d {
            Decision::Role { .. } => "choose a role".into(),
            Decision::Build { .. } => "build or pass".into(),
            Decision::Pay { card, remaining, .. } => {
                format!("pay {} more for {}", n_cards(*remaining), cards.id(*card))
            }
            Decision::Produce { .. } => "produce or pass".into(),
            Decision::Sell { .. } => "sell or pass".into(),
            Decision::Keep { left, .. } => format!("keep {} of the drawn cards", left),
            Decision::Discard { left, .. } => format!("discard {}", n_cards(*left as i64)),
            Decision::Reveal { .. } => "keep a revealed card or pass".into(),
            Decision::Tuck { seat, slot, .. } => {
                format!("put cards under its {} or pass", self.name_of(self.players[*seat].city[*slot].card))
            }
            Decision::Exchange { .. } => "discard cards to exchange or pass".into(),
            Decision::Choose { owner, slot, options, .. } => {
                let options: Vec<String> =
                    options.iter().map(|&w| format!("`choose {}`", cards.word_name(w))).collect();
                format!("answer its {}: {}", self.name_of(self.card_at(*owner, *slot)), options.join(" or "))
            }
            Decision::Pick { owner, slot, from, left, .. } => format!(
                "choose {} from its {} for its {}",
                n_cards(*left as i64),
                from.name(),
                self.name_of(self.card_at(*owner, *slot))
            ),
            Decision::Give { left, to, .. } => format!("give {} to seat {to}", n_cards(*left as i64)),
            Decision::Look { .. } => "discard one of the cards it looked at, or pass".into(),
        }
    }

    /// Why `action` is not a legal answer to the pending decision, in words
    /// (`seat 0 already has a smithy; a city building may be built only once`);
    /// `None` if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.legal.contains(&action) {
            return None;
        }
        let Some(d) = &self.pending else {
            return Some("the game is over; no decision is pending".into());
        };
        let seat = d.seat();
        let cards = &self.rs.cards;
        let id = |c: CardIdx| cards.id(c);
        let p = &self.players[seat];
        let in_hand = |c: CardIdx| p.hand.contains(&c);
        let no_card = |c: CardIdx| format!("seat {seat} has no {} in hand", id(c));
        let answers = matches!(
            (d, action),
            (Decision::Role { .. }, Action::Role { .. })
                | (Decision::Build { .. }, Action::Build { .. } | Action::Pass)
                | (Decision::Pay { .. }, Action::Pay(_) | Action::Spend(_))
                | (Decision::Produce { .. }, Action::Produce(_) | Action::Pass)
                | (Decision::Sell { .. }, Action::Sell(_) | Action::Pass)
                | (Decision::Keep { .. }, Action::Keep(_))
                | (Decision::Discard { .. }, Action::Discard(_))
                | (Decision::Reveal { .. }, Action::Keep(_) | Action::Pass)
                | (Decision::Tuck { .. }, Action::Tuck(_) | Action::Pass)
                | (Decision::Exchange { .. }, Action::Discard(_) | Action::Pass)
                | (Decision::Choose { .. }, Action::Choose(_))
                | (Decision::Pick { .. }, Action::Pick(_))
                | (Decision::Give { .. }, Action::Give(_))
                | (Decision::Look { .. }, Action::Discard(_) | Action::Pass)
        );
        if !answers {
            let verb = match action {
                Action::Role { .. } => "choose a role",
                Action::Build { .. } => "build",
                Action::Pay(_) => "pay",
                Action::Spend(_) => "spend a good",
                Action::Produce(_) => "produce",
                Action::Sell(_) => "sell",
                Action::Keep(_) => "keep a card",
                Action::Discard(_) => "discard",
                Action::Tuck(_) => "put a card under a building",
                Action::Choose(_) => "choose an option",
                Action::Pick(_) => "choose a card",
                Action::Give(_) => "give a card",
                Action::Pass => "pass",
            };
            return Some(format!("seat {seat} must {}, not {verb}", self.task(d)));
        }
        let why = match (d, action) {
            (Decision::Role { .. }, Action::Role { role, .. }) if self.taken(role) => {
                format!("the {role} was already chosen this round")
            }
            (Decision::Role { .. }, Action::Role { role, boost: false }) => {
                format!("seat {seat} has no privilege boost to decline; write `role {role}`")
            }
            (Decision::Build { .. }, Action::Build { card, over }) => self.why_not_build(seat, card, over),
            (
                Decision::Pay { .. }
                | Decision::Discard { .. }
                | Decision::Exchange { .. }
                | Decision::Tuck { .. }
                | Decision::Give { .. },
                Action::Pay(c) | Action::Discard(c) | Action::Tuck(c) | Action::Give(c),
            ) if !in_hand(c) => no_card(c),
            (Decision::Look { .. }, Action::Discard(c)) => {
                format!("{} is not among the cards seat {seat} looks at", id(c))
            }
            (Decision::Pick { from, .. }, Action::Pick(c)) => {
                format!("{} is not among the cards seat {seat} may still choose from its {}", id(c), from.name())
            }
            (Decision::Pay { goods_left, over, .. }, Action::Spend(b)) => {
                let slots = || p.city.iter().enumerate().filter(|(_, s)| s.card == b);
                if *goods_left <= 0 {
                    format!("seat {seat} may pay with no (more) goods")
                } else if slots().next().is_none() {
                    format!("seat {seat} has no {}", id(b))
                } else if slots().all(|(i, s)| s.good.is_none() || Some(i) == *over) {
                    let covered = slots().any(|(i, s)| s.good.is_some() && Some(i) == *over);
                    if covered {
                        format!("the good on {} is lost with the building it covers", id(b))
                    } else {
                        format!("seat {seat} has no good on {}", id(b))
                    }
                } else {
                    format!("seat {seat} cannot spend the good on {} now", id(b))
                }
            }
            (Decision::Produce { .. }, Action::Produce(b)) => {
                let def = cards.get(b);
                if !p.owns(b) {
                    format!("seat {seat} has no {}", id(b))
                } else if def.kind != Kind::Production {
                    format!("{} is not a production building; only production buildings produce", id(b))
                } else {
                    format!("seat {seat}'s {} already has a good; a building holds one good at most", id(b))
                }
            }
            (Decision::Sell { .. }, Action::Sell(b)) => {
                if !p.owns(b) {
                    format!("seat {seat} has no {}", id(b))
                } else {
                    format!("seat {seat} has no good on {}", id(b))
                }
            }
            (Decision::Keep { .. }, Action::Keep(c)) => format!("{} is not among the cards seat {seat} drew", id(c)),
            (Decision::Reveal { slot, keepable, .. }, Action::Keep(c)) => {
                let by = self.name_of(p.city[*slot].card);
                if !self.limbo.contains(&c) {
                    format!("{} is not among the cards the {by} revealed", id(c))
                } else {
                    let ids: Vec<&str> = keepable.iter().map(|&k| id(k)).collect();
                    format!("the {by} lets seat {seat} keep only {}", ids.join(", "))
                }
            }
            _ => format!("seat {seat} must {}", self.task(d)),
        };
        Some(why)
    }

    /// Why `seat` cannot build `card` (over a building of type `over`) now.
    fn why_not_build(&self, seat: usize, card: CardIdx, over: Option<CardIdx>) -> String {
        let cards = &self.rs.cards;
        let id = |c: CardIdx| cards.id(c);
        let p = &self.players[seat];
        let public = !p.hand.contains(&card) && self.public.contains(&card);
        if !p.hand.contains(&card) && !public {
            return format!("seat {seat} has no {} in hand", id(card));
        }
        let def = cards.get(card);
        if self.rs.rules.unique_city_buildings && def.kind == Kind::City && p.owns(card) {
            let a = if id(card).starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            return format!("seat {seat} already has {a} {}; a city building may be built only once", id(card));
        }
        let abilities = match self.build_abilities(seat) {
            Ok(a) => a,
            Err(e) => return format!("a script failed while working it out: {e}"),
        };
        let mut slot = None;
        if let Some(o) = over {
            if abilities.overbuild.is_none() {
                return format!("none of seat {seat}'s buildings lets it build over another");
            }
            let slots: Vec<usize> = (0..p.city.len()).filter(|&i| p.city[i].card == o).collect();
            if slots.is_empty() {
                return format!("seat {seat} has no {} to build over", id(o));
            }
            if o == card {
                return format!("{} cannot be built over another {}", id(card), id(o));
            }
            if abilities.except.iter().any(|e| e.as_str() == id(o)) {
                return format!("{} cannot be built over", id(o));
            }
            let Some(&active) = slots.iter().find(|&&i| p.city[i].active) else {
                return format!("{} was built in this builder phase; it can be built over from the next one", id(o));
            };
            slot = Some(active);
        }
        let cost = match self.build_cost(seat, card, slot) {
            Ok(c) => c,
            Err(e) => return format!("a script failed while working out the cost: {e}"),
        };
        let others = p.hand.len() - usize::from(!public);
        let granted: i32 = abilities.goods_grants.iter().filter(|(s, _)| Some(*s) != slot).map(|(_, n)| n).sum();
        let goods = p.city.iter().enumerate().filter(|(i, s)| s.good.is_some() && Some(*i) != slot).count();
        let goods = granted.min(goods as i32).max(0);
        if cost > others as i32 + goods {
            let discounted = if cost == def.cost { "" } else { " after discounts" };
            let over = over.map(|o| format!(" over {}", id(o))).unwrap_or_default();
            let spend = if goods > 0 { format!(" and {} it may spend", count(goods, "good")) } else { String::new() };
            let other = if public { "" } else { " other" };
            let has = match others {
                1 => format!("1{other} card"),
                n => format!("{n}{other} cards"),
            };
            return format!("{}{over} costs {cost}{discounted}; seat {seat} has {has}{spend}", id(card));
        }
        format!("{} cannot be built now", id(card))
    }

    /// Runs steps until a decision with a real choice is pending or the game ends.
    pub(crate) fn advance(&mut self) -> Result<(), GameError> {
        loop {
            if self.pending.is_some() {
                let mut legal = std::mem::take(&mut self.legal);
                self.compute_legal(&mut legal);
                match legal.as_slice() {
                    [only] => {
                        let only = *only;
                        self.legal = legal;
                        self.apply_legal(only)?;
                        continue;
                    }
                    [] => {
                        self.legal = legal;
                        self.pending = None;
                        continue;
                    }
                    _ => {
                        self.legal = legal;
                        return Ok(());
                    }
                }
            }
            self.legal.clear();
            if self.over {
                return Ok(());
            }
            if let Some(effect) = self.effects.pop_front() {
                self.run_effect(effect)?;
                continue;
            }
            let step = match self.steps.pop_front() {
                Some(s) => s,
                None => Step::RoundEnd,
            };
            self.run_step(step)?;
        }
    }

    fn run_step(&mut self, step: Step) -> Result<(), GameError> {
        match step {
            Step::Offer { seat, slot } => self.round_start_offer(seat, slot),
            Step::HandLimit { seat } => self.hand_limit(seat),
            Step::SetupDiscard { seat } => {
                let keep = self.rs.rules.start_hand;
                let left = self.players[seat].hand.len().saturating_sub(keep);
                if left > 0 {
                    self.pending = Some(Decision::Discard { seat, left, reason: DiscardReason::Setup });
                }
                Ok(())
            }
            Step::ChooseRole { seat } => {
                let boost = self.privilege_factor(seat)?;
                let limited = self.boost_limited();
                let boost = if limited && self.players[seat].boost_used { 1 } else { boost };
                self.pending = Some(Decision::Role { seat, boost, optional_boost: limited && boost > 1 });
                Ok(())
            }
            Step::PhaseStart => self.phase_start(),
            Step::Turn { seat } => self.turn(seat),
            Step::Reveal { seat, slot } => self.reveal(seat, slot),
            Step::PhaseEnd => self.phase_end(),
            Step::TurnStart { seat } => {
                for slot in self.listeners(Hook::TurnStart, seat) {
                    self.effect_hook(Hook::TurnStart, self.ctx(seat, slot), Origin { seat, slot, target: None })?;
                }
                Ok(())
            }
            Step::Over => {
                self.over = true;
                Ok(())
            }
            Step::RoundEnd => {
                let n = self.players.len();
                for k in 0..n {
                    self.draw_hooks(Hook::RoundEnd, (self.governor + k) % n, None, |_| {})?;
                }
                // The round's effects (a choice, a discard) come before the next round.
                if !self.effects.is_empty() {
                    self.steps.push_front(Step::NewRound);
                    return Ok(());
                }
                self.new_round()
            }
            Step::NewRound => self.new_round(),
        }
    }

    fn new_round(&mut self) -> Result<(), GameError> {
        if self.round >= self.rs.rules.max_rounds {
            self.over = true;
            self.stalled = true;
            self.steps.clear();
            self.event(None, |g| format!("no game end after {} rounds: the game is scored as it stands", g.round));
            return Ok(());
        }
        self.governor = (self.governor + 1) % self.players.len();
        self.round += 1;
        self.chosen_by = [NOBODY; 5];
        self.event(None, |g| format!("round {} begins; governor is seat {}", g.round, g.governor));
        self.start_round(false);
        Ok(())
    }

    /// Queues a round: offers and hand limits (not in the first round), then role choices.
    pub(crate) fn start_round(&mut self, first: bool) {
        let n = self.players.len();
        for p in &mut self.players {
            p.boost_used = false;
        }
        if !first {
            let mut offers = Vec::new();
            for k in 0..n {
                let seat = (self.governor + k) % n;
                for (slot, s) in self.players[seat].city.iter().enumerate() {
                    if s.active && self.rs.scripts.listens(Hook::RoundStart as usize, s.card as usize) {
                        offers.push((self.rs.cards.get(s.card).order, k, slot, seat));
                    }
                }
            }
            offers.sort();
            for (_, _, slot, seat) in offers {
                self.steps.push_back(Step::Offer { seat, slot });
            }
            for k in 0..n {
                self.steps.push_back(Step::HandLimit { seat: (self.governor + k) % n });
            }
        }
        let roles = self.rs.rules.roles_per_round(n).min(Role::ALL.len());
        for k in 0..roles {
            self.steps.push_back(Step::ChooseRole { seat: (self.governor + k) % n });
        }
        self.steps.push_back(Step::RoundEnd);
    }

    /// True when a privilege boost works only once per round at this player count.
    pub(crate) fn boost_limited(&self) -> bool {
        self.rs.rules.privilege_boost_once_per_round.contains(&self.players.len())
    }

    // ----- cards moving -------------------------------------------------

    /// Draws the top card, reshuffling the discard pile into a new draw pile when empty.
    pub(crate) fn draw(&mut self) -> Option<CardIdx> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            self.deck = std::mem::take(&mut self.discard);
            rng::shuffle(&mut self.rng, &mut self.deck);
            self.event(None, |_| "the discard pile is shuffled into a new draw pile".into());
        }
        self.deck.pop()
    }

    /// Draws up to `n` cards into a hand; returns how many were drawn.
    pub(crate) fn draw_to_hand(&mut self, seat: usize, n: i32) -> i32 {
        self.draw_from(seat, n, None)
    }

    /// Draws up to `n` cards into a hand because of the building `cause` (a well,
    /// a market hall…), or of the role when `None`; returns how many were drawn.
    pub(crate) fn draw_from(&mut self, seat: usize, n: i32, cause: Option<CardIdx>) -> i32 {
        let mut drawn = 0;
        for _ in 0..n.max(0) {
            match self.draw() {
                Some(c) => {
                    self.players[seat].hand.push(c);
                    drawn += 1;
                }
                None => break,
            }
        }
        if drawn > 0 {
            // Drawn cards go to the hand unseen by the others: they learn the count.
            self.secret_event(seat, cause, |g| {
                let hand = &g.players[seat].hand;
                let ids = g.ids(&hand[hand.len() - drawn as usize..]);
                let head = match cause {
                    Some(c) => format!("seat {seat}: {} gives {}", g.name_of(c), n_cards(drawn)),
                    None => format!("seat {seat} draws {}", n_cards(drawn)),
                };
                (format!("{head}: {ids}"), head)
            });
        }
        drawn
    }

    /// Draws up to `n` cards face up to wait for a decision (councillor, gold mine);
    /// returns how many were drawn.
    pub(crate) fn draw_to_limbo(&mut self, n: i32) -> i32 {
        let mut drawn = 0;
        while drawn < n {
            let Some(c) = self.draw() else { break };
            self.limbo.push(c);
            drawn += 1;
        }
        drawn
    }

    /// Removes one card of a type from a hand.
    pub(crate) fn take_from_hand(&mut self, seat: usize, card: CardIdx) -> CardIdx {
        let hand = &mut self.players[seat].hand;
        let i = hand.iter().position(|&c| c == card).expect("legal action names a card in hand");
        hand.swap_remove(i)
    }

    /// Call after any change to a city: which hooks each seat's buildings listen to.
    pub(crate) fn refresh_hook_masks(&mut self) {
        let masks = &self.rs.hook_masks;
        self.hook_mask =
            self.players.iter().map(|p| p.city.iter().fold(0, |m, s| m | masks[s.card as usize])).collect();
        self.hook_union = self.hook_mask.iter().fold(0, |m, s| m | s);
    }

    /// Distinct card types in a list, in first-seen order.
    pub(crate) fn distinct(cards: impl IntoIterator<Item = CardIdx>) -> SmallVec<[CardIdx; 16]> {
        let mut out: SmallVec<[CardIdx; 16]> = SmallVec::new();
        for c in cards {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    // ----- hooks ----------------------------------------------------------

    /// A context for `seat`'s building in `slot`.
    pub(crate) fn ctx(&self, seat: usize, slot: usize) -> Ctx {
        let p = &self.players[seat];
        let s = &p.city[slot];
        Ctx {
            card: s.card,
            seat,
            players: self.players.len(),
            round: self.round,
            role: self.phase.map_or("", |ph| ph.role.name()),
            privileged: self.phase.is_some_and(|ph| ph.chooser == seat),
            hand: p.hand.len() as i32,
            goods: p.goods() as i32,
            target: None,
            over: None,
            produced: 0,
            sold: 0,
            total_sold: self.phase_sold,
            uses: s.uses as i32,
            under: s.under.len() as i32,
            subtotal: 0,
            actor: seat,
            counter: s.counter,
        }
    }

    /// The active slots of `seat` that listen to `hook`, in hook order.
    pub(crate) fn listeners(&self, hook: Hook, seat: usize) -> Listeners {
        self.listeners_where(hook, seat, |s| s.active)
    }

    pub(crate) fn listeners_where(&self, hook: Hook, seat: usize, keep: impl Fn(&Slot) -> bool) -> Listeners {
        if self.hook_mask[seat] & (1 << hook as u64) == 0 {
            return Listeners::new();
        }
        let scripts = &self.rs.scripts;
        let mut out: Listeners = self.players[seat]
            .city
            .iter()
            .enumerate()
            .filter(|(_, s)| keep(s) && scripts.listens(hook as usize, s.card as usize))
            .map(|(i, _)| i)
            .collect();
        if out.len() > 1 {
            let cards = &self.rs.cards;
            let city = &self.players[seat].city;
            out.sort_by_key(|&i| (cards.get(city[i].card).order, i));
        }
        out
    }

    /// Calls a hook with a prepared context.
    pub(crate) fn call(&self, hook: Hook, ctx: Ctx) -> Result<Dynamic, GameError> {
        let card = ctx.card as usize;
        let wrap = |facts| Dynamic::from(self.script_ctx(facts, None));
        let value = self.rs.scripts.call_memo(hook as usize, card, ctx, Ctx::scalar, wrap)?;
        Ok(value.unwrap_or(Dynamic::UNIT))
    }

    /// The `ctx` a script receives, with the lists it may walk.
    pub(crate) fn script_ctx(&self, facts: Ctx, revealed: Option<Arc<Vec<CardIdx>>>) -> ScriptCtx {
        let buildings = self.players.iter().map(|p| p.city.iter().map(|s| s.card).collect()).collect();
        let hand_sizes = self.players.iter().map(|p| p.hand.len() as i32).collect();
        ScriptCtx {
            facts,
            table: Arc::clone(&self.rs.cards),
            buildings: Arc::new(buildings),
            hand_sizes: Arc::new(hand_sizes),
            revealed,
            choice: None,
            counters: Arc::clone(&self.players[facts.seat].counters),
            roles_chosen: self.players[facts.seat].roles_chosen,
        }
    }

    /// Calls a hook that returns an integer.
    pub(crate) fn call_int(&self, hook: Hook, ctx: Ctx) -> Result<i32, GameError> {
        let card = ctx.card as usize;
        let v = self.call(hook, ctx)?;
        hooks::as_int_in(v, hooks::HOOKS[hook as usize].range)
            .map_err(|e| self.rs.scripts.bad_return(hook as usize, card, &e).into())
    }

    /// Sum of an integer hook over `seat`'s listening buildings; each building
    /// that adds something is logged as `say(its id, what it adds)`.
    pub(crate) fn sum_hook(&mut self, hook: Hook, seat: usize, say: fn(&str, i32) -> String) -> Result<i32, GameError> {
        let mut total = 0;
        for slot in self.listeners(hook, seat) {
            let n = self.call_int(hook, self.ctx(seat, slot))?;
            if n != 0 {
                let card = self.players[seat].city[slot].card;
                self.event_from(seat, card, |g| format!("seat {seat}: {}", say(&g.name_of(card), n)));
            }
            total = n.saturating_add(total);
        }
        Ok(total)
    }

    /// The first of `seat`'s buildings whose `hook` returns `value`: which one
    /// gave a privilege factor or a hand limit, for the log.
    pub(crate) fn hook_source(&self, hook: Hook, seat: usize, value: i32) -> Option<CardIdx> {
        let slot = self
            .listeners(hook, seat)
            .into_iter()
            .find(|&slot| self.call_int(hook, self.ctx(seat, slot)).is_ok_and(|v| v == value))?;
        Some(self.players[seat].city[slot].card)
    }

    /// Runs a hook that draws cards or returns effects for each listening
    /// building of `seat`, one after another; `target` is the building just built.
    pub(crate) fn draw_hooks(
        &mut self,
        hook: Hook,
        seat: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
    ) -> Result<(), GameError> {
        for slot in self.listeners(hook, seat) {
            let mut ctx = self.ctx(seat, slot);
            edit(&mut ctx);
            self.effect_hook(hook, ctx, Origin { seat, slot, target })?;
        }
        Ok(())
    }

    /// An event seen by the actor's buildings (`own`, then `any`) and every
    /// other player's from the actor's left (`other`, then `any`), with
    /// `ctx.actor` the actor's seat.
    pub(crate) fn event_hooks(
        &mut self,
        [own, other, any]: [Hook; 3],
        actor: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
    ) -> Result<(), GameError> {
        let bits = (1u64 << own as u64) | (1 << other as u64) | (1 << any as u64);
        if self.hook_union & bits == 0 {
            return Ok(());
        }
        let n = self.players.len();
        for seat in (0..n).map(|k| (actor + k) % n) {
            let mine = if seat == actor { own } else { other };
            for hook in [mine, any] {
                self.draw_hooks(hook, seat, target, |c| {
                    edit(c);
                    c.actor = actor;
                })?;
            }
        }
        Ok(())
    }

    /// A hook every owner hears, from `from` around the table, with `ctx.actor` set.
    pub(crate) fn everyone_hooks(&mut self, hook: Hook, from: usize, actor: usize) -> Result<(), GameError> {
        if self.hook_union & (1 << hook as u64) == 0 {
            return Ok(());
        }
        let n = self.players.len();
        for seat in (0..n).map(|k| (from + k) % n) {
            self.draw_hooks(hook, seat, None, |c| c.actor = actor)?;
        }
        Ok(())
    }

    /// The sum of a modifier the other players' buildings put on `seat` (toll gate).
    pub(crate) fn others_sum(&self, hook: Hook, seat: usize, edit: impl Fn(&mut Ctx)) -> Result<i32, GameError> {
        let mut total = 0i32;
        self.others_each(hook, seat, edit, |_, v| total = total.saturating_add(v))?;
        Ok(total)
    }

    /// Calls a modifier hook on every other player's buildings about `seat`;
    /// `each` gets the building and its value.
    pub(crate) fn others_each(
        &self,
        hook: Hook,
        seat: usize,
        edit: impl Fn(&mut Ctx),
        mut each: impl FnMut(CardIdx, i32),
    ) -> Result<(), GameError> {
        if self.hook_union & (1 << hook as u64) == 0 {
            return Ok(());
        }
        let n = self.players.len();
        for other in (1..n).map(|k| (seat + k) % n) {
            for slot in self.listeners(hook, other) {
                let mut ctx = self.ctx(other, slot);
                edit(&mut ctx);
                ctx.actor = seat;
                let v = self.call_int(hook, ctx)?;
                each(self.players[other].city[slot].card, v);
            }
        }
        Ok(())
    }

    /// The privilege factor `seat` would get from its buildings (1 = none).
    pub(crate) fn privilege_factor(&self, seat: usize) -> Result<i32, GameError> {
        self.max_hook(Hook::Privilege, seat, 1)
    }

    /// The largest of `floor` and the values `seat`'s buildings return for `hook`.
    fn max_hook(&self, hook: Hook, seat: usize, floor: i32) -> Result<i32, GameError> {
        let mut best = floor;
        for slot in self.listeners(hook, seat) {
            best = best.max(self.call_int(hook, self.ctx(seat, slot))?);
        }
        Ok(best)
    }

    // ----- round start ---------------------------------------------------

    fn round_start_offer(&mut self, seat: usize, slot: usize) -> Result<(), GameError> {
        let ctx = self.ctx(seat, slot);
        let card = ctx.card as usize;
        let v = self.call(Hook::RoundStart, ctx)?;
        let bad = |e: String| self.rs.scripts.bad_return(Hook::RoundStart as usize, card, &e);
        let map = hooks::as_map(v, &["tuck", "exchange"]).map_err(bad)?;
        let tuck = hooks::map_int(&map, "tuck").map_err(bad)?;
        let exchange = hooks::map_int(&map, "exchange").map_err(bad)?;
        if self.players[seat].hand.is_empty() {
            return Ok(());
        }
        if self.logging() && (tuck > 0 || exchange > 0) {
            let hand = self.players[seat].hand.len() as i32;
            let (n, what, end) = if tuck > 0 { (tuck, "put", " under it") } else { (exchange, "exchange", "") };
            let amount = match n {
                1 => "1 hand card".to_owned(),
                n if n >= hand && n > 2 => "any number of hand cards".to_owned(),
                n => format!("up to {n} hand cards"),
            };
            let card = self.players[seat].city[slot].card;
            self.event_from(seat, card, |g| format!("seat {seat}: {} lets it {what} {amount}{end}", g.name_of(card)));
        }
        if tuck > 0 {
            self.pending = Some(Decision::Tuck { seat, slot, left: tuck as usize, done: 0 });
        } else if exchange > 0 {
            self.pending = Some(Decision::Exchange { seat, left: exchange as usize, done: 0 });
        }
        Ok(())
    }

    /// The hand limit of `seat` now.
    pub fn hand_limit_of(&self, seat: usize) -> Result<i32, GameError> {
        let others = self.others_sum(Hook::OtherHandLimit, seat, |_| {})?;
        Ok(self.own_hand_limit(seat)?.saturating_add(others))
    }

    /// The hand limit `seat`'s own buildings and the ruleset allow.
    fn own_hand_limit(&self, seat: usize) -> Result<i32, GameError> {
        self.max_hook(Hook::HandLimit, seat, self.rs.rules.hand_limit)
    }

    fn hand_limit(&mut self, seat: usize) -> Result<(), GameError> {
        let limit = self.hand_limit_of(seat)?.max(0) as usize;
        let hand = self.players[seat].hand.len();
        if hand > limit {
            if self.logging() {
                let raised = limit as i32 > self.rs.rules.hand_limit;
                let cause = if raised { self.hook_source(Hook::HandLimit, seat, limit as i32) } else { None };
                let by = cause.map(|c| format!(" ({} allows {limit})", self.name_of(c))).unwrap_or_default();
                let text =
                    format!("seat {seat} has {hand} cards, more than the hand limit{by}: discards {}", hand - limit);
                self.log_event(Some(seat), cause, None, |_| (text, None));
            }
            self.pending = Some(Decision::Discard { seat, left: hand - limit, reason: DiscardReason::HandLimit });
        }
        Ok(())
    }

    // ----- legal actions ---------------------------------------------------

    /// Every legal answer to the pending decision (empty once the game is over).
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    /// Works out the legal answers to the pending decision into `out`.
    fn compute_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(d) = &self.pending else { return };
        // One action per distinct card, in first-seen order.
        fn each_distinct(out: &mut Vec<Action>, cards: impl IntoIterator<Item = CardIdx>, make: fn(CardIdx) -> Action) {
            let start = out.len();
            for c in cards {
                let a = make(c);
                if !out[start..].contains(&a) {
                    out.push(a);
                }
            }
        }
        let hand = |seat: usize| self.players[seat].hand.iter().copied();
        match d {
            Decision::Role { seat: _, boost, optional_boost } => {
                for role in Role::ALL {
                    if !self.taken(role) {
                        out.push(Action::Role { role, boost: true });
                        if *optional_boost && *boost > 1 {
                            out.push(Action::Role { role, boost: false });
                        }
                    }
                }
            }
            Decision::Build { options, .. } => {
                let city = |o: &BuildOption| o.over.map(|s| self.players[d.seat()].city[s].card);
                out.extend(options.iter().map(|o| Action::Build { card: o.card, over: city(o) }));
                out.dedup();
                out.push(Action::Pass);
            }
            Decision::Pay { seat, remaining, goods_left, over, .. } => {
                let hand_cards = &self.players[*seat].hand;
                let city = &self.players[*seat].city;
                let spendable = || city.iter().enumerate().filter(|(i, s)| s.good.is_some() && Some(*i) != *over);
                let goods = spendable().count() as i32;
                if (*goods_left == 0 || goods == 0) && *remaining as usize >= hand_cards.len() && !hand_cards.is_empty()
                {
                    out.push(Action::Pay(hand_cards[0])); // every card must go: nothing to choose
                    return;
                }
                each_distinct(out, hand(*seat), Action::Pay);
                if *remaining > 0 && *goods_left > 0 {
                    each_distinct(out, spendable().map(|(_, s)| s.card), Action::Spend);
                }
            }
            Decision::Produce { seat, .. } => {
                let cards = &self.rs.cards;
                let empty = self.players[*seat]
                    .city
                    .iter()
                    .filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production)
                    .map(|s| s.card);
                each_distinct(out, empty, Action::Produce);
                out.push(Action::Pass);
            }
            Decision::Sell { seat, .. } => {
                let goods = self.players[*seat].city.iter().filter(|s| s.good.is_some()).map(|s| s.card);
                each_distinct(out, goods, Action::Sell);
                out.push(Action::Pass);
            }
            Decision::Keep { left, .. } if *left >= self.limbo.len() && !self.limbo.is_empty() => {
                out.push(Action::Keep(self.limbo[0]));
            }
            Decision::Discard { seat, left, .. }
                if *left >= self.players[*seat].hand.len() && !self.players[*seat].hand.is_empty() =>
            {
                out.push(Action::Discard(self.players[*seat].hand[0]));
            }
            Decision::Keep { .. } => each_distinct(out, self.limbo.iter().copied(), Action::Keep),
            Decision::Discard { seat, .. } => each_distinct(out, hand(*seat), Action::Discard),
            Decision::Reveal { keepable, .. } => {
                each_distinct(out, keepable.iter().copied(), Action::Keep);
                out.push(Action::Pass);
            }
            Decision::Tuck { seat, .. } => {
                each_distinct(out, hand(*seat), Action::Tuck);
                out.push(Action::Pass);
            }
            Decision::Exchange { seat, .. } => {
                each_distinct(out, hand(*seat), Action::Discard);
                out.push(Action::Pass);
            }
            Decision::Choose { options, .. } => out.extend(options.iter().map(|&w| Action::Choose(w))),
            Decision::Pick { .. } => each_distinct(out, self.pick_candidates(d), Action::Pick),
            Decision::Give { seat, left, .. }
                if *left >= self.players[*seat].hand.len() && !self.players[*seat].hand.is_empty() =>
            {
                out.push(Action::Give(self.players[*seat].hand[0]));
            }
            Decision::Give { seat, .. } => each_distinct(out, hand(*seat), Action::Give),
            Decision::Look { .. } => {
                each_distinct(out, self.limbo.iter().copied(), Action::Discard);
                out.push(Action::Pass);
            }
        }
    }

    /// Applies an action known to be legal.
    fn apply_legal(&mut self, action: Action) -> Result<(), GameError> {
        self.actions_applied += 1;
        match action {
            Action::Build { .. } => self.auto_paid.clear(),
            Action::Pay(c) if self.legal.len() <= 1 => self.auto_paid.push(c),
            _ => {}
        }
        let decision = self.pending.take().expect("a decision is pending");
        if self.logging() {
            self.log_action(&decision, action);
        }
        match (decision, action) {
            (Decision::Role { seat, boost, .. }, Action::Role { role, boost: use_boost }) => {
                self.choose_role(seat, role, if use_boost { boost } else { 1 })
            }
            (d @ Decision::Build { .. }, a) => self.apply_build(d, a),
            (d @ Decision::Pay { .. }, a) => self.apply_pay(d, a),
            (d @ Decision::Produce { .. }, a) => self.apply_produce(d, a),
            (d @ Decision::Sell { .. }, a) => self.apply_sell(d, a),
            (Decision::Keep { seat, left }, Action::Keep(card)) => {
                let i = self.limbo.iter().position(|&c| c == card).expect("legal keep");
                let c = self.limbo.swap_remove(i);
                self.players[seat].hand.push(c);
                if left > 1 && !self.limbo.is_empty() {
                    self.pending = Some(Decision::Keep { seat, left: left - 1 });
                } else {
                    if !self.limbo.is_empty() {
                        let n = self.limbo.len();
                        self.secret_event(seat, None, |g| {
                            let public = match n {
                                1 => format!("seat {seat} discards the other card"),
                                n => format!("seat {seat} discards the other {n} cards"),
                            };
                            (format!("{public}: {}", g.ids(&g.limbo)), public)
                        });
                    }
                    self.discard.append(&mut self.limbo);
                }
                Ok(())
            }
            (Decision::Discard { seat, left, reason }, Action::Discard(card)) => {
                let c = self.take_from_hand(seat, card);
                self.discard.push(c);
                if left > 1 {
                    self.pending = Some(Decision::Discard { seat, left: left - 1, reason });
                }
                Ok(())
            }
            (Decision::Reveal { seat, .. }, a) => {
                if let Action::Keep(card) = a {
                    let i = self.limbo.iter().position(|&c| c == card).expect("legal keep");
                    let c = self.limbo.swap_remove(i);
                    self.players[seat].hand.push(c);
                }
                self.discard.append(&mut self.limbo);
                Ok(())
            }
            (Decision::Tuck { seat, slot, left, done }, a) => {
                let done = if let Action::Tuck(card) = a {
                    let c = self.take_from_hand(seat, card);
                    let s = &mut self.players[seat].city[slot];
                    s.under.push(c);
                    s.under_from = Some(s.card);
                    done + 1
                } else {
                    done
                };
                let more = matches!(a, Action::Tuck(_)) && left > 1 && !self.players[seat].hand.is_empty();
                if more {
                    self.pending = Some(Decision::Tuck { seat, slot, left: left - 1, done });
                } else if done > 0 {
                    self.players[seat].city[slot].uses += 1;
                }
                Ok(())
            }
            (Decision::Exchange { seat, left, done }, a) => {
                let done = if let Action::Discard(card) = a {
                    let c = self.take_from_hand(seat, card);
                    self.discard.push(c);
                    done + 1
                } else {
                    done
                };
                let more = matches!(a, Action::Discard(_)) && left > 1 && !self.players[seat].hand.is_empty();
                if more {
                    self.pending = Some(Decision::Exchange { seat, left: left - 1, done });
                } else {
                    self.draw_to_hand(seat, done as i32);
                }
                Ok(())
            }
            (Decision::Choose { seat, owner, slot, .. }, Action::Choose(w)) => {
                let answer = Answer::Option(self.rs.cards.word_name(w));
                self.answer_choice(seat, owner.into(), slot.into(), answer)
            }
            (Decision::Pick { seat, owner, slot, from, left, picked }, Action::Pick(card)) => {
                let mut picked = picked.into_vec();
                picked.push(card);
                let d = Decision::Pick { seat, owner, slot, from, left: left - 1, picked: picked.into() };
                if left > 1 && !self.pick_candidates(&d).is_empty() {
                    self.pending = Some(d);
                    return Ok(());
                }
                let Decision::Pick { picked, .. } = d else { unreachable!() };
                self.answer_choice(seat, owner.into(), slot.into(), Answer::Cards(Arc::new(picked.into_vec())))
            }
            (Decision::Give { seat, to, left, cause }, Action::Give(card)) => {
                let c = self.take_from_hand(seat, card);
                self.players[to].hand.push(c);
                if left > 1 && !self.players[seat].hand.is_empty() {
                    self.pending = Some(Decision::Give { seat, to, left: left - 1, cause });
                }
                Ok(())
            }
            (Decision::Look { seat, slot, left }, a) => {
                if let Action::Discard(card) = a {
                    let i = self.limbo.iter().position(|&c| c == card).expect("legal discard");
                    self.discard.push(self.limbo.remove(i));
                    if left > 1 && !self.limbo.is_empty() {
                        self.pending = Some(Decision::Look { seat, slot, left: left - 1 });
                        return Ok(());
                    }
                }
                self.put_back();
                Ok(())
            }
            (d, a) => unreachable!("legal action {a:?} does not answer {d:?}"),
        }
    }

    /// Logs an answered decision. A hand card paid, discarded, kept from the
    /// councillor's draw or put under a building is named to its owner only.
    fn log_action(&mut self, d: &Decision, action: Action) {
        let seat = d.seat();
        let id = |g: &Game, c: CardIdx| g.rs.cards.id(c).to_owned();
        match (d, action) {
            (Decision::Role { boost, .. }, Action::Role { role, boost: used }) => {
                let plain = if !used && *boost > 1 { " without the privilege boost" } else { "" };
                self.event(Some(seat), |_| format!("seat {seat} chooses the {role}{plain}"));
            }
            (_, Action::Build { card, over }) => self.event(Some(seat), |g| match over {
                Some(o) => format!("seat {seat} builds {} over {}", id(g, card), id(g, o)),
                None => format!("seat {seat} builds {}", id(g, card)),
            }),
            (_, Action::Pay(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} pays with {}", id(g, c)), format!("seat {seat} pays with 1 card"))
            }),
            (_, Action::Spend(b)) => {
                let cause = self.goods_payer(seat);
                self.log_event(Some(seat), cause, None, |g| {
                    (format!("seat {seat} pays with the good on {}", id(g, b)), None)
                });
            }
            (_, Action::Produce(b)) => self.event(Some(seat), |g| format!("seat {seat} produces on {}", id(g, b))),
            (_, Action::Sell(b)) => self.event(Some(seat), |g| {
                format!("seat {seat} sells the good on {} for {}", id(g, b), n_cards(g.price_of(b)))
            }),
            (Decision::Reveal { slot, .. }, Action::Keep(c)) => {
                let cause = self.players[seat].city[*slot].card;
                self.event_from(seat, cause, |g| format!("seat {seat} keeps the revealed {}", id(g, c)));
            }
            (_, Action::Keep(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} keeps {}", id(g, c)), format!("seat {seat} keeps 1 card"))
            }),
            (Decision::Exchange { .. }, Action::Discard(c)) => self.secret_event(seat, None, |g| {
                (format!("seat {seat} exchanges {}", id(g, c)), format!("seat {seat} exchanges 1 card"))
            }),
            (Decision::Look { slot, .. }, Action::Discard(c)) => {
                let by = self.players[seat].city[*slot].card;
                self.secret_event(seat, Some(by), |g| {
                    let public = format!("seat {seat} discards 1 of the cards its {} looked at", g.name_of(by));
                    (format!("seat {seat} discards {} of the cards its {} looked at", id(g, c), g.name_of(by)), public)
                });
            }
            (Decision::Choose { owner, slot, .. }, Action::Choose(w)) => {
                let by = self.card_at(*owner, *slot);
                let word = self.rs.cards.word_name(w);
                self.event_from(seat, by, |g| format!("seat {seat} chooses {word} ({})", g.name_of(by)));
            }
            (Decision::Pick { owner, slot, from, .. }, Action::Pick(c)) => {
                let by = self.card_at(*owner, *slot);
                if *from == PickFrom::Hand {
                    self.secret_event(seat, Some(by), |g| {
                        (
                            format!("seat {seat} chooses {} for the {}", id(g, c), g.name_of(by)),
                            format!("seat {seat} chooses 1 hand card for the {}", g.name_of(by)),
                        )
                    });
                } else {
                    self.event_from(seat, by, |g| {
                        format!("seat {seat} chooses {} for the {}", id(g, c), g.name_of(by))
                    });
                }
            }
            (Decision::Give { to, cause, .. }, Action::Give(c)) => {
                let (to, by) = (*to, *cause);
                self.secret_event(seat, Some(by), |g| {
                    (
                        format!("seat {seat} gives {} to seat {to} ({})", id(g, c), g.name_of(by)),
                        format!("seat {seat} gives 1 card to seat {to} ({})", g.name_of(by)),
                    )
                });
            }
            (Decision::Discard { reason, .. }, Action::Discard(c)) => {
                let named;
                let why = match reason {
                    DiscardReason::HandLimit => " (hand limit)",
                    DiscardReason::Council | DiscardReason::Setup => "",
                    DiscardReason::Building(b) => {
                        named = format!(" ({})", self.name_of(*b));
                        named.as_str()
                    }
                };
                self.secret_event(seat, None, |g| {
                    (format!("seat {seat} discards {}{why}", id(g, c)), format!("seat {seat} discards 1 card{why}"))
                });
            }
            (Decision::Tuck { slot, .. }, Action::Tuck(c)) => {
                let under = self.players[seat].city[*slot].card;
                self.secret_event(seat, Some(under), |g| {
                    let b = g.name_of(under);
                    (
                        format!("seat {seat} puts {} under its {b}", id(g, c)),
                        format!("seat {seat} puts 1 card under its {b}"),
                    )
                });
            }
            // Not building is told by the builder step itself.
            (Decision::Build { .. }, Action::Pass) => {}
            (_, Action::Pass) => self.event(Some(seat), |_| format!("seat {seat} passes")),
            (_, a) => {
                let text = a.text(&self.rs.cards);
                self.event(Some(seat), |_| format!("seat {seat}: {text}"));
            }
        }
    }

    fn choose_role(&mut self, seat: usize, role: Role, factor: i32) -> Result<(), GameError> {
        self.chosen_by[role as usize] = seat as u8;
        self.players[seat].roles_chosen |= role.bit();
        for p in &mut self.players {
            p.grants = Grants::default();
        }
        if factor > 1 && self.boost_limited() {
            self.players[seat].boost_used = true;
        }
        if factor > 1 && self.logging() {
            let cause = self.hook_source(Hook::Privilege, seat, factor);
            let by = match factor {
                2 => "doubles".to_owned(),
                3 => "triples".to_owned(),
                n => format!("multiplies by {n}"),
            };
            let who = cause.map_or("a building".to_owned(), |c| self.name_of(c));
            self.log_event(Some(seat), cause, None, |_| {
                (format!("seat {seat}: {who} {by} the {role} privilege"), None)
            });
        }
        self.phase = Some(Phase { role, chooser: seat, factor });
        self.phase_sold = 0;
        let n = self.players.len();
        // In front of the queue, in order: phase start, one turn per seat from the chooser, phase end.
        self.steps.push_front(Step::PhaseEnd);
        for k in (0..n).rev() {
            let turn = (seat + k) % n;
            self.steps.push_front(Step::Turn { seat: turn });
            if self.hook_mask[turn] & (1 << Hook::TurnStart as u64) != 0 {
                self.steps.push_front(Step::TurnStart { seat: turn });
            }
        }
        self.steps.push_front(Step::PhaseStart);
        // Whoever listens to a role being chosen, before the phase starts.
        self.event_hooks([Hook::Role, Hook::OtherRole, Hook::AnyRole], seat, None, |_| {})
    }

    /// The extra privilege amount for `seat` in the current phase: `base × factor` for the chooser.
    pub(crate) fn privilege(&self, seat: usize, base: i32) -> i32 {
        match self.phase {
            Some(ph) if ph.chooser == seat => base.saturating_mul(ph.factor),
            _ => 0,
        }
    }
}

impl crate::turns::TurnGame for Game {
    type Action = Action;
    type Error = GameError;

    fn seats(&self) -> usize {
        self.players.len()
    }

    fn to_move(&self) -> Option<usize> {
        self.pending.as_ref().map(Decision::seat)
    }

    fn legal(&self) -> &[Action] {
        &self.legal
    }

    fn play(&mut self, action: Action) -> Result<(), GameError> {
        self.apply(action).map(|_| ())
    }

    /// Mostly the win share; a fifth is the margin over the best other player,
    /// so that a search also prefers winning (or losing) by more (or less).
    fn rewards(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let scores = self.scores().ok()?;
        let winners = crate::score::winners_of(&scores);
        let share = 1.0 / winners.len() as f64;
        Some(
            (0..scores.len())
                .map(|seat| {
                    let best_other = scores.iter().enumerate().filter(|(s, _)| *s != seat).map(|(_, x)| x.total).max();
                    let margin = f64::from(scores[seat].total - best_other.unwrap_or(0));
                    let win = if winners.contains(&seat) { share } else { 0.0 };
                    0.8 * win + 0.2 * (0.5 + 0.5 * (margin / 10.0).tanh())
                })
                .collect(),
        )
    }
}

impl crate::turns::Determinize for Game {
    fn determinize(&self, seat: usize, seed: u64) -> Game {
        Game::determinize(self, seat, seed)
    }
}
