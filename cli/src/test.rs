//! `sanjuan test`: runs a folder of scenario files, each against its
//! `[expect]` table and its stored snapshot, and reports like a test runner —
//! for designers whose scenarios live outside this repository, and for this
//! repository's own (the loop is `sanjuan_snapshots::suite`, which its
//! snapshot tests run too).
//!
//! The snapshot of a scenario is its final state (and, with `--trace`, every
//! event with the building behind it), stored in insta's file format as
//! `DIR/snapshots/<name>.snap`. The first run records it; later runs compare,
//! and a changed state fails with a line diff until `--accept` or `--review`.
//! With `CI=true` nothing is written, and a missing snapshot fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use sanjuan_snapshots::file::diff;
use sanjuan_snapshots::suite::{self, Played, Snap, stem};

use crate::CmdResult;

/// Arguments of `sanjuan test`.
#[derive(clap::Args)]
pub struct Args {
    /// A folder of scenario files (every `*.toml` in it, not its subfolders), or one scenario file.
    #[arg(value_name = "DIR")]
    path: PathBuf,
    /// Run only the scenarios whose file name contains this text.
    #[arg(long, value_name = "SUBSTR")]
    filter: Option<String>,
    /// Store the new state of every selected scenario whose snapshot is new or changed
    /// (with --filter, only those). Never with CI=true.
    #[arg(long, conflicts_with_all = ["ruleset_a", "review"])]
    accept: bool,
    /// Show each new or changed snapshot and ask: accept (store it), reject (keep the
    /// stored one; the scenario fails), skip (decide later), or quit (skip the rest).
    #[arg(long, conflicts_with = "ruleset_a")]
    review: bool,
    /// New snapshots also keep the event trace (each action's events, with the building
    /// behind each); a stored snapshot that has one is always compared with it.
    #[arg(long)]
    trace: bool,
    /// Compare mode: play every scenario under this ruleset (id or path) and under
    /// --ruleset-b instead of the one it names, and list the scenarios whose final
    /// state differs, with the diff. Reads and writes no stored snapshot.
    #[arg(long, value_name = "RULESET", requires = "ruleset_b")]
    ruleset_a: Option<String>,
    /// The ruleset to compare --ruleset-a with.
    #[arg(long, value_name = "RULESET", requires = "ruleset_a")]
    ruleset_b: Option<String>,
}

/// Whether this run may write snapshots (`CI` set to anything but `false`/`0` forbids it, as in insta).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Exit code for a bad argument, as clap uses for its own usage errors.
const USAGE: u8 = 2;

/// What became of the snapshots this run looked at.
#[derive(Default)]
struct Tally {
    new: Vec<PathBuf>,
    accepted: Vec<PathBuf>,
    rejected: Vec<PathBuf>,
    skipped: Vec<PathBuf>,
}

/// A review's answer for one snapshot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answer {
    Accept,
    Reject,
    Skip,
    Quit,
}

/// Runs every selected scenario and prints one line each, the failures, and a summary.
pub fn run(args: Args) -> CmdResult {
    let files = match suite::select(&args.path, args.filter.as_deref()) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(USAGE));
        }
    };
    if let (Some(a), Some(b)) = (&args.ruleset_a, &args.ruleset_b) {
        return compare(&files, a, b);
    }
    let ci = in_ci();
    let write = match (ci, args.accept, args.review) {
        (true, _, _) | (false, false, true) => suite::Write::Nothing,
        (false, true, _) => suite::Write::All,
        (false, false, false) => suite::Write::New,
    };
    let registry = crate::games::registry();
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    let mut reviewing = args.review && !ci;
    // Bounded as `play`'s input: `--review < /dev/zero` is an error, not a 2 GB line.
    let mut answers = crate::output::bounded_lines(std::io::stdin().lock());
    let mut stdout = std::io::stdout().lock();
    let say = |out: &mut std::io::StdoutLock, line: String| writeln!(out, "{line}").map_err(|e| e.to_string());
    if (args.accept || args.review) && ci {
        say(&mut stdout, "CI is set: nothing is written".into())?;
    }
    for file in &files {
        let mut problems = Vec::new();
        match suite::check(registry, file, write, args.trace) {
            Err(why) => problems = why,
            Ok((played, snap)) => {
                problems.extend(played.problems.iter().cloned());
                let path = suite::snapshot_path(file);
                let review = reviewing.then_some((&mut stdout, &mut answers));
                if let Some(problem) = settle(file, &played, snap, &path, review, &mut tally, &mut reviewing)? {
                    problems.push(problem);
                }
            }
        }
        let verdict = if problems.is_empty() { "PASS" } else { "FAIL" };
        if !problems.is_empty() {
            failures.push((file, problems));
        }
        say(&mut stdout, format!("{verdict} {}", stem(file)))?;
        stdout.flush().ok();
    }
    for (file, why) in &failures {
        say(&mut stdout, format!("\n---- {} ({}) ----", stem(file), file.display()))?;
        for line in why {
            say(&mut stdout, indent(line))?;
        }
    }
    let list = |out: &mut std::io::StdoutLock, what: &str, files: &[PathBuf]| -> Result<(), String> {
        if !files.is_empty() {
            writeln!(out, "\n{what}:").map_err(|e| e.to_string())?;
            for f in files {
                writeln!(out, "  {}", f.display()).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    };
    list(&mut stdout, "new snapshots recorded", &tally.new)?;
    list(&mut stdout, "changed snapshots accepted", &tally.accepted)?;
    list(&mut stdout, "snapshots rejected (the stored one stays)", &tally.rejected)?;
    list(&mut stdout, "snapshots skipped (review them again)", &tally.skipped)?;
    if args.path.is_dir() {
        list(
            &mut stdout,
            "stale snapshots (no scenario of that name; delete them if they are not needed)",
            &suite::stale(&args.path),
        )?;
    }
    let passed = files.len() - failures.len();
    let secs = start.elapsed().as_secs_f64();
    say(&mut stdout, format!("\n{passed} passed, {} failed in {secs:.2}s", failures.len()))?;
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// What a scenario's snapshot outcome means for the run: the problem it adds,
/// if any. With a review, a new or changed snapshot is shown and decided here
/// (not when the scenario's `[expect]` fails: such an outcome is never stored).
fn settle(
    file: &Path,
    played: &Played,
    snap: Snap,
    path: &Path,
    review: Option<(&mut std::io::StdoutLock, &mut Answers)>,
    tally: &mut Tally,
    reviewing: &mut bool,
) -> Result<Option<String>, String> {
    if !played.problems.is_empty() {
        // Nothing is stored or offered for review while the scenario's own checks fail.
        return Ok(match snap {
            Snap::New { .. } => Some("no snapshot recorded: a scenario whose [expect] fails records nothing".into()),
            Snap::Changed { diff, .. } => Some(format!(
                "snapshot changed ({}; - stored, + now; not stored while [expect] fails):\n{}",
                path.display(),
                diff.trim_end()
            )),
            Snap::Same => None,
        });
    }
    let shown = match &snap {
        Snap::New { written: false } => {
            Some(format!("new snapshot {}:\n{}", path.display(), indent(played.now.body.trim_end())))
        }
        Snap::Changed { accepted: false, diff } => {
            Some(format!("snapshot {} changed (- stored, + now):\n{}", path.display(), indent(diff.trim_end())))
        }
        _ => None,
    };
    if let (Some(shown), Some((out, answers))) = (shown, review) {
        writeln!(out, "\n---- review {} ----\n{shown}", stem(file)).map_err(|e| e.to_string())?;
        match ask(out, answers)? {
            Answer::Accept => {
                suite::store(file, &played.now)?;
                tally.accepted.push(path.to_path_buf());
                return Ok(None);
            }
            Answer::Reject => {
                tally.rejected.push(path.to_path_buf());
                return Ok(Some("snapshot rejected in review: the stored one stays".into()));
            }
            Answer::Quit => *reviewing = false,
            Answer::Skip => {}
        }
        tally.skipped.push(path.to_path_buf());
        return Ok(Some("snapshot new or changed, skipped in review".into()));
    }
    Ok(match snap {
        Snap::Same => None,
        Snap::New { written: true } => {
            tally.new.push(path.to_path_buf());
            None
        }
        Snap::Changed { accepted: true, .. } => {
            tally.accepted.push(path.to_path_buf());
            None
        }
        Snap::New { written: false } => Some(if in_ci() {
            format!(
                "no stored snapshot {} (CI is set, so none was written); run without CI to record it",
                path.display()
            )
        } else {
            format!("no stored snapshot {} (skipped in review)", path.display())
        }),
        Snap::Changed { accepted: false, diff } => Some(format!(
            "snapshot changed ({}; - stored, + now; `--accept` or `--review` stores the new one):\n{}",
            path.display(),
            diff.trim_end()
        )),
    })
}

/// The review's answers: standard input's lines, each bounded.
type Answers = crate::output::BoundedLines<std::io::StdinLock<'static>>;

/// Asks until the answer is one of accept, reject, skip or quit; the end of the input quits.
fn ask(out: &mut std::io::StdoutLock, answers: &mut Answers) -> Result<Answer, String> {
    loop {
        write!(out, "accept, reject, skip, or quit reviewing? [a/r/s/q] > ").map_err(|e| e.to_string())?;
        out.flush().ok();
        let Some(line) = answers.next() else {
            writeln!(out).ok();
            return Ok(Answer::Quit);
        };
        let line = line.map_err(|e| format!("reading the standard input: {e}"))?;
        match line.trim().to_lowercase().as_str() {
            "a" | "accept" => return Ok(Answer::Accept),
            "r" | "reject" => return Ok(Answer::Reject),
            "s" | "skip" => return Ok(Answer::Skip),
            "q" | "quit" => return Ok(Answer::Quit),
            other => writeln!(out, "`{other}`: answer a, r, s or q").map_err(|e| e.to_string())?,
        }
    }
}

/// A ruleset as given on the command line, named so that it loads from a scenario's folder:
/// a file by its absolute path, a built-in by its id.
fn absolute(spec: &str) -> String {
    let path = Path::new(spec);
    if path.is_file() {
        std::path::absolute(path).map_or_else(|_| spec.to_owned(), |p| p.display().to_string())
    } else {
        spec.to_owned()
    }
}

/// `--ruleset-a A --ruleset-b B`: every scenario of `A`'s game played under both;
/// the ones whose final state differs are listed with the diff. Exit 1 when a
/// scenario does not run under one of them.
fn compare(files: &[PathBuf], a: &str, b: &str) -> CmdResult {
    let (a, b) = (absolute(a), absolute(b));
    let registry = crate::games::registry();
    let game = registry.of_ruleset(&a)?;
    if registry.of_ruleset(&b)?.id() != game.id() {
        return Err(format!(
            "--ruleset-a is for {} and --ruleset-b is not: compare two rulesets of one game",
            game.title()
        ));
    }
    let mut stdout = std::io::stdout().lock();
    let mut out = |line: String| writeln!(stdout, "{line}").map_err(|e| e.to_string());
    let (mut differ, mut broken, mut skipped, mut same) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for file in files {
        let name = stem(file);
        if registry.of_file(file).ok().map(|k| k.id()) != Some(game.id()) {
            skipped.push(name);
            continue;
        }
        let play = |spec: &str| suite::play(registry, file, Some(spec), false);
        match (play(&a), play(&b)) {
            (Ok(x), Ok(y)) if x.now.body == y.now.body => same += 1,
            (Ok(x), Ok(y)) => {
                out(format!("DIFF {name}"))?;
                differ.push((name, diff(&x.now.body, &y.now.body, 3)));
            }
            (x, y) => {
                out(format!("FAIL {name}"))?;
                let mut why = Vec::new();
                for (label, r) in [("A", x), ("B", y)] {
                    if let Err(lines) = r {
                        why.extend(lines.iter().map(|l| format!("under {label}: {l}")));
                    }
                }
                broken.push((name, why));
            }
        }
    }
    for (name, d) in &differ {
        out(format!("\n---- {name}: - under A, + under B ----"))?;
        out(indent(d.trim_end()))?;
    }
    for (name, why) in &broken {
        out(format!("\n---- {name} did not run ----"))?;
        out(indent(&why.join("\n")))?;
    }
    if !skipped.is_empty() {
        out(format!("\nnot of {}, not compared: {}", game.title(), skipped.join(", ")))?;
    }
    out(format!(
        "\n{} of {} scenarios differ between A ({a}) and B ({b}); {same} the same, {} did not run",
        differ.len(),
        differ.len() + same + broken.len(),
        broken.len()
    ))?;
    Ok(if broken.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Indents every line of a (possibly multi-line) message under its file's header.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}
