//! `sanjuan report` and `sanjuan merge`: balance reports over the JSON-lines
//! game records of `sanjuan simulate --json-lines`, read from one or more
//! shard files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use engine_game::AnyRules;

use engine_play::sim::GameRecord;
use engine_report::{self as report, Shard};

use crate::CmdResult;

/// Arguments of `sanjuan report`.
#[derive(clap::Args)]
pub struct Args {
    /// JSON-lines files written by `sanjuan simulate --json-lines` (the shards of one study; merged).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Also write the report as a self-contained HTML page with charts.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Compare: the files after --compare form set B, the files before it set A.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    compare: Vec<PathBuf>,
    /// Accept records of one ruleset id played with different content (fingerprints).
    #[arg(long)]
    allow_mixed: bool,
    /// With --compare: the ruleset set A was played with (id or file), to list
    /// what differs and show those cards first; by default the records' ruleset id.
    #[arg(long, value_name = "RULESET", requires = "compare")]
    ruleset_a: Option<String>,
    /// With --compare: the ruleset set B was played with (id or file).
    #[arg(long, value_name = "RULESET", requires = "compare")]
    ruleset_b: Option<String>,
    /// Also play N games of the records' ruleset with a stronger player (the
    /// game's reference search, or --check-with) and warn of every card whose
    /// built share under the records' bots is 5 points or more from it.
    #[arg(long, value_name = "N", value_parser = crate::limits::games(), conflicts_with = "compare")]
    check_bot: Option<u64>,
    /// With --check-bot: the stronger player (a bot name); by default the
    /// game's reference (San Juan: paired-balance:100@build).
    #[arg(long, value_name = "BOT", requires = "check_bot")]
    check_with: Option<String>,
    /// With --check-bot: the ruleset the records were played with (id or
    /// file); by default the records' ruleset id.
    #[arg(long, value_name = "RULESET", requires = "check_bot")]
    ruleset: Option<String>,
    /// With --check-bot: worker threads for its games (default: all cores).
    #[arg(long, value_parser = crate::limits::jobs(), requires = "check_bot")]
    jobs: Option<usize>,
}

/// Arguments of `sanjuan merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// JSON-lines shard files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The merged file, sorted by (run seed, index).
    #[arg(short = 'o', long = "output", value_name = "OUT.jsonl")]
    output: PathBuf,
    /// Accept records of one ruleset id played with different content (fingerprints).
    #[arg(long)]
    allow_mixed: bool,
}

/// Reads and merges shard files into one record set.
fn read_set(files: &[PathBuf], allow_mixed: bool) -> Result<Vec<GameRecord>, String> {
    let mut shards = Vec::with_capacity(files.len());
    let games: Vec<&str> = crate::games::registry().kinds().iter().map(|k| k.id()).collect();
    for path in files {
        shards.push(read_json_lines(path, &games)?);
    }
    let records = report::merge_with(shards, allow_mixed).map_err(|e| e.to_string())?;
    if records.is_empty() {
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no game records in {}", names.join(", ")));
    }
    Ok(records)
}

/// The longest line read as one game record (a 4-player record is a few KB).
const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads a JSON-lines file line by line into a shard (records of `games` only),
/// refusing a line longer than any game record: a device such as `/dev/zero`
/// given as a file would otherwise be read until memory runs out.
fn read_json_lines(path: &Path, games: &[&str]) -> Result<Shard, String> {
    use std::io::{BufRead, Read};
    // A pipe or a device would block or never end: only regular files are records
    // (checked before the open, which does not wait on a pipe, and on the open file).
    let file = engine_rules::files::open_regular(path)
        .map_err(|e| format!("{}: {e}; give a JSON-lines file of `sanjuan simulate --json-lines`", path.display()))?;
    let mut reader = std::io::BufReader::new(file);
    let name = path.display().to_string();
    let mut shard = report::ShardReader::new(&name, Some(games)).with_check(record_check());
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(format!(
                "{}:{number}: line longer than {} KiB; give the JSON-lines files of `sanjuan simulate --json-lines`",
                path.display(),
                MAX_LINE_BYTES >> 10
            ));
        }
        let line = std::str::from_utf8(&line).map_err(|_| {
            format!(
                "{}:{number}: not UTF-8 text; give the JSON-lines files of `sanjuan simulate --json-lines`",
                path.display()
            )
        })?;
        // As `str::lines` splits: without the newline and a carriage return before it.
        let line = line.strip_suffix('\n').map_or(line, |l| l.strip_suffix('\r').unwrap_or(l));
        shard.line(line).map_err(|e| e.to_string())?;
    }
    Ok(shard.finish())
}

/// What a built-in ruleset's records may say: its game, its content and the cards its games hold.
struct Known {
    game: &'static str,
    title: &'static str,
    fingerprint: String,
    cards: std::collections::HashSet<String>,
}

/// What a record says that only the games know: it has a fingerprint (format 2), every
/// seat is a bot this program has (or `human`, a person's seat at a web table),
/// and a record of a built-in ruleset names that ruleset's game and, played
/// with its content, only cards of it. (A ruleset of the user's own is known
/// by its id alone: its cards are not checked, and nothing is read from disk.)
fn record_check() -> report::RecordCheck<'static> {
    let mut known: std::collections::HashMap<String, Option<Known>> = std::collections::HashMap::new();
    Box::new(move |r: &GameRecord| {
        let clip = |t: &str| engine_rules::error::clip(t, 80).into_owned();
        // (Format 1, from before records named their game, is read as it was.)
        if r.fingerprint.is_empty() && r.version >= 2 {
            return Err(format!(
                "no `fingerprint`: a version-{} record carries its ruleset's content digest (`sanjuan simulate \
                 --json-lines` writes it); simulate the games again",
                r.version
            ));
        }
        for b in &r.bots {
            if b != "human" && engine_play::bots::BotSpec::parse(b).is_err() {
                return Err(format!("unknown bot `{}`; bots: human, {}", clip(b), engine_play::BOT_NAMES.join(", ")));
            }
        }
        let registry = crate::games::registry();
        if !known.contains_key(&r.ruleset) {
            let kind = registry.kinds().iter().find(|k| k.builtins().ruleset_ids().contains(&r.ruleset));
            let entry = kind.and_then(|k| {
                let rs = crate::games::load(&r.ruleset).ok()?;
                Some(Known {
                    game: k.id(),
                    title: k.title(),
                    fingerprint: rs.fingerprint().to_owned(),
                    cards: crate::games::holdings_ids(rs.as_ref()).into_iter().collect(),
                })
            });
            known.insert(r.ruleset.clone(), entry);
        }
        let Some(Some(k)) = known.get(&r.ruleset) else { return Ok(()) };
        let game = if r.game.is_empty() { registry.default_kind().id() } else { r.game.as_str() };
        if game != k.game {
            return Err(format!(
                "game `{}` contradicts ruleset `{}`, a ruleset of {} (`{}`)",
                clip(game),
                clip(&r.ruleset),
                k.title,
                k.game
            ));
        }
        if r.fingerprint == k.fingerprint {
            for b in r.buildings.iter().flatten() {
                for id in std::iter::once(&*b.id).chain(b.kind.as_deref()) {
                    if !k.cards.contains(id) {
                        return Err(format!(
                            "unknown building `{}`: ruleset `{}` has no such card (`sanjuan cards --ruleset {}` lists them)",
                            clip(id),
                            r.ruleset,
                            r.ruleset
                        ));
                    }
                }
            }
        }
        Ok(())
    })
}

/// A game's display name for report titles; records from before the `game`
/// field are the default game's (the only one then).
fn game_title(id: &str) -> String {
    let registry = crate::games::registry();
    let kind = if id.is_empty() { Some(registry.default_kind()) } else { registry.by_id(id) };
    kind.map_or_else(|| id.to_owned(), |k| k.title().to_owned())
}

use crate::output::write_file;

/// Which records of `r` name no building types, and why, for a note.
fn unnamed_types(r: &report::Report) -> String {
    let which = if r.types_unnamed == 0 || r.types_unnamed == r.games {
        "the records".to_owned()
    } else {
        format!("{} of the {} records", r.types_unnamed, r.games)
    };
    format!("{which} name no building types (written before records carried them; simulate them again for types)")
}

/// Prints the report (or the comparison) and writes the HTML page if asked.
pub fn run(args: Args) -> CmdResult {
    let a = read_set(&args.files, args.allow_mixed)?;
    let (text, html) = if args.compare.is_empty() {
        let mut r = report::report(&a);
        r.game = game_title(&r.game);
        if let Some(games) = args.check_bot {
            r.check = Some(check_bots(&a, games, &args)?);
        }
        if r.types_unnamed > 0 {
            eprintln!("note: {}, so the table of types is left out", unnamed_types(&r));
        }
        (report::render_text(&r), args.html.as_ref().map(|_| report::render_html(&r)))
    } else {
        let b = read_set(&args.compare, args.allow_mixed)?;
        let (fa, fb) = (&a[0], &b[0]);
        if game_title(&fa.game) != game_title(&fb.game) {
            // Their cards, seats and lengths have nothing in common to subtract.
            return Err(format!(
                "set A is {} and set B is {}: a comparison is between two rulesets of one game; report each set alone",
                game_title(&fa.game),
                game_title(&fb.game)
            ));
        }
        if fa.ruleset == fb.ruleset && fa.fingerprint != fb.fingerprint {
            eprintln!(
                "note: both sets are labelled `{}` but were played with different content ({} and {}); \
                 give a changed ruleset an id of its own so reports tell them apart",
                fa.ruleset, fa.fingerprint, fb.fingerprint
            );
        }
        let mut c = report::compare(&a, &b);
        if let Some(set) = c.types_unnamed {
            let r = if set == "A" { &c.a } else { &c.b };
            eprintln!("note: set {set}: {}, so the table of types is left out", unnamed_types(r));
        }
        let spec_a = args.ruleset_a.clone().unwrap_or_else(|| fa.ruleset.clone());
        let spec_b = args.ruleset_b.clone().unwrap_or_else(|| fb.ruleset.clone());
        match changes(&spec_a, &spec_b, &fa.fingerprint, &fb.fingerprint) {
            Ok(lines) => c.set_changes(lines),
            Err(e) => {
                // Records name a ruleset by its id; one loaded from a file is found only by its path.
                let hint = if args.ruleset_a.is_none() || args.ruleset_b.is_none() {
                    "\n  = help: give the files the records were played with: --ruleset-a FILE --ruleset-b FILE"
                } else {
                    ""
                };
                eprintln!("note: what differs between the rulesets is not listed: {}{hint}", e.trim_end())
            }
        }
        c.a.game = game_title(&c.a.game);
        (report::render_comparison_text(&c), args.html.as_ref().map(|_| report::render_comparison_html(&c)))
    };
    print!("{text}");
    if let (Some(path), Some(html)) = (&args.html, html) {
        write_file(path, &html)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// What differs from ruleset `a` to `b`, once both load with the content the records were played with.
fn changes(a: &str, b: &str, fingerprint_a: &str, fingerprint_b: &str) -> Result<Vec<String>, String> {
    let registry = crate::games::registry();
    if registry.of_ruleset(a)?.id() != registry.of_ruleset(b)?.id() {
        return Err(format!("`{a}` and `{b}` are rulesets of two games"));
    }
    let load = |spec: &str, fingerprint: &str| -> Result<_, String> {
        let rs = crate::games::load(spec).map_err(|e| format!("`{spec}` does not load ({})", e.trim()))?;
        played_with(rs, spec, fingerprint, "--ruleset-a, --ruleset-b")
    };
    let (ra, rb) = (load(a, fingerprint_a)?, load(b, fingerprint_b)?);
    ra.diff(rb.as_ref())
}

/// `rs` (loaded from `spec`) if its content is the one the records were
/// played with, `fingerprint`; else the error names the options (`fix`) that give it.
fn played_with(rs: Arc<dyn AnyRules>, spec: &str, fingerprint: &str, fix: &str) -> Result<Arc<dyn AnyRules>, String> {
    let now = rs.fingerprint();
    if now != fingerprint {
        return Err(format!(
            "`{spec}` has content {now}, the records were played with {fingerprint}; give the ruleset they were \
             played with ({fix})"
        ));
    }
    Ok(rs)
}

/// Plays `games` games of the records' ruleset and player count with the
/// reference bot (`--check-bot`) and checks the records' built shares against them.
fn check_bots(records: &[GameRecord], games: u64, args: &Args) -> Result<report::BotCheck, String> {
    use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
    use rayon::prelude::*;
    let first = &records[0];
    if let Some(other) = records.iter().find(|r| (&r.ruleset, &r.fingerprint) != (&first.ruleset, &first.fingerprint)) {
        return Err(format!(
            "--check-bot: the records were played with more than one ruleset (`{}` {} and `{}` {}); check one at a time",
            first.ruleset, first.fingerprint, other.ruleset, other.fingerprint
        ));
    }
    let spec = args.ruleset.clone().unwrap_or_else(|| first.ruleset.clone());
    let rs = crate::games::load(&spec).map_err(|e| {
        // Records name a ruleset by its id; one loaded from a file is found only by its path.
        let hint = if args.ruleset.is_none() {
            format!("\n  = help: --check-bot plays the records' ruleset `{spec}`: give the file they were played with, --ruleset FILE")
        } else {
            String::new()
        };
        format!("{}{hint}", e.trim_end())
    })?;
    // (Records of format 1 carry no fingerprint: their content cannot be checked.)
    let rs = if first.fingerprint.is_empty() {
        rs
    } else {
        played_with(rs, &spec, &first.fingerprint, "--ruleset FILE").map_err(|e| format!("--check-bot: {e}"))?
    };
    // The player count most of the records have (the first of equals).
    let mut counts = std::collections::BTreeMap::new();
    for r in records {
        *counts.entry(r.scores.len()).or_insert(0u64) += 1;
    }
    let players = counts.iter().max_by_key(|&(n, k)| (*k, std::cmp::Reverse(*n))).map_or(0, |(n, _)| *n);
    crate::limits::check_players(rs.as_ref(), players)?;
    let bot = args.check_with.clone().unwrap_or_else(|| rs.reference_bot().to_owned());
    rs.check_bot(&bot).map_err(|e| format!("--check-with: {e}"))?;
    let models = engine_game::Models::new();
    crate::balance::prepare_for(rs.as_ref(), &models, std::slice::from_ref(&bot), false)?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    eprintln!("checking the bots: {games} games of `{}`, {players} players, by {bot} ({jobs} threads)", rs.id());
    let bar = ProgressBar::new(games)
        .with_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games, ETA {eta}").expect("template"));
    let seats = vec![bot.clone(); players];
    let start = std::time::Instant::now();
    // The deals of `simulate`'s default run (seed 1, games from 0): records
    // simulated so are compared deal for deal.
    let sample: Result<Vec<GameRecord>, String> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .progress_with(bar.clone())
            .map(|i| rs.play_one(&seats, 1, i, false, &models).map_err(|e| format!("--check-bot: game {i}: {e}")))
            .collect()
    });
    bar.finish_and_clear();
    let sample = sample?;
    eprintln!("checked in {:.1} s", start.elapsed().as_secs_f64());
    Ok(report::check_bot(records, &sample, &bot))
}

/// Writes the merged, sorted records as JSON lines.
pub fn merge(args: MergeArgs) -> CmdResult {
    let records = read_set(&args.files, args.allow_mixed)?;
    let mut out = Vec::new();
    for r in &records {
        serde_json::to_writer(&mut out, r).map_err(|e| e.to_string())?;
        writeln!(out).map_err(|e| e.to_string())?;
    }
    write_file(&args.output, out)?;
    eprintln!("merged {} games from {} file(s) into {}", records.len(), args.files.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}
