//! `sanjuan scenario` and `sanjuan score`.

use std::path::Path;
use std::process::ExitCode;

use san_juan::Game;
use san_juan::scenario::Scenario;

use crate::CmdResult;
use crate::games::Which;

/// `sanjuan scenario --trace`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Trace {
    /// Print every event of the scenario's actions, with the building that caused it, before the state.
    #[arg(long, short = 'v', conflicts_with = "json")]
    pub(crate) trace: bool,
}

fn play(file: &Path) -> Result<(Scenario, Game), String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let game = scenario.run().map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    Ok((scenario, game))
}

/// Plays the scenario's actions one by one, printing each one's events.
fn play_traced(file: &Path) -> Result<(Scenario, Game), String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let rs = scenario.ruleset().map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    let mut game = scenario.setup(rs).map_err(|e| e.to_string())?;
    game.log_events(true);
    let cards = std::sync::Arc::clone(&game.ruleset().cards);
    for (i, action) in scenario.file.actions.iter().enumerate() {
        println!("action {} `{action}`:", i + 1);
        match game.apply_text(action) {
            Ok(events) => {
                for e in &events {
                    // Name the cause unless the text already does.
                    let name = e.cause.map(|c| cards.get(c).name.to_lowercase());
                    match name {
                        Some(n) if !e.text.contains(&n) => println!("  {}  [{n}]", e.text),
                        _ => println!("  {}", e.text),
                    }
                }
            }
            // The untraced run words the error with the file position.
            Err(_) => return play(file),
        }
    }
    println!();
    Ok((scenario, game))
}

/// Plays a scenario and prints the state (and the check result); `trace`
/// prints the events of each action first.
pub fn run(file: &Path, json: bool, check: bool, trace: Trace) -> CmdResult {
    match Which::of_file(file)? {
        Which::SanJuan => run_san_juan(file, json, check, trace),
        Which::Alhambra => crate::alhambra::scenario(file, json, check, trace.trace),
    }
}

fn run_san_juan(file: &Path, json: bool, check: bool, trace: Trace) -> CmdResult {
    let (scenario, game) = if trace.trace { play_traced(file)? } else { play(file)? };
    let state = serde_json::to_value(game.view(None).map_err(|e| e.to_string())?).expect("a view is plain data");
    if json {
        println!("{}", serde_json::to_string_pretty(&state).expect("json"));
    } else {
        crate::play::print_state(&game, None);
    }
    if check {
        let fails = scenario.check(&game).map_err(|e| e.to_string())?;
        if scenario.file.expect.is_none() {
            return Err(format!("{}: no [expect] table to check", file.display()));
        }
        if fails.is_empty() {
            eprintln!("check: ok");
        } else {
            for f in &fails {
                eprintln!("check failed: {f}");
            }
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints each player's score.
pub fn score(file: &Path, json: bool) -> CmdResult {
    match Which::of_file(file)? {
        Which::SanJuan => score_san_juan(file, json),
        Which::Alhambra => crate::alhambra::score(file, json),
    }
}

fn score_san_juan(file: &Path, json: bool) -> CmdResult {
    let (_, game) = play(file)?;
    if json {
        let scores =
            serde_json::to_value(game.scores_view().map_err(|e| e.to_string())?).expect("scores are plain data");
        println!("{}", serde_json::to_string_pretty(&scores).expect("json"));
    } else {
        for (seat, s) in game.scores().map_err(|e| e.to_string())?.iter().enumerate() {
            let parts: Vec<String> = s.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("seat {seat}: {} ({})", s.total, parts.join(", "));
        }
    }
    Ok(ExitCode::SUCCESS)
}
