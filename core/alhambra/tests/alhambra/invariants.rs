//! Invariants over many seeded random games: every card is in exactly one
//! place after every action, and every game ends.

use std::sync::Arc;

use alhambra::turns::TurnGame;
use alhambra::{Game, Ruleset};
use engine_play::bots::{Bot, RandomBot};

const GAMES_PER_COUNT: u64 = 1000;

/// Plays one random game, checking the census after every action.
fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Game {
    let mut game = Game::new(Arc::clone(rs), players, seed).unwrap();
    let expected = game.census_expected();
    let total: u32 = expected.iter().sum();
    assert_eq!(total as usize, rs.total_cards(players));
    assert_eq!(game.census(), expected, "seed {seed}: after setup");
    let mut bot = RandomBot::new(seed ^ 0x5eed);
    let mut actions = 0;
    while let Some(_seat) = game.to_move() {
        let legal = game.legal().to_vec();
        assert!(!legal.is_empty());
        let a = bot.choose(&game, &legal);
        game.play(a).unwrap();
        actions += 1;
        assert_eq!(game.census(), expected, "seed {seed}: after action {actions} {a:?}");
    }
    assert!(game.is_over());
    assert!(!game.stalled(), "{players} players, seed {seed}: stalled");
    game
}

fn check_count(players: usize) {
    let rs = Ruleset::load("alhambra").unwrap();
    for seed in 0..GAMES_PER_COUNT {
        check_random_game(&rs, players, seed);
    }
}

#[test]
fn two_players() {
    check_count(2);
}

#[test]
fn three_players() {
    check_count(3);
}

#[test]
fn four_players() {
    check_count(4);
}

#[test]
fn five_players() {
    check_count(5);
}

#[test]
fn six_players() {
    check_count(6);
}
