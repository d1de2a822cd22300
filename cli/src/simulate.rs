//! `sanjuan simulate`: many games in parallel, a summary, optional JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use engine_play::sim::{GameRecord, Summary};
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::CmdResult;
use crate::games::{CliGame, Which};

/// Arguments of `sanjuan simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::games())]
    games: u64,
    /// Players per game (ignored when --bots names every seat).
    #[arg(long, default_value_t = 4, value_parser = crate::limits::players())]
    players: usize,
    /// Run seed: the same seed gives the same games, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Index of the first game (for splitting a study into shards).
    #[arg(long, default_value_t = 0)]
    seed_start: u64,
    /// Ruleset id or path.
    #[arg(long, default_value = san_juan::DEFAULT_RULESET)]
    ruleset: String,
    /// Bots per seat, comma-separated (one name applies to every seat).
    #[arg(long, default_value = "random")]
    bots: String,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::limits::jobs())]
    jobs: Option<usize>,
    /// Write one JSON line per game to this file.
    #[arg(long)]
    json_lines: Option<PathBuf>,
    /// Write every game to this folder as a saved game (`game-<index>.toml`), which
    /// `sanjuan replay` plays again action by action.
    #[arg(long, value_name = "DIR")]
    save_games: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs the simulation of the ruleset's game and prints the summary.
pub fn run(args: Args) -> CmdResult {
    crate::limits::check_game_range(args.seed_start, args.games)?;
    match Which::of_ruleset(&args.ruleset)? {
        Which::SanJuan => run_game::<crate::games::SanJuan>(args),
        Which::Alhambra => run_game::<crate::games::Alhambra>(args),
    }
}

fn run_game<G: CliGame>(args: Args) -> CmdResult {
    let rs = G::load(&args.ruleset).map_err(|e| e.to_string())?;
    let info = G::describe(&rs);
    let mut bots: Vec<String> = args.bots.split(',').map(|s| s.trim().to_owned()).collect();
    crate::limits::check_players(&info, if bots.len() == 1 { args.players } else { bots.len() })?;
    if bots.len() == 1 {
        bots = vec![bots[0].clone(); args.players];
    }
    for b in &bots {
        G::check_bot(b)?;
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let bar = if args.quiet || args.games < 2000 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}").expect("template"),
        )
    };
    if let Some(dir) = &args.save_games {
        std::fs::create_dir_all(dir).map_err(|e| format!("--save-games {}: {e}", dir.display()))?;
    }
    let saved_ruleset = crate::play::ruleset_for_save(&args.ruleset);
    let one = |i: u64| -> Result<GameRecord, String> {
        let Some(dir) = &args.save_games else {
            return G::play_one(&rs, &bots, args.seed, i).map_err(|e| format!("game {i}: {e}"));
        };
        let (record, saved) =
            G::play_saved(&rs, &bots, args.seed, i, &saved_ruleset).map_err(|e| format!("game {i}: {e}"))?;
        let path = dir.join(format!("game-{i}.toml"));
        std::fs::write(&path, saved).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(record)
    };
    let start = Instant::now();
    let range = args.seed_start..args.seed_start + args.games;
    // Collecting into a Result stops every thread at the first error instead of playing on.
    let records: Result<Vec<GameRecord>, String> =
        pool.install(|| range.into_par_iter().progress_with(bar.clone()).map(one).collect());
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let records = records?;
    if let Some(path) = &args.json_lines {
        let mut out =
            std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?);
        for r in &records {
            serde_json::to_writer(&mut out, r).map_err(|e| e.to_string())?;
            writeln!(out).map_err(|e| e.to_string())?;
        }
    }
    let mut summary = Summary::default();
    for r in &records {
        summary.add(r);
    }
    let gps = args.games as f64 / elapsed;
    println!(
        "{} | ruleset {} | {} games, {} players, seed {} | bots {}",
        G::TITLE,
        info.id,
        args.games,
        bots.len(),
        args.seed,
        bots.join(",")
    );
    println!(
        "{:.2} s on {jobs} thread(s): {:.0} games/s ({:.0} games/s per thread), {:.1} rounds/game, {:.0} actions/game",
        elapsed,
        gps,
        gps / jobs as f64,
        summary.mean_rounds(),
        summary.actions_sum as f64 / summary.games.max(1) as f64
    );
    if summary.stalled > 0 {
        println!("{} game(s) stalled and ended at the ruleset's round limit", summary.stalled);
    }
    println!("{:<6} {:<10} {:>8} {:>10}", "seat", "bot", "win %", "avg score");
    for (seat, bot) in bots.iter().enumerate() {
        println!("{seat:<6} {bot:<10} {:>8.1} {:>10.1}", 100.0 * summary.win_rate(seat), summary.mean_score(seat));
    }
    Ok(ExitCode::SUCCESS)
}
