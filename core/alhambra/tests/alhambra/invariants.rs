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

/// The scripted designs of issue 21's corpus (`cards/alhambra/examples/`):
/// random and balance bots at every seat count, the census checked after
/// every action (money drawn and buildings moved by scripts included).
const CORPUS: &[&str] = &[
    "bazaar",
    "exchange",
    "twin",
    "garden_guild",
    "gold_florin",
    "caravanserai",
    "customs_house",
    "exile",
    "fountain",
    "counting_house",
    "pickpocket",
    "watchtower",
    "garden_chronicle",
];

fn corpus(id: &str) -> std::sync::Arc<Ruleset> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/alhambra/examples/").to_owned() + id + ".toml";
    Ruleset::load(&path).unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn the_corpus_keeps_every_card_with_random_bots() {
    for id in CORPUS {
        let rs = corpus(id);
        for players in 2..=6 {
            for seed in 0..8 {
                check_random_game(&rs, players, seed).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }
}

#[test]
fn the_corpus_keeps_every_card_with_balance_bots() {
    use engine_play::value::{Schedule, ValueBot};
    for id in CORPUS {
        let rs = corpus(id);
        // A short self-play: the bot's model matters less here than its play reaching every rule.
        let schedule = Schedule { games: 12, rounds: 1, ..Default::default() };
        let model = std::sync::Arc::new(engine_game::models::learn::<alhambra::Game>(&rs, vec![3], schedule).unwrap());
        for players in 2..=6 {
            for seed in 0..2 {
                let mut bot = ValueBot::new(std::sync::Arc::clone(&model), seed);
                alhambra::sim::check_game_with(&rs, players, seed, &mut bot).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }
}
