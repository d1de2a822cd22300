//! `sanjuan cards` and `sanjuan check`.

use std::process::ExitCode;

use crate::games::{CliGame, Which};
use crate::{CmdResult, load_ruleset};

/// Prints the resolved card table.
pub fn list(spec: &str) -> CmdResult {
    if Which::of_ruleset(spec)? == Which::Alhambra {
        return crate::alhambra::cards(spec);
    }
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
    match (Which::of_ruleset(a)?, Which::of_ruleset(b)?) {
        (Which::Alhambra, Which::Alhambra) => return crate::alhambra::diff(a, b),
        (Which::SanJuan, Which::SanJuan) => {}
        (x, y) => {
            return Err(format!(
                "`{a}` is a ruleset for {} and `{b}` one for {}: a diff compares two rulesets of the same game",
                x.title(),
                y.title()
            ));
        }
    }
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
    match Which::of_ruleset(spec) {
        Ok(Which::SanJuan) => check_game::<crate::games::SanJuan>(spec, games),
        Ok(Which::Alhambra) => check_game::<crate::games::Alhambra>(spec, games),
        Err(e) => {
            eprintln!("{e}");
            eprintln!("1 problem(s) found");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn check_game<G: CliGame>(spec: &str, games: u64) -> CmdResult {
    let rs = match G::load(spec) {
        Ok(rs) => rs,
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!("{} problem(s) found", errors.0.len());
            return Ok(ExitCode::FAILURE);
        }
    };
    for w in G::warnings(&rs) {
        eprintln!("{}", w.replacen("error", "warning", 1));
    }
    let info = G::describe(&rs);
    println!("ok: {}", info.summary);
    if games == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let counts: Vec<usize> = (info.players.0..=info.players.1).collect();
    let mut actions = 0u64;
    for k in 0..games {
        let players = counts[(k % counts.len() as u64) as usize];
        match G::check_random_game(&rs, players, k) {
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
