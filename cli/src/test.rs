//! `sanjuan test`: runs a folder of scenario files, each against its
//! `[expect]` table, and reports like a test runner — for designers whose
//! scenarios live outside this repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use san_juan::scenario::Scenario;

use crate::games::Which;

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
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut stdout = std::io::stdout().lock();
    for file in &files {
        let name = stem(file);
        // A bug in the engine fails this scenario, not the whole run.
        let outcome = std::panic::catch_unwind(|| problems(file)).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            Err(vec![format!("the engine panicked ({why}): a bug in sanjuan; please report it with this file")])
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

/// Loads, plays and checks one scenario; the lines that say what went wrong.
fn problems(file: &Path) -> Result<(), Vec<String>> {
    if Which::of_file(file).map_err(|e| vec![e])? == Which::Alhambra {
        return crate::alhambra::test_problems(file);
    }
    let scenario = Scenario::load(file).map_err(|e| vec![e.to_string()])?;
    let game = scenario.run().map_err(|e| e.0.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    if scenario.file.expect.is_none() {
        return Err(vec![
            "no [expect] table: nothing to check; add one (e.g. `[expect]` with `scores = [...]`)".into(),
        ]);
    }
    let fails = scenario.check(&game).map_err(|e| vec![format!("checking [expect]: {e}")])?;
    if fails.is_empty() { Ok(()) } else { Err(fails) }
}

fn stem(file: &Path) -> String {
    file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| file.display().to_string())
}

/// Indents every line of a (possibly multi-line) message under its file's header.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}
