//! `sanjuan bench`: reproducible throughput figures — random-bot games per
//! second per core (San Juan's base and expansion, Alhambra), greedy and
//! balance-bot games per second on the base game, the share of
//! time in script calls, MCTS iterations per second, and the speed-up from
//! one core to all.

use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use san_juan::bots::{Bot, MctsBot};
use san_juan::script::profile;
use san_juan::sim::play_one;
use san_juan::{Game, Ruleset};

use crate::{CmdResult, load_ruleset};

/// Arguments of `sanjuan bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Games per measurement.
    #[arg(long, default_value_t = 4000, value_parser = crate::limits::games())]
    games: u64,
    /// MCTS decisions to time.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    mcts_moves: u32,
    /// Seed of the benchmark games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn one_thread(rs: &std::sync::Arc<Ruleset>, games: u64, seed: u64) -> Result<(f64, u64, u64), String> {
    let bots = vec!["random".to_owned(); 4];
    profile::take();
    let start = Instant::now();
    for i in 0..games {
        play_one(rs, &bots, seed, i).map_err(|e| e.to_string())?;
    }
    let secs = start.elapsed().as_secs_f64();
    let (calls, nanos) = profile::take();
    Ok((secs, calls, nanos))
}

/// Runs every measurement and prints a table.
pub fn run(args: Args) -> CmdResult {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("sanjuan bench: {} games per figure, {cores} core(s), seed {}", args.games, args.seed);
    for id in ["second-edition", "second-edition-expansion"] {
        let rs = load_ruleset(id)?;
        one_thread(&rs, args.games / 10, args.seed)?; // warm the build-cost memo and caches
        let (plain, _, _) = one_thread(&rs, args.games, args.seed)?;
        profile::enable(true);
        let (timed, calls, nanos) = one_thread(&rs, args.games, args.seed)?;
        profile::enable(false);
        let games = args.games as f64;
        println!(
            "{id:<26} {:>8.0} random 4-player games/s on 1 core; scripts: {:.1} calls/game, {:.2} µs/call, {:.0}% of the time",
            games / plain,
            calls as f64 / games,
            nanos as f64 / 1000.0 / calls.max(1) as f64,
            100.0 * nanos as f64 / 1e9 / timed
        );
    }

    // The other bots of a study, on the base game: the rules of thumb and the balance bot
    // (its model learned, or read from the cache, before the clock starts).
    let rs = load_ruleset("second-edition")?;
    crate::balance::prepare::<crate::games::SanJuan>(&rs, true)?;
    for bot in ["greedy", "balance"] {
        let bots = vec![bot.to_owned(); 4];
        let start = Instant::now();
        for i in 0..args.games {
            play_one(&rs, &bots, args.seed, i).map_err(|e| e.to_string())?;
        }
        let rate = args.games as f64 / start.elapsed().as_secs_f64();
        println!("{:<26} {rate:>8.0} {bot} 4-player games/s on 1 core", "second-edition");
    }

    let rs = alhambra::Ruleset::load(alhambra::DEFAULT_RULESET).map_err(|e| e.to_string())?;
    let bots = vec!["random".to_owned(); 4];
    let alhambra_games = args.games * 5; // a game is about a tenth of San Juan's work
    let rate = |n: u64| -> Result<f64, String> {
        let start = Instant::now();
        for i in 0..n {
            alhambra::sim::play_one(&rs, &bots, args.seed, i).map_err(|e| e.to_string())?;
        }
        Ok(n as f64 / start.elapsed().as_secs_f64())
    };
    rate(alhambra_games / 10)?; // warm the scoring memo
    println!("{:<26} {:>8.0} random 4-player games/s on 1 core", "alhambra", rate(alhambra_games)?);

    let rs = load_ruleset("second-edition")?;
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| e.to_string());
    let mut rates = Vec::new();
    for jobs in [1, cores] {
        let start = Instant::now();
        pool(jobs)?
            .install(|| {
                (0..args.games).into_par_iter().try_for_each(|i| play_one(&rs, &bots, args.seed, i).map(|_| ()))
            })
            .map_err(|e| e.to_string())?;
        rates.push(args.games as f64 / start.elapsed().as_secs_f64());
    }
    println!(
        "parallel                   {:>8.0} games/s on 1 thread, {:.0} on {cores}: speed-up {:.2}x",
        rates[0],
        rates[1],
        rates[1] / rates[0]
    );

    // MCTS: time whole decisions of a 2-player game and count iterations.
    let mut game = Game::new(rs.clone(), 2, args.seed).map_err(|e| e.to_string())?;
    let mut bot = MctsBot::new(args.seed, MctsBot::DEFAULT_ITERATIONS);
    let mut greedy = san_juan::bots::GreedyBot;
    let (mut searched, mut secs) = (0u32, 0.0);
    while searched < args.mcts_moves && game.pending().is_some() {
        let legal = game.legal_actions().to_vec();
        let searches =
            matches!(game.pending(), Some(san_juan::Decision::Role { .. } | san_juan::Decision::Build { .. }));
        let start = Instant::now();
        let a = if searches { bot.choose(&game, &legal) } else { greedy.choose(&game, &legal) };
        if searches {
            secs += start.elapsed().as_secs_f64();
            searched += 1;
        }
        game.apply(a).map_err(|e| e.to_string())?;
    }
    let iterations = f64::from(searched) * f64::from(MctsBot::DEFAULT_ITERATIONS);
    println!(
        "mcts                       {:>8.0} iterations (determinized greedy playouts) per second on 1 core; {:.2} s per searched move",
        iterations / secs,
        secs / f64::from(searched.max(1))
    );
    Ok(ExitCode::SUCCESS)
}
