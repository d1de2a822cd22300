//! The command-line contract: exit codes, JSON keys and rulebook numbers.

mod common;
use common::sanjuan;

#[test]
fn score_json_gives_the_rulebook_palace_number() {
    let (ok, out, err) = sanjuan(&["score", "snapshots/scenarios/palace_34_to_42.toml", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["players"][0]["score"]["total"], 42);
    assert_eq!(v["players"][0]["score"]["breakdown"]["palace"], 8);
}

#[test]
fn scenario_json_has_the_contract_keys() {
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/scenarios/palace_34_to_42.toml", "--json", "--check"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["players", "deck_size", "discard_size", "pending"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let p = &v["players"][0];
    for key in ["seat", "hand", "buildings", "goods", "under", "score"] {
        assert!(p.get(key).is_some(), "missing players[0].{key}");
    }
    assert_eq!(v["pending"]["decision"], "role");
    assert!(v["pending"]["legal"].as_array().unwrap().iter().any(|a| a == "role builder"));
}

#[test]
fn simulate_prints_games_per_second() {
    let (ok, out, err) = sanjuan(&["simulate", "--games", "20", "--players", "3", "--seed", "3", "--quiet"]);
    assert!(ok, "{err}");
    assert!(out.contains("games/s"), "{out}");
    assert!(out.contains("20 games, 3 players"), "{out}");
}

#[test]
fn check_fails_with_file_and_line_on_a_broken_ruleset() {
    let dir = std::env::temp_dir().join(format!("sanjuan-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ruleset = dir.join("broken.toml");
    std::fs::write(
        &ruleset,
        "id = \"broken\"\nname = \"Broken\"\nextends = \"second-edition\"\n[rules]\nhand_limt = 8\n",
    )
    .unwrap();
    let (ok, _, err) = sanjuan(&["check", ruleset.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("broken.toml:5:") && err.contains("hand_limt"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cards_diff_lists_edition_differences() {
    let (ok, out, err) = sanjuan(&["cards", "--ruleset", "second-edition", "--diff", "first-edition"]);
    assert!(ok, "{err}");
    assert!(out.contains("card prefecture: cost 4 -> 3"), "{out}");
}

#[test]
fn bad_arguments_get_a_clear_error() {
    let (ok, _, err) = sanjuan(&["simulate", "--bots", "genius"]);
    assert!(!ok);
    assert!(err.contains("unknown bot `genius`"), "{err}");
    let (ok, _, err) = sanjuan(&["simulate", "--players", "7", "--games", "1"]);
    assert!(!ok);
    assert!(err.contains("2 to 4 players"), "{err}");
}

#[test]
fn a_saved_game_replays_to_the_same_state() {
    use std::io::Write;
    let file = std::env::temp_dir().join(format!("sanjuan-save-{}.toml", std::process::id()));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sanjuan"))
        .args(["play", "--players", "3", "--seat", "1", "--seed", "4", "--save", file.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Whatever seat 1 is asked first, `pass` or a role is answered; then quit.
    child.stdin.take().unwrap().write_all(b"role producer\npass\nrole trader\nquit\n").unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("seed = 4") && saved.contains("actions = ["), "{saved}");
    let (ok, first, err) = sanjuan(&["replay", file.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let (_, second, _) = sanjuan(&["replay", file.to_str().unwrap(), "--json"]);
    assert_eq!(first, second);
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    // We quit when asked to decide, so the replay stops at seat 1's decision too.
    assert_eq!(v["pending"]["seat"], 1, "{first}");
    std::fs::remove_file(&file).ok();
}

/// A fresh, empty folder under the system temp dir for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sanjuan-cli-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `sanjuan args…` from the repository root; returns (exit code, stdout, stderr).
fn sanjuan_code(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sanjuan"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run sanjuan");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots/scenarios");

#[test]
fn test_command_reports_a_pass_and_a_fail_and_exits_1() {
    let dir = temp_dir("test-mixed");
    std::fs::copy(format!("{SCENARIOS}/palace_34_to_42.toml"), dir.join("palace_ok.toml")).unwrap();
    let text = std::fs::read_to_string(format!("{SCENARIOS}/builder_poor_house_draws.toml")).unwrap();
    let broken = text.replace("discard_size = 4", "discard_size = 5");
    assert_ne!(text, broken, "the scenario no longer has `discard_size = 4` to break");
    std::fs::write(dir.join("poor_house_wrong.toml"), broken).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a scenario").unwrap();
    let (code, out, err) = sanjuan_code(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("PASS palace_ok\n"), "{out}");
    assert!(out.contains("FAIL poor_house_wrong\n"), "{out}");
    assert!(out.contains("discard size: expected 5, got 4"), "{out}");
    assert!(out.contains("1 passed, 1 failed in "), "{out}");
    assert!(!out.contains("notes"), "only *.toml files are scenarios: {out}");
    // --filter narrows the run to the passing one.
    let (code, out, _) = sanjuan_code(&["test", dir.to_str().unwrap(), "--filter", "palace"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 passed, 0 failed") && !out.contains("poor_house_wrong"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_counts_a_scenario_without_expect_as_failed() {
    let dir = temp_dir("test-noexpect");
    let text = std::fs::read_to_string(format!("{SCENARIOS}/palace_34_to_42.toml")).unwrap();
    let cut = text.find("[expect]").expect("the scenario has an [expect] table");
    std::fs::write(dir.join("unchecked.toml"), &text[..cut]).unwrap();
    let (code, out, err) = sanjuan_code(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL unchecked") && out.contains("no [expect] table: nothing to check"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_exits_0_when_all_pass() {
    let dir = temp_dir("test-pass");
    for name in ["palace_34_to_42", "builder_poor_house_draws"] {
        std::fs::copy(format!("{SCENARIOS}/{name}.toml"), dir.join(format!("{name}.toml"))).unwrap();
    }
    let (code, out, err) = sanjuan_code(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("PASS ")).collect();
    assert_eq!(lines, ["PASS builder_poor_house_draws", "PASS palace_34_to_42"], "sorted, one line each: {out}");
    assert!(out.contains("2 passed, 0 failed in "), "{out}");
    // A single file is accepted too.
    let (code, out, _) = sanjuan_code(&["test", dir.join("palace_34_to_42.toml").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_exits_2_on_an_empty_or_missing_folder() {
    let dir = temp_dir("test-empty");
    let (code, out, err) = sanjuan_code(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.starts_with("error: ") && err.contains("no *.toml scenario files"), "{err}");
    let missing = dir.join("missing");
    let (code, _, err) = sanjuan_code(&["test", missing.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: ") && err.contains("missing"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
