//! Scenario snapshots, one way for every game and every folder: [`file`] is
//! the `.snap` format (insta's layout: a header, then the state as YAML) with
//! its line diff, and [`suite`] plays a folder of scenarios through a game
//! registry and compares each with its stored snapshot. `sanjuan test DIR` and
//! this repository's own snapshot tests (`tests/scenarios.rs`, one test per
//! scenario of `snapshots/<game>/`) both run [`suite::check`].

use std::path::Path;
use std::sync::Arc;

use engine_game::Registry;
use libtest_mimic::{Failed, Trial};

pub mod file;
pub mod suite;

use suite::{Snap, Write};

/// One test per scenario file in `dir`, named after the file. A scenario must
/// load and run, pass its `[expect]` table if it has one, and end in the state
/// of its stored snapshot (`dir/snapshots/NAME.snap`); every failure of a
/// scenario is reported, not just the first. Under `CI` nothing is written;
/// else a scenario with no snapshot yet whose `[expect]` holds records one.
pub fn trials(registry: &Arc<Registry>, dir: &Path) -> Result<Vec<Trial>, String> {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    let write = if ci { Write::Nothing } else { Write::New };
    Ok(suite::select(dir, None)?
        .into_iter()
        .map(|path| {
            let registry = Arc::clone(registry);
            Trial::test(suite::stem(&path), move || check(&registry, &path, write))
        })
        .collect())
}

fn check(registry: &Registry, path: &Path, write: Write) -> Result<(), Failed> {
    let fail = |problems: Vec<String>| -> Failed { format!("{}:\n{}", path.display(), problems.join("\n")).into() };
    let (played, snap) = suite::check(registry, path, write, false).map_err(fail)?;
    let mut problems = played.problems;
    if played.now.description.is_empty() {
        problems.push("no `description`: say what the scenario shows (the rule and where it is written)".into());
    }
    let review = || {
        let dir = path.parent().unwrap_or(Path::new("."));
        format!("`cargo run -p sanjuan-cli -- test {} --review` to see and accept it", dir.display())
    };
    let expect_failed = !problems.is_empty();
    match snap {
        Snap::Same | Snap::New { written: true } | Snap::Changed { accepted: true, .. } => {}
        Snap::New { written: false } if expect_failed => {
            problems.push("no snapshot recorded: a scenario whose [expect] fails records nothing".into())
        }
        Snap::New { written: false } => {
            problems.push(format!("no stored snapshot (CI is set, so none was written); {}", review()))
        }
        Snap::Changed { accepted: false, diff } => {
            problems.push(format!("snapshot changed (- stored, + now; {}):\n{}", review(), diff.trim_end()))
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(fail(problems)) }
}
