//! `sanjuan cards` and `sanjuan check`.

use std::process::ExitCode;

use san_juan::Ruleset;

use crate::{CmdResult, load_ruleset};

/// Prints the resolved card table.
pub fn list(spec: &str) -> CmdResult {
    let rs = load_ruleset(spec)?;
    println!("{} ({}): {} cards", rs.name, rs.id, rs.total_cards());
    let script = |c: &san_juan::cards::CardDef| c.script.as_ref().map(ToString::to_string).unwrap_or_default();
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

/// Loads a ruleset and reports every problem; with `games`, plays that many
/// random games with the card census after every action.
pub fn check(spec: &str, games: u64) -> CmdResult {
    let rs = match Ruleset::load(spec) {
        Ok(rs) => rs,
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!("{} problem(s) found", errors.0.len());
            return Ok(ExitCode::FAILURE);
        }
    };
    for w in &rs.warnings {
        eprintln!("{}", w.to_string().replacen("error", "warning", 1));
    }
    let scripted = rs.cards.cards.iter().filter(|c| c.script.is_some()).count();
    println!(
        "ok: {} ({}), {} card types, {} cards, {scripted} scripts compiled, fingerprint {}",
        rs.name,
        rs.source,
        rs.cards.len(),
        rs.total_cards(),
        rs.fingerprint
    );
    if games == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let counts: Vec<usize> = (rs.rules.min_players..=rs.rules.max_players).collect();
    let mut actions = 0u64;
    for k in 0..games {
        let players = counts[(k % counts.len() as u64) as usize];
        match san_juan::sim::check_random_game(&rs, players, k) {
            Ok(n) => actions += n,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    println!(
        "ok: {games} random games ({} to {} players), {actions} actions, every card in exactly one place after each",
        counts[0],
        counts[counts.len() - 1]
    );
    Ok(ExitCode::SUCCESS)
}
