//! `sanjuan simulate`: many games in parallel, a summary, optional JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use engine_play::sim::GameRecord;
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::CmdResult;

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
    /// Play only shard K of N (K from 0) of the --games: games K·games/N to
    /// (K+1)·games/N. The shards of one study, merged (`sanjuan merge`), are the
    /// records one run of all the games writes.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Ruleset id or path.
    #[arg(long, default_value = crate::games::default_ruleset())]
    ruleset: String,
    /// Bots per seat, comma-separated (one name applies to every seat): balance
    /// (learned from self-play for this ruleset), balance+FEATURE=X (the balance bot
    /// liking one feature of `sanjuan learn` X points more, e.g. balance+built:well=0.5),
    /// balance~S (the balance bot with S points of noise on each action's value: a
    /// weaker player), random, greedy, mcts, mcts:N, mcts-balance:N, paired-balance:N (each
    /// move played out by the balance bot on the same N/moves deals), paired-balance:N@KIND
    /// (searching only one kind of decision, e.g. @build; the balance bot answers the rest).
    #[arg(long, default_value = "balance")]
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
    /// Record every seat's points after each round (`score_by_round` in the
    /// --json-lines records), for the report's lead changes and comebacks; it
    /// scores the game once per round, so runs are a little slower.
    #[arg(long)]
    track_scores: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Games played in parallel before their records are written and let go: enough
/// that the threads rarely wait for the chunk's last game, few enough that a
/// run of millions of games holds a few megabytes of records at a time.
const CHUNK: u64 = 4096;

/// Runs the simulation of the ruleset's game and prints the summary.
pub fn run(args: Args) -> CmdResult {
    crate::limits::check_game_range(args.seed_start, args.games)?;
    let rs = crate::games::load(&args.ruleset)?;
    let mut bots: Vec<String> = args.bots.split(',').map(|s| s.trim().to_owned()).collect();
    crate::limits::check_players(rs.as_ref(), if bots.len() == 1 { args.players } else { bots.len() })?;
    if bots.len() == 1 {
        bots = vec![bots[0].clone(); args.players];
    }
    for b in &bots {
        rs.check_bot(b)?;
    }
    let models = engine_game::Models::new();
    crate::balance::prepare_for(rs.as_ref(), &models, &bots, args.quiet)?;
    let (first, games) = match args.shard {
        Some((k, n)) => {
            let at = |i: u64| (u128::from(args.games) * u128::from(i) / u128::from(n)) as u64;
            (args.seed_start + at(k), at(k + 1) - at(k))
        }
        None => (args.seed_start, args.games),
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let bar = if args.quiet || games < 2000 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}").expect("template"),
        )
    };
    if let Some(dir) = &args.save_games {
        std::fs::create_dir_all(dir).map_err(|e| format!("--save-games {}: {e}", dir.display()))?;
    }
    let saved_ruleset = crate::play::ruleset_for_save(&args.ruleset);
    let one = |i: u64| -> Result<GameRecord, String> {
        let Some(dir) = &args.save_games else {
            return rs.play_one(&bots, args.seed, i, args.track_scores, &models).map_err(|e| format!("game {i}: {e}"));
        };
        let (record, saved) = rs
            .play_saved(&bots, args.seed, i, &saved_ruleset, args.track_scores, &models)
            .map_err(|e| format!("game {i}: {e}"))?;
        let path = dir.join(format!("game-{i}.toml"));
        crate::output::write_file(&path, saved)?;
        Ok(record)
    };
    if let Some(path) = &args.json_lines
        && let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
        && meta.len() > 0
    {
        // Written beside it and renamed at the end: until then the old records are intact.
        eprintln!(
            "note: {} exists ({} bytes of records); this run replaces it when it ends (stop it now to keep them)",
            path.display(),
            meta.len()
        );
    }
    let mut out = args.json_lines.as_deref().map(crate::output::AtomicFile::create).transpose()?;
    // The report's own numbers, so `simulate` and `report` cannot disagree about a seat;
    // a few numbers a game, not the records, so that memory stays flat however long the run.
    let mut summary = engine_report::SummaryAcc::default();
    // The time spent playing (games per second), without the writing between chunks.
    let mut playing = std::time::Duration::ZERO;
    // The games in chunks, each played in parallel and then written in order.
    let (mut next, end) = (first, first + games);
    while next < end {
        let chunk = next..next.saturating_add(CHUNK).min(end);
        next = chunk.end;
        let start = Instant::now();
        // Collecting into a Result stops every thread at the first error instead of playing on.
        let records: Result<Vec<GameRecord>, String> =
            pool.install(|| chunk.into_par_iter().progress_with(bar.clone()).map(one).collect());
        playing += start.elapsed();
        let records = records.inspect_err(|_| bar.finish_and_clear())?;
        for r in &records {
            summary.add(r);
            if let Some(out) = out.as_mut() {
                serde_json::to_writer(&mut *out, r)
                    .map_err(|e| format!("cannot write {}: {e}", out.target().display()))?;
                writeln!(out).map_err(|e| crate::output::write_error(out, &e))?;
            }
        }
    }
    let elapsed = playing.as_secs_f64();
    bar.finish_and_clear();
    if let Some(out) = out {
        out.commit()?;
    }
    let summary = summary.finish();
    let gps = games as f64 / elapsed.max(1e-9);
    let shard = args
        .shard
        .map(|(k, n)| format!(" (shard {k}/{n}: games {first} to {})", (first + games).saturating_sub(1)))
        .unwrap_or_default();
    println!(
        "{} | ruleset {} | {games} games{shard}, {} players, seed {} | bots {}",
        rs.title(),
        rs.id(),
        bots.len(),
        args.seed,
        bots.join(",")
    );
    println!(
        "{:.2} s on {jobs} thread(s): {:.0} games/s ({:.0} games/s per thread), {:.1} rounds/game, {:.0} actions/game",
        elapsed,
        gps,
        gps / jobs as f64,
        per_game(&summary.length.rounds),
        per_game(&summary.actions)
    );
    if summary.length.stalled.hits > 0.0 {
        println!("{} game(s) stalled and ended at the ruleset's round limit", summary.length.stalled.hits as u64);
    }
    print_seats(&summary, &bots);
    Ok(ExitCode::SUCCESS)
}

/// One line per seat: its bot, win rate and mean score, each with its 95% interval.
fn print_seats(summary: &engine_report::RunSummary, bots: &[String]) {
    // As wide as the longest bot name (`balance+built:black_market=0.5`).
    let w = bots.iter().map(|b| b.chars().count()).max().unwrap_or(0).max(10);
    println!(
        "{:<6} {:<w$} {:>8} {:>15} {:>10} {:>13}",
        "seat", "bot", "win %", "95% interval", "avg score", "95% interval"
    );
    use engine_report::{Mean, Rate};
    for (seat, bot) in bots.iter().enumerate() {
        // An empty shard has no seats: its rows print as no data, as they always have.
        let (wins, score) =
            summary.seats.get(seat).map_or((Rate::wilson(0.0, 0), Mean::of(&[])), |s| (s.win_rate, s.score));
        println!(
            "{seat:<6} {bot:<w$} {:>8.1} {:>15} {:>10.1} {:>13}",
            100.0 * wins.value,
            format!("{:.1}–{:.1}", 100.0 * wins.lo, 100.0 * wins.hi),
            score.value,
            format!("{:.1}–{:.1}", score.lo, score.hi)
        );
    }
}

/// A mean per game, 0 for a shard with no games.
fn per_game(mean: &engine_report::Mean) -> f64 {
    if mean.n == 0 { 0.0 } else { mean.value }
}

/// `K/N`: shard K (from 0) of N.
pub(crate) fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let usage = || format!("`{text}`: write K/N, shard K (0 to N-1) of N shards, e.g. 0/4");
    let (k, n) = text.split_once('/').ok_or_else(usage)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| usage())?, n.trim().parse().map_err(|_| usage())?);
    if n == 0 || k >= n {
        return Err(usage());
    }
    Ok((k, n))
}
