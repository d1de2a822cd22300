//! Runs every scenario of every game as its own test, named after the file
//! (`cargo test -p sanjuan-snapshots -- palace_34_to_42` runs one); see the
//! harness in `src/lib.rs`. Scenarios live in `snapshots/<game>/`.
//! New or changed snapshots: `cargo insta review` (with CI set, they fail).

use std::path::Path;

use libtest_mimic::Arguments;
use sanjuan_snapshots::{Checked, expect_problems, trials};

fn main() -> std::process::ExitCode {
    let mut args = Arguments::from_args();
    // insta prints its diffs itself, outside libtest-mimic's report: one thread
    // keeps each diff next to the name of the scenario it belongs to.
    args.test_threads.get_or_insert(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // San Juan's snapshots keep the name they were accepted under.
    let games: [(&str, &'static str, sanjuan_snapshots::Runner); 2] =
        [("san-juan", "scenarios", san_juan), ("alhambra", "alhambra", alhambra)];
    let mut all = Vec::new();
    for (dir, snapshot, run) in games {
        match trials(&root.join(dir), snapshot, run) {
            Ok(t) => all.extend(t),
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    libtest_mimic::run(&args, all).exit_code()
}

fn san_juan(path: &Path) -> Result<Checked, String> {
    let scenario = san_juan::scenario::Scenario::load(path).map_err(|e| e.to_string())?;
    let game = scenario.run().map_err(|e| e.to_string())?;
    let fails = scenario.check(&game).map_err(|e| format!("checking [expect]: {e}"))?;
    let state =
        serde_json::to_value(game.view(None).map_err(|e| format!("the state: {e}"))?).expect("a view is plain data");
    Ok(Checked {
        problems: expect_problems(scenario.file.expect.is_some(), fails),
        state,
        description: scenario.file.description.clone(),
    })
}

fn alhambra(path: &Path) -> Result<Checked, String> {
    let scenario = alhambra::scenario::Scenario::load(path).map_err(|e| e.to_string())?;
    let run = scenario.run().map_err(|e| e.to_string())?;
    let fails = scenario.check(&run);
    let state = serde_json::to_value(run.game.view(None)).expect("a view is plain data");
    Ok(Checked {
        problems: expect_problems(scenario.file.expect.is_some(), fails),
        state,
        description: scenario.file.description.clone(),
    })
}
