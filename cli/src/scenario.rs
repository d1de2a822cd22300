//! `sanjuan scenario` and `sanjuan score`.

use std::path::Path;
use std::process::ExitCode;

use sanjuan_core::Game;
use sanjuan_core::scenario::Scenario;

use crate::CmdResult;

fn play(file: &Path) -> Result<(Scenario, Game), String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let game = scenario.run().map_err(|e| e.to_string().trim_start_matches("error: ").to_owned())?;
    Ok((scenario, game))
}

/// Plays a scenario and prints the state (and the check result).
pub fn run(file: &Path, json: bool, check: bool) -> CmdResult {
    let (scenario, game) = play(file)?;
    let state = game.to_json(None).map_err(|e| e.to_string())?;
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
    let (_, game) = play(file)?;
    if json {
        let scores = game.scores_json().map_err(|e| e.to_string())?;
        println!("{}", serde_json::to_string_pretty(&scores).expect("json"));
    } else {
        for (seat, s) in game.scores().map_err(|e| e.to_string())?.iter().enumerate() {
            let parts: Vec<String> = s.breakdown.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!("seat {seat}: {} ({})", s.total, parts.join(", "));
        }
    }
    Ok(ExitCode::SUCCESS)
}
