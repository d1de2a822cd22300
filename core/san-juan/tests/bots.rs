//! Bots only ever play legal moves (`Game::apply` checks every one) and finish
//! their games; the greedy bot is clearly better than random.

use san_juan::Ruleset;
use san_juan::sim::play_one;

fn play(ruleset: &str, bots: &[&str], games: u64) -> Vec<san_juan::sim::GameRecord> {
    let rs = Ruleset::load(ruleset).unwrap();
    let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    (0..games).map(|i| play_one(&rs, &bots, 11, i).unwrap_or_else(|e| panic!("game {i}: {e}"))).collect()
}

#[test]
fn greedy_plays_legal_moves_in_every_ruleset_and_player_count() {
    for ruleset in ["second-edition", "second-edition-expansion", "first-edition"] {
        for bots in [&["greedy", "greedy"][..], &["greedy", "random", "greedy"], &["greedy"; 4]] {
            for r in play(ruleset, bots, 60) {
                assert_eq!(r.scores.len(), bots.len());
                assert!(!r.winners.is_empty());
            }
        }
    }
}

#[test]
fn mcts_plays_legal_moves() {
    for r in play("second-edition-expansion", &["mcts:4", "greedy", "random"], 4) {
        assert!(r.rounds > 3);
    }
}

#[test]
fn greedy_beats_random() {
    let records = play("second-edition", &["greedy", "random"], 200);
    let wins: f64 = records.iter().filter(|r| r.winners == [0]).count() as f64;
    assert!(wins / 200.0 > 0.9, "greedy won {wins} of 200");
}
