//! `sanjuan bench`: reproducible throughput figures for every registered game —
//! random-bot games per second per core on each built-in ruleset with the
//! share of time in script calls, greedy and balance-bot games per second on
//! each game's default ruleset, the speed-up from one core to all, and how long
//! a search takes per decision.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use engine_game::{AnyRules, Models};
use engine_script::profile::Profile;
use rayon::prelude::*;

use crate::CmdResult;
use crate::games::registry;

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
    /// Profile one ruleset (a file or a built-in id) instead: its games/s
    /// against its game's default ruleset, and each hook of its scripts with its
    /// runs per game, its answers remembered, its share of the time and what
    /// it reads.
    #[arg(long)]
    ruleset: Option<String>,
    /// The bot of every seat when profiling a ruleset (`random`, `greedy`, `balance`…).
    #[arg(long, default_value = "random", requires = "ruleset")]
    bot: String,
    /// Players when profiling a ruleset.
    #[arg(long, default_value_t = 4, requires = "ruleset", value_parser = clap::value_parser!(u8).range(1..=16))]
    players: u8,
}

/// Seconds for `games` 4-player games between `bot`s on one thread.
fn one_thread(rs: &dyn AnyRules, bot: &str, games: u64, seed: u64, models: &Models) -> Result<f64, String> {
    seated(rs, bot, 4, games, seed, models)
}

/// Seconds for `games` games of `players` `bot`s on one thread.
fn seated(rs: &dyn AnyRules, bot: &str, players: usize, games: u64, seed: u64, models: &Models) -> Result<f64, String> {
    let bots = vec![bot.to_owned(); players];
    let start = Instant::now();
    for i in 0..games {
        rs.play_one(&bots, seed, i, false, models)?;
    }
    Ok(start.elapsed().as_secs_f64())
}

/// Runs every measurement and prints a table.
pub fn run(args: Args) -> CmdResult {
    if let Some(spec) = &args.ruleset {
        return profile(spec, &args);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("sanjuan bench: {} games per figure, {cores} core(s), seed {}", args.games, args.seed);
    let games = args.games as f64;
    let models = Models::new();
    for kind in registry().kinds() {
        for id in kind.builtins().ruleset_ids() {
            let rs = kind.load(&id, None).map_err(|e| e.to_string())?;
            let profile = Arc::new(Profile::new());
            rs.profile_scripts(&profile);
            one_thread(rs.as_ref(), "random", args.games / 10, args.seed, &models)?; // warm the memos and caches
            let plain = one_thread(rs.as_ref(), "random", args.games, args.seed, &models)?;
            profile.take();
            profile.enable(true);
            let timed = one_thread(rs.as_ref(), "random", args.games, args.seed, &models)?;
            profile.enable(false);
            let (calls, nanos) = profile.take();
            println!(
                "{id:<26} {:>8.0} random 4-player games/s on 1 core; scripts: {:.1} calls/game, {:.2} µs/call, {:.0}% of the time",
                games / plain,
                calls as f64 / games,
                nanos as f64 / 1000.0 / calls.max(1) as f64,
                100.0 * nanos as f64 / 1e9 / timed
            );
        }
    }

    // The other bots of a study, on each game's default ruleset: the rules of thumb and the
    // balance bot (its model learned, or read from the cache, before the clock starts).
    for kind in registry().kinds() {
        let rs = kind.load(kind.default_ruleset(), None).map_err(|e| e.to_string())?;
        crate::balance::prepare(rs.as_ref(), &models, true)?;
        for bot in ["greedy", "balance"] {
            let rate = games / one_thread(rs.as_ref(), bot, args.games, args.seed, &models)?;
            println!("{:<26} {rate:>8.0} {bot} 4-player games/s on 1 core", rs.id());
        }
    }

    // The speed-up of a study: the default bot on the default ruleset. Each
    // thread pool is built before its clock starts and each figure is the
    // better of two runs, so that a short run measures the games rather than
    // the pool's start or another process's burst (2,000 games once gave 1.57x
    // where 20,000 gave 1.9x on the same machine).
    let rs = crate::games::load(crate::games::default_ruleset())?;
    crate::balance::prepare(rs.as_ref(), &models, true)?;
    let bots = vec!["balance".to_owned(); 4]; // `simulate`'s default bot
    let mut rates = Vec::new();
    for jobs in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
        let mut best = 0.0f64;
        for _ in 0..2 {
            let start = Instant::now();
            pool.install(|| {
                (0..args.games)
                    .into_par_iter()
                    .try_for_each(|i| rs.play_one(&bots, args.seed, i, false, &models).map(|_| ()))
            })?;
            best = best.max(games / start.elapsed().as_secs_f64());
        }
        rates.push(best);
    }
    println!(
        "parallel                   {:>8.0} {} games/s on 1 thread, {:.0} on {cores}: speed-up {:.2}x (better of 2 runs each)",
        rates[0],
        bots[0],
        rates[1],
        rates[1] / rates[0]
    );
    mcts(&rs, &args, &models)
}

/// `bench --ruleset`: one ruleset's games/s against its game's default
/// ruleset's, and the cost of each of its hooks, with what it reads: what a
/// designer changes to make a card's script cheaper.
fn profile(spec: &str, args: &Args) -> CmdResult {
    let rs = crate::games::load(spec)?;
    let kind = registry().of_ruleset(spec)?;
    let base = kind.load(kind.default_ruleset(), None).map_err(|e| e.to_string())?;
    let players = usize::from(args.players);
    let (fewest, most) = rs.players();
    if !(fewest..=most).contains(&players) {
        return Err(format!("--players {players}: {} is played by {fewest} to {most}", rs.id()));
    }
    let models = Models::new();
    if args.bot == "balance" {
        crate::balance::prepare(rs.as_ref(), &models, true)?;
        crate::balance::prepare(base.as_ref(), &models, true)?;
    }
    let (bot, games, seed) = (args.bot.as_str(), args.games, args.seed);
    let profile = Arc::new(Profile::new());
    rs.profile_scripts(&profile);
    // Each run plays games of its own: a game played again would find every
    // answer remembered, as no study does.
    let other = |k: u64| seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    seated(rs.as_ref(), bot, players, games / 10, other(1), &models)?; // warm the caches
    seated(base.as_ref(), bot, players, games / 10, other(1), &models)?;
    let plain = seated(rs.as_ref(), bot, players, games, seed, &models)?;
    let base_plain = seated(base.as_ref(), bot, players, games, seed, &models)?;
    profile.take();
    rs.hook_profile(&profile);
    profile.enable(true);
    let timed = seated(rs.as_ref(), bot, players, games, other(2), &models)?;
    profile.enable(false);
    let (runs, nanos) = profile.take();
    let hooks = rs.hook_profile(&profile);
    let work = profile.take_work();
    let n = games as f64;
    println!("sanjuan bench --ruleset {spec}: {games} games of {players} {bot} bots, seed {seed}, 1 core");
    println!(
        "{:<26} {:>8.0} games/s ({} {:.0} games/s: {:.1}x the time)",
        rs.id(),
        n / plain,
        base.id(),
        n / base_plain,
        plain / base_plain
    );
    let row_nanos: u64 = hooks.iter().map(|h| h.tally.row_nanos).sum();
    let share = |nanos: u64| 100.0 * nanos as f64 / 1e9 / timed;
    println!(
        "scripts: {:.1} runs/game, {:.2} µs/run, {:.0}% of the time; remembering their answers (rows of what \
         they read, written and looked up): {:.0}% more",
        runs as f64 / n,
        nanos as f64 / 1000.0 / runs.max(1) as f64,
        share(nanos),
        share(row_nanos)
    );
    for (what, nanos) in &work {
        println!("{what}: {:.0}% of the time", share(*nanos));
    }
    if hooks.is_empty() {
        println!("no hook of its scripts ran");
        return Ok(ExitCode::SUCCESS);
    }
    println!();
    println!(
        "{:<20} {:<28} {:>10} {:>10} {:>10} {:>6}  reads (it runs again when one changes)",
        "hook", "owner", "asked/game", "runs/game", "remembered", "time"
    );
    for h in &hooks {
        let t = &h.tally;
        let asked = t.runs + t.remembered;
        let remembered = match h.rememberable {
            true => format!("{:.0}%", 100.0 * t.remembered as f64 / asked.max(1) as f64),
            false => "never".to_owned(),
        };
        let reads = match (h.rememberable, h.reads.is_empty()) {
            (false, _) => "all of ctx (it takes ctx whole or passes it on)".to_owned(),
            (true, true) => "nothing of ctx".to_owned(),
            (true, false) => h.reads.join(", "),
        };
        println!(
            "{:<20} {:<28} {:>10.1} {:>10.1} {:>10} {:>5.0}%  {reads}",
            h.hook,
            h.owner,
            asked as f64 / n,
            t.runs as f64 / n,
            remembered,
            share(t.all_nanos())
        );
    }
    println!();
    println!(
        "time: the hook's runs and the rows written to remember its answers (a hook asked at every decision \
         pays for its rows even when it never runs)"
    );
    Ok(ExitCode::SUCCESS)
}

/// A search's decisions in a 2-player game of the default ruleset, timed.
fn mcts(rs: &Arc<dyn AnyRules>, args: &Args, models: &Models) -> CmdResult {
    let mut game = rs.start(2, args.seed)?;
    let (mut moves, mut secs) = (0u32, 0.0);
    while moves < args.mcts_moves && !game.over() {
        let start = Instant::now();
        let choice = game.bot_choice("mcts", args.seed ^ u64::from(moves), models)?;
        secs += start.elapsed().as_secs_f64();
        moves += 1;
        game.play(choice)?;
    }
    println!(
        "mcts                       {:>8.3} s per decision of a 2-player {} game (default iterations; {moves} decisions)",
        secs / f64::from(moves.max(1)),
        rs.id()
    );
    Ok(ExitCode::SUCCESS)
}
