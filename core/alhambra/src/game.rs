//! The game state and the state machine that drives it.
//!
//! `Game::pending()` says who must decide what; `Game::apply()` validates an
//! action and advances to the next real decision. Decisions with only one
//! legal answer are answered automatically, so a pending decision is always a
//! real choice.
//!
//! A turn: take money (one card at a time: `take`, then more cards while their
//! values total at most the take limit, or `done`) or buy a building from the
//! display (`buy`, then `pay` one money card of the slot's currency at a time
//! until the price is reached; no change). Paying the price exactly gives
//! another action in the same turn. With two players each bought building is
//! then kept or donated to the neutral collector (its own yes/no decision,
//! after the payment, so that the payment reads the same with any count).
//! After the turn the building display is refilled left to right, then the
//! money display; a scoring card drawn is scored at once.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, Line, parse_line};
use crate::error::GameError;
use crate::rng;
use crate::ruleset::{BuildingIdx, MAX_CURRENCIES, MAX_TYPES, Money, Ruleset};
use crate::score::Score;

/// A card of the money deck: money, or a scoring card (index into [`Ruleset::scorings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draw {
    /// A money card.
    Money(Money),
    /// A scoring card.
    Scoring(u8),
}

/// A seat, or the neutral collector (two players).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Money cards in hand (hidden from the others; their number is public).
    pub hand: Vec<Money>,
    /// Buildings owned, in the order acquired.
    pub buildings: Vec<BuildingIdx>,
    /// The turn each of `buildings` was acquired in (same order); 0: before
    /// the first turn (the neutral collector's first draws, a scenario's setup).
    pub acquired: Vec<u32>,
    /// Buildings owned per type.
    pub counts: [u8; MAX_TYPES],
}

impl Player {
    /// The total value of the hand per currency.
    pub fn sums(&self) -> [u32; MAX_CURRENCIES] {
        let mut sums = [0u32; MAX_CURRENCIES];
        for m in &self.hand {
            sums[m.currency as usize] += u32::from(m.value);
        }
        sums
    }

    /// The total value of the hand.
    pub fn money(&self) -> u32 {
        self.hand.iter().map(|m| u32::from(m.value)).sum()
    }

    /// Adds a building held from before the first turn.
    pub(crate) fn add_building(&mut self, rs: &Ruleset, b: BuildingIdx) {
        self.add_building_at(rs, b, 0);
    }

    /// Adds a building acquired in `turn`.
    pub(crate) fn add_building_at(&mut self, rs: &Ruleset, b: BuildingIdx, turn: u32) {
        self.buildings.push(b);
        self.acquired.push(turn);
        self.counts[rs.building(b).kind as usize] += 1;
    }
}

/// What the player at `seat` must decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Take money or buy a building (or pass when neither is possible).
    Turn {
        /// Whose turn.
        seat: usize,
    },
    /// Take another money card, or stop.
    Take {
        /// Who takes.
        seat: usize,
        /// The value taken so far this action.
        taken: u32,
    },
    /// Pay one more money card for the building in `slot`.
    Pay {
        /// Who pays.
        seat: usize,
        /// The display slot (from 0).
        slot: u8,
        /// The value paid so far.
        paid: u32,
    },
    /// Two players: keep the building just bought, or donate it to the neutral collector.
    Donate {
        /// Who bought it.
        seat: usize,
        /// Its display slot (it stays there until the decision).
        slot: u8,
        /// It was paid exactly: another action follows.
        exact: bool,
    },
}

impl Decision {
    /// The seat that must act.
    pub fn seat(&self) -> usize {
        match *self {
            Decision::Turn { seat } | Decision::Take { seat, .. } | Decision::Pay { seat, .. } => seat,
            Decision::Donate { seat, .. } => seat,
        }
    }

    /// The decision's name in views and scenarios.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Turn { .. } => "turn",
            Decision::Take { .. } => "take",
            Decision::Pay { .. } => "pay",
            Decision::Donate { .. } => "donate",
        }
    }
}

/// Something that happened, for logs and the terminal. Every move of this game
/// is seen by the whole table (money is taken from and paid onto open piles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The player it concerns, if any.
    pub seat: Option<usize>,
    /// What happened.
    pub text: String,
}

/// A game of Alhambra.
#[derive(Clone)]
pub struct Game {
    pub(crate) rs: Arc<Ruleset>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) players: Vec<Player>,
    /// The neutral collector (two players).
    pub(crate) neutral: Option<Player>,
    /// Money deck with the scoring cards; the top card is the last element.
    pub(crate) deck: Vec<Draw>,
    pub(crate) discard: Vec<Money>,
    pub(crate) money_display: Vec<Money>,
    /// Building deck; the top card is the last element.
    pub(crate) building_deck: Vec<BuildingIdx>,
    /// One entry per yard slot, left to right.
    pub(crate) building_display: Vec<Option<BuildingIdx>>,
    /// Per scoring card: where in the deck (indices from the bottom) it may lie,
    /// which is all a player knows of it (its pile).
    pub(crate) scoring_range: Vec<(usize, usize)>,
    /// Scorings done, in order (indices into the ruleset's scorings).
    pub(crate) scored: Vec<u8>,
    /// Buildings left on the display at the end that nobody got (a tie).
    pub(crate) unclaimed: Vec<BuildingIdx>,
    /// Buildings a scenario set aside, out of the game.
    pub(crate) set_aside: Vec<BuildingIdx>,
    /// Points per seat, then the neutral collector.
    pub(crate) earned: Vec<Score>,
    pub(crate) start_player: usize,
    pub(crate) turns: u32,
    pub(crate) pending: Option<Decision>,
    pub(crate) legal: Vec<Action>,
    /// Actions answered automatically since the last one given to `apply`.
    pub(crate) auto: Vec<Action>,
    pub(crate) over: bool,
    pub(crate) stalled: bool,
    pub(crate) log: Option<Vec<Event>>,
    /// Why the game stopped part way through an action (a script failed).
    pub(crate) broken: Option<String>,
    pub(crate) record: Option<Vec<Action>>,
    /// The re-deals among the recorded actions (undo), in order.
    pub(crate) redeals: Vec<engine_rules::saved::Redeal>,
    pub(crate) actions_applied: u64,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("ruleset", &self.rs.id)
            .field("turns", &self.turns)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A new game: setup per the ruleset and the seed.
    pub fn new(rs: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new_arranged(rs, players, seed, &[])
    }

    /// A new game whose shuffled money deck has `money_top` on top (top first)
    /// before the starting capital is dealt: scenarios show the deal with it.
    pub fn new_arranged(rs: Arc<Ruleset>, players: usize, seed: u64, money_top: &[Money]) -> Result<Game, GameError> {
        let rules = &rs.rules;
        if players < rules.min_players || players > rules.max_players {
            return Err(GameError::Setup(format!(
                "{players} players: ruleset `{}` is for {} to {} players",
                rs.id, rules.min_players, rules.max_players
            )));
        }
        let mut game = Game::empty(rs, players, ChaCha8Rng::seed_from_u64(seed));
        // Buildings: shuffled, 4 face up, then (2 players) the neutral collector's.
        game.building_deck = game.all_buildings();
        rng::shuffle(&mut game.rng, &mut game.building_deck);
        for slot in 0..game.building_display.len() {
            game.building_display[slot] = game.building_deck.pop();
        }
        game.neutral_draws("start", 0)?;
        // Money: shuffled, then the starting capital, one card at a time per player.
        let mut money = game.all_money();
        rng::shuffle(&mut game.rng, &mut money);
        for (i, m) in money_top.iter().enumerate() {
            let Some(at) = money.iter().position(|x| x == m) else {
                let id = game.rs.money_id(*m);
                return Err(GameError::Setup(format!("card {} of the deck top: no copy of {id} is left", i + 1)));
            };
            let m = money.remove(at);
            money.push(m);
        }
        let n = money.len();
        money[n - money_top.len()..].reverse();
        game.deck = money.into_iter().map(Draw::Money).collect();
        let capital = game.rs.rules.starting_capital;
        for seat in 0..players {
            while game.players[seat].money() < capital {
                let Some(Draw::Money(m)) = game.deck.pop() else {
                    return Err(GameError::Setup(format!(
                        "too few money cards for {players} players' starting capital"
                    )));
                };
                game.players[seat].hand.push(m);
            }
            game.event(Some(seat), |g| {
                let p = &g.players[seat];
                let ids: Vec<String> = p.hand.iter().map(|&m| g.rs.money_id(m)).collect();
                format!("seat {seat} is dealt {} (total {}): {}", n_cards(p.hand.len()), p.money(), ids.join(", "))
            });
        }
        // The start player: fewest cards, then the lowest total, then (in place of
        // "the youngest") a seeded draw among those still tied.
        let key = |p: &Player| (p.hand.len(), p.money());
        let best = game.players.iter().map(key).min().expect("players");
        let tied: Vec<usize> = (0..players).filter(|&s| key(&game.players[s]) == best).collect();
        game.start_player = tied[rng::below(&mut game.rng, tied.len())];
        let start = game.start_player;
        game.event(Some(start), |_| {
            let by = if tied.len() > 1 { " by a draw among the tied" } else { "" };
            format!("seat {start} starts (fewest cards, then lowest total{by})")
        });
        for _ in 0..game.rs.rules.money_display {
            if let Some(Draw::Money(m)) = game.deck.pop() {
                game.money_display.push(m);
            }
        }
        game.cut_piles();
        game.pending = Some(Decision::Turn { seat: start });
        game.advance()?;
        Ok(game)
    }

    /// A game with no cards dealt; `new` and scenarios fill it in.
    pub(crate) fn empty(rs: Arc<Ruleset>, players: usize, rng: ChaCha8Rng) -> Game {
        let slots = rs.building_display();
        let neutral = (players == 2).then(Player::default);
        let collectors = players + usize::from(neutral.is_some());
        let scorings = rs.scorings.len();
        Game {
            rs,
            rng,
            players: vec![Player::default(); players],
            neutral,
            deck: Vec::new(),
            discard: Vec::new(),
            money_display: Vec::new(),
            building_deck: Vec::new(),
            building_display: vec![None; slots],
            scoring_range: vec![(0, 0); scorings],
            scored: Vec::new(),
            unclaimed: Vec::new(),
            set_aside: Vec::new(),
            earned: vec![Score::default(); collectors],
            start_player: 0,
            turns: 1,
            pending: None,
            legal: Vec::new(),
            auto: Vec::new(),
            over: false,
            stalled: false,
            log: None,
            broken: None,
            record: None,
            redeals: Vec::new(),
            actions_applied: 0,
        }
    }

    /// Every money card of this game (one entry per copy).
    pub(crate) fn all_money(&self) -> Vec<Money> {
        let copies = self.rs.money_copies(self.players.len());
        let mut out = Vec::with_capacity(self.rs.money_cards(self.players.len()));
        for c in 0..self.rs.currencies.len() {
            for &value in &self.rs.values {
                out.extend(std::iter::repeat_n(Money { currency: c as u8, value }, copies as usize));
            }
        }
        out
    }

    /// Every building card (one entry per copy).
    pub(crate) fn all_buildings(&self) -> Vec<BuildingIdx> {
        let rs = &self.rs;
        let mut out = Vec::with_capacity(rs.building_cards());
        for (i, b) in rs.buildings.iter().enumerate() {
            out.extend(std::iter::repeat_n(i as BuildingIdx, b.copies as usize));
        }
        out
    }

    /// Cuts the money deck into near-equal piles (the top ones one card larger),
    /// shuffles each scoring card into its pile and stacks pile 1 on top.
    fn cut_piles(&mut self) {
        let piles = self.rs.rules.piles;
        let len = self.deck.len();
        // Top first from here on.
        let mut top_first: Vec<Draw> = self.deck.drain(..).rev().collect();
        let mut out: Vec<Draw> = Vec::with_capacity(len + self.rs.scorings.len());
        let mut ranges = Vec::new();
        for k in 0..piles {
            let size = len / piles + usize::from(k < len % piles);
            let mut pile: Vec<Draw> = top_first.drain(..size).collect();
            for (i, s) in self.rs.scorings.iter().enumerate() {
                if s.pile == Some(k + 1) {
                    let at = rng::below(&mut self.rng, pile.len() + 1);
                    pile.insert(at, Draw::Scoring(i as u8));
                    ranges.push((i, out.len(), out.len() + pile.len()));
                }
            }
            out.extend(pile);
        }
        let total = out.len();
        for (i, start, end) in ranges {
            // Top-first indices [start, end) are bottom indices [total - end, total - start).
            self.scoring_range[i] = (total - end, total - start);
        }
        out.reverse();
        self.deck = out;
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

    /// The actions answered since recording was turned on (automatic answers to
    /// one-choice decisions are not included: replay makes them again).
    pub fn recorded(&self) -> &[Action] {
        self.record.as_deref().unwrap_or_default()
    }

    /// The number of entries a saved game of this game holds: the recorded
    /// actions and the re-deals among them.
    pub fn saved_len(&self) -> usize {
        self.recorded().len() + self.redeals.len()
    }

    /// Deals again, from `seed`, every card `seat` has not seen (the others'
    /// hands, the order of both decks, each scoring card within its pile), as
    /// [`Game::determinize`] does, and records it: what an undo does so that
    /// taking back a draw shows nothing of the face-down cards.
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

    /// Events since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(crate) fn event(&mut self, seat: Option<usize>, text: impl FnOnce(&Game) -> String) {
        if self.log.is_some() {
            let text = text(self);
            if let Some(log) = &mut self.log {
                log.push(Event { seat, text });
            }
        }
    }

    /// The ruleset this game is played with.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    /// Number of players (the neutral collector is not one).
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// A player's state.
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }

    /// The neutral collector (two players).
    pub fn neutral(&self) -> Option<&Player> {
        self.neutral.as_ref()
    }

    /// The seat that took the first turn.
    pub fn start_player(&self) -> usize {
        self.start_player
    }

    /// Turn number, from 1.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Money cards face up to take.
    pub fn money_display(&self) -> &[Money] {
        &self.money_display
    }

    /// The building display, one entry per yard slot.
    pub fn building_display(&self) -> &[Option<BuildingIdx>] {
        &self.building_display
    }

    /// Cards in the money deck (scoring cards included).
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// Cards in the building deck.
    pub fn building_deck_size(&self) -> usize {
        self.building_deck.len()
    }

    /// The discard pile (face up), last paid on top.
    pub fn discard(&self) -> &[Money] {
        &self.discard
    }

    /// Scorings done so far, by name.
    pub fn scored(&self) -> Vec<&str> {
        self.scored.iter().map(|&i| self.rs.scorings[i as usize].name.as_str()).collect()
    }

    /// Buildings nobody got at the end (a tie for the most money of their currency).
    pub fn unclaimed(&self) -> &[BuildingIdx] {
        &self.unclaimed
    }

    /// The decision waiting for an answer; `None` once the game is over.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// Every legal answer to the pending decision (empty once the game is over).
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// True if the game ended by the `max_turns` safety valve, not by the rules.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// Number of actions applied (automatic ones included).
    pub fn actions_applied(&self) -> u64 {
        self.actions_applied
    }

    /// Index of a card kind in [`Game::census`]: money kinds (currency by
    /// currency, value by value), then building kinds, then scoring cards.
    pub fn census_index_of_money(&self, m: Money) -> usize {
        let v = self.rs.values.iter().position(|&v| v == m.value).expect("a value of the ruleset");
        m.currency as usize * self.rs.values.len() + v
    }

    /// How many cards of each kind are where, over every place a card can be
    /// (decks, displays, discard pile, hands, buildings, the neutral
    /// collector's, unclaimed, scoring cards done). Equals
    /// [`Game::census_expected`] at every point of a game.
    pub fn census(&self) -> Vec<u32> {
        let money_kinds = self.rs.currencies.len() * self.rs.values.len();
        let buildings = self.rs.buildings.len();
        let mut count = vec![0u32; money_kinds + buildings + self.rs.scorings.len()];
        let money = |count: &mut Vec<u32>, m: &Money| count[self.census_index_of_money(*m)] += 1;
        let building = |count: &mut Vec<u32>, b: &BuildingIdx| count[money_kinds + *b as usize] += 1;
        for d in &self.deck {
            match d {
                Draw::Money(m) => money(&mut count, m),
                Draw::Scoring(s) => count[money_kinds + buildings + *s as usize] += 1,
            }
        }
        for s in &self.scored {
            if self.rs.scorings[*s as usize].card.is_some() {
                count[money_kinds + buildings + *s as usize] += 1;
            }
        }
        self.discard.iter().chain(&self.money_display).for_each(|m| money(&mut count, m));
        self.building_deck
            .iter()
            .chain(self.building_display.iter().flatten())
            .chain(&self.unclaimed)
            .chain(&self.set_aside)
            .for_each(|b| building(&mut count, b));
        for p in self.players.iter().chain(&self.neutral) {
            p.hand.iter().for_each(|m| money(&mut count, m));
            p.buildings.iter().for_each(|b| building(&mut count, b));
        }
        count
    }

    /// What [`Game::census`] must be: every card once.
    pub fn census_expected(&self) -> Vec<u32> {
        let copies = u32::from(self.rs.money_copies(self.players.len()));
        let mut out = vec![copies; self.rs.currencies.len() * self.rs.values.len()];
        out.extend(self.rs.buildings.iter().map(|b| u32::from(b.copies)));
        out.extend(self.rs.scorings.iter().map(|s| u32::from(s.card.is_some())));
        out
    }

    /// A game consistent with what `seat` can see: the other players' hands
    /// (their sizes kept), the order of the money deck (each scoring card kept
    /// within its pile) and the order of the building deck are dealt again at
    /// random, and the game's own random stream is replaced.
    pub fn determinize(&self, seat: usize, seed: u64) -> Game {
        let mut g = self.clone();
        g.log = None;
        g.record = None;
        g.rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<Money> = Vec::with_capacity(g.deck.len() + 40);
        let mut scoring: Vec<u8> = Vec::new();
        for d in &g.deck {
            match d {
                Draw::Money(m) => pool.push(*m),
                Draw::Scoring(s) => scoring.push(*s),
            }
        }
        for (s, p) in g.players.iter().enumerate() {
            if s != seat {
                pool.extend_from_slice(&p.hand);
            }
        }
        rng::shuffle(&mut g.rng, &mut pool);
        for (s, p) in g.players.iter_mut().enumerate() {
            if s != seat {
                let n = p.hand.len();
                p.hand = pool.split_off(pool.len() - n);
            }
        }
        // The scoring cards first, each somewhere within its range; the money around them.
        let len = g.deck.len();
        let mut deck: Vec<Option<Draw>> = vec![None; len];
        for s in scoring {
            let (lo, hi) = g.scoring_range[s as usize];
            let (lo, hi) = (lo.min(len), hi.min(len));
            let free: Vec<usize> = (lo..hi).filter(|&i| deck[i].is_none()).collect();
            let at = if free.is_empty() {
                (0..len).find(|&i| deck[i].is_none()).expect("room for the scoring card")
            } else {
                free[rng::below(&mut g.rng, free.len())]
            };
            deck[at] = Some(Draw::Scoring(s));
        }
        g.deck = deck.into_iter().map(|d| d.unwrap_or_else(|| Draw::Money(pool.pop().expect("money")))).collect();
        rng::shuffle(&mut g.rng, &mut g.building_deck);
        g
    }

    // ----- applying actions ----------------------------------------------

    /// Applies one action and advances to the next real decision.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        self.check_legal(action)?;
        self.apply_checked(action)?;
        Ok(self.take_events())
    }

    /// Applies a legal action and advances; a failure part way breaks the game.
    fn apply_checked(&mut self, action: Action) -> Result<(), GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        if let Some(record) = &mut self.record {
            record.push(action);
        }
        self.auto.clear();
        let result = self.apply_legal(action).and_then(|()| self.advance());
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result
    }

    /// Applies an action for `seat`: refused with the reason if it is not that seat's decision.
    pub fn apply_as(&mut self, seat: usize, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = self.not_your_turn(seat) {
            return Err(self.illegal(action, why));
        }
        self.apply(action)
    }

    /// Applies a line of action text (one or more atomic actions of one seat).
    /// An action that was answered automatically (the only legal one) may be
    /// written out: it is skipped. `take denar3` takes only that card.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, stop } =
            parse_line(text, &self.rs).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let seat = self.pending.as_ref().map(Decision::seat);
        // The value taken in this turn so far, to explain a take past the limit.
        let mut taken = match self.pending {
            Some(Decision::Take { taken, .. }) => taken,
            _ => 0,
        };
        let mut events = Vec::new();
        for a in &actions {
            if !self.legal.contains(a)
                && let Some(i) = self.auto.iter().position(|x| x == a)
            {
                self.auto.drain(..=i);
                continue;
            }
            if let (Some(s), Some(now)) = (seat, self.pending)
                && now.seat() != s
            {
                let over = match a {
                    Action::Take(m) => {
                        let limit = self.rs.rules.take_limit;
                        let more = taken + u32::from(m.value);
                        format!(
                            "seat {s} has taken {taken} this turn; {} would make {more}, more than {limit}, so ",
                            self.rs.money_id(*m)
                        )
                    }
                    _ => String::new(),
                };
                let why = format!("{over}seat {s}'s turn is over; now seat {} must {}", now.seat(), self.task(&now));
                return Err(self.illegal(*a, why));
            }
            if let Action::Take(m) = a {
                taken += u32::from(m.value);
            }
            events.extend(self.apply(*a)?);
        }
        if stop
            && matches!(self.pending, Some(Decision::Take { seat: s, .. }) if Some(s) == seat)
            && self.legal.contains(&Action::Done)
        {
            events.extend(self.apply(Action::Done)?);
        }
        Ok(events)
    }

    /// Applies the atomic actions of a line exactly as written (a `take` does
    /// not stop the taking). Saved games replay with this.
    pub fn apply_exact(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        let Line { actions, .. } =
            parse_line(text, &self.rs).map_err(|why| GameError::Parse { text: text.into(), why })?;
        let mut events = Vec::new();
        for a in actions {
            events.extend(self.apply(a)?);
        }
        Ok(events)
    }

    fn illegal(&self, action: Action, why: String) -> GameError {
        GameError::Illegal {
            action: action.text(&self.rs),
            why,
            legal: self.legal.iter().map(|a| a.text(&self.rs)).collect(),
        }
    }

    fn check_legal(&self, action: Action) -> Result<(), GameError> {
        match self.why_illegal(action) {
            None => Ok(()),
            Some(why) => Err(self.illegal(action, why)),
        }
    }

    /// Why `seat` may not act now (`None`: it is its decision).
    pub fn not_your_turn(&self, seat: usize) -> Option<String> {
        match &self.pending {
            None => Some("the game is over; no decision is pending".into()),
            Some(d) if d.seat() != seat => Some(format!(
                "it is seat {}'s turn, not seat {seat}'s: seat {} must {}",
                d.seat(),
                d.seat(),
                self.task(d)
            )),
            Some(_) => None,
        }
    }

    /// What the seat of decision `d` must do, in words: `take money or buy a building`.
    pub fn task(&self, d: &Decision) -> String {
        let rs = &self.rs;
        match *d {
            Decision::Turn { .. } => "take money or buy a building".into(),
            Decision::Take { taken, .. } => {
                format!("take more money (up to {} in all) or say done", rs.rules.take_limit.max(taken))
            }
            Decision::Pay { slot, paid, .. } => {
                let (b, price) = self.slot_building(slot);
                format!(
                    "pay {} more {} for {} in slot {}",
                    price.saturating_sub(paid),
                    rs.currency_name(rs.yard[slot as usize]),
                    rs.building(b).id,
                    slot + 1
                )
            }
            Decision::Donate { slot, .. } => {
                let (b, _) = self.slot_building(slot);
                format!("keep {} or donate it to {}", rs.building(b).id, rs.two_players.neutral)
            }
        }
    }

    /// The building in a display slot that a pending purchase refers to, and its price.
    fn slot_building(&self, slot: u8) -> (BuildingIdx, u32) {
        let b = self.building_display[slot as usize].expect("a building in the slot being bought");
        (b, u32::from(self.rs.building(b).price))
    }

    /// Why `action` is not a legal answer to the pending decision, in words;
    /// `None` if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.legal.contains(&action) {
            return None;
        }
        let Some(d) = self.pending else {
            return Some("the game is over; no decision is pending".into());
        };
        let rs = &self.rs;
        let seat = d.seat();
        let p = &self.players[seat];
        let id = |m: Money| rs.money_id(m);
        let limit = rs.rules.take_limit;
        let not_shown = |m: Money| {
            let shown: Vec<String> = self.money_display.iter().map(|&m| id(m)).collect();
            format!("there is no {} on the money display (it shows {})", id(m), list_or_nothing(&shown))
        };
        let why = match (d, action) {
            (Decision::Turn { .. }, Action::Take(m)) => not_shown(m),
            (Decision::Take { taken, .. }, Action::Take(m)) => {
                if !self.money_display.contains(&m) {
                    not_shown(m)
                } else {
                    format!(
                        "seat {seat} has taken {taken} this turn; {} would make {}, more than {limit} (one card may be worth more, several cards together at most {limit})",
                        id(m),
                        taken + u32::from(m.value)
                    )
                }
            }
            (Decision::Turn { .. }, Action::Buy(slot)) => match self.building_display.get(slot as usize) {
                None => format!("there is no slot {}; slots are 1 to {}", slot + 1, self.building_display.len()),
                Some(None) => format!("slot {} of the building display is empty", slot + 1),
                Some(Some(b)) => {
                    let c = rs.yard[slot as usize];
                    let def = rs.building(*b);
                    format!(
                        "{} in slot {} costs {} {}; seat {seat} has {} {} (other currencies do not count)",
                        def.id,
                        slot + 1,
                        def.price,
                        rs.currency_name(c),
                        p.sums()[c as usize],
                        rs.currency_name(c)
                    )
                }
            },
            (Decision::Pay { slot, .. }, Action::Pay(m)) => {
                let c = rs.yard[slot as usize];
                let (b, _) = self.slot_building(slot);
                if m.currency != c {
                    format!(
                        "{} is {}, but {} in slot {} is paid in {}",
                        id(m),
                        rs.currency_name(m.currency),
                        rs.building(b).id,
                        slot + 1,
                        rs.currency_name(c)
                    )
                } else {
                    format!("seat {seat} has no {} in hand", id(m))
                }
            }
            (Decision::Turn { .. }, Action::Done) => {
                format!("seat {seat} has taken nothing to be done with; it must {}", self.task(&d))
            }
            (Decision::Turn { .. }, Action::Pass) => {
                format!("seat {seat} can take money or buy; `pass` is only for when neither is possible")
            }
            (_, Action::Keep | Action::Donate) if self.neutral.is_none() => {
                "only with two players is a bought building kept or donated".into()
            }
            (_, a) => {
                let verb = match a {
                    Action::Take(_) => "take money",
                    Action::Done => "stop taking money",
                    Action::Buy(_) => "buy",
                    Action::Pay(_) => "pay",
                    Action::Keep => "keep a building",
                    Action::Donate => "donate a building",
                    Action::Pass => "pass",
                };
                format!("seat {seat} must {}, not {verb}", self.task(&d))
            }
        };
        Some(why)
    }

    /// Runs until a decision with a real choice is pending or the game ends.
    pub(crate) fn advance(&mut self) -> Result<(), GameError> {
        while self.pending.is_some() {
            let mut legal = std::mem::take(&mut self.legal);
            self.compute_legal(&mut legal);
            self.legal = legal;
            if self.legal.len() != 1 {
                return Ok(());
            }
            let only = self.legal[0];
            self.auto.push(only);
            self.apply_legal(only)?;
        }
        self.legal.clear();
        Ok(())
    }

    /// Works out the legal answers to the pending decision into `out`.
    fn compute_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(d) = self.pending else { return };
        let push = |out: &mut Vec<Action>, a: Action| {
            if !out.contains(&a) {
                out.push(a);
            }
        };
        match d {
            Decision::Turn { seat } => {
                for &m in &self.money_display {
                    push(out, Action::Take(m));
                }
                let sums = self.players[seat].sums();
                for (slot, b) in self.building_display.iter().enumerate() {
                    if let Some(b) = b
                        && sums[self.rs.yard[slot] as usize] >= u32::from(self.rs.building(*b).price)
                    {
                        out.push(Action::Buy(slot as u8));
                    }
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Decision::Take { taken, .. } => {
                let room = self.rs.rules.take_limit.saturating_sub(taken);
                for &m in &self.money_display {
                    if u32::from(m.value) <= room {
                        push(out, Action::Take(m));
                    }
                }
                out.push(Action::Done);
            }
            Decision::Pay { seat, slot, .. } => {
                let c = self.rs.yard[slot as usize];
                for &m in &self.players[seat].hand {
                    if m.currency == c {
                        push(out, Action::Pay(m));
                    }
                }
            }
            Decision::Donate { .. } => {
                out.push(Action::Keep);
                out.push(Action::Donate);
            }
        }
    }

    /// Applies an action known to be legal.
    fn apply_legal(&mut self, action: Action) -> Result<(), GameError> {
        self.actions_applied += 1;
        let d = self.pending.take().expect("a decision is pending");
        match (d, action) {
            (Decision::Turn { seat } | Decision::Take { seat, .. }, Action::Take(m)) => {
                let taken = match d {
                    Decision::Take { taken, .. } => taken,
                    _ => 0,
                };
                let i = self.money_display.iter().position(|&x| x == m).expect("legal take");
                self.money_display.remove(i);
                self.players[seat].hand.push(m);
                self.event(Some(seat), |g| format!("seat {seat} takes {}", g.rs.money_id(m)));
                self.pending = Some(Decision::Take { seat, taken: taken + u32::from(m.value) });
                Ok(())
            }
            (Decision::Take { seat, .. }, Action::Done) | (Decision::Turn { seat }, Action::Pass) => {
                if action == Action::Pass {
                    self.event(Some(seat), |_| format!("seat {seat} can neither take money nor buy: passes"));
                }
                self.end_turn(seat)
            }
            (Decision::Turn { seat }, Action::Buy(slot)) => {
                self.event(Some(seat), |g| {
                    let (b, _) = g.slot_building(slot);
                    format!("seat {seat} buys {} from slot {}", g.rs.building(b).id, slot + 1)
                });
                self.pending = Some(Decision::Pay { seat, slot, paid: 0 });
                Ok(())
            }
            (Decision::Pay { seat, slot, paid }, Action::Pay(m)) => {
                let hand = &mut self.players[seat].hand;
                let i = hand.iter().position(|&x| x == m).expect("legal payment");
                hand.swap_remove(i);
                self.discard.push(m);
                let paid = paid + u32::from(m.value);
                let (_, price) = self.slot_building(slot);
                self.event(Some(seat), |g| format!("seat {seat} pays {}", g.rs.money_id(m)));
                if paid < price {
                    self.pending = Some(Decision::Pay { seat, slot, paid });
                    return Ok(());
                }
                let exact = paid == price;
                if self.neutral.is_some() {
                    self.pending = Some(Decision::Donate { seat, slot, exact });
                    return Ok(());
                }
                self.acquire(seat, slot, false, exact)
            }
            (Decision::Donate { seat, slot, exact }, Action::Keep | Action::Donate) => {
                self.acquire(seat, slot, action == Action::Donate, exact)
            }
            (d, a) => unreachable!("legal action {a:?} does not answer {d:?}"),
        }
    }

    /// The bought building leaves its slot for the buyer (or the neutral
    /// collector); paid exactly, the same seat acts again, else the turn ends.
    fn acquire(&mut self, seat: usize, slot: u8, donate: bool, exact: bool) -> Result<(), GameError> {
        let b = self.building_display[slot as usize].take().expect("a building in the slot");
        let rs = Arc::clone(&self.rs);
        match (&mut self.neutral, donate) {
            (Some(n), true) => n.add_building_at(&rs, b, self.turns),
            _ => self.players[seat].add_building_at(&rs, b, self.turns),
        }
        self.event(Some(seat), |g| {
            let id = &g.rs.building(b).id;
            let paid = if exact { "paid exactly: another action" } else { "overpaid: the turn ends" };
            if donate {
                format!("seat {seat} donates {id} to {} ({paid})", g.rs.two_players.neutral)
            } else {
                format!("seat {seat} places {id} ({paid})")
            }
        });
        if exact {
            self.pending = Some(Decision::Turn { seat });
            Ok(())
        } else {
            self.end_turn(seat)
        }
    }

    /// After a turn: the building display is refilled left to right; if it
    /// cannot be filled the game ends. Else the money display is refilled, a
    /// scoring card drawn on the way is scored at once, and the next seat plays.
    ///
    /// The rules text refills both displays after a turn and ends the game when
    /// the buildings cannot be refilled; it does not say whether the money is
    /// refilled then. Here the game ends at once: no money is drawn, so a
    /// scoring card still in the deck is not scored (the money in hands decides
    /// the buildings left, not the display).
    fn end_turn(&mut self, seat: usize) -> Result<(), GameError> {
        for slot in 0..self.building_display.len() {
            if self.building_display[slot].is_none() {
                self.building_display[slot] = self.building_deck.pop();
            }
        }
        if self.building_display.iter().any(Option::is_none) {
            return self.finish();
        }
        self.refill_money()?;
        if self.turns >= self.rs.rules.max_turns {
            self.stalled = true;
            self.event(None, |g| format!("no game end after {} turns: the game is scored as it stands", g.turns));
            return self.finish();
        }
        self.turns += 1;
        self.pending = Some(Decision::Turn { seat: (seat + 1) % self.players.len() });
        Ok(())
    }

    /// Refills the money display; a scoring card drawn is scored, then the refill goes on.
    pub(crate) fn refill_money(&mut self) -> Result<(), GameError> {
        while self.money_display.len() < self.rs.rules.money_display {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    break;
                }
                self.deck.extend(self.discard.drain(..).map(Draw::Money));
                rng::shuffle(&mut self.rng, &mut self.deck);
                self.event(None, |_| "the discard pile is shuffled into a new money deck".into());
            }
            match self.deck.pop() {
                Some(Draw::Money(m)) => self.money_display.push(m),
                Some(Draw::Scoring(s)) => {
                    self.score_round(s as usize)?;
                    let name = self.rs.scorings[s as usize].name.clone();
                    self.neutral_draws(&name, self.turns)?;
                }
                None => break,
            }
        }
        Ok(())
    }

    /// Two players: the neutral collector's draws at `at` (`start` or a
    /// scoring's name), in `turn` (0 at the start).
    fn neutral_draws(&mut self, at: &str, turn: u32) -> Result<(), GameError> {
        if self.neutral.is_none() {
            return Ok(());
        }
        let rs = Arc::clone(&self.rs);
        for d in rs.two_players.neutral_draws.iter().filter(|d| d.at == at) {
            let deck = self.building_deck.len();
            let n = rs.hooks.neutral_draws(deck as u32, d.cards, d.share)? as usize;
            let n = n.min(deck);
            for _ in 0..n {
                let b = self.building_deck.pop().expect("counted");
                self.neutral.as_mut().expect("two players").add_building_at(&rs, b, turn);
            }
            self.event(None, |g| format!("{} draws {} ({at})", g.rs.two_players.neutral, n_cards(n)));
        }
        Ok(())
    }

    /// Scores scoring `k` now: points per collector and type into their scores.
    pub(crate) fn score_round(&mut self, k: usize) -> Result<(), GameError> {
        let rs = Arc::clone(&self.rs);
        let counts: Vec<[u8; MAX_TYPES]> = self.players.iter().chain(&self.neutral).map(|p| p.counts).collect();
        let scoring = &rs.scorings[k];
        let points = rs.scoring_points(k, &counts)?;
        for (c, row) in points.iter().enumerate() {
            let total: i32 = row.iter().sum();
            self.earned[c].add(&scoring.name, total);
        }
        self.scored.push(k as u8);
        self.event(None, |g| {
            let who = |c: usize| {
                if c < g.players.len() { format!("seat {c}") } else { g.rs.two_players.neutral.clone() }
            };
            let mut parts = Vec::new();
            for (c, row) in points.iter().enumerate() {
                let by: Vec<String> = row
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| **p > 0)
                    .map(|(t, p)| format!("{} {p}", g.rs.types[t].id))
                    .collect();
                if !by.is_empty() {
                    parts.push(format!("{} {} ({})", who(c), row.iter().sum::<i32>(), by.join(", ")));
                }
            }
            format!("scoring {}: {}", scoring.name, list_or_nothing(&parts))
        });
        Ok(())
    }

    /// The game end: the buildings left on the display go to whoever holds the
    /// most money of their slot's currency (a tie: nobody), then the final scoring.
    fn finish(&mut self) -> Result<(), GameError> {
        let rs = Arc::clone(&self.rs);
        for slot in 0..self.building_display.len() {
            let Some(b) = self.building_display[slot].take() else { continue };
            let c = rs.yard[slot] as usize;
            let sums: Vec<u32> = self.players.iter().map(|p| p.sums()[c]).collect();
            let best = sums.iter().copied().max().unwrap_or(0);
            let holders: Vec<usize> = (0..sums.len()).filter(|&s| sums[s] == best).collect();
            if best > 0 && holders.len() == 1 {
                let s = holders[0];
                self.players[s].add_building_at(&rs, b, self.turns);
                self.event(Some(s), |g| {
                    format!("seat {s} gets {} (most {}: {best})", rs.building(b).id, g.rs.currency_name(c as u8))
                });
            } else {
                self.unclaimed.push(b);
                self.event(None, |g| {
                    format!("nobody gets {} (a tie for the most {})", rs.building(b).id, g.rs.currency_name(c as u8))
                });
            }
        }
        let last = rs.scorings.len() - 1;
        self.score_round(last)?;
        self.over = true;
        self.pending = None;
        self.legal.clear();
        Ok(())
    }
}

/// "1 card", "3 cards".
pub(crate) fn n_cards(n: usize) -> String {
    if n == 1 { "1 card".into() } else { format!("{n} cards") }
}

fn list_or_nothing(items: &[String]) -> String {
    if items.is_empty() { "nothing".into() } else { items.join(", ") }
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
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        // Bots answer from `legal`: skip the checks and the event list of `apply`.
        if !self.legal.contains(&action) {
            return self.check_legal(action);
        }
        self.apply_checked(action)
    }

    /// Mostly the win share; a fifth is the margin over the best other player,
    /// so that a search also prefers winning (or losing) by more (or less).
    fn rewards(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let totals: Vec<i32> = (0..self.players.len()).map(|s| self.earned[s].total).collect();
        let winners = crate::score::winners_of(&totals);
        let share = 1.0 / winners.len() as f64;
        Some(
            (0..totals.len())
                .map(|seat| {
                    let best_other = totals.iter().enumerate().filter(|(s, _)| *s != seat).map(|(_, x)| *x).max();
                    let margin = f64::from(totals[seat] - best_other.unwrap_or(0));
                    let win = if winners.contains(&seat) { share } else { 0.0 };
                    0.8 * win + 0.2 * (0.5 + 0.5 * (margin / 20.0).tanh())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rs() -> Arc<Ruleset> {
        Ruleset::load("alhambra").unwrap()
    }

    /// Top-first positions of the scoring cards in the money deck.
    fn scoring_positions(g: &Game) -> Vec<(u8, usize)> {
        g.deck
            .iter()
            .rev()
            .enumerate()
            .filter_map(|(i, d)| if let Draw::Scoring(s) = d { Some((*s, i)) } else { None })
            .collect()
    }

    #[test]
    fn each_scoring_card_lies_in_its_pile() {
        let rs = rs();
        for players in 2..=6 {
            for seed in 0..200 {
                let g = Game::new(Arc::clone(&rs), players, seed).unwrap();
                // Before the first turn nothing was drawn from the piles.
                let money = g.deck.len() - 2;
                let size = |k: usize| money / 5 + usize::from(k < money % 5);
                let start = |k: usize| (0..k).map(size).sum::<usize>();
                let pos = scoring_positions(&g);
                assert_eq!(pos.len(), 2);
                // A in pile 2; B in pile 4, one further down for A above it.
                let (a, b) = (pos[0], pos[1]);
                assert_eq!((a.0, b.0), (0, 1));
                assert!((start(1)..=start(1) + size(1)).contains(&a.1), "{players} players, seed {seed}: A at {}", a.1);
                assert!((start(3) + 1..=start(3) + size(3) + 1).contains(&b.1), "seed {seed}: B at {}", b.1);
                // Their known ranges hold them.
                for (s, top) in pos {
                    let bottom = g.deck.len() - 1 - top;
                    let (lo, hi) = g.scoring_range[s as usize];
                    assert!((lo..hi).contains(&bottom));
                }
            }
        }
    }

    #[test]
    fn the_view_tells_how_close_the_next_scoring_is() {
        let rs = rs();
        for seed in 0..20 {
            let mut g = Game::new(Arc::clone(&rs), 3, seed).unwrap();
            let mut bot = engine_play::bots::RandomBot::new(seed);
            let mut seen = Vec::new();
            let dealt = g.deck.len();
            while !g.is_over() {
                let next = g.view(Some(0)).next_scoring.expect("a scoring is to come until the end");
                if !seen.contains(&next.name) {
                    seen.push(next.name.clone());
                }
                let index = rs.scorings.iter().position(|s| s.name == next.name).unwrap() as u8;
                match scoring_positions(&g).iter().find(|(s, _)| *s == index) {
                    // The card's true place (cards above it) lies in the window a pile wide.
                    Some(&(_, above)) => {
                        let (min, max) = (next.draws_min.unwrap(), next.draws_max.unwrap());
                        assert!((min..=max).contains(&above), "seed {seed}: {above} outside {min}..={max}");
                        assert!(max - min <= dealt / 5 + 1, "a pile, not the deck: {min}..={max}");
                    }
                    None => assert!(next.card.is_none() && next.draws_min.is_none(), "seed {seed}: {next:?}"),
                }
                let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
                g.apply(a).unwrap();
            }
            assert_eq!(seen, ["A", "B", "C"], "seed {seed}");
            assert_eq!(g.view(None).next_scoring, None);
        }
    }

    #[test]
    fn buildings_remember_their_turn() {
        let rs = rs();
        let mut g = Game::new(Arc::clone(&rs), 2, 5).unwrap();
        let n = g.neutral.as_ref().unwrap();
        assert!(!n.buildings.is_empty() && n.acquired.iter().all(|&t| t == 0), "the start draws: {:?}", n.acquired);
        let mut bot = engine_play::bots::RandomBot::new(1);
        while !g.is_over() {
            let turn = g.turns;
            let before: Vec<usize> = g.players.iter().chain(&g.neutral).map(|p| p.buildings.len()).collect();
            let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
            g.apply(a).unwrap();
            for (c, p) in g.players.iter().chain(&g.neutral).enumerate() {
                assert_eq!(p.acquired.len(), p.buildings.len());
                assert!(p.acquired[before[c]..].iter().all(|&t| t == turn), "collector {c} in turn {turn}");
            }
        }
    }

    #[test]
    fn starting_capital_is_20_to_28_and_the_start_player_has_fewest_cards() {
        let rs = rs();
        for seed in 0..300 {
            let g = Game::new(Arc::clone(&rs), 5, seed).unwrap();
            for p in &g.players {
                assert!((20..=28).contains(&p.money()), "seed {seed}: {}", p.money());
            }
            let key = |p: &Player| (p.hand.len(), p.money());
            let best = g.players.iter().map(key).min().unwrap();
            assert_eq!(key(&g.players[g.start_player]), best);
            assert_eq!(g.pending, Some(Decision::Turn { seat: g.start_player }));
            assert_eq!(g.money_display.len(), 4);
        }
    }

    #[test]
    fn determinize_keeps_what_the_seat_sees() {
        let rs = rs();
        let mut g = Game::new(Arc::clone(&rs), 4, 9).unwrap();
        let mut bot = engine_play::bots::RandomBot::new(3);
        for _ in 0..40 {
            let a = engine_play::bots::Bot::choose(&mut bot, &g, g.legal_actions());
            g.apply(a).unwrap();
        }
        for seed in 0..50 {
            let seat = g.pending.unwrap().seat();
            let d = g.determinize(seat, seed);
            assert_eq!(d.census(), g.census_expected());
            assert_eq!(d.players[seat].hand, g.players[seat].hand);
            for s in 0..4 {
                assert_eq!(d.players[s].hand.len(), g.players[s].hand.len());
                assert_eq!(d.players[s].buildings, g.players[s].buildings);
            }
            assert_eq!(d.money_display, g.money_display);
            assert_eq!(d.building_display, g.building_display);
            assert_eq!(d.discard, g.discard);
            assert_eq!(d.deck.len(), g.deck.len());
            assert_eq!(d.legal, g.legal);
            for (s, top) in scoring_positions(&d) {
                let bottom = d.deck.len() - 1 - top;
                let (lo, hi) = d.scoring_range[s as usize];
                assert!((lo..hi).contains(&bottom));
            }
        }
        let others_differ = (0..20).any(|seed| {
            let d = g.determinize(0, seed);
            (1..4).any(|s| d.players[s].hand != g.players[s].hand)
        });
        assert!(others_differ, "the other hands are dealt again");
    }
}
