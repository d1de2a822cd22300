//! Every scenario in `snapshots/alhambra/` must load, run and pass its
//! `[expect]` table (which it must have). Every failing file is reported, not
//! just the first.

use std::path::{Path, PathBuf};

use alhambra::scenario::Scenario;

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots/alhambra");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

fn check(path: &Path) -> Result<(), String> {
    let scenario = Scenario::load(path).map_err(|e| e.to_string())?;
    let run = scenario.run().map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    if scenario.file.expect.is_none() {
        problems.push("no [expect] table: every scenario needs one".to_owned());
    }
    problems.extend(scenario.check(&run));
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n  ")) }
}

#[test]
fn every_scenario_passes() {
    let files = scenario_files();
    assert!(files.len() >= 20, "only {} scenarios", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(f).err().map(|e| format!("{}:\n  {e}", f.file_name().unwrap().to_string_lossy())))
        .collect();
    assert!(failures.is_empty(), "{} of {} scenarios fail:\n{}", failures.len(), files.len(), failures.join("\n"));
}
