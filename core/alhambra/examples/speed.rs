//! Random games per second on one core: `cargo run --release -p alhambra --example speed [players] [games]`.

use std::sync::Arc;
use std::time::Instant;

use alhambra::bots::{Bot, RandomBot};
use alhambra::turns::TurnGame;
use alhambra::{Game, Ruleset};
use engine_game::Game as _;

fn main() {
    let mut args = std::env::args().skip(1);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let rs = Ruleset::load("alhambra").unwrap();
    let start = Instant::now();
    let (mut actions, mut turns, mut scored) = (0u64, 0u64, [0u64; 3]);
    for seed in 0..games {
        let mut game = Game::new(Arc::clone(&rs), players, seed).unwrap();
        let mut bot = RandomBot::new(seed);
        while game.to_move().is_some() {
            let a = bot.choose(&game, game.legal());
            game.play(a).unwrap();
        }
        actions += game.actions_applied();
        turns += u64::from(game.turns());
        scored[game.scored().len() - 1] += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{players} players: {games} random games in {secs:.2}s = {:.0} games/s; {:.1} turns and {:.1} actions a game; games with 1/2/3 scorings: {scored:?}",
        games as f64 / secs,
        turns as f64 / games as f64,
        actions as f64 / games as f64
    );
}
