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
