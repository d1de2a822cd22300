//! `sanjuan`: the command line over the rules engine, for every game of a
//! registry. Only argument parsing, I/O and printing live here; the work is in
//! the game crates and the engine crates. The binary (`main.rs`) hands in the
//! registry of the `games` crate; a test may hand in one with more games.

mod balance;
mod bench;
mod cards;
mod games;
mod limits;
mod output;
mod play;
mod report;
mod scenario;
mod schema;
mod serve;
mod simulate;
pub mod surfaces;
mod test;
mod tune;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// San Juan rules engine: simulate, play, and test rule changes.
#[derive(Parser)]
#[command(name = "sanjuan", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many games between bots and print win rates and games per second.
    ///
    /// Example: sanjuan simulate --games 10000 --players 4 --seed 1
    Simulate(simulate::Args),
    /// Search a ruleset's numbers for values that meet a target in bot games.
    ///
    /// Successive halving with racing over the integer ranges: games go where the answer is
    /// still open; the search stops when a candidate's 95% interval lies inside the goal or the
    /// budget is spent. Writes a ruleset that extends the input and sets only the tuned numbers.
    /// Example: sanjuan tune --ruleset cards/san-juan/rulesets/examples/cheap-column.toml --players 4
    /// --param card.victory_column.cost=1..6 --target 'build_rate(victory_column)=45±3' --out tuned.toml
    Tune(tune::Args),
    /// Host tables in a browser: people on your network and bots, any ruleset.
    ///
    /// Open the printed address, make a table and send each person their seat's link.
    /// Example: sanjuan serve --port 8080 --ruleset cards/san-juan/rulesets/examples/gallery.toml
    Serve(serve::Args),
    /// Show what the balance bot learned about a ruleset: each feature's weight (a building's worth in points of final margin).
    ///
    /// The model is learned by self-play once per ruleset content and cached
    /// (`$SANJUAN_CACHE`, else `~/.cache/sanjuan`). Example: sanjuan learn --ruleset second-edition
    Learn(balance::Args),
    /// Measure throughput: games/s per core, script share, MCTS iterations/s, parallel speed-up.
    ///
    /// Example: sanjuan bench --games 4000
    Bench(bench::Args),
    /// Play a game in the terminal against bots (random by default).
    ///
    /// Example: sanjuan play --players 3 --seat 0 --bots greedy
    Play(play::Args),
    /// Replay a game saved with `sanjuan play --save FILE`: every event, then the final state.
    ///
    /// Example: sanjuan replay game.toml --json
    Replay {
        /// The saved game (TOML: ruleset, players, seed, actions).
        file: PathBuf,
        /// Print only the final state, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Set up a scenario file, play its actions and show the result.
    ///
    /// Example: sanjuan scenario snapshots/san-juan/palace_34_to_42.toml --json
    Scenario {
        /// The scenario TOML file.
        file: PathBuf,
        /// Print the resulting state as JSON.
        #[arg(long)]
        json: bool,
        /// Verify the scenario's [expect] table; exit 1 if anything differs.
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        trace: scenario::Trace,
    },
    /// Score the position a scenario file reaches.
    ///
    /// Example: sanjuan score snapshots/san-juan/palace_34_to_42.toml --json
    Score {
        /// The scenario TOML file.
        file: PathBuf,
        /// Print the scores as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the cards of a ruleset with cost, points, copies and script, or diff two rulesets.
    ///
    /// Examples: sanjuan cards --ruleset second-edition;
    /// sanjuan cards --ruleset second-edition --diff first-edition
    Cards {
        /// Ruleset id or path to a ruleset TOML file.
        #[arg(long, default_value = crate::games::default_ruleset())]
        ruleset: String,
        /// Show only what differs in this other ruleset, rule by rule and card by card.
        #[arg(long)]
        diff: Option<String>,
    },
    /// Load a ruleset and compile its scripts; report every problem with file:line:column.
    ///
    /// With --games N, also play N random games (2 to max players, in turn) and check after
    /// every action that every card is in exactly one place.
    ///
    /// Example: sanjuan check --ruleset cards/san-juan/rulesets/second-edition.toml --games 200
    Check {
        /// Ruleset id or path (also accepted as the positional argument; not both).
        #[arg(long, conflicts_with = "path")]
        ruleset: Option<String>,
        /// Ruleset path.
        path: Option<String>,
        /// Random games to play with the card census after every action.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
        games: u64,
    },
    /// Balance report over JSON-lines game records (shards merged), or a comparison of two sets.
    ///
    /// Win rates per seat, bot and building with 95% intervals, game length; with --compare,
    /// the differences B - A and their p-values. Text on stdout, HTML with charts if asked.
    ///
    /// Examples: sanjuan report shard-0.jsonl shard-1.jsonl --html report.html;
    /// sanjuan report second.jsonl --compare first.jsonl --html comparison.html
    Report(report::Args),
    /// Merge JSON-lines shards into one file sorted by (run seed, game index).
    ///
    /// Example: sanjuan merge shard-0.jsonl shard-1.jsonl -o study.jsonl
    Merge(report::MergeArgs),
    /// Run every scenario file in a folder against its [expect] table and its stored snapshot.
    ///
    /// One line per file (PASS or FAIL), then what failed, then a count; exit 0 when all
    /// pass, 1 when any fails, 2 when the folder is missing or holds no *.toml file. The first
    /// run records each final state in DIR/snapshots/NAME.snap; a later change fails with a
    /// diff until --accept stores it (with CI=true nothing is written).
    ///
    /// Examples: sanjuan test my-scenarios/; sanjuan test my-scenarios/ --filter library --accept
    Test(test::Args),
    /// Write JSON Schemas of the games' files, for TOML editors (completion, inline errors).
    ///
    /// Without --out, prints one schema (--kind ruleset, cards or scenario). With --out DIR,
    /// writes GAME-KIND.json for every game (or --game G) into DIR; a file's first line
    /// `#:schema ./schemas/san-juan-ruleset.json` lets Taplo or Even Better TOML read it.
    ///
    /// Examples: sanjuan schema --out schemas; sanjuan schema --game alhambra --kind scenario
    Schema(schema::Args),
}

/// Runs the command line (`std::env::args`) over the games of `registry`.
pub fn run(registry: engine_game::Registry) -> ExitCode {
    games::install(registry);
    // Like other Unix tools, stop quietly when the reader of our output goes away
    // (`sanjuan … | head`) instead of panicking on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default SIGPIPE action before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Stopped by Ctrl-C or `kill`: no half-written file left behind, and the
    // shell's usual status for an interrupted command.
    let _ = ctrlc::set_handler(|| {
        output::remove_unfinished();
        std::process::exit(130);
    });
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate(args) => simulate::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Learn(args) => balance::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Replay { file, json } => play::replay(&file, json),
        Command::Scenario { file, json, check, trace } => scenario::run(&file, json, check, trace),
        Command::Score { file, json } => scenario::score(&file, json),
        Command::Cards { ruleset, diff: None } => cards::list(&ruleset),
        Command::Cards { ruleset, diff: Some(other) } => cards::diff(&ruleset, &other),
        Command::Check { ruleset, path, games } => {
            cards::check(&path.or(ruleset).unwrap_or_else(|| games::default_ruleset().into()), games)
        }
        Command::Report(args) => report::run(args),
        Command::Merge(args) => report::merge(args),
        Command::Test(args) => test::run(args),
        Command::Schema(args) => schema::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            // A rendered diagnostic already starts with `error`.
            if message.starts_with("error") {
                eprintln!("{message}");
            } else {
                eprintln!("error: {message}");
            }
            ExitCode::FAILURE
        }
    }
}

/// What a command returns: an exit code, or an error message for stderr.
type CmdResult = Result<ExitCode, String>;
