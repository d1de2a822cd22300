//! `sanjuan scenario` and `sanjuan score`, for a scenario file of any game.

use std::path::Path;
use std::process::ExitCode;

use engine_game::{AnyGame, Scenario};

use crate::CmdResult;

/// `sanjuan scenario --trace`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Trace {
    /// Print every event of the scenario's actions, with the building that caused it, before the state.
    #[arg(long, short = 'v', conflicts_with = "json")]
    pub(crate) trace: bool,
}

/// Plays a scenario file of whichever game its ruleset is for.
pub fn play(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<Scenario<Box<dyn AnyGame>>, Vec<String>> {
    let registry = crate::games::registry();
    let kind = match ruleset {
        Some(spec) => registry.of_ruleset(spec),
        None => registry.of_file(file),
    };
    kind.map_err(|e| vec![e])?.scenario(file, ruleset, trace)
}

/// One message of a scenario's errors, as the command prints it.
fn message(errors: Vec<String>) -> String {
    errors.join("\n\n").trim_start_matches("error: ").to_owned()
}

/// Plays a scenario and prints the state (and the check result); `trace`
/// prints the events of each action first.
pub fn run(file: &Path, json: bool, check: bool, trace: Trace) -> CmdResult {
    let scenario = play(file, None, trace.trace).map_err(message)?;
    for line in &scenario.trace {
        println!("{line}");
    }
    let game = &scenario.game;
    if json {
        let state = game.view(None)?;
        println!("{}", serde_json::to_string_pretty(&state).expect("json"));
    } else {
        for line in game.table_text(None) {
            println!("{line}");
        }
        for note in &scenario.notes {
            println!("{note}");
        }
    }
    if check {
        let Some(fails) = &scenario.failures else {
            return Err(format!(
                "{}: no [expect] table to check; a scenario without one is a snapshot test: `sanjuan test {}`",
                file.display(),
                file.display()
            ));
        };
        if !fails.is_empty() {
            for f in fails {
                eprintln!("check failed: {f}");
            }
            return Ok(ExitCode::FAILURE);
        }
        eprintln!("check: ok");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints each player's score.
pub fn score(file: &Path, json: bool) -> CmdResult {
    let scenario = play(file, None, false).map_err(message)?;
    if json {
        let scores = scenario.game.scores()?;
        println!("{}", serde_json::to_string_pretty(&scores).expect("json"));
    } else {
        for line in scenario.game.score_lines()? {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
