//! `sanjuan tune`: a small search that must move an unfair card's cost the
//! right way and stop inside its goal, its resume and shards giving the same
//! search as one run, the tuned file loading back, and bad arguments refused
//! with the fix.

use crate::common::sanjuan;

const CHEAP: &str = "cards/san-juan/rulesets/examples/cheap-column.toml";

/// A folder inside the repository's rules tree (a tuned file extends its
/// input, and a ruleset reads only files of its own tree).
fn tree_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/tune-tests")
        .join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The column's cost 1..5 in 2-player games, toward the build rate it has at
/// its printed cost 4 (about 47%).
fn search<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args =
        vec!["tune", "--players", "2", "--games-budget", "1600", "--first-games", "100", "--seed", "5", "--quiet"];
    args.extend_from_slice(extra);
    args
}

const START: [&str; 6] =
    ["--ruleset", CHEAP, "--param", "card.victory_column.cost=1..5", "--target", "build_rate(victory_column)=47±6"];

/// The `value% (95% CI lo–hi)` of the first line that has one.
fn interval(out: &str) -> (f64, f64, f64) {
    let line = out.lines().find(|l| l.contains("% (95% CI ")).unwrap_or_else(|| panic!("{out}"));
    let at = line.find("% (95% CI ").unwrap();
    let value = line[..at].rsplit(' ').next().unwrap().parse().unwrap();
    let (lo, rest) = line[at + "% (95% CI ".len()..].split_once('–').unwrap();
    let hi = rest.split(')').next().unwrap();
    (value, lo.parse().unwrap(), hi.parse().unwrap())
}

#[test]
fn tune_moves_a_one_card_column_back_up_and_resumes_and_shards_as_one_run() {
    let dir = tree_dir("tune");
    let out = dir.join("tuned.toml");
    let state = dir.join("state.json");
    let mut args = search(&START);
    let (out_s, state_s) = (out.to_str().unwrap().to_owned(), state.to_str().unwrap().to_owned());
    args.extend(["--out", &out_s, "--state", &state_s]);
    let (ok, stdout, stderr) = sanjuan(&args);
    assert!(ok, "{stdout}{stderr}");
    // From cost 1 (built in about three games of four) the search goes up to
    // the printed cost's neighbourhood, and its interval lies inside the goal.
    assert!(stdout.contains("meets the goal"), "{stdout}");
    let chosen = stdout.lines().find(|l| l.starts_with("target ")).unwrap();
    assert!(
        chosen.contains("card.victory_column.cost = 3") || chosen.contains("card.victory_column.cost = 4"),
        "{stdout}"
    );
    let (value, lo, hi) = interval(&stdout);
    assert!((41.0..=53.0).contains(&lo) && (41.0..=53.0).contains(&hi) && lo < value && value < hi, "{stdout}");
    assert!(stdout.contains("runners-up:") && stdout.contains("games spent of a budget of 1600"), "{stdout}");
    // The cheap start was measured and dropped: it is a runner-up far from the goal.
    let cheap = stdout.lines().find(|l| l.contains("cost = 1 ")).unwrap_or_else(|| panic!("{stdout}"));
    let (v1, _, _) = interval(cheap);
    assert!(v1 > 60.0, "{cheap}");

    // The tuned file extends the input, sets only the cost, and loads back.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("extends = \"../../../cards/san-juan/rulesets/examples/cheap-column.toml\""), "{text}");
    assert!(text.contains("[cards.victory_column]") && !text.contains("[rules]"), "{text}");
    // The file says that the goal was met, and at what interval.
    let verdict = text.lines().find(|l| l.starts_with("# Goal ")).unwrap_or_else(|| panic!("{text}"));
    assert!(verdict.starts_with("# Goal met: build_rate(victory_column) in 41..53%"), "{verdict}");
    assert_eq!(interval(verdict), (value, lo, hi), "{verdict}");
    // Every value whose interval lies inside the goal is listed when there are several.
    if let Some(at) = stdout.find("every value whose 95% interval lies inside the goal") {
        let listed: Vec<&str> = stdout[at..].lines().skip(1).take_while(|l| l.starts_with("  ")).collect();
        assert!(listed.len() > 1, "{stdout}");
        for line in listed {
            let (_, lo, hi) = interval(line);
            assert!(lo >= 41.0 && hi <= 53.0, "{line}");
        }
    }
    // Both paths relative to the repository root, as the program runs there (the
    // diff compares the scripts' paths too).
    let relative = format!("target/tune-tests/tune-{}/tuned.toml", std::process::id());
    let (ok, diff, stderr) = sanjuan(&["cards", "--ruleset", CHEAP, "--diff", &relative]);
    assert!(ok, "{stderr}");
    assert!(
        diff.contains("card victory_column: cost 1 -> 3") || diff.contains("card victory_column: cost 1 -> 4"),
        "{diff}"
    );
    assert!(diff.contains("1 difference(s)"), "{diff}");

    // Resumed from a state that ran out of budget, with the budget raised, the
    // search ends where one run ends.
    let short = dir.join("short.json");
    let short_s = short.to_str().unwrap().to_owned();
    let mut args = search(&START);
    args.extend(["--state", &short_s]);
    // The first rung (5 values × 100 games): no interval of 100 games is narrow
    // enough for the goal (12 points wide), so the search needs a second rung.
    args[4] = "500";
    let (ok, first, stderr) = sanjuan(&args);
    assert!(ok && first.contains("when the budget was spent"), "{first}{stderr}");
    // Not written with --out, the printed file says the goal was not met.
    assert!(first.contains("# Goal NOT met: build_rate(victory_column) in 41..53%"), "{first}");
    assert!(first.contains("(the budget ran out)"), "{first}");
    let (ok, resumed, stderr) =
        sanjuan(&["tune", "--resume", &short_s, "--games-budget", "1600", "--quiet", "--state", &short_s]);
    assert!(ok, "{stderr}");
    let tail = |s: &str| s.lines().skip_while(|l| !l.starts_with("target ")).take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(tail(&resumed), tail(&stdout), "{resumed}");
    assert_eq!(std::fs::read_to_string(&short).unwrap(), std::fs::read_to_string(&state).unwrap());

    // Two shards per rung, on two machines: each plays its part of a rung and
    // writes it; then each merges both parts (deciding the rung alike) and plays
    // its part of the next, until the merge ends the search as the one run did.
    let path = |round: usize, k: usize| dir.join(format!("r{round}-{k}.json")).to_str().unwrap().to_owned();
    for k in 0..2 {
        let mut args = search(&START);
        let (shard, file) = (format!("{k}/2"), path(0, k));
        args.extend(["--shard", &shard, "--state", &file]);
        let (ok, so, se) = sanjuan(&args);
        assert!(ok && so.contains(&format!("shard {k}/2 of rung 0")), "{so}{se}");
    }
    let mut round = 0;
    let ended = loop {
        round += 1;
        assert!(round < 12, "the sharded search did not end");
        let outs: Vec<String> = (0..2)
            .map(|k| {
                let (shard, file, a, b) = (format!("{k}/2"), path(round, k), path(round - 1, 0), path(round - 1, 1));
                let args = ["tune", "--resume", &b, "--resume", &a, "--shard", &shard, "--state", &file, "--quiet"];
                let (ok, so, se) = sanjuan(&args);
                assert!(ok, "{so}{se}");
                so
            })
            .collect();
        if outs[0].contains("target ") {
            assert_eq!(tail(&outs[0]), tail(&outs[1]));
            break outs[0].clone();
        }
    };
    assert_eq!(tail(&ended), tail(&stdout), "{ended}");
    assert_eq!(std::fs::read_to_string(path(round, 0)).unwrap(), std::fs::read_to_string(&state).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

/// On a flat response one answer would hide equally good neighbours: with a
/// wide goal every value whose interval lies inside it is listed.
#[test]
fn tune_lists_every_value_that_meets_a_wide_goal() {
    let mut args = search(&["--ruleset", CHEAP, "--param", "card.victory_column.cost=1..5"]);
    args.extend(["--target", "build_rate(victory_column)=47±20"]);
    args[4] = "600";
    let (ok, out, err) = sanjuan(&args);
    assert!(ok && out.contains("meets the goal"), "{out}{err}");
    let at = out.find("every value whose 95% interval lies inside the goal (").unwrap_or_else(|| panic!("{out}"));
    let listed: Vec<&str> = out[at..].lines().skip(1).take_while(|l| l.starts_with("  ")).collect();
    assert!(listed.len() >= 2, "{out}");
    for line in &listed {
        let (_, lo, hi) = interval(line);
        assert!(lo >= 27.0 && hi <= 67.0, "{line}");
    }
    // The measured values outside the goal (cost 1: built about four games in five) are not listed.
    assert!(!listed.iter().any(|l| l.contains("cost = 1 ")), "{out}");
}

#[test]
fn tune_refuses_bad_paths_ranges_targets_and_files_with_the_fix() {
    let refused = |args: &[&str], wanted: &[&str]| {
        let (ok, out, err) = sanjuan(args);
        assert!(!ok, "{args:?} was accepted: {out}");
        for w in wanted {
            assert!(err.contains(w), "{args:?}: `{w}` not in\n{err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    };
    let start = |param: &str, target: &str| {
        ["tune", "--ruleset", "second-edition", "--param", param, "--target", target].map(str::to_owned).to_vec()
    };
    let run =
        |args: Vec<String>, wanted: &[&str]| refused(&args.iter().map(String::as_str).collect::<Vec<_>>(), wanted);
    // A misspelt path names itself and the paths it is closest to.
    run(
        start("card.palce.cost=1..6", "win_share(palace)=25±2"),
        &["--param `card.palce.cost`", "has no number at this path", "did you mean `card.palace.cost`"],
    );
    run(
        start("building.towr.prices[0]=1..6", "rounds=20..30")
            .into_iter()
            .map(|a| if a == "second-edition" { "alhambra".to_owned() } else { a })
            .collect(),
        &["did you mean `building.tower.prices[0]`"],
    );
    // A value the ruleset cannot take is refused before any game, with the rule it breaks.
    run(
        start("card.palace.cost=1..60", "rounds=10..12"),
        &["the value 60 does not make a valid ruleset", "between 0 and 20"],
    );
    run(start("card.palace.cost=6..1", "rounds=10..12"), &["low end is above the high end", "PATH=LO..HI"]);
    // A target that cannot be read, or names a card the ruleset has not.
    run(start("card.palace.cost=1..6", "win_share(palace)=25"), &["neither CENTRE±TOLERANCE nor LO..HI"]);
    run(start("card.palace.cost=1..6", "win_share(palac)=25±2"), &["has no card `palac`", "sanjuan cards"]);
    // A rule number is a tunable path's second part, not a card (it was taken for one and measured nothing).
    run(start("card.palace.cost=1..6", "build_rate(hand_limit)=25±2"), &["has no card `hand_limit`"]);
    run(
        start("building.garden.prices[0]=4..8", "win_share(C)=25±2")
            .into_iter()
            .map(|a| if a == "second-edition" { "alhambra".to_owned() } else { a })
            .collect(),
        &["has no card `C`", "or card type"],
    );
    run(
        start("card.palace.cost=1..6", "rounds=10..12").into_iter().chain(["--players".into(), "5".into()]).collect(),
        &["5 players", "2 to 4"],
    );
    // Shards need a state file; a resume takes its settings from its file.
    run(
        start("card.palace.cost=1..6", "rounds=10..12").into_iter().chain(["--shard".into(), "0/2".into()]).collect(),
        &["add --state FILE"],
    );
    refused(&["tune", "--resume", "Cargo.toml"], &["--resume Cargo.toml: not a state file", "--state wrote"]);
    refused(&["tune", "--resume", "no-such-state.json"], &["--resume no-such-state.json", "--state wrote"]);
    refused(&["tune", "--ruleset", "second-edition"], &["--target is needed"]);
    // The tuned file extends its input, so it must lie in the input's rules tree.
    let outside = std::env::temp_dir().join("tuned.toml");
    run(
        start("card.victory_column.cost=1..6", "rounds=10..12")
            .into_iter()
            .map(|a| if a == "second-edition" { CHEAP.to_owned() } else { a })
            .chain(["--out".into(), outside.to_string_lossy().into_owned()])
            .collect(),
        &["a ruleset reads only files of its rules tree", "write --out under that folder"],
    );
}

#[test]
fn an_alhambra_price_is_tuned_into_a_file_that_patches_only_the_entries_it_changes() {
    let dir = tree_dir("alhambra");
    let out = dir.join("tuned.toml");
    let out_s = out.to_str().unwrap();
    // Greedy bots: no model to learn, so the test is quick; one candidate, whose
    // value any game meets.
    let (ok, stdout, stderr) = sanjuan(&[
        "tune",
        "--ruleset",
        "alhambra",
        "--players",
        "3",
        "--bot",
        "greedy",
        "--param",
        "building.tower.prices[0]=4..4",
        "--param",
        "scoring.C.ranks[0][5]=20..20",
        "--target",
        "rounds=1..1000",
        "--games-budget",
        "40",
        "--quiet",
        "--out",
        out_s,
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("meets the goal") && stdout.contains("building.tower.prices[0] = 4"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    // `[[building]]` and `[[scoring]]` are patched entry by entry: the tower and scoring C alone.
    assert_eq!(text.matches("[[building]]").count(), 1, "{text}");
    assert_eq!(text.matches("[[scoring]]").count(), 1, "{text}");
    assert!(text.contains("id = \"tower\"") && text.contains("name = \"C\""), "{text}");
    let relative = format!("target/tune-tests/alhambra-{}/tuned.toml", std::process::id());
    let (ok, diff, stderr) = sanjuan(&["cards", "--ruleset", "alhambra", "--diff", &relative]);
    assert!(ok, "{stderr}");
    assert!(diff.contains("building type tower: prices 7 8 9") && diff.contains("-> 4 8 9"), "{diff}");
    assert!(diff.contains("scoring C") && diff.contains("2 difference(s)"), "{diff}");
    std::fs::remove_dir_all(&dir).ok();
}

/// An Alhambra type names every card of it (`garden8`, `garden10`…): measured
/// by id alone, `build_rate(garden)` was 0% in every game, silently.
#[test]
fn an_alhambra_type_is_measured_over_every_card_of_it() {
    let tune = |target: &str| {
        let args = ["tune", "--ruleset", "alhambra", "--players", "2", "--bot", "greedy", "--quiet"];
        let more = ["--param", "building.garden.prices[0]=6..6", "--target", target, "--games-budget", "40"];
        let (ok, stdout, stderr) = sanjuan(&[&args[..], &more[..]].concat());
        assert!(ok, "{stdout}{stderr}");
        stdout
    };
    let stdout = tune("build_rate(garden)=50..100");
    assert!(stdout.contains("meets the goal"), "{stdout}");
    // Both greedy players build gardens in (nearly) every game: the share is even by construction.
    let stdout = tune("win_share(garden)=0..100");
    assert!(stdout.contains("note: ") && stdout.contains("of the players built garden"), "{stdout}");
}
