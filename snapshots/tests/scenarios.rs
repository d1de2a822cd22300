//! Runs every scenario in `snapshots/scenarios/` as its own test, named after
//! the file (`cargo test -p sanjuan-snapshots -- palace_34_to_42` runs one):
//! it must load and run, its `[expect]` table must exist and hold, and its
//! resulting state must match the accepted snapshot. Every failure is
//! reported, not just the first.
//! New or changed snapshots: `cargo insta review` (with CI set, they fail).

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use san_juan::scenario::Scenario;

fn main() -> std::process::ExitCode {
    let mut args = Arguments::from_args();
    // insta prints its diffs itself, outside libtest-mimic's report: one thread
    // keeps each diff next to the name of the scenario it belongs to.
    args.test_threads.get_or_insert(1);
    let trials = match scenario_files() {
        Ok(files) => files.into_iter().map(trial).collect(),
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    libtest_mimic::run(&args, trials).exit_code()
}

/// The scenario files, sorted so that the report reads alphabetically.
fn scenario_files() -> Result<Vec<PathBuf>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
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

fn trial(path: PathBuf) -> Trial {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    Trial::test(name, move || check(&path))
}

/// One scenario: every problem found, or the first that stops it from running.
fn check(path: &Path) -> Result<(), Failed> {
    let scenario = Scenario::load(path).map_err(|e| e.to_string())?;
    let game = scenario.run().map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    if scenario.file.expect.is_none() {
        problems.push("no [expect] table: every scenario needs one".to_owned());
    }
    let fails = scenario.check(&game).map_err(|e| format!("checking [expect]: {e}"))?;
    if !fails.is_empty() {
        problems.push(format!("[expect] failed:\n  {}", fails.join("\n  ")));
    }
    let state = game.to_json(None).map_err(|e| format!("state as JSON: {e}"))?;
    if let Err(e) = assert_snapshot(path, &scenario, &state) {
        problems.push(e);
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{}:\n{}", path.display(), problems.join("\n")).into()) }
}

/// Compares the state with the accepted snapshot under the name the former
/// `insta::glob!` test gave it (`scenarios__scenarios@<file>.toml.snap`, with
/// the same metadata), so the accepted files are found and stay as they are.
fn assert_snapshot(path: &Path, scenario: &Scenario, state: &serde_json::Value) -> Result<(), String> {
    let file_name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.set_input_file(path);
    settings.set_snapshot_suffix(file_name);
    settings.set_description(scenario.file.description.clone());
    settings.set_omit_expression(true);
    // insta reports a mismatch by panicking (after printing the diff); catching
    // it lets the [expect] failures of the same scenario be reported with it.
    let compare = || settings.bind(|| insta::assert_yaml_snapshot!("scenarios", state));
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(compare)).map_err(|e| {
        let why = e
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| e.downcast_ref::<&str>().copied())
            .unwrap_or("snapshot assertion failed");
        format!("snapshot: {why} (diff above; `cargo insta review` to accept a change)")
    })
}
