//! Invariants over many seeded random games: every card is in exactly one
//! place after setup and after every action (the census), and every game ends.

use alhambra::Ruleset;
use alhambra::sim::check_random_game;

const GAMES_PER_COUNT: u64 = 1000;

fn check_count(players: usize) {
    let rs = Ruleset::load("alhambra").unwrap();
    for seed in 0..GAMES_PER_COUNT {
        check_random_game(&rs, players, seed).unwrap_or_else(|e| panic!("{e}"));
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
