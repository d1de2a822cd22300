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

/// A temporary file name for a saved game.
fn temp_save(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("sanjuan-{name}-{}.toml", std::process::id()))
}

/// "1" to every prompt, more often than any game asks.
fn always_first() -> String {
    "1\n".repeat(5000)
}

/// The totals of the `final scores:` block `play` prints.
fn printed_scores(out: &str) -> Vec<i64> {
    let block = out.split("final scores:").nth(1).unwrap_or_else(|| panic!("no final scores in:\n{out}"));
    block
        .lines()
        .filter_map(|l| l.trim().strip_prefix("seat "))
        .map(|l| l.split("): ").nth(1).unwrap().split(" VP").next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_game_played_to_the_end_replays_to_the_printed_scores() {
    use common::sanjuan_with_input;
    let file = temp_save("full");
    let path = file.to_str().unwrap();
    let (ok, out, err) =
        sanjuan_with_input(&["play", "--players", "3", "--seed", "5", "--save", path], &always_first());
    assert!(ok, "{err}");
    assert!(out.contains("Seed 5."), "the seed is printed: {out}");
    let printed = printed_scores(&out);
    assert_eq!(printed.len(), 3, "{out}");
    let (ok, json, err) = sanjuan(&["replay", path, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["pending"].is_null(), "the replayed game is finished: {json}");
    let totals: Vec<i64> =
        v["players"].as_array().unwrap().iter().map(|p| p["score"]["total"].as_i64().unwrap()).collect();
    assert_eq!(totals, printed);
    std::fs::remove_file(&file).ok();
}

#[test]
fn undo_goes_back_to_the_previous_prompt_and_the_same_answer_gives_the_same_game() {
    use common::sanjuan_with_input;
    let args = ["play", "--players", "3", "--seed", "21", "--bots", "random"];
    // Seed 21: seat 0 first produces, then chooses a role; the prospector hands the turn to the bots.
    let (ok, out, err) = sanjuan_with_input(&args, "1\nshow\npr\nundo\npr\nquit\n");
    assert!(ok, "{err}");
    // What is printed after each answer, up to the next prompt.
    let after: Vec<&str> = out.split("] > ").collect();
    let (table, second, undone, again) = (after[2], after[3], after[4], after[5]);
    assert!(table.starts_with("show\n") && undone.starts_with("undo\n"), "{out}");
    assert!(undone.contains("Took back your last decision"), "{undone}");
    let table_after_undo = undone.split_once("moves after it.\n").unwrap().1;
    assert_eq!(table_after_undo, table.strip_prefix("show\n").unwrap(), "undo restores the previous table");
    assert!(second.contains("seat 0 chooses the prospector") && second.contains("seat 1 chooses"), "{second}");
    assert_eq!(again, second, "the same answer after undo plays the same game, bots included");
    let (ok, _, err) = sanjuan_with_input(&args, "undo\nquit\n");
    assert!(ok, "{err}");
}

#[test]
fn resume_continues_a_saved_game() {
    use common::sanjuan_with_input;
    let file = temp_save("resume");
    let path = file.to_str().unwrap();
    let (ok, first, err) = sanjuan_with_input(
        &["play", "--players", "2", "--seat", "1", "--seed", "8", "--save", path],
        "1\n1\n1\nquit\n",
    );
    assert!(ok, "{err}");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("\"human\""), "{saved}");
    // Resumed, the same hand and choices are offered as when we quit.
    let (ok, resumed, err) = sanjuan_with_input(&["play", "--resume", path], "quit\n");
    assert!(ok, "{err}");
    // The hand and the choices printed before the prompt answered with `quit`.
    let offered = |out: &str| {
        let before = out.split_once("] > quit").unwrap().0;
        before[before.rfind("your hand").unwrap()..].to_owned()
    };
    assert_eq!(offered(&resumed), offered(&first));
    assert!(resumed.contains("Resumed after"), "{resumed}");
    // Played on to the end, saved to the same file without --save.
    let (ok, out, err) = sanjuan_with_input(&["play", "--resume", path], &always_first());
    assert!(ok, "{err}");
    let printed = printed_scores(&out);
    let (ok, json, err) = sanjuan(&["replay", path, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["pending"].is_null(), "{json}");
    let totals: Vec<i64> =
        v["players"].as_array().unwrap().iter().map(|p| p["score"]["total"].as_i64().unwrap()).collect();
    assert_eq!(totals, printed);
    std::fs::remove_file(&file).ok();
}

#[test]
fn the_human_does_not_see_the_cards_bots_keep_or_pay_with() {
    use common::sanjuan_with_input;
    let file = temp_save("hidden");
    let path = file.to_str().unwrap();
    let (ok, out, err) =
        sanjuan_with_input(&["play", "--players", "3", "--seed", "13", "--save", path], &always_first());
    assert!(ok, "{err}");
    let (ok, replayed, err) = sanjuan(&["replay", path]);
    assert!(ok, "{err}");
    let mut hidden = 0;
    for seat in [1, 2] {
        for (verb, public) in [("keeps", "keeps 1 card"), ("pays with", "pays with 1 card")] {
            let head = format!("  seat {seat} {verb} ");
            // Cards revealed by a gold mine lie face up, and so do goods spent at a
            // black market: keeping or spending them is public.
            let public_too = |l: &str| l.contains(" the revealed ") || l.contains(" the good on ");
            let private: Vec<&str> = replayed
                .lines()
                .filter(|l| l.starts_with(&head) && !l.ends_with(" 1 card") && !public_too(l))
                .collect();
            for line in &private {
                let card = line.strip_prefix(&head).unwrap();
                assert!(!card.contains(' '), "one card id: {line}");
                assert!(!out.lines().any(|l| l.trim() == line.trim()), "the human saw `{}`", line.trim());
            }
            let shown = out.lines().filter(|l| l.trim() == format!("seat {seat} {public}")).count();
            assert_eq!(shown, private.len(), "seat {seat} {verb}: each hidden card is told as `{public}`");
            hidden += private.len();
        }
    }
    assert!(hidden > 5, "the bots kept and paid with some cards: {hidden}");
    std::fs::remove_file(&file).ok();
}
