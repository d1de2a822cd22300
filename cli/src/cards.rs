//! `sanjuan cards` and `sanjuan check`.

use std::process::ExitCode;

use sanjuan_core::Ruleset;

use crate::{CmdResult, load_ruleset};

/// Prints the resolved card table.
pub fn list(spec: &str) -> CmdResult {
    let rs = load_ruleset(spec)?;
    println!("{} ({}): {} cards", rs.name, rs.id, rs.total_cards());
    let script = |c: &sanjuan_core::cards::CardDef| c.script.as_ref().map(ToString::to_string).unwrap_or_default();
    let width = rs.cards.cards.iter().map(|c| script(c).len()).max().unwrap_or(0).max("script".len());
    println!("{:<18} {:<10} {:>4} {:>3} {:>6}  {:<width$}  text", "id", "kind", "cost", "vp", "copies", "script");
    for c in &rs.cards.cards {
        let public = if c.public { " (public: anyone may build it)" } else { "" };
        println!(
            "{:<18} {:<10} {:>4} {:>3} {:>6}  {:<width$}  {}{public}",
            c.id,
            c.kind.as_str(),
            c.cost,
            c.vp,
            c.copies,
            script(c),
            c.text
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints what differs between two rulesets.
pub fn diff(a: &str, b: &str) -> CmdResult {
    let (ra, rb) = (load_ruleset(a)?, load_ruleset(b)?);
    let lines = ra.diff(&rb);
    println!("{} -> {}: {} difference(s)", ra.id, rb.id, lines.len());
    for line in lines {
        println!("  {line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Loads a ruleset and reports every problem.
pub fn check(spec: &str) -> CmdResult {
    match Ruleset::load(spec) {
        Ok(rs) => {
            let scripted = rs.cards.cards.iter().filter(|c| c.script.is_some()).count();
            println!(
                "ok: {} ({}), {} card types, {} cards, {scripted} scripts compiled",
                rs.name,
                rs.source,
                rs.cards.len(),
                rs.total_cards()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!("{} problem(s) found", errors.0.len());
            Ok(ExitCode::FAILURE)
        }
    }
}
