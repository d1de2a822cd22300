//! A new game: the starting capital, the building display and the money
//! deck cut into piles with a scoring card in each.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, Draw, Game, Player, n_cards};
use crate::error::GameError;
use crate::rng;
use crate::ruleset::{BuildingIdx, Money, Ruleset};
use engine_game::score::Score;

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
                // A card of no currency is no capital: discarded and replaced.
                if game.rs.pays_nowhere(m) {
                    game.discard.push(m);
                    continue;
                }
                game.players[seat].gain_money(m);
            }
            game.event(Some(seat), |g| {
                let p = &g.players[seat];
                let ids: Vec<String> = p.hand().iter().map(|&m| g.rs.money_id(m)).collect();
                format!("seat {seat} is dealt {} (total {}): {}", n_cards(p.hand().len()), p.money(), ids.join(", "))
            });
        }
        // The start player: fewest cards, then the lowest total, then (in place of
        // "the youngest") a seeded draw among those still tied.
        let key = |p: &Player| (p.hand().len(), p.money());
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
        let turn = game.turns;
        game.event_hooks(crate::hooks::TURN_START, start, &[], |_, keys| super::scripts::turn_map(start, turn, keys))?;
        game.advance()?;
        Ok(game)
    }

    /// A game with no cards dealt; `new` and scenarios fill it in.
    pub(crate) fn empty(rs: Arc<Ruleset>, players: usize, rng: ChaCha8Rng) -> Game {
        let slots = rs.building_display();
        let neutral = (players == 2).then(Player::default);
        let collectors = players + usize::from(neutral.is_some());
        let scorings = rs.scorings.len();
        // The piles and lists that grow during a game start at their usual
        // size (three copies of each money card in the base game) rather than
        // growing one reallocation at a time.
        let money: usize = rs.money_cards(3);
        let display = rs.rules.money_display;
        Game {
            players: (0..players).map(|_| Player::with_room()).collect(),
            neutral,
            deck: Vec::new(),
            discard: Vec::with_capacity(money),
            money_display: Vec::with_capacity(display),
            building_deck: Vec::new(),
            building_display: vec![None; slots],
            scoring_range: vec![(0, 0); scorings],
            scored: Vec::new(),
            scored_turns: Vec::new(),
            unclaimed: Vec::new(),
            set_aside: Vec::new(),
            out: Vec::new(),
            asking: None,
            waiting: Default::default(),
            fresh: Vec::new(),
            queued: false,
            drawn: None,
            drawing: false,
            acted: 0,
            out_of_turn: None,
            pay_rule: None,
            reserves: Vec::new(),
            purchase: None,
            moved_on: 0,
            nearer: 0,
            longest: 0,
            vacated: Vec::new(),
            last_display_index: 0,
            history: None,
            ending: false,
            drawn_out: Vec::new(),
            refilling_for: None,
            judging: None,
            paid_cards: 0,
            extra_takes: 0,
            extra_any_value: false,
            earned: Arc::new(vec![Score::default(); collectors]),
            start_player: 0,
            turns: 1,
            pending: None,
            legal: Vec::with_capacity(16),
            auto: Vec::with_capacity(4),
            over: false,
            stalled: false,
            broken: None,
            journal: engine_game::Journal::default(),
            extra_actions: 0,
            mods: None,
            rs,
            rng,
        }
    }

    /// Every money card of this game (one entry per copy).
    pub(crate) fn all_money(&self) -> Vec<Money> {
        let n = self.players.len();
        let mut out = Vec::with_capacity(self.rs.money_cards(n));
        for k in &self.rs.money {
            out.extend(std::iter::repeat_n(k.card, usize::from(self.rs.kind_copies(k, n))));
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
        // Top first from here on: each pile is the next cards from the deck's top.
        let mut out: Vec<Draw> = Vec::with_capacity(len + self.rs.scorings.len() + self.rs.deck_cards.len());
        let mut ranges = Vec::new();
        let mut left = len; // `deck[..left]`: not yet in a pile (the top is the end)
        for k in 0..piles {
            let size = len / piles + usize::from(k < len % piles);
            let start = out.len();
            out.extend(self.deck[left - size..left].iter().rev());
            left -= size;
            // Deck cards before the scoring cards: a scoring card's range is then the whole pile.
            for (i, c) in self.rs.deck_cards.iter().enumerate() {
                if c.pile == k + 1 {
                    let at = rng::below(&mut self.rng, out.len() - start + 1);
                    out.insert(start + at, Draw::Deck(i as u8));
                }
            }
            for (i, s) in self.rs.scorings.iter().enumerate() {
                if s.pile == Some(k + 1) {
                    let at = rng::below(&mut self.rng, out.len() - start + 1);
                    out.insert(start + at, Draw::Scoring(i as u8));
                    ranges.push((i, start, out.len()));
                }
            }
        }
        let total = out.len();
        for (i, start, end) in ranges {
            // Top-first indices [start, end) are bottom indices [total - end, total - start).
            self.scoring_range[i] = (total - end, total - start);
        }
        out.reverse();
        self.deck = out;
    }
}
