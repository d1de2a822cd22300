//! The command-line contract: exit codes, JSON keys and rulebook numbers.

use crate::common;
use common::sanjuan;

#[test]
fn score_json_gives_the_rulebook_palace_number() {
    let (ok, out, err) = sanjuan(&["score", "snapshots/san-juan/palace_34_to_42.toml", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["players"][0]["score"]["total"], 42);
    assert_eq!(v["players"][0]["score"]["breakdown"]["palace"], 8);
}

#[test]
fn scenario_json_has_the_contract_keys() {
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/san-juan/palace_34_to_42.toml", "--json", "--check"]);
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

/// `bench --ruleset` lists each hook of a design's scripts with its runs per
/// game, its answers remembered and what it reads; a ruleset whose scripts
/// never run says so.
#[test]
fn bench_profiles_the_hooks_of_one_ruleset() {
    let reserve = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/alhambra/reserve/ruleset.toml");
    let (ok, out, err) = sanjuan(&["bench", "--ruleset", reserve, "--games", "20"]);
    assert!(ok, "{err}");
    assert!(out.contains("corpus-reserve") && out.contains("(alhambra ") && out.contains("x the time)"), "{out}");
    let legal =
        out.lines().find(|l| l.starts_with("legal") && l.contains("action reserve")).unwrap_or_else(|| panic!("{out}"));
    assert!(
        legal.contains("table.building_display[].slot")
            && legal.contains("table.seats[].reserve")
            && legal.contains("seat"),
        "{legal}"
    );
    // It reads which display slots are full (not the buildings in them) and the
    // reserve: asked at every turn, it answers from memory nearly always.
    let column = |line: &str, k: usize| -> f64 {
        line.split_whitespace().nth(k).unwrap().trim_end_matches('%').parse().unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let (asked, runs) = (column(legal, 3), column(legal, 4));
    assert!(asked > 50.0, "asked at every turn: {legal}");
    assert!(runs < 20.0, "the reserve's `legal` answers from memory: {legal}");
    assert!(column(legal, 5) >= 90.0, "{legal}");
    // Answered from memory, it still costs its rows: the time says so (it said 0 %
    // while the rows took half of a vizier's game).
    assert!(column(legal, 6) > 0.0, "the rows' time is the hook's: {legal}");
    assert!(out.contains("rows of what they read, written and looked up"), "{out}");
    // The engine's own work for the ruleset's actions is a line of its own.
    assert!(out.contains("offering the ruleset's own actions (their hooks included): "), "{out}");

    // San Juan's own actions say so too (the trading house's, offered at every trader's sale).
    let house = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/san-juan/trading_house/ruleset.toml");
    let (ok, out, err) = sanjuan(&["bench", "--ruleset", house, "--games", "20"]);
    assert!(ok, "{err}");
    let share = out
        .lines()
        .find_map(|l| l.strip_prefix("offering the ruleset's own actions (their hooks included): "))
        .unwrap_or_else(|| panic!("{out}"));
    let share: f64 = share.trim_end_matches("% of the time").parse().unwrap_or_else(|e| panic!("{e}: {share}"));
    assert!(share > 0.0 && share < 100.0, "{share}");
    let (ok, out, err) = sanjuan(&["bench", "--ruleset", "second-edition", "--games", "20"]);
    assert!(ok, "{err}");
    assert!(!out.contains("offering the ruleset's own actions"), "the base has none: {out}");

    // A list a helper only counts is read by its length: the grand vizier's `on_points`.
    let vizier = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/alhambra/grand_vizier/ruleset.toml");
    let (ok, out, err) = sanjuan(&["bench", "--ruleset", vizier, "--games", "20"]);
    assert!(ok, "{err}");
    let points = out.lines().find(|l| l.starts_with("on_points")).unwrap_or_else(|| panic!("{out}"));
    assert!(points.contains("table.seats[].buildings.len()"), "{points}");

    // The base game's scoring is remembered by the counts it reads: it runs far less than once per scoring.
    let (ok, out, err) = sanjuan(&["bench", "--ruleset", "alhambra", "--games", "40", "--players", "2"]);
    assert!(ok, "{err}");
    assert!(!out.contains("offering the ruleset's own actions"), "the base has none: {out}");
    let score = out.lines().find(|l| l.starts_with("on_score")).unwrap_or_else(|| panic!("{out}"));
    assert!(score.ends_with("counts, needs_building, ranks"), "{score}");
    assert!(column(score, 4) > 50.0, "{score}");
    assert!(column(score, 2) >= column(score, 3), "asked at least as often as run: {score}");

    let (code, _, err) = sanjuan_code(&["bench", "--ruleset", "alhambra", "--games", "1", "--players", "9"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--players 9") && err.contains("2 to 6"), "{err}");
    let (code, _, err) = sanjuan_code(&["bench", "--bot", "random"]);
    assert_eq!(code, Some(2), "--bot needs --ruleset: {err}");
    let (code, _, err) = sanjuan_code(&["bench", "--ruleset", "no-such-ruleset", "--games", "1"]);
    assert_eq!(code, Some(1), "{err}");
    let (code, _, err) = sanjuan_code(&["bench", "--ruleset", "alhambra", "--games", "1", "--bot", "nobody"]);
    assert_eq!(code, Some(1), "{err}");
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

/// The line that repeats a game names its opponents when they are not the default.
#[test]
fn the_repeat_line_names_the_opponents() {
    let (_, out, err) = common::sanjuan_with_input(&["play", "--players", "2", "--seed", "5", "--bots", "greedy"], "");
    assert!(out.contains("again: sanjuan play --seed 5 --players 2 --seat 0 --bots greedy\n"), "{out}{err}");
    let (_, out, err) = common::sanjuan_with_input(&["play", "--players", "2", "--seed", "5"], "");
    assert!(out.contains("again: sanjuan play --seed 5 --players 2 --seat 0\n"), "{out}{err}");
}

#[test]
fn a_saved_game_replays_to_the_same_state() {
    let file = std::env::temp_dir().join(format!("sanjuan-save-{}.toml", std::process::id()));
    let args = ["play", "--players", "3", "--seat", "1", "--seed", "4", "--save", file.to_str().unwrap()];
    // Whatever seat 1 is asked first, `pass` or a role is answered; then quit.
    let (ok, out, err) = common::sanjuan_with_input(&args, "role producer\npass\nrole trader\nquit\n");
    assert!(ok, "{out}{err}");
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
    let out = common::command().args(args).output().expect("run sanjuan");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots/san-juan");

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

/// Runs `sanjuan test scenarios/` from `dir`, as a designer in their own folder does.
fn test_in(dir: &std::path::Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = common::command().current_dir(dir).args(["test", "scenarios/"]).args(extra).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// The designer's loop with snapshots alone, in a folder of their own (a ruleset
/// beside a `scenarios/` folder, no `cards/` marker): three scenarios without
/// `[expect]` are recorded on the first run, pass on the second, fail with a
/// diff once a card changes, and pass again after `--accept`.
#[test]
fn scenarios_without_expect_are_snapshot_tests_in_a_designers_own_folder() {
    let games: [(&str, &str, &str, [&str; 3]); 2] = [
        (
            "san-juan",
            "extends = \"second-edition\"\n[cards.smithy]\nvp = 1\n",
            "vp = 3\n",
            [
                "[[players]]\nbuildings = [\"indigo_plant\", \"smithy\"]\n[[players]]\n",
                "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"smithy\", \"well\", \"chapel\"]\n[[players]]\n",
                "[[players]]\nbuildings = [\"indigo_plant\", \"smithy\", \"well\"]\n[[players]]\n[[players]]\n",
            ],
        ),
        (
            "alhambra",
            "game = \"alhambra\"\nextends = \"alhambra\"\n[[building]]\nid = \"seraglio\"\nprices = [3, 4, 5, 6, 7, 8, 9]\n",
            "prices = [4, 5, 6, 7, 8, 9, 10]\n",
            [
                "money_display = [\"dirham3\", \"ducat3\", \"denar2\", \"florin1\"]\n[[players]]\n[[players]]\n",
                "actions = [\"take dirham3\"]\nmoney_display = [\"dirham3\", \"ducat3\", \"denar2\", \"florin1\"]\n[[players]]\n[[players]]\n",
                "seed = 7\n[[players]]\n[[players]]\n[[players]]\n",
            ],
        ),
    ];
    for (game, rules, changed, scenarios) in games {
        let dir = temp_dir(&format!("designer-{game}"));
        let ruleset = format!("id = \"mine\"\nname = \"Mine\"\n{rules}");
        std::fs::write(dir.join("my.toml"), &ruleset).unwrap();
        std::fs::create_dir_all(dir.join("scenarios")).unwrap();
        for (i, body) in scenarios.iter().enumerate() {
            let text = format!("ruleset = \"../my.toml\"\ndescription = \"position {i}\"\n{body}");
            std::fs::write(dir.join(format!("scenarios/s{i}.toml")), text).unwrap();
        }
        let (code, out) = test_in(&dir, &[]);
        assert_eq!(code, Some(0), "{game}, first run: {out}");
        assert!(out.contains("new snapshots recorded:") && out.contains("3 passed, 0 failed"), "{game}: {out}");
        for i in 0..3 {
            assert!(dir.join(format!("scenarios/snapshots/s{i}.snap")).is_file(), "{game}: s{i} recorded");
        }
        let (code, out) = test_in(&dir, &[]);
        assert_eq!(code, Some(0), "{game}, second run: {out}");
        assert!(!out.contains("new snapshots") && out.contains("3 passed, 0 failed"), "{game}: {out}");
        // The changed card: the last line of the ruleset is the number changed.
        let cut = ruleset.trim_end().rfind('\n').unwrap() + 1;
        std::fs::write(dir.join("my.toml"), format!("{}{changed}", &ruleset[..cut])).unwrap();
        let (code, out) = test_in(&dir, &[]);
        assert_eq!(code, Some(1), "{game}, changed card: {out}");
        assert!(out.contains("snapshot changed") && out.contains("\n  -") && out.contains("\n  +"), "{game}: {out}");
        let (code, out) = test_in(&dir, &["--accept"]);
        assert_eq!(code, Some(0), "{game}, accepted: {out}");
        assert!(out.contains("changed snapshots accepted:"), "{game}: {out}");
        let (code, out) = test_in(&dir, &[]);
        assert_eq!(code, Some(0), "{game}, green again: {out}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// `print` and `debug` in a script show in a traced scenario (under the action
/// that ran them) and in `test --trace` snapshots, in both games; a scenario
/// without `--trace` and a simulation print nothing of them.
#[test]
fn prints_of_scripts_show_in_traces_only() {
    let dir = temp_dir("prints");
    let w = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    w("sj.toml", "id = \"sj\"\nname = \"SJ\"\nextends = \"second-edition\"\n[cards.smithy]\nscript = \"sm.rhai\"\n");
    w("sm.rhai", "fn on_build_cost(ctx) {\n  print(`pricing ${ctx.target.id}`);\n  debug(1 + 1);\n  0\n}\n");
    w(
        "sj_scenario.toml",
        "ruleset = \"sj.toml\"\nactions = [\"role builder\"]\n[[players]]\nbuildings = [\"smithy\"]\nhand = [\"well\"]\n[[players]]\n",
    );
    w(
        "al.toml",
        "id = \"al\"\ngame = \"alhambra\"\nname = \"AL\"\nextends = \"alhambra\"\n[[building]]\nid = \"pavilion\"\nscript = \"al.rhai\"\n",
    );
    w("al.rhai", "fn on_bought(ctx) {\n  print(`bought in slot ${ctx.event.slot}`);\n}\n");
    w(
        "al_scenario.toml",
        "ruleset = \"al.toml\"\nbuilding_display = [\"pavilion2\"]\nactions = [\"buy 1 pay denar2\"]\n\
         [[players]]\nhand = [\"denar2\"]\n[[players]]\n[[players]]\n",
    );
    let file = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    for (scenario, printed) in [
        (
            "sj_scenario.toml",
            &["action 1 `role builder`:", "  print: pricing well\n", "  debug: 2 (", "sm.rhai:3)\n"][..],
        ),
        ("al_scenario.toml", &["action 1 `buy 1 pay denar2`:", "  print: bought in slot 1\n"][..]),
    ] {
        let (ok, out, err) = sanjuan(&["scenario", &file(scenario), "--trace"]);
        assert!(ok, "{err}");
        let at = out.find(printed[0]).unwrap_or_else(|| panic!("{out}"));
        for line in &printed[1..] {
            assert!(out[at..].contains(line), "{scenario}: {line:?} in {out}");
        }
        let (ok, out, _) = sanjuan(&["scenario", &file(scenario)]);
        assert!(ok && !out.contains("print:") && !out.contains("debug:"), "{out}");
    }
    let (ok, out, err) = sanjuan(&["test", &file("sj_scenario.toml"), "--trace"]);
    assert!(ok, "{out}{err}");
    let snap = std::fs::read_to_string(dir.join("snapshots/sj_scenario.snap")).unwrap();
    assert!(snap.contains("print: pricing well"), "{snap}");
    for ruleset in ["sj.toml", "al.toml"] {
        let (ok, out, err) = sanjuan(&["simulate", "--ruleset", &file(ruleset), "--games", "5", "--bots", "random"]);
        assert!(ok && !out.contains("print") && !err.contains("print"), "{out}{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A scenario whose `[expect]` fails records nothing, not even with `--accept`:
/// a stored snapshot reads as reviewed.
#[test]
fn a_scenario_failing_its_expect_records_no_snapshot() {
    let dir = temp_dir("test-failing-expect");
    let text = std::fs::read_to_string(format!("{SCENARIOS}/builder_poor_house_draws.toml")).unwrap();
    let broken = text.replace("discard_size = 4", "discard_size = 5");
    assert_ne!(text, broken, "the scenario no longer has `discard_size = 4` to break");
    std::fs::write(dir.join("wrong.toml"), broken).unwrap();
    for extra in [&[][..], &["--accept"][..]] {
        let (code, out, err) = sanjuan_code(&[&["test", dir.to_str().unwrap()][..], extra].concat());
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(out.contains("no snapshot recorded: a scenario whose [expect] fails records nothing"), "{out}");
        assert!(!dir.join("snapshots/wrong.snap").exists(), "{extra:?} recorded a failing outcome");
    }
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

/// What a hostile command line must end in.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    /// The input is fine after all: exit 0.
    Fine,
    /// Refused with this exit code (2: clap's usage errors and `test`'s bad arguments)
    /// and an `error: …` line on stderr.
    Refused(i32),
    /// `sanjuan test` ran and reported the file as FAIL: exit 1.
    Reported,
    /// No subcommand: clap prints the usage and exits 2.
    Usage,
}

/// Exit code, stdout, stderr; `None` for the code when it had to be killed.
fn run_with_deadline(args: &[String], deadline: std::time::Duration) -> (Option<i32>, String, String) {
    use std::process::Stdio;
    let mut child = common::command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sanjuan");
    common::wait_with_deadline(&mut child, deadline)
}

/// Every subcommand over hostile values: zero, negative and huge numbers, missing
/// files, a folder or a device for a file, non-UTF-8 and empty files, unknown
/// ids, absurd player counts and records. None may panic, abort or run on.
#[test]
fn no_command_line_value_panics_aborts_or_hangs() {
    use Outcome::{Fine, Refused, Reported, Usage};
    let dir = temp_dir("hostile");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    write("empty.toml", b"");
    write("nonutf8.toml", b"\xff\xfe\x00 not text");
    std::fs::create_dir_all(dir.join("folder.toml")).unwrap();
    std::fs::create_dir_all(dir.join("no-scenarios")).unwrap();
    write(
        "six_tiles.toml",
        b"trading_tiles = [[1, 1, 1, 2, 2], [1, 1, 2, 2, 2], [1, 1, 2, 2, 3], [1, 2, 2, 2, 3], [1, 2, 2, 3, 3], \
          [1, 1, 1, 2, 2]]\n[[players]]\n[[players]]\n[expect]\nscores = [1, 1]\n",
    );
    write("far_governor.toml", b"governor = 18446744073709551615\n[[players]]\n[[players]]\n");
    write("no_expect.toml", b"[[players]]\nbuildings = [\"indigo_plant\"]\n[[players]]\n");
    let ruleset = |rules: &str| format!("id = \"h\"\nname = \"H\"\nextends = \"second-edition\"\n[rules]\n{rules}\n");
    // A designer's script whose number would overflow the score.
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    write("rules/runaway.rhai", b"fn on_score(ctx) { 2147483647 }\n");
    write("rules/runaway.toml", ruleset("").replace("[rules]", "[cards.statue]\nscript = \"runaway.rhai\"").as_bytes());
    write(
        "runaway_script.toml",
        b"ruleset = \"rules/runaway.toml\"\n[[players]]\nbuildings = [\"indigo_plant\", \"statue\"]\n[[players]]\n\
          [expect]\nscores = [1, 1]\n",
    );
    write("huge_players.toml", ruleset("max_players = 100000000000").as_bytes());
    write("endless.toml", ruleset("end_buildings = 1000\nmax_rounds = 4294967295").as_bytes());
    write("overflowing.toml", ruleset("produce = 2147483647").as_bytes());
    let save = |players: &str, seed: &str| {
        format!("ruleset = \"second-edition\"\nplayers = {players}\nseed = {seed}\nactions = []\n")
    };
    write("save_huge_players.toml", save("100000000000", "1").as_bytes());
    write("save_last_seed.toml", save("3", "18446744073709551615").as_bytes());
    write("save_negative_seed.toml", save("3", "-1").as_bytes());
    let record = |index: u64, rounds: u64| {
        format!(
            "{{\"ruleset\":\"second-edition\",\"run_seed\":1,\"index\":{index},\"seed\":7,\"bots\":[\"random\",\"random\"],\
             \"rounds\":{rounds},\"scores\":[21,12],\"winners\":[0],\"buildings\":[[{{\"id\":\"indigo_plant\",\"round\":0}}],\
             [{{\"id\":\"indigo_plant\",\"round\":0}}]],\"actions\":275,\"stalled\":false}}\n"
        )
    };
    write("rounds_max.jsonl", record(0, 4_294_967_295).as_bytes());
    write("rounds_spread.jsonl", format!("{}{}", record(0, 28), record(1, 4_294_967_295)).as_bytes());
    write("rounds_normal.jsonl", record(0, 28).as_bytes());
    let palace = "snapshots/san-juan/palace_34_to_42.toml".to_owned();

    let mut cases: Vec<(Vec<String>, Outcome)> = Vec::new();
    let mut case =
        |args: &[&str], outcome: Outcome| cases.push((args.iter().map(|&a| a.to_owned()).collect(), outcome));
    let (missing, folder, empty, nonutf8) =
        (path("missing.toml"), path("folder.toml"), path("empty.toml"), path("nonutf8.toml"));
    let (huge_rs, endless_rs, overflowing_rs) =
        (path("huge_players.toml"), path("endless.toml"), path("overflowing.toml"));
    let out = path("out.jsonl");

    case(&[], Usage);
    case(&["nonsense"], Refused(2));
    for games in ["0", "-1", "18446744073709551615", "18446744073709551616", "100000000000"] {
        case(&["simulate", "--games", games], Refused(2));
        case(&["bench", "--games", games], Refused(2));
    }
    for players in ["0", "-3", "100000000000", "18446744073709551615"] {
        case(&["simulate", "--players", players, "--games", "1"], Refused(2));
        case(&["play", "--players", players], Refused(2));
    }
    case(&["simulate", "--players", "1", "--games", "1"], Refused(1));
    case(&["simulate", "--players", "5", "--games", "1"], Refused(1));
    case(&["simulate", "--bots", "random,random,random,random,random", "--games", "1"], Refused(1));
    case(&["simulate", "--seed-start", "18446744073709551615", "--games", "2"], Refused(1));
    case(&["simulate", "--seed-start", "18446744073709551615", "--games", "1"], Refused(1));
    case(&["simulate", "--seed-start", "18446744073709551614", "--games", "1", "--players", "2", "--quiet"], Fine);
    case(&["simulate", "--seed", "18446744073709551615", "--games", "2", "--players", "2", "--quiet"], Fine);
    for jobs in ["0", "-1", "257", "100000000000"] {
        case(&["simulate", "--jobs", jobs, "--games", "1"], Refused(2));
    }
    case(&["simulate", "--jobs", "1", "--games", "2", "--players", "2", "--quiet"], Fine);
    let tune = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["tune", "--ruleset", "second-edition", "--target", "rounds=1..2", "--quiet"];
        args.extend_from_slice(extra);
        args
    };
    for bad in ["card.palace.cost=0..99999999999999999999", "card.palace.cost", "card.palace.cost=2..1"] {
        case(&tune(&["--param", bad]), Refused(2));
    }
    for limit in ["--games-budget", "--first-games", "--max-candidates"] {
        case(&tune(&["--param", "card.palace.cost=1..2", limit, "0"]), Refused(2));
    }
    case(&tune(&["--param", "card.palace.cost=-9223372036854775808..9223372036854775807"]), Refused(1));
    case(&tune(&["--param", "card.palace.cost=1..2", "--bot", "nobody"]), Refused(1));
    case(&tune(&["--param", "rules.no_such_rule=1..2"]), Refused(1));
    for bots in [
        "nonsense",
        "mcts:0",
        "mcts:-1",
        "mcts:4294967295",
        "mcts:18446744073709551615",
        ",,",
        "balance+",
        "balance+x=y",
    ] {
        case(&["simulate", "--bots", bots, "--games", "1"], Refused(1));
        case(&["play", "--bots", bots], Refused(1));
    }
    for rs in ["nonsense-ruleset", "", &missing, &folder, &empty, &nonutf8, &huge_rs, &endless_rs, &overflowing_rs] {
        case(&["simulate", "--ruleset", rs, "--games", "1"], Refused(1));
        case(&["play", "--ruleset", rs], Refused(1));
        case(&["cards", "--ruleset", rs], Refused(1));
        case(&["cards", "--diff", rs], Refused(1));
        case(&["check", rs], Refused(1));
    }
    case(&["simulate", "--games", "1", "--json-lines", &folder], Refused(1));
    case(&["simulate", "--games", "1", "--json-lines", &path("no/such/dir/x.jsonl")], Refused(1));

    case(&["bench", "--mcts-moves", "0"], Refused(2));
    case(&["bench", "--mcts-moves", "-1"], Refused(2));
    case(&["bench", "--games", "1", "--mcts-moves", "1"], Fine);

    case(&["play"], Fine);
    case(&["play", "--players", "1"], Refused(1));
    case(&["play", "--seat", "3"], Refused(1));
    case(&["play", "--seat", "18446744073709551615"], Refused(1));
    case(&["play", "--seed", "18446744073709551615"], Fine);
    case(&["play", "--players", "4", "--seat", "3", "--seed", "18446744073709551615"], Fine);
    case(&["play", "--save", &folder], Refused(1));

    let mut files = vec![missing.clone(), folder.clone(), empty.clone(), nonutf8.clone()];
    if cfg!(unix) {
        files.push("/dev/zero".into());
    }
    for file in &files {
        case(&["replay", file], Refused(1));
        case(&["replay", file, "--json"], Refused(1));
        case(&["scenario", file], Refused(1));
        case(&["scenario", file, "--json", "--check"], Refused(1));
        case(&["score", file, "--json"], Refused(1));
        case(&["report", file], Refused(1));
        case(&["merge", file, "-o", &out], Refused(1));
        case(&["cards", "--ruleset", file], Refused(1));
        case(&["check", file], Refused(1));
        // A missing path or a folder without *.toml is a bad argument; a bad file is a FAIL.
        case(&["test", file], if *file == missing || *file == folder { Refused(2) } else { Reported });
    }
    case(&["replay", &path("save_huge_players.toml")], Refused(1));
    case(&["replay", &path("save_negative_seed.toml")], Refused(1));
    case(&["replay", &path("save_last_seed.toml"), "--json"], Fine);
    for scenario in ["six_tiles.toml", "far_governor.toml", "runaway_script.toml"] {
        case(&["scenario", &path(scenario)], Refused(1));
        case(&["score", &path(scenario)], Refused(1));
        case(&["test", &path(scenario)], Reported);
    }
    case(&["scenario", &path("no_expect.toml"), "--check"], Refused(1));
    case(&["scenario", &path("no_expect.toml")], Fine);
    case(&["test", &path("no_expect.toml")], Fine);
    case(&["scenario", &palace, "--check"], Fine);
    case(&["score", &palace], Fine);
    case(&["cards"], Fine);
    case(&["check", "second-edition"], Fine);

    case(&["report"], Refused(2));
    // More rounds than any game has: refused as a record no game wrote (not averaged, not overflowed).
    case(&["report", &path("rounds_max.jsonl")], Refused(1));
    case(&["report", &path("rounds_spread.jsonl"), "--html", &path("spread.html")], Refused(1));
    let normal = path("rounds_normal.jsonl");
    case(&["report", &normal], Fine);
    case(&["report", &normal, "--compare", &path("rounds_spread.jsonl"), "--html", &path("compare.html")], Refused(1));
    case(&["report", &normal, "--html", &folder], Refused(1));
    case(&["report", &normal, "--compare", &folder], Refused(1));
    case(&["merge", &normal], Refused(2));
    case(&["merge", &path("rounds_max.jsonl"), "-o", &out], Refused(1));
    case(&["merge", &normal, "-o", &out], Fine);
    case(&["merge", &normal, "-o", &folder], Refused(1));

    case(&["test"], Refused(2));
    case(&["test", &path("no-scenarios")], Refused(2));
    case(&["test", &dir.join("no-scenarios/missing").to_string_lossy()], Refused(2));
    case(&["test", "snapshots/san-juan", "--filter", "no scenario has this in its name"], Refused(2));
    case(&["test", "snapshots/san-juan", "--filter", "palace_34"], Fine);

    // Alhambra: player counts, rulesets of an unknown or another game, a capital
    // the money cannot deal, and scenarios and saved games past every bound.
    for players in ["1", "7"] {
        case(&["simulate", "--ruleset", "alhambra", "--players", players, "--games", "1"], Refused(1));
        case(&["play", "--ruleset", "alhambra", "--players", players], Refused(1));
    }
    case(&["play", "--ruleset", "alhambra", "--players", "3", "--seat", "3"], Refused(1));
    case(&["play", "--ruleset", "alhambra", "--players", "2", "--seed", "18446744073709551615"], Fine);
    case(&["play", "--ruleset", "alhambra", "--bots", "mcts:0"], Refused(1));
    let alhambra_file = |rest: &str| format!("id = \"a\"\nname = \"A\"\n{rest}\n");
    write("alh_unknown_game.toml", alhambra_file("game = \"chess\"\nextends = \"alhambra\"").as_bytes());
    write("alh_extends_sj.toml", alhambra_file("game = \"alhambra\"\nextends = \"second-edition\"").as_bytes());
    write("sj_extends_alh.toml", alhambra_file("game = \"san-juan\"\nextends = \"alhambra\"").as_bytes());
    write("alh_capital.toml", alhambra_file("extends = \"alhambra\"\n[rules]\nstarting_capital = 1000").as_bytes());
    write("alh_take.toml", alhambra_file("extends = \"alhambra\"\n[rules]\ntake_limit = 4294967295").as_bytes());
    for rs in
        ["alh_unknown_game.toml", "alh_extends_sj.toml", "sj_extends_alh.toml", "alh_capital.toml", "alh_take.toml"]
    {
        let rs = path(rs);
        case(&["simulate", "--ruleset", &rs, "--games", "1"], Refused(1));
        case(&["play", "--ruleset", &rs], Refused(1));
        case(&["cards", "--ruleset", &rs], Refused(1));
        case(&["cards", "--ruleset", "alhambra", "--diff", &rs], Refused(1));
        case(&["check", &rs, "--games", "3"], Refused(1));
    }
    case(&["cards", "--ruleset", "alhambra", "--diff", "second-edition"], Refused(1));
    let players = |n: usize| "[[players]]\n".repeat(n);
    let alhambra_scenario = |rest: &str, n: usize| format!("ruleset = \"alhambra\"\n{rest}\n{}", players(n));
    write("alh_seven.toml", alhambra_scenario("", 7).as_bytes());
    write("alh_far.toml", alhambra_scenario("to_move = 18446744073709551615", 2).as_bytes());
    write("alh_deal.toml", alhambra_scenario("deal = [\"euro5\"]", 2).as_bytes());
    write("alh_slot.toml", alhambra_scenario("actions = [\"buy 99999999999999999999\"]", 2).as_bytes());
    write(
        "alh_copies.toml",
        alhambra_scenario("discard = [\"ducat5\", \"ducat5\", \"ducat5\", \"ducat5\"]", 3).as_bytes(),
    );
    write("alh_neutral.toml", format!("{}[neutral]\n", alhambra_scenario("", 3)).as_bytes());
    for scenario in
        ["alh_seven.toml", "alh_far.toml", "alh_deal.toml", "alh_slot.toml", "alh_copies.toml", "alh_neutral.toml"]
    {
        case(&["scenario", &path(scenario)], Refused(1));
        case(&["score", &path(scenario), "--json"], Refused(1));
        case(&["test", &path(scenario)], Reported);
    }
    let alhambra_save = |players: &str, seed: &str| {
        format!("version = 1\nruleset = \"alhambra\"\nplayers = {players}\nseed = {seed}\nactions = []\n")
    };
    write("alh_save_players.toml", alhambra_save("100000000000", "1").as_bytes());
    write("alh_save_negative.toml", alhambra_save("3", "-1").as_bytes());
    write("alh_save_last.toml", alhambra_save("3", "18446744073709551615").as_bytes());
    case(&["replay", &path("alh_save_players.toml")], Refused(1));
    case(&["replay", &path("alh_save_negative.toml"), "--json"], Refused(1));
    case(&["replay", &path("alh_save_last.toml"), "--json"], Fine);
    case(&["play", "--resume", &path("alh_save_players.toml")], Refused(1));
    case(&["check", "alhambra", "--games", "5"], Fine);
    case(&["test", "snapshots/alhambra", "--filter", "lucy"], Fine);

    // A hang shows as minutes; `bench --games 1` learns both games' models in a
    // test build, which took over 20 s on a loaded 2-core machine.
    let deadline = std::time::Duration::from_secs(90);
    let mut problems = Vec::new();
    for (args, outcome) in &cases {
        let (code, stdout, stderr) = run_with_deadline(args, deadline);
        let first = stderr.lines().next().unwrap_or("");
        let wrong = if code.is_none() {
            Some(format!("killed: still running after {deadline:?} (or ended by a signal)"))
        } else if stderr.contains("panicked") || stderr.contains("memory allocation") {
            Some("panicked or aborted".to_owned())
        } else {
            match outcome {
                Fine if code != Some(0) => Some(format!("expected exit 0, got {code:?}")),
                Refused(want) if code != Some(*want) => Some(format!("expected exit {want}, got {code:?}")),
                Refused(_) if !first.starts_with("error: ") || first.len() < 20 => {
                    Some("stderr does not start with a clear `error: …` line".to_owned())
                }
                Reported if code != Some(1) || !stdout.contains("FAIL ") => {
                    Some(format!("expected exit 1 and a FAIL line, got {code:?}"))
                }
                Usage if code != Some(2) || !stderr.contains("Usage: sanjuan") => {
                    Some(format!("expected exit 2 and the usage, got {code:?}"))
                }
                _ => None,
            }
        };
        if let Some(why) = wrong {
            problems.push(format!(
                "sanjuan {}: {why}\n  stdout: {}\n  stderr: {}",
                args.join(" "),
                stdout.trim(),
                stderr.trim()
            ));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        problems.is_empty(),
        "{} of {} command lines misbehave:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

#[test]
fn scenario_trace_names_the_building_behind_each_effect() {
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/san-juan/producer_well_producer.toml", "--trace"]);
    assert!(ok, "{err}");
    assert!(out.contains("action 2 `produce indigo_plant sugar_mill`:"), "{out}");
    assert!(out.contains("  seat 0: well gives 1 card: statue\n"), "{out}");
    // The state still follows the events.
    assert!(out.contains("seat 0 decides") || out.contains("seat 1 decides"), "{out}");
    let (ok, out, err) = sanjuan(&["scenario", "snapshots/san-juan/builder_library_doubles_privilege.toml", "-v"]);
    assert!(ok, "{err}");
    assert!(out.contains("seat 0: library doubles the builder privilege"), "{out}");
    let (_, plain, _) = sanjuan(&["scenario", "snapshots/san-juan/builder_library_doubles_privilege.toml"]);
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

/// `play` with its explanation blocks (`    why seat …` and the lines under it) taken out.
fn without_explanations(out: &str) -> String {
    let mut kept = Vec::new();
    let mut inside = false;
    for line in out.split('\n') {
        inside = line.starts_with("    why seat ") || (inside && line.starts_with("      "));
        if !inside {
            kept.push(line);
        }
    }
    kept.join("\n")
}

/// `play --explain` prints, after each bot's move, its options with its values
/// and what drove the choice; the game is the one played without it.
#[test]
fn play_explain_prints_why_each_bot_moved_and_plays_the_same_game() {
    use common::sanjuan_with_input;
    let cases = [
        ("second-edition", "balance", " (values: points of final margin): the learned worth"),
        ("alhambra", "balance", " (values: points of final margin): the learned worth"),
        ("second-edition", "greedy", ": it plays by the game's rules of thumb, which give no values"),
        ("alhambra", "paired-balance:6", " (values: win share): each answer played out on the same"),
    ];
    for (ruleset, bot, how) in cases {
        let args = ["play", "--players", "2", "--seed", "5", "--ruleset", ruleset, "--bots", bot];
        let (ok, plain, err) = sanjuan_with_input(&args, &always_first());
        assert!(ok, "{err}");
        let explained_args: Vec<&str> = args.iter().copied().chain(["--explain"]).collect();
        let (ok, explained, err) = sanjuan_with_input(&explained_args, &always_first());
        assert!(ok, "{err}");
        assert!(!plain.contains("why seat"), "no explanations unless asked: {plain}");
        let head = format!("    why seat 1 ({bot}) chose so{how}");
        assert!(explained.contains(&head), "{ruleset} {bot}: no `{head}` in:\n{explained}");
        let ended = explained.contains("final scores:") || explained.contains("game over: ");
        assert!(ended, "played to the end: {explained}");
        assert_eq!(without_explanations(&explained), plain, "{ruleset} {bot}: the same game with --explain");
        if bot == "greedy" {
            continue;
        }
        // The chosen answer marked, with its value; the best others with theirs and their difference.
        let lines: Vec<&str> = explained.lines().collect();
        let at = lines.iter().position(|l| l.starts_with(&head) && !l.contains("one legal answer")).unwrap();
        let chosen = lines[at + 1].trim_start().strip_prefix("▸ ").unwrap_or_else(|| panic!("{}", lines[at + 1]));
        let value = chosen.split_whitespace().last().unwrap();
        assert!(value.parse::<f64>().is_ok_and(|v| v.is_finite()) && value.contains('.'), "{chosen}");
        // Below the chosen, or level with it (a search's win shares tie often).
        let second = lines[at + 2].trim_end();
        assert!(second.ends_with(')') && (second.contains("(-") || second.ends_with("(+0.000)")), "{second}");
        if bot == "balance" {
            let drivers = lines.iter().find(|l| l.contains(", driven by: ")).expect("the drivers");
            let feature = if ruleset == "alhambra" { "lead:" } else { "built" };
            assert!(explained.contains(&format!("driven by: {feature}")) || drivers.contains(feature), "{drivers}");
        }
    }
}

#[test]
fn undo_goes_back_to_the_previous_prompt_without_showing_the_deck() {
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
    let table_after_undo = undone.split_once("shuffled again.\n").unwrap().1;
    assert_eq!(table_after_undo, table.strip_prefix("show\n").unwrap(), "undo restores the previous table");
    assert!(second.contains("seat 0 chooses the prospector") && second.contains("seat 1 chooses"), "{second}");
    // The same answer again draws from a deck dealt again: undo cannot show what the face-down cards are.
    assert!(again.starts_with("pr\n  seat 0 chooses the prospector\n  seat 0 draws 1 card: "), "{again}");
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

/// Words that belong to one game: its name, its author, and the ids and names
/// of its cards that are not everyday English.
fn game_words() -> Vec<String> {
    let mut words: Vec<String> = [
        "san juan",
        "san-juan",
        "san_juan",
        "sanjuan",
        "seyfarth",
        "alhambra",
        "dirk henn",
        "governor",
        "councillor",
        "prospector",
    ]
    .map(str::to_owned)
    .to_vec();
    for id in san_juan::files::BUILTINS.ruleset_ids() {
        let rs = san_juan::Ruleset::load(&id).unwrap();
        for card in &rs.cards.cards {
            words.extend([card.id.to_string(), card.name.to_lowercase()].into_iter().filter(|w| w.len() >= 6));
        }
    }
    words.sort();
    words.dedup();
    words
}

/// Words of one game's shape rather than of its cards: San Juan's city, its
/// start building, its round limit. The engine says holdings, setup and a
/// safety limit. Matched within identifiers too (`final_city`), so `_` ends
/// such a word.
const SHAPE_WORDS: [&str; 5] = ["city", "cities", "start building", "start buildings", "max_rounds"];

/// True when `word` stands in `line` with none of `is_word` on either side.
fn has_word(line: &str, word: &str, is_word: impl Fn(char) -> bool) -> bool {
    line.match_indices(word)
        .any(|(i, _)| !line[..i].ends_with(&is_word) && !line[i + word.len()..].starts_with(&is_word))
}

#[test]
fn shape_words_match_inside_identifiers_but_not_inside_other_words() {
    let hit = |line: &str| SHAPE_WORDS.iter().any(|w| has_word(line, w, char::is_alphanumeric));
    for line in ["final_city", "the city.", "two cities", "its start buildings", "rs.max_rounds", "city_of(x)"] {
        assert!(hit(line), "{line}");
    }
    for line in ["with_capacity", "velocity", "felicity", "electricity"] {
        assert!(!hit(line), "{line}");
    }
}

/// The engine crates know no game: not its name, not a card, not the words of
/// its shape. A game's word in one of them means a rule leaked into the engine.
#[test]
fn no_game_word_appears_in_a_generic_crate() {
    let words = game_words();
    assert!(words.iter().any(|w| w == "smithy") && words.iter().any(|w| w == "guild_hall"), "{words:?}");
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let mut found = Vec::new();
    for krate in ["embed", "game", "play", "rules", "script", "report", "tune"] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../core").join(krate);
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default().to_lowercase();
                for (n, line) in text.lines().enumerate() {
                    for w in &words {
                        if has_word(line, w, is_word) {
                            found.push(format!("{}:{}: `{w}`", path.display(), n + 1));
                        }
                    }
                    for w in SHAPE_WORDS {
                        if has_word(line, w, char::is_alphanumeric) {
                            found.push(format!("{}:{}: `{w}`", path.display(), n + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "game words in generic crates:\n{}", found.join("\n"));
}

// ----- Alhambra -------------------------------------------------------------

const ALHAMBRA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots/alhambra");

#[test]
fn simulate_alhambra_prints_its_title_and_games_per_second() {
    let args = ["simulate", "--ruleset", "alhambra", "--games", "20", "--players", "3", "--seed", "3", "--quiet"];
    let (ok, out, err) = sanjuan(&args);
    assert!(ok, "{err}");
    assert!(out.starts_with("Alhambra | ruleset alhambra | 20 games, 3 players, seed 3"), "{out}");
    assert!(out.contains(" games/s ("), "{out}");
}

/// The table `play` printed last before `marker` (`> quit`): its `turn …`,
/// display and seat lines.
fn last_table<'a>(out: &'a str, marker: &str) -> &'a str {
    let before = &out[..out.rfind(marker).unwrap_or_else(|| panic!("no `{marker}` in:\n{out}"))];
    let start = before.rfind("\nturn ").unwrap_or_else(|| panic!("no table in:\n{out}")) + 1;
    let table = ["turn ", "buildings for sale: ", "money on display: ", "  ", "unclaimed "];
    let len: usize = before[start..]
        .split_inclusive('\n')
        .take_while(|l| table.iter().any(|t| l.starts_with(t)))
        .map(str::len)
        .sum();
    &before[start..start + len]
}

/// The value after `label` up to the next `,` or the end of the line: `turn 8, money deck 89` → `89`.
fn field<'a>(line: &'a str, label: &str) -> &'a str {
    let rest = &line[line.find(label).unwrap_or_else(|| panic!("no `{label}` in `{line}`")) + label.len()..];
    rest.split([',', '\n']).next().unwrap().trim()
}

#[test]
fn an_alhambra_game_saved_in_play_replays_to_the_table_it_showed_and_resumes() {
    use common::sanjuan_with_input;
    let file = temp_save("alhambra");
    let path = file.to_str().unwrap();
    let args = ["play", "--ruleset", "alhambra", "--players", "3", "--seed", "3", "--save", path];
    let (ok, out, err) = sanjuan_with_input(&args, "1\n1\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("seed 3") && err.contains("saved to "), "{out}{err}");
    assert!(out.contains("  seat 1 "), "the bots' moves are shown: {out}");
    let table = last_table(&out, "> quit");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("version = 2") && saved.contains("seed = 3") && saved.contains("\"human\""), "{saved}");

    // replay --json ends where the play stopped, with the human to move.
    let (ok, json, err) = sanjuan(&["replay", path, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let head = table.lines().next().unwrap();
    assert_eq!(field(head, "turn "), v["turn"].to_string(), "{table}");
    assert_eq!(field(head, "money deck "), v["deck_size"].to_string(), "{table}");
    assert_eq!(field(head, "building deck "), v["building_deck_size"].to_string(), "{table}");
    assert_eq!(field(head, "discard "), v["discard"].as_array().unwrap().len().to_string(), "{table}");
    let strings = |x: &serde_json::Value| -> Vec<String> {
        x.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect()
    };
    let shown = table.lines().find_map(|l| l.strip_prefix("money on display: ")).unwrap();
    assert_eq!(shown, strings(&v["money_display"]).join(", "));
    let mine = table.lines().find(|l| l.starts_with("  seat 0: ")).unwrap();
    assert!(mine.contains(&format!("money {} (total", strings(&v["players"][0]["hand"]).join(" "))), "{mine}\n{json}");
    assert_eq!(v["pending"]["seat"], 0, "{json}");
    assert_eq!(v["pending"]["decision"], "turn", "{json}");
    // The plain replay prints the same table (with every hand shown).
    let (ok, text, err) = sanjuan(&["replay", path]);
    assert!(ok, "{err}");
    for line in table.lines().filter(|l| !l.ends_with(" money cards") && !l.ends_with(" money card")) {
        assert!(text.contains(line), "replay lacks `{line}`:\n{text}");
    }

    // Resumed, the same table is offered; played on, the game ends and replays to the printed scores.
    let (ok, resumed, err) = sanjuan_with_input(&["play", "--resume", path], "quit\n");
    assert!(ok, "{err}");
    assert_eq!(last_table(&resumed, "> quit"), table);
    let (ok, end, err) = sanjuan_with_input(&["play", "--resume", path], &always_first());
    assert!(ok, "{err}");
    assert!(end.contains("game over: "), "{end}");
    let final_table = &end[end.rfind("\nturn ").unwrap()..];
    let printed: Vec<i64> = final_table
        .lines()
        .filter_map(|l| l.strip_prefix("  seat "))
        .map(|l| l.split(": ").nth(1).unwrap().split(" point").next().unwrap().parse().unwrap())
        .collect();
    let (ok, json, err) = sanjuan(&["replay", path, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["pending"].is_null() && v["winners"].is_array(), "{json}");
    let totals: Vec<i64> =
        v["players"].as_array().unwrap().iter().map(|p| p["score"]["total"].as_i64().unwrap()).collect();
    assert_eq!(totals, printed);
    std::fs::remove_file(&file).ok();
}

#[test]
fn an_alhambra_scenario_checks_and_a_broken_copy_fails() {
    let file = format!("{ALHAMBRA}/lucy_garden_overpays.toml");
    let (code, out, err) = sanjuan_code(&["scenario", &file, "--check"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("check: ok"), "{err}");
    assert!(out.contains("seat 1 must take money or buy a building: take denar2 |"), "{out}");
    let dir = temp_dir("alhambra-broken");
    let text = std::fs::read_to_string(&file).unwrap();
    let broken = text.replace("discard_size = 2", "discard_size = 3");
    assert_ne!(text, broken, "the scenario no longer has `discard_size = 2` to break");
    let copy = dir.join("lucy.toml");
    std::fs::write(&copy, broken).unwrap();
    let (code, _, err) = sanjuan_code(&["scenario", copy.to_str().unwrap(), "--check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("check failed: discard size: expected 3, got 2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_passes_every_alhambra_scenario() {
    let count = std::fs::read_dir(ALHAMBRA)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "toml"))
        .count();
    assert!(count >= 20, "{count} scenarios");
    let (code, out, err) = sanjuan_code(&["test", "snapshots/alhambra"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains(&format!("{count} passed, 0 failed")), "{out}");
    assert!(out.contains("PASS house_rule_bathhouse_scored\n") && !out.contains("FAIL"), "{out}");
}

#[test]
fn cards_lists_the_six_alhambra_types_and_diffs_the_house_rule() {
    let (ok, out, err) = sanjuan(&["cards", "--ruleset", "alhambra"]);
    assert!(ok, "{err}");
    for (kind, cards, range) in [
        ("pavilion", "7", "2-8"),
        ("seraglio", "7", "3-9"),
        ("arcades", "9", "4-10"),
        ("chambers", "9", "5-11"),
        ("garden", "11", "6-12"),
        ("tower", "11", "7-13"),
    ] {
        let row =
            out.lines().find(|l| l.starts_with(&format!("{kind} "))).unwrap_or_else(|| panic!("no {kind}:\n{out}"));
        assert_eq!(row.split_whitespace().take(3).collect::<Vec<_>>(), [kind, cards, range], "{row}");
    }
    assert!(out.contains("164 cards with 3 or more players"), "{out}");
    let house = "cards/alhambra/examples/house-rule.toml";
    let (ok, out, err) = sanjuan(&["cards", "--ruleset", "alhambra", "--diff", house]);
    assert!(ok, "{err}");
    assert!(out.starts_with("alhambra -> house-rule: 8 difference(s)\n"), "{out}");
    assert!(out.contains("  rules.take_limit: 5 -> 6\n"), "{out}");
    assert!(out.contains("  + building type bathhouse (Bathhouse, 8 cards, prices 8 9 10 10 11 12 13 14)\n"), "{out}");
    assert!(out.contains("  scoring C rank 1: 16 17 18 19 20 21 -> 16 17 18 19 20 21 22\n"), "{out}");
    let (ok, out, err) = sanjuan(&["check", house, "--games", "30"]);
    assert!(ok, "{err}");
    assert!(out.contains("7 building types") && out.contains("ok: 30 random games (2 to 6 players)"), "{out}");
}

#[test]
fn cards_diff_refuses_rulesets_of_two_games() {
    for (a, b) in [("alhambra", "second-edition"), ("second-edition", "alhambra")] {
        let (code, out, err) = sanjuan_code(&["cards", "--ruleset", a, "--diff", b]);
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains("a diff compares two rulesets of the same game"), "{err}");
        assert!(err.contains("for Alhambra") && err.contains("for San Juan"), "{err}");
    }
}

#[test]
fn check_alhambra_plays_random_games_with_the_census() {
    let (ok, out, err) = sanjuan(&["check", "alhambra", "--games", "20"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("ok: Alhambra, the card game ("), "{out}");
    assert!(out.contains("ok: 20 random games (2 to 6 players)"), "{out}");
    assert!(out.contains("every card in exactly one place after each"), "{out}");
}

#[test]
fn an_illegal_alhambra_purchase_says_why_and_what_is_legal() {
    let dir = temp_dir("alhambra-illegal");
    let scenario = |name: &str, actions: &str, hand: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!(
                "ruleset = \"alhambra\"\nbuilding_display = [\"pavilion2\", \"seraglio3\", \"garden10\", \"tower7\"]\n\
                 money_display = [\"denar1\", \"dirham1\", \"ducat1\", \"florin1\"]\nactions = {actions}\n\n\
                 [[players]]\nhand = {hand}\n\n[[players]]\n\n[[players]]\n"
            ),
        )
        .unwrap();
        sanjuan_code(&["scenario", path.to_str().unwrap()])
    };
    // Wrong currency: the garden in slot 3 is paid in ducats.
    let (code, out, err) = scenario("currency.toml", r#"["buy 3", "pay denar5"]"#, r#"["ducat5", "ducat6", "denar5"]"#);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.starts_with("error: action 2 `pay denar5`: "), "{err}");
    assert!(err.contains("denar5 is denars, but garden10 in slot 3 is paid in ducats"), "{err}");
    assert!(err.contains("legal now: pay ducat5, pay ducat6"), "{err}");
    assert!(err.contains("currency.toml:4:21"), "the error points at the action: {err}");
    // Too little money of the slot's currency; other currencies do not count.
    let (code, out, err) = scenario("short.toml", r#"["buy 3"]"#, r#"["ducat3", "ducat4", "denar9", "denar8"]"#);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("garden10 in slot 3 costs 10 ducats; seat 0 has 7 ducats (other currencies do not count)"),
        "{err}"
    );
    assert!(err.contains("legal now: take denar1, take dirham1, take ducat1, take florin1, buy 1"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A person answers a script's choice on the play screen by the option's
/// name, the saved game records it in the notation, and it replays.
#[test]
fn a_scripts_choice_is_answered_in_play_saved_and_replayed() {
    let dir = temp_dir("bazaar");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    copy_dir(&root.join("cards/san-juan"), &dir.join("cards/san-juan"));
    copy_dir(&root.join("scripts/san-juan"), &dir.join("scripts/san-juan"));
    // Everyone starts with a bazaar, so the trader phase asks at once.
    let ruleset = dir.join("cards/san-juan/rulesets/examples/bazaar-start.toml");
    std::fs::write(
        &ruleset,
        "id = \"bazaar-start\"\nname = \"The gallery, with a bazaar for everyone\"\nextends = \"gallery.toml\"\n\
         [rules]\nmax_players = 2\nstart_buildings = [\"indigo_plant\", \"bazaar\"]\n",
    )
    .unwrap();
    let save = dir.join("game.toml");
    let args = ["play", "--players", "2", "--seed", "1", "--ruleset", ruleset.to_str().unwrap()];
    let (ok, screen, err) = common::sanjuan_with_input(
        &[&args[..], &["--save", save.to_str().unwrap()]].concat(),
        "role trader\nsell\nquit\n",
    );
    assert!(ok, "{screen}{err}");
    assert!(screen.contains("The bazaar asks you to choose") && screen.contains("1  choose sell"), "{screen}");
    assert!(screen.contains("seat 0 chooses sell (bazaar)"), "{screen}");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("\"choose sell\""), "{saved}");
    let (ok, first, err) = sanjuan(&["replay", save.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["ruleset"], "bazaar-start", "{first}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The README's recipe for a study in shards, run as written (the shell loop
/// and `sanjuan merge`): the merged records are those one run writes.
#[test]
fn the_readmes_shard_recipe_merges_to_one_runs_records() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let block = readme.split("<!-- local-shards -->").nth(1).expect("the README marks its local recipe");
    let recipe = block.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    // Without the report line: its HTML is checked elsewhere.
    let recipe: String =
        recipe.lines().filter(|l| !l.starts_with("sanjuan report")).map(|l| format!("{l}\n")).collect();
    let dir = temp_dir("shards");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_sanjuan"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new("sh")
        .args(["-e", "-c", &recipe])
        .current_dir(&dir)
        .env("PATH", path)
        .env("SANJUAN_CACHE", common::cache())
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let whole = dir.join("whole.jsonl");
    let (ok, _, err) =
        sanjuan(&["simulate", "--seed", "7", "--games", "2000", "--quiet", "--json-lines", whole.to_str().unwrap()]);
    assert!(ok, "{err}");
    let merged = std::fs::read_to_string(dir.join("study.jsonl")).unwrap();
    assert_eq!(merged.lines().count(), 2000);
    assert!(merged == std::fs::read_to_string(&whole).unwrap(), "the merged shards differ from one run");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_shard_is_k_of_n_from_zero() {
    for bad in ["4/4", "1/0", "x/2", "3"] {
        let (ok, _, err) = sanjuan(&["simulate", "--games", "4", "--shard", bad, "--bots", "random"]);
        assert!(!ok && err.contains("write K/N"), "{bad}: {err}");
    }
    let (ok, out, err) = sanjuan(&["simulate", "--games", "10", "--shard", "2/3", "--bots", "random", "--quiet"]);
    assert!(ok, "{err}");
    assert!(out.contains("4 games (shard 2/3: games 6 to 9)"), "{out}");
}

// ----- Snapshots of a designer's own folder ----------------------------------

/// The body of a `.snap` file: what follows its header.
fn snap_body(text: &str) -> &str {
    let rest = text.strip_prefix("---\n").expect("a snapshot starts with ---");
    &rest[rest.find("\n---\n").expect("a header ends with ---") + 5..]
}

/// A designer's folder outside the repository: a San Juan ruleset with a new
/// building and an Alhambra ruleset with its own scoring table, a scenario each.
fn designer_folder(name: &str, bell_tower_cost: u32, chambers_a: u32) -> std::path::PathBuf {
    let dir = temp_dir(name);
    write_designer_rules(&dir, bell_tower_cost, chambers_a);
    std::fs::write(
        dir.join("bell_tower_built.toml"),
        "ruleset = \"rules/my-rules.toml\"\n\
         description = \"Seat 0 builds the new bell tower with the builder's privilege.\"\n\
         actions = [\"role builder\", \"build bell_tower pay well indigo_plant\"]\n\n\
         [[players]]\nhand = [\"bell_tower\", \"well\", \"indigo_plant\", \"sugar_mill\", \"chapel\"]\n\n\
         [[players]]\n\n[expect]\nover = false\n",
    )
    .unwrap();
    let scenario = std::fs::read_to_string(format!("{ALHAMBRA}/scoring_a_chambers.toml")).unwrap();
    let scenario = scenario.replace("ruleset = \"alhambra\"", "ruleset = \"rules/my-alhambra.toml\"");
    let cut = scenario.find("scores = ").expect("the scenario checks scores");
    let scenario = format!("{}{}", &scenario[..cut], &scenario[cut..][scenario[cut..].find('\n').unwrap() + 1..]);
    std::fs::write(dir.join("alhambra_scoring_a.toml"), scenario).unwrap();
    dir
}

/// The folder's rulesets, in `rules/` (every `*.toml` of the folder itself is a scenario): `bell_tower` costs `bell_tower_cost`; the chambers score `chambers_a` in scoring A.
fn write_designer_rules(dir: &std::path::Path, bell_tower_cost: u32, chambers_a: u32) {
    let dir = &dir.join("rules");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("my-rules.toml"),
        "id = \"my-rules\"\nname = \"My rules\"\nextends = \"second-edition\"\nextra_sets = [\"my-cards.toml\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("my-cards.toml"),
        format!(
            "script_dir = \".\"\n\n[[card]]\nid = \"bell_tower\"\nname = \"Bell tower\"\ntext = \"No function\"\nkind = \"city\"\n\
             cost = {bell_tower_cost}\nvp = 3\ncopies = 2\n"
        ),
    )
    .unwrap();
    let base =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../cards/alhambra/alhambra.toml")).unwrap();
    let scorings = &base[base.find("[[scoring]]").unwrap()..base.find("[scripts]").unwrap()];
    let scorings = scorings.replacen("[[1, 2, 3, 4, 5, 6]]", &format!("[[1, 2, 3, {chambers_a}, 5, 6]]"), 1);
    std::fs::write(
        dir.join("my-alhambra.toml"),
        format!(
            "id = \"my-alhambra\"\ngame = \"alhambra\"\nname = \"My Alhambra\"\nextends = \"alhambra\"\n\n{scorings}"
        ),
    )
    .unwrap();
}

#[test]
fn test_command_records_compares_and_accepts_snapshots_in_both_games() {
    let dir = designer_folder("snap-loop", 3, 4);
    let arg = dir.to_str().unwrap();
    let snaps = dir.join("snapshots");
    // The first run records a snapshot per scenario.
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("PASS bell_tower_built\n") && out.contains("PASS alhambra_scoring_a\n"), "{out}");
    assert!(out.contains("new snapshots recorded:"), "{out}");
    let sj = std::fs::read_to_string(snaps.join("bell_tower_built.snap")).unwrap();
    let alh = std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap();
    assert!(sj.starts_with("---\nsource: sanjuan test\ndescription: "), "{sj}");
    assert!(sj.contains("\ninput_file: bell_tower_built.toml\n---\nruleset: my-rules\n"), "{sj}");
    assert!(snap_body(&sj).contains("bell_tower"), "{sj}");
    assert!(snap_body(&alh).starts_with("ruleset: my-alhambra\n"), "{alh}");
    // The second run reads them back equal and writes nothing.
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.contains("new snapshots") && !out.contains("accepted"), "{out}");
    assert_eq!(std::fs::read_to_string(snaps.join("bell_tower_built.snap")).unwrap(), sj);
    assert_eq!(std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap(), alh);

    // A cost and a points change: both scenarios fail, each with a diff naming what moved.
    write_designer_rules(&dir, 4, 5);
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL bell_tower_built\n") && out.contains("FAIL alhambra_scoring_a\n"), "{out}");
    assert!(out.contains("snapshot changed (") && out.contains("- stored, + now"), "{out}");
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(lines.contains(&"-       total: 4") && lines.contains(&"+       total: 5"), "the chambers' points: {out}");
    assert!(lines.iter().any(|l| l.starts_with("+ ")) && lines.iter().any(|l| l.starts_with("- ")), "{out}");
    assert!(out.contains("0 passed, 2 failed"), "{out}");
    // Nothing was written: the stored snapshots are the old ones.
    assert_eq!(std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap(), alh);

    // --accept with --filter stores only the filtered one.
    let (code, out, err) = sanjuan_code(&["test", arg, "--accept", "--filter", "alhambra"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("changed snapshots accepted:") && out.contains("alhambra_scoring_a.snap"), "{out}");
    assert_eq!(std::fs::read_to_string(snaps.join("bell_tower_built.snap")).unwrap(), sj);
    let (code, out, _) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("PASS alhambra_scoring_a\n") && out.contains("FAIL bell_tower_built\n"), "{out}");
    // --accept takes the rest, and the folder is green again.
    let (code, out, err) = sanjuan_code(&["test", arg, "--accept"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("2 passed, 0 failed") && !out.contains("accepted"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `sanjuan test` with its answers typed on the standard input; (exit code, stdout).
fn sanjuan_answering(args: &[&str], answers: &str) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = common::command()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(answers.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn test_command_reviews_each_change_and_keeps_traces_it_was_asked_for() {
    let dir = designer_folder("snap-review", 3, 4);
    let arg = dir.to_str().unwrap();
    let snaps = dir.join("snapshots");
    // --review of new snapshots: the first is accepted, the second rejected (nothing written for it).
    let (code, out) = sanjuan_answering(&["test", arg, "--review", "--trace"], "a\nr\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("---- review alhambra_scoring_a ----\nnew snapshot "), "{out}");
    assert!(out.contains("snapshots rejected (the stored one stays):"), "{out}");
    assert!(snaps.join("alhambra_scoring_a.snap").is_file() && !snaps.join("bell_tower_built.snap").exists());
    // The trace was asked for: the new snapshot keeps each action's events.
    let alh = std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap();
    assert!(alh.contains("\nevents:\n  - \"action 1 `take "), "{alh}");
    // A run records the other (without its trace); the traced one is compared with its trace.
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    let sj = std::fs::read_to_string(snaps.join("bell_tower_built.snap")).unwrap();
    assert!(!sj.contains("\nevents:"), "{sj}");

    // A change: the review shows each diff; skip leaves it failing, quit skips the rest.
    write_designer_rules(&dir, 4, 5);
    let (code, out) = sanjuan_answering(&["test", arg, "--review"], "s\nq\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("changed (- stored, + now):") && out.contains("snapshots skipped (review them again):"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap(), alh);
    // An answer that is none of them is asked again; then both are accepted and the folder is green.
    let (code, out) = sanjuan_answering(&["test", arg, "--review"], "yes\na\na\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("`yes`: answer a, r, s or q"), "{out}");
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    let now = std::fs::read_to_string(snaps.join("alhambra_scoring_a.snap")).unwrap();
    assert!(now.contains("\nevents:\n") && now != alh, "the accepted change keeps its trace: {now}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_under_ci_writes_nothing_and_lists_stale_snapshots() {
    let dir = designer_folder("snap-ci", 3, 4);
    let arg = dir.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sanjuan"))
            .env("SANJUAN_CACHE", common::cache())
            .env_remove("CI")
            .env("CI", "true")
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // No snapshot stored: under CI each scenario fails and nothing is written, --accept or not.
    for args in [&["test", arg][..], &["test", arg, "--accept"]] {
        let (code, out) = run(args);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("no stored snapshot") && out.contains("0 passed, 2 failed"), "{out}");
        assert!(!dir.join("snapshots").exists(), "CI wrote snapshots: {out}");
    }
    // Recorded once without CI, the same run passes under CI.
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out) = run(&["test", arg]);
    assert_eq!(code, Some(0), "{out}");
    // A snapshot whose scenario is gone is listed as stale.
    std::fs::remove_file(dir.join("bell_tower_built.toml")).unwrap();
    let (code, out, err) = sanjuan_code(&["test", arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("stale snapshots") && out.contains("bell_tower_built.snap"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_snapshots_are_the_repository_snapshot_format() {
    // A copy of a repository scenario records exactly the repository's stored snapshot.
    let dir = temp_dir("snap-format");
    let cases = [
        (SCENARIOS, "palace_34_to_42"),
        (SCENARIOS, "gallery_toll_gate"),
        (SCENARIOS, "exp_customs_office_tie_break"),
        (ALHAMBRA, "lucy_garden_exact"),
        (ALHAMBRA, "two_players_neutral_after_b"),
    ];
    for (from, name) in cases {
        // A ruleset named by a path relative to the scenario is named from the copy.
        let text = std::fs::read_to_string(format!("{from}/{name}.toml")).unwrap();
        let text = text.replace("ruleset = \"../", &format!("ruleset = \"{from}/../"));
        std::fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    }
    let (code, out, err) = sanjuan_code(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    for (from, name) in cases {
        let ours = std::fs::read_to_string(dir.join("snapshots").join(format!("{name}.snap"))).unwrap();
        let stored = std::fs::read_to_string(format!("{from}/snapshots/{name}.snap")).unwrap();
        assert_eq!(snap_body(&ours), snap_body(&stored), "{name}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_command_compare_mode_finds_exactly_the_scenarios_a_cost_change_moves() {
    let dir = designer_folder("snap-compare", 3, 4);
    // Ruleset B: the same, with the bell tower one dearer.
    let rules_dir = dir.join("rules");
    let cards = std::fs::read_to_string(rules_dir.join("my-cards.toml")).unwrap();
    std::fs::write(rules_dir.join("my-cards-b.toml"), cards.replace("cost = 3", "cost = 4")).unwrap();
    let rules = std::fs::read_to_string(rules_dir.join("my-rules.toml")).unwrap();
    std::fs::write(rules_dir.join("my-rules-b.toml"), rules.replace("my-cards.toml", "my-cards-b.toml")).unwrap();
    let scenario = |hand: &str, buildings: &str, actions: &str| {
        format!(
            "ruleset = \"rules/my-rules.toml\"\nactions = [{actions}]\n\n[[players]]\nhand = [{hand}]\nbuildings = [{buildings}]\n\n\
             [[players]]\n\n[expect]\nover = false\n"
        )
    };
    let files = [
        // Affordable at 3 less the privilege (2 cards), not at 4: the legal builds differ.
        ("bell_tower_affordable", scenario("\"bell_tower\", \"well\", \"chapel\"", "", "\"role builder\"")),
        // In the city already: its cost plays no part.
        ("bell_tower_in_city", scenario("\"well\"", "\"bell_tower\"", "")),
        ("no_bell_tower", scenario("\"well\", \"chapel\"", "\"indigo_plant\"", "\"role builder\"")),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    }
    let a = rules_dir.join("my-rules.toml");
    let b = rules_dir.join("my-rules-b.toml");
    let (code, out, err) = sanjuan_code(&[
        "test",
        dir.to_str().unwrap(),
        "--ruleset-a",
        a.to_str().unwrap(),
        "--ruleset-b",
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    let differ: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("DIFF ")).collect();
    assert_eq!(differ, ["bell_tower_affordable", "bell_tower_built"], "{out}");
    assert!(out.contains("2 of 4 scenarios differ"), "{out}");
    assert!(out.contains("not of San Juan, not compared: alhambra_scoring_a"), "{out}");
    assert!(out.contains("---- bell_tower_built: - under A, + under B ----"), "{out}");
    assert!(!dir.join("snapshots").exists(), "compare mode touches no stored snapshot");
    // The same ruleset twice: nothing differs.
    let (code, out, _) = sanjuan_code(&[
        "test",
        dir.to_str().unwrap(),
        "--ruleset-a",
        a.to_str().unwrap(),
        "--ruleset-b",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("0 of 4 scenarios differ"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// ARCHITECTURE.md's crate table says what each crate depends on; the
/// manifests say what it does. They agree, both ways.
#[test]
fn architecture_md_draws_the_crate_graph() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let cell = |c: &str| c.trim().trim_matches('`').to_owned();
    let mut drawn = std::collections::BTreeMap::new();
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').collect();
        let (name, folder, deps) = (cell(cells[1]), cell(cells[2]), cells[3].trim());
        if !root.join(&folder).join("Cargo.toml").is_file() {
            continue; // another table (the code maps)
        }
        let deps: std::collections::BTreeSet<String> =
            deps.split(',').map(str::trim).filter(|d| !d.is_empty() && *d != "—").map(str::to_owned).collect();
        drawn.insert(name, (folder, deps));
    }
    let members: toml::Table = std::fs::read_to_string(root.join("Cargo.toml")).unwrap().parse().unwrap();
    let members: Vec<&str> =
        members["workspace"]["members"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(drawn.len(), members.len(), "every workspace crate has a row: {:?} vs {members:?}", drawn.keys());
    for (name, (folder, deps)) in &drawn {
        let manifest: toml::Table =
            std::fs::read_to_string(root.join(folder).join("Cargo.toml")).unwrap().parse().unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some(name.as_str()), "{folder}");
        let real: std::collections::BTreeSet<String> = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| d.iter().filter(|(_, v)| v.get("path").is_some()).map(|(k, _)| k.clone()).collect())
            .unwrap_or_default();
        assert_eq!(&real, deps, "ARCHITECTURE.md draws `{name}` depending on {deps:?}; its manifest says {real:?}");
    }
}

/// The ruleset of docs/scripting.md's error samples: the 2nd edition and a
/// `harbor_master` whose script is `scripts/san-juan/harbor_master.rhai`.
fn write_harbor_master_rules(dir: &std::path::Path) {
    std::fs::write(
        dir.join("my-rules.toml"),
        "id = \"my-rules\"\nname = \"My rules\"\ndescription = \"The harbor master\"\nextends = \"second-edition\"\n\
         extra_sets = [\"my-cards.toml\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("my-cards.toml"),
        "script_dir = \"scripts/san-juan\"\n\n[[card]]\nid = \"harbor_master\"\nname = \"Harbor master\"\n\
         text = \"Sell one more good\"\nkind = \"city\"\ncost = 3\nvp = 1\ncopies = 1\nscript = \"harbor_master.rhai\"\n",
    )
    .unwrap();
}

/// The check sample in docs/scripting.md ("Errors") is the program's real
/// output: the script above it, in a card of a ruleset of one's own, gives
/// exactly the errors it shows (the list of hooks and of `ctx` members included,
/// so a new hook or member cannot leave the page behind).
#[test]
fn the_scripting_errors_sample_is_what_check_prints() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scripting.md")).unwrap();
    let at = page.find("With `scripts/san-juan/harbor_master.rhai`, the script").expect("the sample is on the page");
    let rest = &page[at..];
    let script = rest.split("```rhai\n").nth(1).and_then(|b| b.split("```").next()).expect("the sample's script");
    let console = rest.split("```console\n").nth(1).and_then(|b| b.split("```").next()).expect("its output");
    let (command, shown) = console.split_once('\n').expect("a command line, then the output");
    assert_eq!(command, "$ sanjuan check my-rules.toml");

    let dir = temp_dir("scripting-sample");
    std::fs::create_dir_all(dir.join("scripts/san-juan")).unwrap();
    std::fs::write(dir.join("scripts/san-juan/harbor_master.rhai"), script).unwrap();
    write_harbor_master_rules(&dir);
    let out = common::command().args(["check", "my-rules.toml"]).current_dir(&dir).output().unwrap();
    assert!(!out.status.success());
    let printed = String::from_utf8_lossy(&out.stderr);
    assert_eq!(printed.trim_end(), shown.trim_end(), "docs/scripting.md shows other errors than `check` prints");
}

/// The run-time samples in docs/scripting.md ("Errors") are the program's real
/// output: each script, in the harbor master's card, played by the scenario the
/// page shows, stops with exactly the error printed under it.
#[test]
fn the_scripting_run_time_samples_are_what_scenario_prints() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scripting.md")).unwrap();
    let section = page
        .split("<!-- run-time samples -->")
        .nth(1)
        .and_then(|r| r.split("<!-- end of run-time samples -->").next())
        .expect("the run-time samples are marked on the page");
    let block = |text: &str, lang: &str| -> Option<String> {
        text.split(&format!("```{lang}\n")).nth(1).and_then(|b| b.split("```").next()).map(str::to_owned)
    };
    let scenario = block(section, "toml").expect("the scenario");
    let dir = temp_dir("scripting-run-time");
    std::fs::create_dir_all(dir.join("scripts/san-juan")).unwrap();
    std::fs::write(dir.join("hm.toml"), scenario).unwrap();
    write_harbor_master_rules(&dir);
    let samples: Vec<&str> = section.split("```rhai\n").skip(1).collect();
    assert_eq!(samples.len(), 3, "three samples: a card's property, a return value, an effect map");
    for sample in samples {
        let script = sample.split("```").next().unwrap();
        let console = block(sample, "console").expect("each script has its output");
        let (command, shown) = console.split_once('\n').expect("a command line, then the output");
        assert_eq!(command, "$ sanjuan scenario hm.toml");
        std::fs::write(dir.join("scripts/san-juan/harbor_master.rhai"), script).unwrap();
        let out = common::command().args(["scenario", "hm.toml"]).current_dir(&dir).output().unwrap();
        assert!(!out.status.success(), "{script}");
        let printed = String::from_utf8_lossy(&out.stderr);
        assert_eq!(printed.trim_end(), shown.trim_end(), "docs/scripting.md shows another error for:\n{script}");
    }
}

/// The error sample of docs/alhambra.md ("What `check` says") is what `check`
/// prints for the script and ruleset the page shows, so the two cannot drift.
#[test]
fn the_alhambra_scripting_errors_sample_is_what_check_prints() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/alhambra.md")).unwrap();
    let at = page.find("### What `check` says").expect("the sample is on the page");
    let rest = &page[at..];
    let script = rest.split("```rhai\n").nth(1).and_then(|b| b.split("```").next()).expect("the sample's script");
    let console = rest.split("```console\n").nth(1).and_then(|b| b.split("```").next()).expect("its output");
    let (command, shown) = console.split_once('\n').expect("a command line, then the output");
    assert_eq!(command, "$ sanjuan check my-rules.toml");

    let dir = temp_dir("alhambra-scripting-sample");
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    std::fs::write(dir.join("cards/bazaar.rhai"), script).unwrap();
    std::fs::write(
        dir.join("cards/my-rules.toml"),
        "id = \"my-rules\"\ngame = \"alhambra\"\nname = \"My rules\"\nextends = \"alhambra\"\n\n[[building]]\n\
         id = \"bazaar\"\nname = \"Bazaar\"\nprices = [4, 5, 6, 7, 8]\npoints = { A = [2], B = [9, 2], C = [17, 9, 2] }\n\
         script = \"bazaar.rhai\"\n",
    )
    .unwrap();
    let out = common::command().args(["check", "my-rules.toml"]).current_dir(dir.join("cards")).output().unwrap();
    assert!(!out.status.success());
    let printed = String::from_utf8_lossy(&out.stderr);
    assert_eq!(printed.trim_end(), shown.trim_end(), "docs/alhambra.md shows other errors than `check` prints");
}

/// The searches with balance-bot playouts are bots of every game: each plays a
/// game to its end beside the balance bot, and the record names it.
#[test]
fn the_balance_playout_searches_play_both_games() {
    let dir = temp_dir("mcts-balance");
    for (ruleset, search) in [
        ("second-edition", "mcts-balance:2"),
        ("alhambra", "mcts-balance:2"),
        ("second-edition", "paired-balance:4"),
        ("alhambra", "paired-balance:4"),
    ] {
        let file = dir.join(format!("{ruleset}-{}.jsonl", search.replace(':', "-")));
        let (ok, _, err) = sanjuan(&[
            "simulate",
            "--ruleset",
            ruleset,
            "--bots",
            &format!("{search},balance"),
            "--games",
            "1",
            "--quiet",
            "--json-lines",
            file.to_str().unwrap(),
        ]);
        assert!(ok, "{ruleset}: {err}");
        let record: serde_json::Value = serde_json::from_str(std::fs::read_to_string(&file).unwrap().trim()).unwrap();
        assert_eq!(record["bots"][0], search, "{ruleset}");
        assert!(record["rounds"].as_u64().unwrap() > 3, "{ruleset}: {record}");
        assert!(!record["winners"].as_array().unwrap().is_empty(), "{ruleset}");
    }
    let (ok, _, err) = sanjuan(&["simulate", "--bots", "mcts-balance:0", "--games", "1"]);
    assert!(!ok);
    assert!(err.contains("write mcts-balance:N"), "{err}");
}

/// A balance bot can be nudged toward a feature of its model, in every game:
/// the seat nudged to like a building type gets it more than the others do,
/// and a feature the model lacks is refused with the nearest names.
#[test]
fn a_nudged_balance_bot_likes_what_it_is_nudged_toward_in_both_games() {
    let dir = temp_dir("nudged");
    for (ruleset, bots, prefix) in [
        ("second-edition", "balance+built:black_market=3,balance,balance,balance", "black_market"),
        ("alhambra", "balance+lead:garden=4,balance,balance,balance", "garden"),
    ] {
        let file = dir.join(format!("{ruleset}.jsonl"));
        let path = file.to_str().unwrap();
        let args = ["simulate", "--ruleset", ruleset, "--bots", bots, "--games", "40", "--quiet", "--json-lines", path];
        let (ok, out, err) = sanjuan(&args);
        assert!(ok, "{ruleset}: {err}");
        assert!(out.contains(bots.split(',').next().unwrap()), "{ruleset}: the table names the bot\n{out}");
        let mut got = [0usize; 4];
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["bots"][0], bots.split(',').next().unwrap(), "{ruleset}");
            for (seat, city) in record["buildings"].as_array().unwrap().iter().enumerate() {
                got[seat] += city
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|b| b["round"].as_u64() > Some(0) && b["id"].as_str().unwrap().starts_with(prefix))
                    .count();
            }
        }
        let others = (got[1] + got[2] + got[3]) as f64 / 3.0;
        // Alhambra: nearly every building is bought by someone; the nudged seat gets a fair share more.
        assert!(got[0] as f64 > 1.2 * others, "{ruleset}: {prefix} got per seat {got:?}");
    }
    let (ok, _, err) = sanjuan(&["simulate", "--bots", "balance+built:blackmarket=1", "--games", "1"]);
    assert!(!ok);
    assert!(err.contains("no feature `built:blackmarket`; did you mean built:black_market?"), "{err}");
}

/// A running `sanjuan serve` with this model cache and these options: its port,
/// the child (killed by the caller) and a thread gathering its stderr.
fn serve_with_cache(
    cache: &std::path::Path,
    extra: &[&str],
) -> (u16, std::process::Child, std::thread::JoinHandle<String>) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = common::command()
        .args(["serve", "--port", "0"])
        .args(extra)
        .env("SANJUAN_CACHE", cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sanjuan serve");
    let (port, _out) = common::served_port(&mut child);
    let mut err = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        err.read_to_string(&mut text).ok();
        text
    });
    (port, child, errors)
}

/// One HTTP request to a local server: the status and the JSON body.
fn http(port: u16, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let code = reply.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    (code, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

/// Whether a new second-edition table with a balance bot says its model is still to be learned.
fn a_balance_table_waits_for_learning(port: u16) -> bool {
    let (code, made) =
        http(port, "POST", "/api/tables", r#"{"ruleset":"second-edition","seats":["human","balance"],"seed":3}"#);
    assert_eq!(code, 200, "{made}");
    let (id, token) = (made["table"].as_str().unwrap(), made["seats"][0]["token"].as_str().unwrap());
    let (code, state) = http(port, "GET", &format!("/api/tables/{id}/state?token={token}"), "");
    assert_eq!(code, 200, "{state}");
    state.get("learning").is_some()
}

#[test]
fn serve_reads_the_balance_models_the_command_line_cached() {
    // The command line's cache holds second-edition's model (learned here if no test did before).
    let cache = common::cache();
    let (ok, _, err) = common::sanjuan(&["learn", "--ruleset", "second-edition"]);
    assert!(ok, "{err}");
    let (port, mut child, errors) = serve_with_cache(&cache, &["--no-learn"]);
    let waits = a_balance_table_waits_for_learning(port);
    child.kill().ok();
    child.wait().ok();
    assert!(!waits, "a table of a cached ruleset waits for no learning: {}", errors.join().unwrap());
    // With an empty cache the same table has its model still to learn: the cache was what made it ready.
    let empty = std::env::temp_dir().join(format!("sanjuan-empty-cache-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (port, mut child, _) = serve_with_cache(&empty, &["--no-learn"]);
    let waits = a_balance_table_waits_for_learning(port);
    child.kill().ok();
    child.wait().ok();
    assert!(waits, "with no cached model the table says it waits for the learning");
    // Without --no-learn the server learns the missing models after it starts, and says so.
    let (_, mut child, errors) = serve_with_cache(&empty, &[]);
    std::thread::sleep(std::time::Duration::from_secs(2));
    child.kill().ok();
    child.wait().ok();
    let said = errors.join().unwrap();
    std::fs::remove_dir_all(&empty).ok();
    assert!(said.contains("learning the balance bot's model for"), "{said}");
}

/// A ruleset's own action is saved and replayed as any other answer: bots'
/// games with the trading house (corpus) are saved, and each one that buys a
/// good replays to the same end.
#[test]
fn saved_games_with_a_rulesets_own_action_replay() {
    let dir = temp_dir("own-action");
    let ruleset = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/san-juan/trading_house/ruleset.toml");
    let saves = dir.join("games");
    let (code, _, err) = sanjuan_code(&[
        "simulate",
        "--ruleset",
        ruleset,
        "--games",
        "12",
        "--players",
        "3",
        "--bots",
        "random",
        "--seed",
        "3",
        "--save-games",
        saves.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&saves).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("\"buy ") {
            continue;
        }
        let (code, out, err) = sanjuan_code(&["replay", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{}: {err}", path.display());
        assert!(out.contains("buildings"), "{out}");
        replayed += 1;
    }
    assert!(replayed > 0, "no saved game bought a good");
    std::fs::remove_dir_all(&dir).ok();
}

/// The circles among one crate's top-level modules (a file or folder under
/// `src/`): each as its sorted module names. An edge is a `crate::x` or
/// `super::x` path (to the crate root) outside comments and the unit tests
/// that end a file.
fn import_circles(src: &std::path::Path) -> Vec<Vec<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(src, &mut all);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &all {
        let rel: Vec<String> =
            path.strip_prefix(src).unwrap().iter().map(|c| c.to_string_lossy().into_owned()).collect();
        let (module, depth) = match rel.as_slice() {
            [file] if file == "lib.rs" || file == "main.rs" => continue,
            [file] => (file.trim_end_matches(".rs").to_owned(), 0),
            [dir, .., last] => (dir.clone(), rel.len() - 1 - usize::from(last == "mod.rs")),
            [] => continue,
        };
        let text = std::fs::read_to_string(path).unwrap();
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let code: String = text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n");
        let mut refs = BTreeSet::new();
        let to_root = "super::".repeat(depth + 1);
        for prefix in ["crate::", to_root.as_str()] {
            for (at, _) in code.match_indices(prefix) {
                let rest = &code[at + prefix.len()..];
                // `crate::x`, or each first name of `crate::{x, y::z}`.
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => {
                        let (mut depth, mut start, mut out) = (0, 0, Vec::new());
                        for (i, ch) in group.char_indices() {
                            match ch {
                                '{' => depth += 1,
                                '}' if depth == 0 => {
                                    out.push(&group[start..i]);
                                    break;
                                }
                                '}' => depth -= 1,
                                ',' if depth == 0 => {
                                    out.push(&group[start..i]);
                                    start = i + 1;
                                }
                                _ => {}
                            }
                        }
                        out
                    }
                    None => vec![rest],
                };
                for name in names {
                    let name: String = name.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    refs.insert(name);
                }
            }
        }
        edges.entry(module.clone()).or_default().extend(refs.into_iter().filter(|r| *r != module));
    }
    let known: BTreeSet<String> = edges.keys().cloned().collect();
    for targets in edges.values_mut() {
        targets.retain(|t| known.contains(t));
    }
    // Two modules are in one circle when each reaches the other.
    let reach = |from: &String| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![from.clone()]);
        while let Some(m) = todo.pop() {
            for t in &edges[&m] {
                if seen.insert(t.clone()) {
                    todo.push(t.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = known.iter().map(|m| (m, reach(m))).collect();
    let mut circles: BTreeSet<Vec<String>> = BTreeSet::new();
    for m in &known {
        let circle: Vec<String> =
            known.iter().filter(|o| *o == m || (reached[m].contains(*o) && reached[*o].contains(m))).cloned().collect();
        if circle.len() > 1 {
            circles.insert(circle);
        }
    }
    circles.into_iter().collect()
}

/// Imports inside a crate point down its layers, except the circles
/// ARCHITECTURE.md lists as still open: a new circle (or a module joining
/// one) fails, and a circle broken must leave the list.
#[test]
fn import_circles_are_the_listed_ones() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut listed: Vec<(String, Vec<String>)> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("- circle `"))
        .map(|l| {
            let (krate, modules) = l.split_once("`: ").expect("- circle `crate`: a, b");
            (krate.to_owned(), modules.split(", ").map(str::to_owned).collect())
        })
        .collect();
    listed.sort();
    let members: toml::Table = std::fs::read_to_string(root.join("Cargo.toml")).unwrap().parse().unwrap();
    let mut found = Vec::new();
    for folder in members["workspace"]["members"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()) {
        let manifest: toml::Table =
            std::fs::read_to_string(root.join(folder).join("Cargo.toml")).unwrap().parse().unwrap();
        let name = manifest["package"]["name"].as_str().unwrap().to_owned();
        for circle in import_circles(&root.join(folder).join("src")) {
            found.push((name.clone(), circle));
        }
    }
    found.sort();
    assert_eq!(found, listed, "import circles found (left) and listed in ARCHITECTURE.md (right)");
}

/// The circle finder sees a circle through `crate::` and `super::` paths and
/// grouped imports, and none through a comment.
#[test]
fn the_circle_finder_sees_paths_groups_and_not_comments() {
    let dir = temp_dir("circles");
    let src = dir.as_path();
    std::fs::create_dir_all(src.join("game")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\nmod game;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::{b::One, c};\n").unwrap();
    std::fs::write(src.join("b.rs"), "pub fn f() { super::game::g() }\n").unwrap();
    std::fs::write(src.join("c.rs"), "// crate::a is only named here\n").unwrap();
    std::fs::write(src.join("game").join("mod.rs"), "mod step;\n").unwrap();
    std::fs::write(src.join("game").join("step.rs"), "use super::super::a::X;\n").unwrap();
    assert_eq!(import_circles(src), vec![vec!["a".to_owned(), "b".to_owned(), "game".to_owned()]]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A designer's ruleset learns its balance model starting from the built-in
/// ruleset it changes, that one's model read from the cache (or learned and
/// cached first); its own model is cached with where it started, and a
/// cached model that started elsewhere (or holds nonsense there) is learned again.
#[test]
fn a_design_learns_from_the_model_of_the_ruleset_it_changes() {
    // The built-in ruleset's model, in the tests' shared cache (learned here if no test did before).
    let (ok, _, err) = common::sanjuan(&["learn", "--ruleset", "second-edition"]);
    assert!(ok, "{err}");
    let fingerprint = |ruleset: &str| {
        let (ok, out, err) = common::sanjuan(&["check", "--ruleset", ruleset]);
        assert!(ok, "{err}");
        out.split("fingerprint ").nth(1).unwrap().split_whitespace().next().unwrap().to_owned()
    };
    let mint = "corpus/san-juan/mint/ruleset.toml";
    let (base_file, mint_file) = (
        format!("balance-san-juan-{}.json", fingerprint("second-edition")),
        format!("balance-san-juan-{}.json", fingerprint(mint)),
    );
    let dir = std::env::temp_dir().join(format!("sanjuan-warm-cache-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(common::cache().join(&base_file), dir.join(&base_file)).unwrap();
    let learn = || {
        let out = common::command().args(["learn", "--ruleset", mint]).env("SANJUAN_CACHE", &dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (out, err) = learn();
    assert!(!err.contains("values for second-edition"), "the base's model came from the cache: {err}");
    assert!(
        err.contains("values for corpus-mint by self-play in")
            && err.contains("6 rounds, starting from second-edition's model: 64 of its 64 features kept, 2 new"),
        "{err}"
    );
    assert!(
        out.contains("(learned by self-play: 1500 games × 6 rounds, starting from second-edition's model"),
        "{out}"
    );
    let cached: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(&mint_file)).unwrap()).unwrap();
    assert_eq!(cached["start"]["ruleset"], "second-edition");
    assert_eq!(cached["start"]["fingerprint"].as_str(), Some(fingerprint("second-edition").as_str()));
    // Learned once: the second run reads both models.
    let (again, err) = learn();
    assert!(!err.contains("learned"), "{err}");
    assert_eq!(again, out, "the cached model is the one learned");
    // A cached model that started elsewhere, or says nonsense about it, or
    // was learned by an older bot (its version), is learned again.
    let text = std::fs::read_to_string(dir.join(&mint_file)).unwrap();
    let start = format!("\"fingerprint\": \"{}\"", fingerprint("second-edition"));
    let version = cached["version"].as_u64().unwrap();
    let older = format!("model format {} (this program reads {version})", version - 1);
    for (bad, said) in [
        (
            text.replace(&start, "\"fingerprint\": \"0000000000000000\""),
            "learned from second-edition's model (0000000000000000)",
        ),
        (text.replace("\"start\": {", "\"start\": 7, \"was\": {"), "not a balance model"),
        (text.replace(&format!("\"version\": {version}"), &format!("\"version\": {}", version - 1)), older.as_str()),
    ] {
        assert_ne!(bad, text);
        std::fs::write(dir.join(&mint_file), &bad).unwrap();
        let (relearned, err) = learn();
        assert!(err.contains(said) && err.contains("learning again"), "{err}");
        assert_eq!(relearned, out, "learning again learns the same model");
    }
    std::fs::remove_dir_all(&dir).ok();
}
