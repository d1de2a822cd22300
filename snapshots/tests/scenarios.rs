//! Runs every scenario of every game as its own test, named after the file
//! (`cargo test -p sanjuan-snapshots -- palace_34_to_42` runs one), through the
//! same loop as `sanjuan test` (`sanjuan_snapshots::suite`). Scenarios live in
//! `snapshots/<game>/`, their snapshots in `snapshots/<game>/snapshots/`; a
//! changed one is reviewed with `sanjuan test snapshots/<game> --review`.

use std::path::Path;
use std::sync::Arc;

use engine_game::Registry;
use libtest_mimic::{Arguments, Trial};

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registry = Arc::new(games::registry());
    let mut all = Vec::new();
    for kind in registry.kinds() {
        let dir = root.join(kind.id());
        if !dir.is_dir() {
            continue;
        }
        match sanjuan_snapshots::trials(&registry, &dir) {
            Ok(t) => all.extend(t),
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    match corpus(&registry, &root.join("../corpus")) {
        Ok(t) => all.extend(t),
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    }
    libtest_mimic::run(&args, all).exit_code()
}

/// The designs of `corpus/`, written before the vocabulary that must express
/// them: each scenario is a test (`corpus/<game>/<design>/<file>`) that holds
/// the line `corpus/passing.txt` draws. A listed scenario must pass; one not
/// listed must still fail, so a design that starts to work is noticed and
/// listed (the count can only go up).
fn corpus(registry: &Arc<Registry>, dir: &Path) -> Result<Vec<Trial>, String> {
    let listed = std::fs::read_to_string(dir.join("passing.txt")).map_err(|e| format!("corpus/passing.txt: {e}"))?;
    let passing: Vec<String> =
        listed.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_owned).collect();
    let mut trials = Vec::new();
    let mut found = Vec::new();
    for game in registry.kinds() {
        let Ok(designs) = std::fs::read_dir(dir.join(game.id())) else { continue };
        let mut designs: Vec<_> = designs.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
        designs.sort();
        for design in designs {
            let files = sanjuan_snapshots::suite::select(&design.join("scenarios"), None)?;
            for file in files {
                let rel = file.strip_prefix(dir).map_err(|e| e.to_string())?.to_string_lossy().replace('\\', "/");
                let should_pass = passing.contains(&rel);
                found.push(rel.clone());
                let registry = Arc::clone(registry);
                trials.push(Trial::test(format!("corpus/{}", rel.trim_end_matches(".toml")), move || {
                    let played = sanjuan_snapshots::suite::play(&registry, &file, None, false);
                    let passed = played.as_ref().is_ok_and(|p| p.problems.is_empty());
                    match (should_pass, passed) {
                        (true, false) => Err(format!(
                            "corpus/{rel} passed before and fails now:\n{}",
                            match played {
                                Ok(p) => p.problems.join("\n"),
                                Err(e) => e.join("\n"),
                            }
                        )
                        .into()),
                        (false, true) => Err(format!("corpus/{rel} works now: add it to corpus/passing.txt").into()),
                        _ => Ok(()),
                    }
                }));
            }
        }
    }
    if let Some(gone) = passing.iter().find(|p| !found.contains(p)) {
        return Err(format!("corpus/passing.txt lists `{gone}`, which is not a corpus scenario"));
    }
    Ok(trials)
}
