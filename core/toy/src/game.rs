//! The state of a High-Low game and its rules: the deal, the legal actions,
//! applying one, the end; plus what search and undo need (a deal of what a
//! seat has not seen) and the card census the random-game check holds to.

use std::sync::Arc;

use engine_game::Journal;
use engine_play::rng;
use engine_play::{Determinize, Seats, TurnGame};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::actions::{Action, card_id};
use crate::error::GameError;
use crate::ruleset::Ruleset;

/// One thing that happened. Every seat may read every event: a drawn card is not named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub text: String,
}

/// A game in progress. Cards are their values; the deck's and the pile's tops are their last cards.
#[derive(Clone)]
pub struct Game {
    pub(crate) rs: Arc<Ruleset>,
    pub(crate) hands: Vec<Vec<u8>>,
    pub(crate) scores: Vec<i32>,
    /// Per seat, the cards it played with the round of each (the record's "holdings").
    pub(crate) played: Vec<Vec<(u8, u32)>>,
    pub(crate) pile: Vec<u8>,
    pub(crate) deck: Vec<u8>,
    /// Cards out of the game: those a scenario's position does not place.
    pub(crate) out: Vec<u8>,
    pub(crate) to_move: usize,
    /// Turns taken since the start.
    pub(crate) turns: u32,
    /// Passes in a row (with an empty deck): two end the game.
    pub(crate) passes: u32,
    pub(crate) over: bool,
    pub(crate) legal: Vec<Action>,
    /// The event log, the recorded actions and re-deals, the count of actions.
    pub(crate) journal: Journal<Action, Event>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("hands", &self.hands).field("pile", &self.pile).finish_non_exhaustive()
    }
}

impl Game {
    /// A new game of `players`: the deck shuffled from `seed`, hands dealt, one card turned up.
    pub fn new(rs: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        let (lo, hi) = (rs.rules.min_players, rs.rules.max_players);
        if !(lo..=hi).contains(&players) {
            return Err(GameError::Setup(format!("{players} players: {} takes {lo} to {hi}", rs.name)));
        }
        let mut deck = rs.deck();
        rng::shuffle(&mut ChaCha8Rng::seed_from_u64(seed), &mut deck);
        let mut hands = vec![Vec::new(); players];
        for _ in 0..rs.rules.hand {
            for hand in &mut hands {
                hand.extend(deck.pop());
            }
        }
        let pile: Vec<u8> = deck.pop().into_iter().collect();
        Ok(Game::from_parts(rs, hands, vec![0; players], pile, deck, Vec::new(), 0))
    }

    /// A game at a position (a scenario's); the deck's top is its last card.
    pub(crate) fn from_parts(
        rs: Arc<Ruleset>,
        mut hands: Vec<Vec<u8>>,
        scores: Vec<i32>,
        pile: Vec<u8>,
        deck: Vec<u8>,
        out: Vec<u8>,
        turns: u32,
    ) -> Game {
        // A hand's order tells nothing: kept sorted, so that equal hands look equal.
        hands.iter_mut().for_each(|h| h.sort_unstable());
        let seats = hands.len();
        let mut g = Game {
            rs,
            hands,
            scores,
            played: vec![Vec::new(); seats],
            pile,
            deck,
            out,
            to_move: turns as usize % seats.max(1),
            turns,
            passes: 0,
            over: false,
            legal: Vec::new(),
            journal: Journal::default(),
        };
        g.end_if_done();
        g.update_legal();
        g
    }

    /// The pile's top card.
    pub fn pile_top(&self) -> Option<u8> {
        self.pile.last().copied()
    }

    /// A seat's hand, lowest first.
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat]
    }

    /// Points per seat.
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// Cards left in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// The round being played, from 1 (the last one once the game is over).
    pub fn round(&self) -> u32 {
        let seats = self.hands.len() as u32;
        (self.turns / seats + 1).min(self.rs.rules.rounds)
    }

    /// Turns taken.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The seats with the top score.
    pub fn winners(&self) -> Vec<usize> {
        let top = self.scores.iter().copied().max().unwrap_or(0);
        (0..self.scores.len()).filter(|&s| self.scores[s] == top).collect()
    }

    /// The legal actions of the seat to move: each card higher than the pile's top, then draw or pass.
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    fn update_legal(&mut self) {
        self.legal.clear();
        if self.over {
            return;
        }
        let top = self.pile_top().unwrap_or(0);
        let mut cards: Vec<u8> = self.hands[self.to_move].iter().copied().filter(|&v| v > top).collect();
        cards.dedup();
        self.legal.extend(cards.into_iter().map(Action::Play));
        self.legal.push(if self.deck.is_empty() { Action::Pass } else { Action::Draw });
    }

    fn end_if_done(&mut self) {
        let seats = self.hands.len() as u32;
        if self.turns >= self.rs.rules.rounds * seats || self.passes >= 2 {
            self.over = true;
        }
    }

    fn event(&mut self, text: impl FnOnce() -> String) {
        self.journal.event(|| Event { text: text() });
    }

    /// Applies a legal action: the turn passes to the next seat. The events, if the log is on.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        if self.over {
            return Err(GameError::Over);
        }
        if !self.legal.contains(&action) {
            let legal = self.legal.iter().map(|a| a.text()).collect();
            return Err(GameError::Illegal { action: action.text(), why: "not one of the answers now".into(), legal });
        }
        self.journal.record(action);
        let seat = self.to_move;
        match action {
            Action::Play(v) => {
                let hand = &mut self.hands[seat];
                let at = hand.iter().position(|&c| c == v).expect("a legal card is in hand");
                hand.remove(at);
                self.pile.push(v);
                self.scores[seat] += i32::from(v);
                let round = self.round();
                self.played[seat].push((v, round));
                self.passes = 0;
                let total = self.scores[seat];
                self.event(|| format!("seat {seat} plays {} and scores {v} ({total} in all)", card_id(v)));
            }
            Action::Draw => {
                let card = self.deck.pop().expect("draw is legal with a deck");
                let hand = &mut self.hands[seat];
                let at = hand.partition_point(|&c| c < card);
                hand.insert(at, card);
                self.passes = 0;
                let left = self.deck.len();
                self.event(|| format!("seat {seat} draws a card ({left} left in the deck)"));
            }
            Action::Pass => {
                self.passes += 1;
                self.event(|| format!("seat {seat} passes"));
            }
        }
        self.turns += 1;
        self.journal.count_action();
        self.to_move = (seat + 1) % self.hands.len();
        self.end_if_done();
        if self.over {
            let winners = self.winners().iter().map(|w| format!("seat {w}")).collect::<Vec<_>>().join(" and ");
            self.event(|| format!("the game ends: {winners} with the most points"));
        }
        self.update_legal();
        Ok(self.journal.take_events())
    }

    /// Applies a line in the notation (one action).
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        self.apply(Action::parse(text)?)
    }

    /// Every card in the game, sorted: the census that must match the ruleset's deck.
    pub fn census(&self) -> Vec<u8> {
        let mut all: Vec<u8> =
            self.hands.iter().flatten().chain(&self.pile).chain(&self.deck).chain(&self.out).copied().collect();
        all.sort_unstable();
        all
    }
}

impl TurnGame for Game {
    type Action = Action;
    type Error = GameError;

    fn seats(&self) -> usize {
        self.hands.len()
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over).then_some(self.to_move)
    }

    fn legal(&self) -> &[Action] {
        &self.legal
    }

    fn play(&mut self, action: Action) -> Result<(), GameError> {
        self.apply(action).map(|_| ())
    }

    /// A win is 1, shared equally by tied winners.
    fn rewards(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let winners = self.winners();
        let share = 1.0 / winners.len() as f64;
        Some((0..self.seats()).map(|s| if winners.contains(&s) { share } else { 0.0 }).collect())
    }
}

impl Determinize for Game {
    /// The seats' own hands, the pile and the scores stay; the others' hands and
    /// the deck are shuffled together and dealt back in the same sizes.
    fn determinize_for(&self, seen_by: Seats, seed: u64) -> Game {
        let mut g = self.clone();
        g.journal.detach();
        let mut pool: Vec<u8> = std::mem::take(&mut g.deck);
        for (s, hand) in g.hands.iter().enumerate() {
            if !seen_by.contains(s) {
                pool.extend_from_slice(hand);
            }
        }
        rng::shuffle(&mut ChaCha8Rng::seed_from_u64(seed), &mut pool);
        for (s, hand) in g.hands.iter_mut().enumerate() {
            if !seen_by.contains(s) {
                *hand = pool.split_off(pool.len() - hand.len());
                hand.sort_unstable();
            }
        }
        g.deck = pool;
        g.update_legal();
        g
    }
}
