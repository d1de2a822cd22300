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

#[test]
fn scenario_trace_names_the_building_behind_each_effect() {
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/scenarios/producer_well_producer.toml", "--trace"]);
    assert!(ok, "{err}");
    assert!(out.contains("action 2 `produce indigo_plant sugar_mill`:"), "{out}");
    assert!(out.contains("  seat 0: well gives 1 card: statue\n"), "{out}");
    // The state still follows the events.
    assert!(out.contains("seat 0 decides") || out.contains("seat 1 decides"), "{out}");
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/scenarios/builder_library_doubles_privilege.toml", "-v"]);
    assert!(ok, "{err}");
    assert!(out.contains("seat 0: library doubles the builder privilege"), "{out}");
    let (_, plain, _) = sanjuan(&["scenario", "snapshots/scenarios/builder_library_doubles_privilege.toml"]);
    assert!(!plain.contains("doubles"), "{plain}");
}
