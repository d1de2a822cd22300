//! Bots only ever play legal moves and finish their games; the greedy bot is
//! clearly better than random.

use alhambra::Game;
use alhambra::Ruleset;
use alhambra::sim::GameRecord;
use engine_game::run::play_one;

fn play(bots: &[&str], games: u64) -> Vec<GameRecord> {
    let rs = Ruleset::load("alhambra").unwrap();
    let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    (0..games)
        .map(|i| {
            play_one::<Game>(&rs, &bots, 11, i, &engine_game::Models::default())
                .unwrap_or_else(|e| panic!("game {i}: {e}"))
        })
        .collect()
}

/// Win share of seat 0 (a shared win counts by its share).
fn share(records: &[GameRecord]) -> f64 {
    records.iter().filter(|r| r.winners.contains(&0)).map(|r| 1.0 / r.winners.len() as f64).sum::<f64>()
        / records.len() as f64
}

#[test]
fn greedy_plays_legal_moves_at_every_player_count() {
    for n in 2..=6 {
        let mut bots = vec!["greedy"; n];
        bots[n - 1] = "random";
        for r in play(&bots, 40) {
            assert_eq!(r.scores.len(), n);
            assert!(!r.winners.is_empty());
            assert!(!r.stalled);
        }
    }
}

#[test]
fn mcts_plays_legal_moves() {
    for r in play(&["mcts:8", "greedy", "random"], 3) {
        assert!(r.rounds > 10);
    }
}

#[test]
fn holdings_say_in_which_turn_each_building_was_got() {
    for bots in [&["greedy", "random"][..], &["greedy", "greedy", "random"]] {
        for r in play(bots, 20) {
            for (seat, held) in r.buildings.iter().enumerate() {
                let turns: Vec<u32> = held.iter().map(|b| b.round).collect();
                assert!(turns.windows(2).all(|w| w[0] <= w[1]), "seat {seat}: {turns:?}");
                assert!(turns.iter().all(|&t| (1..=r.rounds).contains(&t)), "seat {seat}: {turns:?} of {}", r.rounds);
            }
            let all: Vec<u32> = r.buildings.iter().flatten().map(|b| b.round).collect();
            assert!(all.iter().any(|&t| t < r.rounds / 2) && all.iter().any(|&t| t > r.rounds / 2), "{all:?}");
        }
    }
}

#[test]
fn greedy_beats_random() {
    let two = play(&["greedy", "random"], 300);
    let w2 = share(&two);
    let four = play(&["greedy", "random", "random", "random"], 300);
    let w4 = share(&four);
    eprintln!("greedy's win share: {w2:.3} against 1 random, {w4:.3} against 3 random");
    assert!(w2 > 0.9, "2 players: greedy won {w2:.3}");
    assert!(w4 > 0.8, "4 players: greedy won {w4:.3}");
}
