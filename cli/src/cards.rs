//! `sanjuan cards` and `sanjuan check`.

use std::process::ExitCode;

use crate::CmdResult;
use crate::games::{load, registry};

/// Prints the resolved card table.
pub fn list(spec: &str) -> CmdResult {
    for line in load(spec)?.cards_text() {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints what differs between two rulesets.
pub fn diff(a: &str, b: &str) -> CmdResult {
    let (x, y) = (registry().of_ruleset(a)?, registry().of_ruleset(b)?);
    if x.id() != y.id() {
        return Err(format!(
            "`{a}` is a ruleset for {} and `{b}` one for {}: a diff compares two rulesets of the same game",
            x.title(),
            y.title()
        ));
    }
    let (ra, rb) = (load(a)?, load(b)?);
    let lines = ra.diff(rb.as_ref())?;
    println!("{} -> {}: {} difference(s)", ra.id(), rb.id(), lines.len());
    for line in lines {
        println!("  {line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Loads a ruleset and reports every problem; with `games`, plays that many
/// random games with the card census after every action.
pub fn check(spec: &str, games: u64) -> CmdResult {
    let kind = match registry().of_ruleset(spec) {
        Ok(kind) => kind,
        Err(e) => {
            eprintln!("{e}");
            eprintln!("1 problem(s) found");
            return Ok(ExitCode::FAILURE);
        }
    };
    let rs = match kind.load(spec, None) {
        Ok(rs) => rs,
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!("{} problem(s) found", errors.0.len());
            return Ok(ExitCode::FAILURE);
        }
    };
    for w in rs.warnings() {
        eprintln!("{}", w.replacen("error", "warning", 1));
    }
    println!("ok: {}", rs.summary());
    if games == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let (min, max) = rs.players();
    let counts: Vec<usize> = (min..=max).collect();
    let mut actions = 0u64;
    for k in 0..games {
        let players = counts[(k % counts.len() as u64) as usize];
        match rs.check_random_game(players, k) {
            Ok(n) => actions += n,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    println!(
        "ok: {games} random games ({min} to {max} players), {actions} actions, every card in exactly one place after each"
    );
    Ok(ExitCode::SUCCESS)
}
