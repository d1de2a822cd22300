//! `sanjuan test`: runs a folder of scenario files, each against its
//! `[expect]` table and its stored snapshot, and reports like a test runner —
//! for designers whose scenarios live outside this repository.
//!
//! The snapshot of a scenario is its final state, as the repository's own
//! snapshot tests render it (`sanjuan_snapshots::file`), stored in insta's
//! file format as `DIR/snapshots/<name>.snap`. The first run records it; later
//! runs compare, and a changed state fails with a line diff until `--accept`.
//! With `CI=true` nothing is written, and a missing snapshot fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use sanjuan_snapshots::file::{Stored, diff, yaml};

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
    #[arg(long, conflicts_with = "ruleset_a")]
    accept: bool,
    /// Compare mode: play every scenario under this ruleset (id or path) and under
    /// --ruleset-b instead of the one it names, and list the scenarios whose final
    /// state differs, with the diff. Reads and writes no stored snapshot.
    #[arg(long, value_name = "RULESET", requires = "ruleset_b")]
    ruleset_a: Option<String>,
    /// The ruleset to compare --ruleset-a with.
    #[arg(long, value_name = "RULESET", requires = "ruleset_a")]
    ruleset_b: Option<String>,
}

/// The folder of a scenario folder's snapshots.
const SNAPSHOTS: &str = "snapshots";

/// What running one scenario gave: the problems, and the state to snapshot.
struct Checked {
    /// Failed `[expect]` checks and other problems (a missing `[expect]`).
    problems: Vec<String>,
    /// The final state as the snapshot holds it.
    body: String,
    /// The scenario's description, for the snapshot's header.
    description: String,
}

/// What happened to a scenario's snapshot.
enum Snap {
    /// Stored and equal.
    Same,
    /// None was stored: recorded now (or not, under CI).
    New { written: bool },
    /// Stored and different: accepted now, or the diff.
    Changed { accepted: bool, diff: String },
}

/// Whether this run may write snapshots (`CI` set to anything but `false`/`0` forbids it, as in insta).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Exit code for a bad argument, as clap uses for its own usage errors.
const USAGE: u8 = 2;

/// Runs every selected scenario and prints one line each, the failures, and a summary.
pub fn run(args: Args) -> CmdResult {
    let files = match select(&args.path, args.filter.as_deref()) {
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
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut new, mut accepted) = (Vec::new(), Vec::new());
    let mut stdout = std::io::stdout().lock();
    if args.accept && ci {
        writeln!(stdout, "CI is set: --accept writes nothing").map_err(|e| e.to_string())?;
    }
    for file in &files {
        let name = stem(file);
        // A bug in the engine fails this scenario, not the whole run.
        let outcome = std::panic::catch_unwind(|| problems(file, None)).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            Err(vec![format!("the engine panicked ({why}): a bug in sanjuan; please report it with this file")])
        });
        let outcome = outcome.and_then(|checked| {
            let mut problems = checked.problems;
            match snapshot(file, &checked.body, &checked.description, args.accept && !ci) {
                Ok(Snap::Same) => {}
                Ok(Snap::New { written: true }) => new.push(snapshot_path(file)),
                Ok(Snap::New { written: false }) => problems.push(format!(
                    "no stored snapshot {} (CI is set, so none was written); run without CI to record it",
                    snapshot_path(file).display()
                )),
                Ok(Snap::Changed { accepted: true, .. }) => accepted.push(snapshot_path(file)),
                Ok(Snap::Changed { accepted: false, diff }) => problems.push(format!(
                    "snapshot changed ({}; - stored, + now; `--accept` stores the new one):\n{}",
                    snapshot_path(file).display(),
                    diff.trim_end()
                )),
                Err(e) => problems.push(e),
            }
            if problems.is_empty() { Ok(()) } else { Err(problems) }
        });
        let verdict = match outcome {
            Ok(()) => "PASS",
            Err(why) => {
                failures.push((file, why));
                "FAIL"
            }
        };
        writeln!(stdout, "{verdict} {name}").map_err(|e| e.to_string())?;
        stdout.flush().ok();
    }
    for (file, why) in &failures {
        writeln!(stdout, "\n---- {} ({}) ----", stem(file), file.display()).map_err(|e| e.to_string())?;
        for line in why {
            writeln!(stdout, "{}", indent(line)).map_err(|e| e.to_string())?;
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
    list(&mut stdout, "new snapshots recorded", &new)?;
    list(&mut stdout, "changed snapshots accepted", &accepted)?;
    if args.path.is_dir() {
        list(
            &mut stdout,
            "stale snapshots (no scenario of that name; delete them if they are not needed)",
            &stale(&args.path),
        )?;
    }
    let passed = files.len() - failures.len();
    let secs = start.elapsed().as_secs_f64();
    writeln!(stdout, "\n{passed} passed, {} failed in {secs:.2}s", failures.len()).map_err(|e| e.to_string())?;
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The scenario files to run, sorted by name; an error names the bad argument.
fn select(path: &Path, filter: Option<&str>) -> Result<Vec<PathBuf>, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}; give a folder of scenario *.toml files or one such file", path.display()))?;
    let mut files = if meta.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let file = entry.map_err(|e| format!("{}: {e}", path.display()))?.path();
            if file.extension().is_some_and(|x| x == "toml") && file.is_file() {
                files.push(file);
            }
        }
        if files.is_empty() {
            return Err(format!("{}: no *.toml scenario files in this folder", path.display()));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    if let Some(f) = filter {
        files.retain(|file| stem(file).contains(f));
        if files.is_empty() {
            return Err(format!("no scenario file name in {} contains `{f}`; check --filter", path.display()));
        }
    }
    files.sort();
    Ok(files)
}

/// Loads, plays and checks one scenario (under `ruleset` instead of the one it
/// names, if given): the problems and the final state, or (`Err`) the lines
/// that say why it did not run.
fn problems(file: &Path, ruleset: Option<&str>) -> Result<Checked, Vec<String>> {
    let ran = crate::scenario::play(file, ruleset, false)?;
    let state = ran.game.view(None).map_err(|e| vec![format!("the state: {e}")])?;
    let problems = ran.failures.unwrap_or_else(|| {
        vec!["no [expect] table: nothing to check; add one (e.g. `[expect]` with `scores = [...]`)".into()]
    });
    Ok(Checked { problems, body: yaml(&state), description: ran.description })
}

/// Where a scenario's snapshot is stored.
fn snapshot_path(file: &Path) -> PathBuf {
    file.parent().unwrap_or(Path::new(".")).join(SNAPSHOTS).join(format!("{}.snap", stem(file)))
}

/// Compares the state with the stored snapshot, writing it when it is new
/// (unless `CI` is set) or changed and `accept`.
fn snapshot(file: &Path, body: &str, description: &str, accept: bool) -> Result<Snap, String> {
    let path = snapshot_path(file);
    let now = Stored {
        source: "sanjuan test".into(),
        description: description.to_owned(),
        input_file: file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        body: body.to_owned(),
    };
    let write = || -> Result<(), String> {
        let dir = path.parent().expect("a snapshot path has a folder");
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        crate::output::write_file(&path, now.to_text())
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let written = !in_ci();
            if written {
                write()?;
            }
            return Ok(Snap::New { written });
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let stored = Stored::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if stored.same_state(&now) {
        return Ok(Snap::Same);
    }
    if accept {
        write()?;
        return Ok(Snap::Changed { accepted: true, diff: String::new() });
    }
    Ok(Snap::Changed { accepted: false, diff: diff(&stored.body, &now.body, 3) })
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
        let play = |spec: &str| {
            std::panic::catch_unwind(|| problems(file, Some(spec))).unwrap_or_else(|_| {
                Err(vec!["the engine panicked: a bug in sanjuan; please report it with this file".into()])
            })
        };
        match (play(&a), play(&b)) {
            (Ok(x), Ok(y)) if x.body == y.body => same += 1,
            (Ok(x), Ok(y)) => {
                out(format!("DIFF {name}"))?;
                differ.push((name, diff(&x.body, &y.body, 3)));
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

/// The stored snapshots of a folder with no scenario file of their name.
fn stale(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join(SNAPSHOTS)) else { return Vec::new() };
    let mut stale: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .filter(|p| p.file_stem().is_some_and(|s| !dir.join(Path::new(s).with_extension("toml")).is_file()))
        .collect();
    stale.sort();
    stale
}

fn stem(file: &Path) -> String {
    file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| file.display().to_string())
}

/// Indents every line of a (possibly multi-line) message under its file's header.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}
