//! The scenario harness, for any game on the engine: every scenario file in a
//! game's folder becomes its own test, named after the file. A scenario must
//! load and run, hold an `[expect]` table whose checks pass, and end in the
//! state of its accepted snapshot. Every failure of a scenario is reported,
//! not just the first. A game supplies only how to run one file ([`Checked`]).

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};

pub mod file;

/// What running one scenario file gave.
pub struct Checked {
    /// Failed `[expect]` checks and other problems (a missing `[expect]`).
    pub problems: Vec<String>,
    /// The final state, as the snapshot holds it.
    pub state: serde_json::Value,
    /// The scenario's description, kept in the snapshot's header.
    pub description: String,
}

/// Runs one scenario file of a game; `Err` when it does not load or run.
pub type Runner = fn(&Path) -> Result<Checked, String>;

/// The scenario files of `dir`, sorted so that the report reads alphabetically.
pub fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|x| x == "toml") {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(format!("no *.toml scenario in {}", dir.display()));
    }
    files.sort();
    Ok(files)
}

/// One test per scenario file in `dir`, its snapshot stored as `<snapshot>@<file>.snap`.
pub fn trials(dir: &Path, snapshot: &'static str, run: Runner) -> Result<Vec<Trial>, String> {
    Ok(scenario_files(dir)?
        .into_iter()
        .map(|path| {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            Trial::test(name, move || check(&path, snapshot, run))
        })
        .collect())
}

fn check(path: &Path, snapshot: &'static str, run: Runner) -> Result<(), Failed> {
    let checked = run(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut problems = checked.problems;
    if let Err(e) = assert_snapshot(path, snapshot, &checked.description, &checked.state) {
        problems.push(e);
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{}:\n{}", path.display(), problems.join("\n")).into()) }
}

/// Compares the state with the accepted snapshot (`<module>__<snapshot>@<file>.toml.snap`).
fn assert_snapshot(path: &Path, snapshot: &str, description: &str, state: &serde_json::Value) -> Result<(), String> {
    let file_name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(path);
    settings.set_snapshot_suffix(file_name);
    settings.set_description(description.to_owned());
    settings.set_omit_expression(true);
    // insta reports a mismatch by panicking (after printing the diff); catching
    // it lets the [expect] failures of the same scenario be reported with it.
    let compare = || settings.bind(|| insta::assert_yaml_snapshot!(format!("scenarios__{snapshot}"), state));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(compare)).map_err(|e| {
        let why = e
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| e.downcast_ref::<&str>().copied())
            .unwrap_or("snapshot assertion failed");
        format!("snapshot: {why} (diff above; `cargo insta review` to accept a change)")
    })
}

/// Problems every game's scenario shares: a missing `[expect]` table, failed checks.
pub fn expect_problems(has_expect: bool, fails: Vec<String>) -> Vec<String> {
    let mut problems = Vec::new();
    if !has_expect {
        problems.push("no [expect] table: every scenario needs one".to_owned());
    }
    if !fails.is_empty() {
        problems.push(format!("[expect] failed:\n  {}", fails.join("\n  ")));
    }
    problems
}
