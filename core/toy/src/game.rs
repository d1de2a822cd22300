//! The state of a High-Low game and its rules: the deal, the legal actions,
//! applying one, the end; plus what search and undo need (a deal of what a
//! seat has not seen) and the card census the random-game check holds to.

use std::sync::Arc;

use engine_game::Journal;
use engine_play::rng;
use engine_play::{Determinize, Seats, TurnGame};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use engine_script::verbs::{Choice, Effect, Verb};

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
    pub(crate) to_move: usize,
    /// Turns taken since the start.
    pub(crate) turns: u32,
    /// Passes in a row (with an empty deck): two end the game.
    pub(crate) passes: u32,
    pub(crate) over: bool,
    pub(crate) legal: Vec<Action>,
    /// Per seat, the points its scripted actions gave or took.
    pub(crate) scripted: Vec<i32>,
    /// A choice a script asked, until its seat answers, with the effects
    /// written after it (they wait for the answer's).
    pub(crate) choice: Option<(Choice, Vec<Effect>)>,
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
        // A hand's order tells nothing: kept sorted, so that equal hands look equal.
        hands.iter_mut().for_each(|h| h.sort_unstable());
        let pile: Vec<u8> = deck.pop().into_iter().collect();
        let mut g = Game {
            rs,
            hands,
            scores: vec![0; players],
            played: vec![Vec::new(); players],
            pile,
            deck,
            to_move: 0,
            turns: 0,
            passes: 0,
            over: false,
            legal: Vec::new(),
            scripted: vec![0; players],
            choice: None,
            journal: Journal::default(),
        };
        g.update_legal()?;
        Ok(g)
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

    /// The legal answers now: a choice's options while one is asked, else the
    /// cards that beat the top, draw or pass, and the ruleset's own actions
    /// its scripts offer (an error of theirs leaves the others).
    fn update_legal(&mut self) -> Result<(), GameError> {
        self.legal.clear();
        if self.over {
            return Ok(());
        }
        if let Some((choice, _)) = &self.choice {
            self.legal.extend(choice.answers().map(Action::Script));
            return Ok(());
        }
        let top = self.pile_top().unwrap_or(0);
        let mut cards: Vec<u8> = self.hands[self.to_move].iter().copied().filter(|&v| v > top).collect();
        cards.dedup();
        self.legal.extend(cards.into_iter().map(Action::Play));
        self.legal.push(if self.deck.is_empty() { Action::Pass } else { Action::Draw });
        if self.rs.verbs.is_empty() {
            return Ok(());
        }
        let mut offers = Vec::new();
        self.rs
            .verbs
            .offers("turn", &self.ctx(self.to_move), &mut offers)
            .map_err(|e| GameError::Script(Box::new(e)))?;
        self.legal.extend(offers.into_iter().map(Action::Script));
        Ok(())
    }

    fn end_if_done(&mut self) {
        let seats = self.hands.len() as u32;
        if self.turns >= self.rs.rules.rounds * seats || self.passes >= 2 {
            self.over = true;
        }
    }

    pub(crate) fn event(&mut self, text: impl FnOnce() -> String) {
        self.journal.event(|| Event { text: text() });
    }

    /// Applies a legal action: the turn passes to the next seat; the events go to the journal.
    fn apply_action(&mut self, action: Action) -> Result<(), GameError> {
        if self.over {
            return Err(GameError::Over);
        }
        if !self.legal.contains(&action) {
            let legal = self.legal.iter().map(|a| a.text(&self.rs)).collect();
            let why = "not one of the answers now".into();
            return Err(GameError::Illegal { action: action.text(&self.rs), why, legal });
        }
        if let Action::Script(verb) = action {
            // A script's effects are carried out on a copy: one that fails leaves the game as it was.
            let mut next = self.clone();
            next.journal.record(action);
            next.scripted_action(verb)?;
            *self = next;
            return Ok(());
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
            Action::Script(_) => unreachable!("carried out above"),
        }
        self.journal.count_action();
        self.end_turn(seat)
    }

    /// The turn passes to the next seat, or the game ends.
    fn end_turn(&mut self, seat: usize) -> Result<(), GameError> {
        self.turns += 1;
        self.to_move = (seat + 1) % self.hands.len();
        self.end_if_done();
        if self.over {
            let winners = self.winners().iter().map(|w| format!("seat {w}")).collect::<Vec<_>>().join(" and ");
            self.event(|| format!("the game ends: {winners} with the most points"));
        }
        self.update_legal()
    }

    /// A ruleset's own action, or the answer to its choice: the script's
    /// effects in order, until one asks a choice (the rest wait for the answer's).
    fn scripted_action(&mut self, verb: Verb) -> Result<(), GameError> {
        let script = |e| GameError::Script(Box::new(e));
        let (action, seat, effects, chosen) = match (verb, self.choice.take()) {
            (Verb::Choose(answer), Some((choice, held))) => {
                let ctx = self.ctx(choice.seat);
                let mut effects = self.rs.verbs.chosen(&choice, answer, ctx).map_err(script)?;
                effects.extend(held);
                let rs = Arc::clone(&self.rs);
                self.event(|| format!("seat {} chooses {}", choice.seat, rs.verbs.word(answer)));
                (choice.action, choice.seat, effects, true)
            }
            (Verb::Act { action, .. }, _) => {
                let seat = self.to_move;
                let effects = self.rs.verbs.act(&verb, self.ctx(seat)).map_err(script)?;
                let rs = Arc::clone(&self.rs);
                self.event(|| format!("seat {seat}: {}", rs.verbs.text(&verb)));
                (action, seat, effects, false)
            }
            (Verb::Choose(_), None) => unreachable!("a choice's answer is legal only while it is asked"),
        };
        self.journal.count_action();
        let mut effects = effects.into_iter();
        while let Some(effect) = effects.next() {
            match effect {
                Effect::Map(map) => {
                    self.effect(seat, &map).map_err(|why| script(self.rs.verbs.refused(action, chosen, &map, &why)))?
                }
                Effect::Choose { options, prompt } => {
                    self.event(|| format!("seat {seat} is asked: {prompt}"));
                    self.choice = Some((Choice { action, seat, options, prompt }, effects.collect()));
                    return self.update_legal();
                }
            }
        }
        if self.rs.verbs.ends_turn(action) { self.end_turn(seat) } else { self.update_legal() }
    }

    /// Every card in the game, sorted: the census that must match the ruleset's deck.
    pub fn census(&self) -> Vec<u8> {
        let mut all: Vec<u8> = self.hands.iter().flatten().chain(&self.pile).chain(&self.deck).copied().collect();
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
        (!self.over).then_some(self.choice.as_ref().map_or(self.to_move, |(c, _)| c.seat))
    }

    fn legal(&self) -> &[Action] {
        &self.legal
    }

    fn play(&mut self, action: Action) -> Result<(), GameError> {
        self.apply_action(action)
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
        // The same answers as before the deal, unless a script that reads the hand fails on the new one.
        if g.update_legal().is_err() {
            g.legal = self.legal.clone();
        }
        g
    }
}
