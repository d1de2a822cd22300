//! Sharding a study: a run split into `--seed-start` shards and merged gives
//! the same records and the same report as the run in one piece, and the
//! thread count does not change the records.

use std::path::{Path, PathBuf};

use crate::common;
use common::sanjuan;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sanjuan-report-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn simulate(out: &Path, extra: &[&str]) {
    let path = out.to_str().unwrap();
    let mut args = vec!["simulate", "--seed", "5", "--players", "3", "--quiet", "--json-lines", path];
    args.extend_from_slice(extra);
    let (ok, _, err) = sanjuan(&args);
    assert!(ok, "simulate {extra:?}: {err}");
}

fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Seat 0's wins in `records`, a shared win counting 1/k.
fn seat0_wins(records: &[serde_json::Value]) -> f64 {
    records
        .iter()
        .map(|r| {
            let winners = r["winners"].as_array().unwrap();
            if winners.iter().any(|w| w == 0) { 1.0 / winners.len() as f64 } else { 0.0 }
        })
        .sum()
}

#[test]
fn shards_merge_to_the_single_run() {
    let dir = scratch("shards");
    let (whole, s1, s2, merged) =
        (dir.join("a.jsonl"), dir.join("s1.jsonl"), dir.join("s2.jsonl"), dir.join("m.jsonl"));
    simulate(&whole, &["--games", "40"]);
    simulate(&s1, &["--seed-start", "0", "--games", "25"]);
    simulate(&s2, &["--seed-start", "25", "--games", "15"]);
    // Shards given in either order.
    let (ok, _, err) = sanjuan(&["merge", s2.to_str().unwrap(), s1.to_str().unwrap(), "-o", merged.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("merged 40 games from 2 file(s)"), "{err}");
    let (single, joined) = (records(&whole), records(&merged));
    assert_eq!(single.len(), 40);
    assert_eq!(joined, single);
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&whole).unwrap());

    // The report over the shards is the report over the single run.
    let (ok, one, err) = sanjuan(&["report", whole.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, two, err) = sanjuan(&["report", s1.to_str().unwrap(), s2.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(two, one);
    assert!(one.contains("40 games, 120 player-games (3 players: 40)"), "{one}");
    assert!(one.contains("run seed 5: games 0–39\n"), "{one}");
    let seat_games: u64 = one
        .lines()
        .filter(|l| l.strip_prefix("seat ").is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(seat_games, 120, "{one}");
    // Seat 0's win rate in the report is the one in the records (a shared win counts 1/k).
    let wins = seat0_wins(&single);
    let seat0 = one.lines().find(|l| l.starts_with("seat 0 ")).unwrap();
    assert_eq!(seat0.split_whitespace().nth(3).unwrap(), format!("{:.1}", 100.0 * wins / 40.0), "{one}");

    // A missing shard shows in the report, a repeated one is an error.
    let (ok, out, _) = sanjuan(&["report", s2.to_str().unwrap()]);
    assert!(ok && out.contains("run seed 5: games 25–39\n"), "{out}");
    let (ok, _, err) = sanjuan(&["report", s1.to_str().unwrap(), whole.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("appears twice") && err.contains("s1.jsonl"), "{err}");

    // HTML and a comparison.
    let html = dir.join("r.html");
    let (ok, out, err) =
        sanjuan(&["report", s1.to_str().unwrap(), "--compare", s2.to_str().unwrap(), "--html", html.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("differences are B − A"), "{out}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && !page.contains("<script"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_of_several_chunks_writes_every_game_in_order_and_sums_them_all() {
    // `simulate` plays 4,096 games at a time and keeps a few numbers of each,
    // not the records: every game must still be written, in order, and counted.
    let dir = scratch("chunks");
    let path = dir.join("c.jsonl");
    let (ok, out, err) = sanjuan(&[
        "simulate",
        "--bots",
        "random",
        "--players",
        "2",
        "--games",
        "8200",
        "--seed",
        "9",
        "--quiet",
        "--json-lines",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let all = records(&path);
    assert_eq!(all.len(), 8200);
    assert!(all.iter().enumerate().all(|(i, r)| r["index"] == i as u64), "records out of order");
    let (ok, report, err) = sanjuan(&["report", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    // Seat 0's win share and mean score, as `simulate` printed them and as the report reads them.
    let printed: Vec<&str> = out.lines().find(|l| l.starts_with("0 ")).unwrap().split_whitespace().collect();
    let wins = seat0_wins(&all);
    assert_eq!(printed[2], format!("{:.1}", 100.0 * wins / 8200.0), "{out}");
    let score: f64 = all.iter().map(|r| r["scores"][0].as_f64().unwrap()).sum::<f64>() / 8200.0;
    assert_eq!(printed[4], format!("{score:.1}"), "{out}");
    let seat0 = report.lines().find(|l| l.starts_with("seat 0 ")).unwrap();
    assert_eq!(seat0.split_whitespace().nth(3).unwrap(), printed[2], "{report}");
    assert!(out.contains("8200 games, 2 players"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn thread_count_does_not_change_the_records() {
    let dir = scratch("jobs");
    let (one, two) = (dir.join("j1.jsonl"), dir.join("j2.jsonl"));
    simulate(&one, &["--games", "30", "--jobs", "1"]);
    simulate(&two, &["--games", "30", "--jobs", "2"]);
    assert_eq!(records(&one).len(), 30);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_line_is_named() {
    let dir = scratch("bad");
    let good = dir.join("good.jsonl");
    simulate(&good, &["--games", "2"]);
    let bad = dir.join("bad.jsonl");
    let mut text = std::fs::read_to_string(&good).unwrap();
    text.push_str("{not json\n");
    std::fs::write(&bad, text).unwrap();
    let (ok, _, err) = sanjuan(&["report", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("bad.jsonl:3: not a game record"), "{err}");
    let (ok, _, err) = sanjuan(&["report"]);
    assert!(!ok && err.contains("FILE"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `report --compare` of two built-in rulesets lists what differs (read from
/// the records' ruleset ids) and puts those cards first.
#[test]
fn a_comparison_names_what_differs_and_those_cards_come_first() {
    let dir = scratch("compare-diff");
    let (a, b) = (dir.join("second.jsonl"), dir.join("first.jsonl"));
    simulate(&a, &["--games", "60", "--bots", "random"]);
    simulate(&b, &["--games", "60", "--bots", "random", "--ruleset", "first-edition"]);
    let (ok, out, err) = sanjuan(&["report", a.to_str().unwrap(), "--compare", b.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("What differs from A to B") && out.contains("card prefecture: cost 4 -> 3"), "{out}");
    let table = out.split("Buildings (per player-game)").nth(1).unwrap();
    let first_rows: Vec<&str> = table.lines().skip(2).take(3).collect();
    for id in ["gold_mine", "prefecture", "guild_hall"] {
        assert!(first_rows.iter().any(|r| r.starts_with(&format!("{id} (changed)"))), "{id} not first: {first_rows:?}");
    }
    // A ruleset file that is not what the records were played with is refused, with a note.
    let (ok, _, err) =
        sanjuan(&["report", a.to_str().unwrap(), "--compare", b.to_str().unwrap(), "--ruleset-b", "second-edition"]);
    assert!(ok && err.contains("the records were played with"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A ruleset played from a file is named in the records by its id, which
/// `report` cannot load: the note says how to give the file, and with it the
/// changes are listed.
#[test]
fn a_comparison_with_a_ruleset_file_says_how_to_list_what_differs() {
    let dir = scratch("compare-file");
    let file = dir.join("dear-tower.toml");
    std::fs::write(
        &file,
        "id = \"dear-tower\"\nname = \"dear tower\"\nextends = \"second-edition\"\n[cards.tower]\ncost = 5\n",
    )
    .unwrap();
    let (a, b) = (dir.join("base.jsonl"), dir.join("dear.jsonl"));
    simulate(&a, &["--games", "20", "--bots", "random"]);
    simulate(&b, &["--games", "20", "--bots", "random", "--ruleset", file.to_str().unwrap()]);
    let (ok, out, err) = sanjuan(&["report", a.to_str().unwrap(), "--compare", b.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("unknown ruleset `dear-tower`"), "{err}");
    assert!(err.contains("--ruleset-a FILE --ruleset-b FILE"), "{err}");
    assert!(!out.contains("What differs from A to B"), "{out}");
    let (ok, out, err) = sanjuan(&[
        "report",
        a.to_str().unwrap(),
        "--compare",
        b.to_str().unwrap(),
        "--ruleset-b",
        file.to_str().unwrap(),
    ]);
    assert!(ok && !err.contains("note:"), "{err}");
    assert!(out.contains("What differs from A to B") && out.contains("card tower: cost 3 -> 5"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Two games have no cards, seats or lengths in common to subtract: a
/// comparison of San Juan with Alhambra is refused (it printed both tables
/// with every card new or gone, and a note that blamed the records' age for
/// the one set's missing building types).
#[test]
fn a_comparison_of_two_games_is_refused() {
    let dir = scratch("compare-games");
    let (a, b) = (dir.join("san-juan.jsonl"), dir.join("alhambra.jsonl"));
    simulate(&a, &["--games", "10", "--bots", "random"]);
    simulate(&b, &["--games", "10", "--bots", "random", "--ruleset", "alhambra"]);
    let (ok, out, err) = sanjuan(&["report", a.to_str().unwrap(), "--compare", b.to_str().unwrap()]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("set A is San Juan and set B is Alhambra"), "{err}");
    assert!(err.contains("report each set alone") && !err.contains("note:"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `simulate --track-scores` adds a row of points per round to each record of
/// either game and changes nothing else: without it the records are the same
/// bytes; the report reads the rows into lead changes and comebacks.
#[test]
fn tracked_scores_add_a_row_per_round_and_nothing_else() {
    let dir = scratch("track");
    for ruleset in ["second-edition", "alhambra"] {
        let (tracked, plain) = (dir.join(format!("{ruleset}-t.jsonl")), dir.join(format!("{ruleset}-p.jsonl")));
        let args = ["--games", "30", "--ruleset", ruleset, "--bots", "greedy,random,random"];
        simulate(&tracked, &[&args[..], &["--track-scores"]].concat());
        simulate(&plain, &args);
        let plain_text = std::fs::read_to_string(&plain).unwrap();
        assert!(!plain_text.contains("score_by_round"), "{ruleset}: the key is left out when off");
        let mut stripped = String::new();
        for mut r in records(&tracked) {
            let rows = r.as_object_mut().unwrap().remove("score_by_round").expect("tracked");
            let rows = rows.as_array().unwrap();
            assert_eq!(rows.len() as u64, r["rounds"].as_u64().unwrap(), "{ruleset}: one row per round");
            assert_eq!(rows.last().unwrap(), &r["scores"], "{ruleset}: the last row is the final score");
            assert!(rows.iter().all(|row| row.as_array().unwrap().len() == 3));
            stripped.push_str(&serde_json::to_string(&r).unwrap());
            stripped.push('\n');
        }
        assert_eq!(stripped, plain_text, "{ruleset}: the same games, byte for byte");

        let html = dir.join(format!("{ruleset}.html"));
        let (ok, out, err) = sanjuan(&["report", tracked.to_str().unwrap(), "--html", html.to_str().unwrap()]);
        assert!(ok, "{err}");
        let feel = out.split("Game feel, 3 players (30 games)").nth(1).unwrap_or_else(|| panic!("{out}"));
        assert!(feel.contains("skill or luck: greedy finishes ahead of random in"), "{out}");
        let changes = feel.split("lead changes: ").nth(1).unwrap().split_whitespace().next().unwrap();
        assert!(changes.parse::<f64>().is_ok_and(|c| c >= 0.0), "{out}");
        assert!(feel.contains("comebacks: the winner was behind after the half-way round in"), "{out}");
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains("Games per number of lead changes") && page.contains("Card impact"), "{ruleset}");
        let (ok, out, _) = sanjuan(&["report", plain.to_str().unwrap()]);
        assert!(ok && out.contains("lead changes: not in these records: run simulate with --track-scores"), "{out}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_check_of_the_bots_names_the_cards_a_stronger_player_builds_otherwise() {
    let dir = scratch("check-bot");
    let (greedy, random) = (dir.join("greedy.jsonl"), dir.join("random.jsonl"));
    let quick = ["--seed", "1", "--players", "2", "--games", "30", "--quiet", "--json-lines"];
    for (path, bot) in [(&greedy, "greedy"), (&random, "random")] {
        let mut args = vec!["simulate"];
        args.extend_from_slice(&quick);
        args.extend([path.to_str().unwrap(), "--bots", bot]);
        let (ok, _, err) = sanjuan(&args);
        assert!(ok, "{err}");
    }
    // `report RECORDS --check-bot ARGS…`.
    let check = |records: &Path, args: &[&str]| {
        let mut all = vec!["report", records.to_str().unwrap(), "--check-bot"];
        all.extend_from_slice(args);
        sanjuan(&all)
    };
    // The check plays the deals of `simulate`'s default run: greedy against greedy is the same games.
    let (ok, out, err) = check(&greedy, &["30", "--check-with", "greedy"]);
    assert!(ok, "{err}");
    assert!(err.contains("checking the bots: 30 games of `second-edition`, 2 players, by greedy"), "{err}");
    assert!(out.contains("Built share under `greedy` against greedy over 30 games"), "{out}");
    assert!(out.contains("no card differs"), "{out}");
    // Random players build otherwise than the rules of thumb: named, in the text and the page.
    let html = dir.join("check.html");
    let (ok, out, err) = check(&random, &["30", "--check-with", "greedy", "--html", html.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("`random` may misjudge "), "{out}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>The bots against greedy</h2>") && page.contains("may misjudge"), "{page}");

    // Refused, each naming the fix: a bot the game cannot seat, a comparison, the wrong content, no games.
    let (ok, _, err) = check(&random, &["2", "--check-with", "nobody"]);
    assert!(!ok && err.contains("--check-with") && err.contains("nobody"), "{err}");
    let (ok, _, err) = check(&random, &["2", "--compare", greedy.to_str().unwrap()]);
    assert!(!ok && err.contains("--check-bot") && err.contains("--compare"), "{err}");
    let (ok, _, err) = check(&random, &["2", "--ruleset", "first-edition"]);
    assert!(!ok && err.contains("the records were played with") && err.contains("--ruleset FILE"), "{err}");
    let (ok, _, err) = check(&random, &["0"]);
    assert!(!ok && err.contains("--check-bot"), "{err}");
    // A changed copy of a ruleset, its file gone: the records' id does not load.
    let file = dir.join("mine.toml");
    let mine_toml =
        "id = \"mine\"\nname = \"mine\"\ngame = \"san-juan\"\nextends = \"second-edition\"\n[rules]\nhand_limit = 9\n";
    std::fs::write(&file, mine_toml).unwrap();
    let mine = dir.join("mine.jsonl");
    let mut args = vec!["simulate", "--ruleset", file.to_str().unwrap(), "--bots", "random"];
    args.extend_from_slice(&quick);
    args.push(mine.to_str().unwrap());
    let (ok, _, err) = sanjuan(&args);
    assert!(ok, "{err}");
    let (ok, _, err) = check(&mine, &["2", "--check-with", "random"]);
    let fix = "give the file they were played with, --ruleset FILE";
    assert!(!ok && err.contains("unknown ruleset `mine`") && err.contains(fix), "{err}");
    let (ok, out, err) = check(&mine, &["2", "--check-with", "random", "--ruleset", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("against random over 2 games"), "{out}");
}
