//! Win shares of bots against each other:
//! `cargo run --release -p alhambra --example versus -- greedy random random [games]`.

use std::time::Instant;

use alhambra::Ruleset;
use alhambra::sim::play_one;

fn main() {
    let mut bots: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = bots.last().and_then(|g| g.parse().ok()).unwrap_or(200);
    if bots.last().is_some_and(|g| g.parse::<u64>().is_ok()) {
        bots.pop();
    }
    if bots.len() < 2 {
        bots = vec!["greedy".into(), "random".into()];
    }
    let rs = Ruleset::load("alhambra").unwrap();
    let start = Instant::now();
    let mut share = vec![0.0; bots.len()];
    let mut points = vec![0i64; bots.len()];
    for i in 0..games {
        // Rotate the seats so that no bot keeps the same position.
        let k = (i as usize) % bots.len();
        let seated: Vec<String> = (0..bots.len()).map(|s| bots[(s + k) % bots.len()].clone()).collect();
        let r = play_one(&rs, &seated, 1, i).unwrap();
        for s in 0..bots.len() {
            let who = (s + k) % bots.len();
            points[who] += i64::from(r.scores[s]);
            if r.winners.contains(&s) {
                share[who] += 1.0 / r.winners.len() as f64;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    for (b, name) in bots.iter().enumerate() {
        println!(
            "{name:>10}: win share {:.3}, mean points {:.1}",
            share[b] / games as f64,
            points[b] as f64 / games as f64
        );
    }
    println!("{games} games in {secs:.1}s");
}
