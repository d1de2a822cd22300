//! San Juan bot games for the engine's runner ([`engine_game::run`]): the
//! record of one game, and the random-game census check of `check --games`.

use std::sync::Arc;

use engine_game::Game as _;
pub use engine_game::run::play_recorded;
pub use engine_play::sim::{Built, GameRecord, RECORD_VERSION, Summary, game_seed};

use crate::game::Game;
use crate::ruleset::Ruleset;

/// Plays one game between random bots and checks, after every action, that
/// every card is in exactly one place ([`Game::census`]), that nobody holds
/// more than their hand limit when a round's roles start (cards drawn after
/// the check, for an event, aside), and that the game
/// ends. `sanjuan check --games N` runs this over a designer's own cards.
pub fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
    use crate::bots::{Bot, RandomBot};
    use crate::game::Decision;
    let copies: Vec<u32> = rs.cards.cards.iter().map(|c| c.copies).collect();
    let fail = |m: String| format!("game with seed {seed}, {players} players: {m}");
    let mut game = Game::new(Arc::clone(rs), players, seed).map_err(|e| fail(e.to_string()))?;
    game.record_actions(true);
    let mut bots: Vec<RandomBot> =
        (0..players as u64).map(|s| RandomBot::new(seed.wrapping_mul(31).wrapping_add(s))).collect();
    let mut steps = 0u64;
    while let Some(d) = game.pending() {
        let seat = d.seat();
        // The first role choice of a round comes right after the hand-limit check.
        if matches!(d, Decision::Role { .. }) && game.roles_taken().is_empty() && game.round() > 1 {
            for s in 0..players {
                let limit = game.hand_limit_of(s).map_err(|e| fail(e.to_string()))?;
                // Cards a building drew after the check (a pawnshop's) do not count.
                let hand = game.player(s).hand.len() - game.cards_gained_since_hand_limit(s);
                if hand as i64 > i64::from(limit) {
                    return Err(fail(format!(
                        "seat {s} holds {hand} cards, above its limit {limit}, when round {} starts",
                        game.round()
                    )));
                }
            }
        }
        let action = bots[seat].choose(&game, game.legal_actions());
        let text = action.text(&rs.cards);
        game.apply(action).map_err(|e| fail(format!("action {} `{text}`: {e}", steps + 1)))?;
        steps += 1;
        let census = game.census();
        if census != copies {
            let (i, _) = census.iter().zip(&copies).enumerate().find(|(_, (a, b))| a != b).unwrap_or((0, (&0, &0)));
            return Err(fail(format!(
                "after action {steps} `{text}`, `{}` is in {} places but the ruleset has {} copies",
                rs.cards.id(i as u16),
                census[i],
                copies[i]
            )));
        }
        if steps > 100_000 {
            return Err(fail("no end after 100,000 actions".into()));
        }
    }
    if !game.is_over() || !game.legal_actions().is_empty() {
        return Err(fail("no decision is pending but the game is not over".into()));
    }
    Ok(steps)
}
