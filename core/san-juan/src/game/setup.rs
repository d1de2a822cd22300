//! A new game: checking the player count, dealing the start buildings and hands.

use std::collections::VecDeque;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Game, NOBODY, Player, Slot, Step};
use crate::cards::CardIdx;
use crate::error::GameError;
use crate::rng;
use crate::ruleset::Ruleset;

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
            game.draw_to_hand(seat, n as i32, "deal");
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
        // The buffers that grow during a game start at their usual size, so
        // that a game does not grow them step by step (some 50 reallocations a
        // game between random bots): the discard pile may hold the whole deck.
        let cards: usize = rs.cards.cards.iter().map(|c| c.copies as usize).sum();
        let player = || Player {
            hand: Vec::with_capacity(16),
            city: Vec::with_capacity(rs.rules.end_buildings + 2),
            ..Player::default()
        };
        Game {
            players: (0..players).map(|_| player()).collect(),
            deck: Vec::new(),
            discard: Vec::with_capacity(cards),
            public,
            limbo: Vec::with_capacity(8),
            tiles: VecDeque::new(),
            tile: None,
            governor: 0,
            round: 1,
            chosen_by: [NOBODY; 5],
            earlier_rounds: Arc::default(),
            phase: None,
            phase_sold: 0,
            steps: super::step::Steps::default(),
            pending: None,
            legal: Vec::with_capacity(16),
            auto_paid: Vec::with_capacity(8),
            over: false,
            stalled: false,
            broken: None,
            hook_mask: vec![0; players],
            hook_union: 0,
            event_now: None,
            turn_goods: Vec::new(),
            heard: VecDeque::new(),
            chain: Default::default(),
            pending_chain: Default::default(),
            unsellable: Vec::new(),
            sell_acts: Box::default(),
            run: 0,
            effects: VecDeque::new(),
            journal: engine_game::Journal::default(),
            spare_options: Vec::new(),
            rs,
            rng,
        }
    }

    /// Every deck card (not public ones), one entry per copy.
    pub(crate) fn all_deck_cards(&self) -> Vec<CardIdx> {
        self.rs.deck_cards.clone()
    }
}
