//! Win shares of bots against each other, seats rotated game by game:
//! `cargo run --release -p alhambra --example versus -- greedy random random [games]`.
//!
//! Each line gives a bot's win share (a tie shares the win) with its 95%
//! Wilson interval, and its mean points. With two bots the seats swap every
//! game, so each bot starts from each seat in half the games.

use std::time::Instant;

use alhambra::Game;
use alhambra::Ruleset;
use engine_game::run::play_one;

/// The 95% Wilson score interval of a proportion `share` of `n` trials.
fn wilson(share: f64, n: f64) -> (f64, f64) {
    let z = 1.96_f64;
    let p = share / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

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
    let models = engine_game::Models::new();
    let start = Instant::now();
    let mut share = vec![0.0; bots.len()];
    let mut points = vec![0i64; bots.len()];
    for i in 0..games {
        // Rotate the seats so that no bot keeps the same position.
        let k = (i as usize) % bots.len();
        let seated: Vec<String> = (0..bots.len()).map(|s| bots[(s + k) % bots.len()].clone()).collect();
        let r = play_one::<Game>(&rs, &seated, 1, i, &models).unwrap();
        for s in 0..bots.len() {
            let who = (s + k) % bots.len();
            points[who] += i64::from(r.scores[s]);
            if r.winners.contains(&s) {
                share[who] += 1.0 / r.winners.len() as f64;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = games as f64;
    for (b, name) in bots.iter().enumerate() {
        let (lo, hi) = wilson(share[b], n);
        println!(
            "{name:>10}: won {:.1} of {games}, win share {:.4} (95% {lo:.4}-{hi:.4}), mean points {:.1}",
            share[b],
            share[b] / n,
            points[b] as f64 / n
        );
    }
    println!("{games} games in {secs:.1}s");
}
