//! Issue 19's examples, one test each: nothing lost (writes that fail are
//! errors naming the path), nothing leaked (files outside the rules tree are
//! neither read nor printed), nothing silently wrong (counts, records,
//! scenarios and rulesets that cannot be are refused with file and line).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sanjuan-hardening-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a run gave: exit code (`None`: killed at the deadline), stdout, stderr.
struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

impl Run {
    /// Refused: exit code 1 (not a panic's 101, not killed), with `needle` in the error.
    #[track_caller]
    fn refused(&self, needle: &str) {
        assert_eq!(self.code, Some(1), "exit code; stdout: {}\nstderr: {}", self.out, self.err);
        assert!(self.err.contains(needle), "`{needle}` not in the error: {}", self.err);
    }
}

/// Runs `sanjuan args…` from the repository root with `stdin` (a file, or nothing), killed after 60 s.
fn run_with(args: &[&str], stdin: Option<&Path>) -> Run {
    let mut child = common::command()
        .args(args)
        .stdin(stdin.map_or_else(Stdio::null, |p| Stdio::from(std::fs::File::open(p).unwrap())))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sanjuan");
    let (code, out, err) = common::wait_with_deadline(&mut child, Duration::from_secs(60));
    Run { code, out, err }
}

fn run(args: &[&str]) -> Run {
    run_with(args, None)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

// ----- 1. every write is atomic, and a failed one is an error naming the path

/// Records of a long run are the costly file: a run into a file that holds
/// records says so before it plays (the old ones stay until the run ends,
/// so stopping it keeps them), and then replaces them.
#[test]
fn a_run_into_a_file_of_records_says_it_replaces_them() {
    let dir = temp_dir("replace");
    let records = dir.join("records.jsonl");
    let first = run(&["simulate", "--games", "3", "--players", "2", "--bots", "random", "--json-lines", s(&records)]);
    assert_eq!(first.code, Some(0), "{}", first.err);
    assert!(!first.err.contains("note:"), "a new file: {}", first.err);
    let size = std::fs::metadata(&records).unwrap().len();
    let again = run(&["simulate", "--games", "2", "--players", "2", "--bots", "random", "--json-lines", s(&records)]);
    assert_eq!(again.code, Some(0), "{}", again.err);
    assert!(
        again.err.contains(&format!("note: {} exists ({size} bytes of records)", records.display()))
            && again.err.contains("stop it now to keep them"),
        "{}",
        again.err
    );
    assert_eq!(std::fs::read_to_string(&records).unwrap().lines().count(), 2, "the second run's records");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn writes_to_a_full_disk_or_a_missing_folder_fail_naming_the_path_and_claim_nothing() {
    let dir = temp_dir("writes");
    let records = dir.join("records.jsonl");
    let r = run(&["simulate", "--games", "3", "--players", "2", "--bots", "random", "--json-lines", s(&records)]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    // A folder that cannot exist: its parent is a file.
    let missing = records.join("out");
    let quit = dir.join("quit.txt");
    std::fs::write(&quit, "quit\n").unwrap();
    let full = Path::new("/dev/full");
    for target in [full, missing.as_path()] {
        if !target.parent().unwrap().exists() && target == full {
            continue;
        }
        let t = s(target);
        let runs = [
            (
                "simulate --json-lines",
                run(&["simulate", "--games", "3", "--players", "2", "--bots", "random", "--json-lines", t]),
            ),
            (
                "simulate --save-games",
                run(&["simulate", "--games", "2", "--players", "2", "--bots", "random", "--save-games", t]),
            ),
            ("merge -o", run(&["merge", s(&records), "-o", t])),
            ("report --html", run(&["report", s(&records), "--html", t])),
            ("play --save", run_with(&["play", "--players", "2", "--seed", "1", "--save", t], Some(&quit))),
            (
                "play --save (alhambra)",
                run_with(&["play", "--ruleset", "alhambra", "--players", "2", "--seed", "1", "--save", t], Some(&quit)),
            ),
            ("learn --output", run(&["learn", "--ruleset", "second-edition", "--output", t])),
        ];
        for (what, r) in runs {
            assert_eq!(r.code, Some(1), "{what} > {t}: exit code; stderr: {}", r.err);
            assert!(r.err.contains(t), "{what} > {t}: the error names the path: {}", r.err);
            let all = format!("{}{}", r.out, r.err).to_lowercase();
            for claim in ["wrote ", "saved to", "merged "] {
                assert!(!all.contains(claim), "{what} > {t}: claims `{claim}`: {all}");
            }
        }
    }
    // A successful write leaves the file and no temporary file beside it.
    let merged = dir.join("merged.jsonl");
    let r = run(&["merge", s(&records), "-o", s(&merged)]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&records).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 2. counts range-checked before anything is allocated; stdin lines bounded

#[test]
fn a_saved_game_with_an_absurd_player_count_is_refused_by_play_resume_and_replay() {
    let dir = temp_dir("players");
    for players in ["9223372036854775807", "4294967296", "0"] {
        let file = dir.join(format!("p{players}.toml"));
        std::fs::write(
            &file,
            format!("version = 2\nruleset = \"second-edition\"\nplayers = {players}\nseed = 1\nactions = []\n"),
        )
        .unwrap();
        for args in [vec!["play", "--resume", s(&file)], vec!["replay", s(&file)]] {
            let r = run(&args);
            r.refused(&format!("{}:3:11", file.display()));
            r.refused("a saved game has 1 to 64");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn endless_input_without_a_newline_ends_play_with_an_error() {
    for ruleset in ["second-edition", "alhambra"] {
        let r =
            run_with(&["play", "--ruleset", ruleset, "--players", "2", "--seed", "1"], Some(Path::new("/dev/zero")));
        r.refused("longer than 64 KiB");
    }
}

#[test]
fn add_copies_has_the_same_upper_bound_as_copies() {
    let dir = temp_dir("add-copies");
    std::fs::write(dir.join("more.toml"), "script_dir = \".\"\n[add_copies]\nwell = 4294967295\n").unwrap();
    let ruleset = dir.join("r.toml");
    std::fs::write(
        &ruleset,
        "id = \"more\"\nname = \"More\"\nextends = \"second-edition\"\nextra_sets = [\"more.toml\"]\n",
    )
    .unwrap();
    let r = run(&["check", s(&ruleset)]);
    r.refused("more.toml:3:8");
    r.refused("at most 200 copies");
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 3. one path rule

#[test]
fn files_outside_the_rules_tree_are_neither_read_nor_printed() {
    let dir = temp_dir("paths");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET-LINE\n").unwrap();
    let outside = temp_dir("paths-outside");
    std::fs::write(outside.join("secret.toml"), "TOP-SECRET-LINE\n").unwrap();
    let tree = dir.join("tree");
    std::fs::create_dir_all(tree.join("cards")).unwrap();
    let write = |name: &str, text: String| {
        let p = tree.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let head = "id = \"x\"\nname = \"X\"\n";
    std::os::unix::fs::symlink(outside.join("secret.toml"), tree.join("link.toml")).unwrap();
    let cases = [
        (write("abs.toml", format!("{head}extends = \"{}\"\n", secret.display())), "is not a .toml file"),
        (write("passwd.toml", format!("{head}extends = \"/etc/passwd\"\n")), "is not a .toml file"),
        (
            write(
                "up.toml",
                format!("{head}extends = \"../../{}/secret.toml\"\n", outside.file_name().unwrap().to_str().unwrap()),
            ),
            "lies outside the rules tree",
        ),
        (write("via-link.toml", format!("{head}extends = \"link.toml\"\n")), "lies outside the rules tree"),
        (tree.join("link.toml"), "lies outside the rules tree"),
        (
            write("sets.toml", format!("{head}extends = \"second-edition\"\nextra_sets = [\"link.toml\"]\n")),
            "lies outside the rules tree",
        ),
    ];
    for (file, why) in &cases {
        for args in [
            vec!["check", s(file)],
            vec!["cards", "--ruleset", s(file)],
            vec!["simulate", "--games", "1", "--ruleset", s(file)],
        ] {
            let r = run(&args);
            r.refused(why);
            assert!(!r.err.contains("TOP-SECRET") && !r.err.contains("root:"), "{args:?} prints the file: {}", r.err);
        }
    }
    // A saved game naming a file outside any rules tree, or a system file.
    for ruleset in ["/etc/shadow", "/etc/passwd", s(&secret)] {
        let saved = dir.join("saved.toml");
        std::fs::write(&saved, format!("version = 2\nruleset = \"{ruleset}\"\nplayers = 2\nseed = 1\nactions = []\n"))
            .unwrap();
        for args in [vec!["replay", s(&saved)], vec!["play", "--resume", s(&saved)]] {
            let r = run(&args);
            r.refused("is not a .toml file");
            assert!(!r.err.contains("TOP-SECRET") && !r.err.contains("root:"), "{args:?} prints the file: {}", r.err);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&outside).ok();
}

#[test]
fn a_named_pipe_where_a_script_or_ruleset_is_expected_is_refused_at_once() {
    let dir = temp_dir("fifo");
    let fifo = |name: &str| {
        let p = dir.join(name);
        let ok = Command::new("mkfifo").arg(&p).status().map(|s| s.success()).unwrap_or(false);
        ok.then_some(p)
    };
    let (Some(_script), Some(pipe_ruleset)) = (fifo("pipe.rhai"), fifo("pipe.toml")) else { return };
    let ruleset = dir.join("r.toml");
    std::fs::write(
        &ruleset,
        "id = \"p\"\nname = \"P\"\nextends = \"second-edition\"\n[cards.well]\nscript = \"pipe.rhai\"\n",
    )
    .unwrap();
    let start = Instant::now();
    run(&["check", s(&ruleset)]).refused("is not a regular file");
    run(&["check", s(&pipe_ruleset)]).refused("not a regular file");
    run(&["replay", s(&pipe_ruleset)]).refused("not a regular file");
    assert!(start.elapsed() < Duration::from_secs(30));
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 4. records validated as records

#[test]
fn report_and_merge_refuse_records_no_game_can_have_written() {
    let dir = temp_dir("records");
    let good = dir.join("good.jsonl");
    let r = run(&["simulate", "--games", "3", "--players", "4", "--bots", "random", "--json-lines", s(&good)]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let first = std::fs::read_to_string(&good).unwrap().lines().next().unwrap().to_owned();
    let record: serde_json::Value = serde_json::from_str(&first).unwrap();
    let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = record.clone();
        f(&mut v);
        v.to_string()
    };
    let cases: Vec<(&str, String)> = vec![
        ("winner seat 7 of a 4-player game", tamper(&|v| v["winners"] = serde_json::json!([7]))),
        (
            "1 seat(s)",
            tamper(&|v| {
                v["bots"] = serde_json::json!(["random"]);
                v["scores"] = serde_json::json!([10]);
                v["winners"] = serde_json::json!([0]);
                v["buildings"] = serde_json::json!([[]]);
            }),
        ),
        ("score -5000", tamper(&|v| v["scores"][1] = serde_json::json!(-5000))),
        ("unknown game `chess`", tamper(&|v| v["game"] = serde_json::json!("chess"))),
        ("record version 9", tamper(&|v| v["version"] = serde_json::json!(9))),
        (
            "scored",
            tamper(&|v| {
                let w = v["winners"][0].as_u64().unwrap() as usize;
                v["scores"][w] = serde_json::json!(-1);
            }),
        ),
        ("rounds", tamper(&|v| v["rounds"] = serde_json::json!(4_000_000_000u32))),
        ("ruleset", tamper(&|v| v["ruleset"] = serde_json::json!("a\nb"))),
        // Issue 49: what only the games know.
        (
            "unknown building `chess_board`: ruleset `second-edition` has no such card",
            tamper(&|v| v["buildings"][0][0]["id"] = serde_json::json!("chess_board")),
        ),
        ("unknown bot `genius`; bots: human, balance", tamper(&|v| v["bots"][1] = serde_json::json!("genius"))),
        (
            "no `fingerprint`",
            tamper(&|v| {
                v.as_object_mut().unwrap().remove("fingerprint");
            }),
        ),
        (
            "game `alhambra` contradicts ruleset `second-edition`, a ruleset of San Juan",
            tamper(&|v| v["game"] = serde_json::json!("alhambra")),
        ),
        (
            // A long value is quoted cut to 80 characters.
            Box::leak(format!("unknown bot `balance{}...`", "e".repeat(73)).into_boxed_str()),
            tamper(&|v| v["bots"][1] = serde_json::json!(format!("balance{}", "e".repeat(190)))),
        ),
    ];
    for (needle, line) in cases {
        let bad = dir.join("bad.jsonl");
        std::fs::write(&bad, format!("{first}\n{line}\n")).unwrap();
        let at = format!("{}:2: not a valid game record", bad.display());
        let out = dir.join("out.jsonl");
        for args in [vec!["report", s(&bad)], vec!["merge", s(&bad), "-o", s(&out)]] {
            let r = run(&args);
            r.refused(&at);
            r.refused(needle);
            assert!(!out.exists(), "merge wrote despite the error");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 6. short diagnostics

#[test]
fn an_error_in_a_long_saved_line_shows_a_window_not_the_line() {
    let dir = temp_dir("long-line");
    let file = dir.join("game.toml");
    let actions: Vec<String> = std::iter::repeat_n("\"role builder\"".to_owned(), 5000).collect();
    let huge = "x".repeat(2_000_000);
    std::fs::write(
        &file,
        format!(
            "version = 2\nruleset = \"second-edition\"\nplayers = 2\nseed = 1\nactions = [\"{huge}\", {}]\n",
            actions.join(", ")
        ),
    )
    .unwrap();
    let r = run(&["replay", s(&file)]);
    r.refused(&format!("{}:5:", file.display()));
    assert!(r.err.len() < 2000, "{} bytes of error", r.err.len());
    let r = run(&["play", "--resume", s(&file)]);
    assert_eq!(r.code, Some(1));
    assert!(r.err.len() < 2000, "{} bytes of error", r.err.len());
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 5. rulesets that cannot be

#[test]
fn an_alhambra_ruleset_with_one_scoring_card_for_two_scorings_is_refused() {
    let dir = temp_dir("scoring-card");
    let ruleset = dir.join("r.toml");
    std::fs::write(
        &ruleset,
        "id = \"twice\"\nname = \"Twice\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n\
         [[scoring]]\nname = \"A\"\ncard = \"scoring_a\"\npile = 2\nranks = [[1, 2, 3, 4, 5, 6]]\n\
         [[scoring]]\nname = \"B\"\ncard = \"scoring_a\"\npile = 4\nranks = [[8, 9, 10, 11, 12, 13], [1, 2, 3, 4, 5, 6]]\n\
         [[scoring]]\nname = \"C\"\nranks = [[16, 17, 18, 19, 20, 21], [8, 9, 10, 11, 12, 13], [1, 2, 3, 4, 5, 6]]\n",
    )
    .unwrap();
    let r = run(&["check", s(&ruleset)]);
    r.refused(&format!("{}:12:8", ruleset.display()));
    r.refused("card `scoring_a` already triggers scoring A");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_ruleset_id_that_is_empty_or_holds_a_newline_is_refused() {
    let dir = temp_dir("ruleset-id");
    for (game, id) in [
        ("second-edition", "\"\""),
        ("second-edition", "\"a\\nb\""),
        ("alhambra", "\"  \""),
        ("alhambra", "\"x\\u0007\""),
    ] {
        let ruleset = dir.join("r.toml");
        std::fs::write(&ruleset, format!("id = {id}\nname = \"N\"\nextends = \"{game}\"\n")).unwrap();
        let r = run(&["check", s(&ruleset)]);
        r.refused(&format!("{}:1:6", ruleset.display()));
        r.refused("the ruleset id");
    }
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 5. scenarios that cannot be checked or cannot exist

/// Writes a scenario and runs `scenario FILE --check`.
fn scenario(dir: &Path, name: &str, text: &str) -> (PathBuf, Run) {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let r = run(&["scenario", s(&file), "--check"]);
    (file, r)
}

#[test]
fn scenario_expectations_that_can_never_fail_are_refused() {
    let dir = temp_dir("expect");
    let two = "[[players]]\nbuildings = [\"indigo_plant\"]\n[[players]]\nbuildings = [\"indigo_plant\"]\n";
    let cases = [
        ("excludes.toml", "legal_excludes = [\"bild well\"]", "6:20", "`bild well` is not an action"),
        ("includes.toml", "legal_includes = [\"role bilder\"]", "6:20", "is not an action"),
        ("breakdown.toml", "breakdown = [{ palce = 4 }]", "6:16", "no breakdown source `palce`"),
        ("hands.toml", "hands = [[\"libary\"], []]", "6:11", "unknown card `libary`"),
    ];
    for (name, expect, at, why) in cases {
        let (file, r) = scenario(&dir, name, &format!("{two}[expect]\n{expect}\n"));
        r.refused(&format!("{}:{}:", file.display(), at.split(':').next().unwrap()));
        r.refused(why);
    }
    let al = "ruleset = \"alhambra\"\n[[players]]\n[[players]]\n[[players]]\n[expect]\n";
    let cases = [
        ("al-excludes.toml", "legal_excludes = [\"by 3\"]", "6:20", "`by 3` is not an action"),
        ("al-breakdown.toml", "breakdown = [{ D = 4 }]", "6:16", "no breakdown source `D`"),
        ("al-counts.toml", "counts = [{ gardn = 1 }]", "6:13", "no building type `gardn`"),
    ];
    for (name, expect, at, why) in cases {
        let (file, r) = scenario(&dir, name, &format!("{al}{expect}\n"));
        r.refused(&format!("{}:{}:", file.display(), at.split(':').next().unwrap()));
        r.refused(why);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn impossible_scenario_positions_are_refused() {
    let dir = temp_dir("positions");
    let (file, r) = scenario(
        &dir,
        "two-libraries.toml",
        "[[players]]\nbuildings = [\"indigo_plant\", \"library\", \"library\"]\n[[players]]\n",
    );
    r.refused(&format!("{}:2:", file.display()));
    r.refused("seat 0 has `library` twice");
    let (file, r) = scenario(&dir, "round0.toml", "round = 0\n[[players]]\n[[players]]\n");
    r.refused(&format!("{}:1:", file.display()));
    r.refused("round 0");
    let (file, r) = scenario(
        &dir,
        "scored-twice.toml",
        "ruleset = \"alhambra\"\nscored = [\"A\", \"A\"]\n[[players]]\n[[players]]\n[[players]]\n",
    );
    r.refused(&format!("{}:2:", file.display()));
    r.refused("scoring A is listed twice");
    let (file, r) =
        scenario(&dir, "turn0.toml", "ruleset = \"alhambra\"\nturn = 0\n[[players]]\n[[players]]\n[[players]]\n");
    r.refused(&format!("{}:2:", file.display()));
    // Three copies of each money card with 3 players, two with 2.
    let (file, r) = scenario(
        &dir,
        "deal.toml",
        "ruleset = \"alhambra\"\ndeal = [\"denar3\", \"denar3\", \"denar3\", \"denar3\"]\n[[players]]\n[[players]]\n[[players]]\n",
    );
    r.refused(&format!("{}:2:", file.display()));
    r.refused("`denar3` is listed 4 times; 3 players play with 3");
    let (_, r) = scenario(
        &dir,
        "deal2.toml",
        "ruleset = \"alhambra\"\ndeal = [\"denar3\", \"denar3\", \"denar3\"]\n[[players]]\n[[players]]\n",
    );
    r.refused("`denar3` is listed 3 times; 2 players play with 2");
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 7. options accepted and ignored

#[test]
fn check_with_a_path_and_a_ruleset_is_an_error_not_half_a_check() {
    let r = run(&["check", "second-edition", "--ruleset", "alhambra"]);
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(r.err.contains("cannot be used with"), "{}", r.err);
    let r = run(&["report", "x.jsonl", "--ruleset-a", "second-edition"]);
    assert_eq!(r.code, Some(2), "{}", r.err);
}

// ----- 6. check's collection of problems is linear in their number

#[test]
fn check_reports_forty_thousand_problems_in_seconds() {
    let dir = temp_dir("many");
    let ruleset = dir.join("many.toml");
    let mut text = "id = \"many\"\nname = \"Many\"\nextends = \"second-edition\"\n".to_owned();
    for i in 0..40_000 {
        text.push_str(&format!("[cards.nocard{i}]\ncost = 1\n"));
    }
    std::fs::write(&ruleset, text).unwrap();
    let start = Instant::now();
    let r = run(&["check", s(&ruleset)]);
    let took = start.elapsed();
    r.refused("40000 problem(s) found");
    r.refused(&format!("{}:80002:8", ruleset.display()));
    assert!(took < Duration::from_secs(15), "{took:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_interrupted_simulate_leaves_no_file_behind() {
    // The records stream into a hidden temporary file beside the target; Ctrl-C
    // (or `kill`) must not leave it, nor a half file under the target's name.
    let dir = temp_dir("interrupted");
    let out = dir.join("stopped.jsonl");
    let mut child = common::command()
        .args(["simulate", "--bots", "random", "--games", "1000000", "--quiet", "--json-lines"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run sanjuan");
    let deadline = Instant::now() + Duration::from_secs(120);
    let writing = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().starts_with(".stopped.jsonl."))
    };
    while !writing() {
        assert!(Instant::now() < deadline, "no records written in two minutes");
        assert!(child.try_wait().unwrap().is_none(), "simulate ended before it was interrupted");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started and still owns.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

// ----- 7. issue 49: every surface born since, hardened

/// A bot's name of 40 KB: `balance` and 20,000 `~1` (the parser recursed once per `~`).
fn deep_bot() -> String {
    format!("balance{}", "~1".repeat(20_000))
}

/// A small finished search's state file (random bots: no model to learn), in `dir`.
fn tune_state(dir: &Path) -> PathBuf {
    let state = dir.join("state.json");
    let r = run(&[&common::quick_tune("second-edition")[..], &["--state", s(&state)]].concat());
    assert_eq!(r.code, Some(0), "{}", r.err);
    state
}

#[test]
fn a_bot_name_of_forty_kilobytes_is_one_clear_error_on_every_surface() {
    let dir = temp_dir("deep-bot");
    let bot = deep_bot();
    let short = "at most 400 bytes";
    run(&["simulate", "--games", "1", "--players", "2", "--bots", &bot]).refused(short);
    run(&[
        "tune",
        "--ruleset",
        "second-edition",
        "--players",
        "2",
        "--param",
        "card.palace.cost=5..6",
        "--target",
        "rounds=10..30",
        "--bot",
        &bot,
    ])
    .refused(short);
    // A saved game's seats.
    let saved = dir.join("game.toml");
    std::fs::write(
        &saved,
        format!("version = 2\nruleset = \"second-edition\"\nplayers = 2\nseed = 1\nseats = [\"human\", \"{bot}\"]\nactions = []\n"),
    )
    .unwrap();
    let r = run(&["play", "--resume", s(&saved)]);
    r.refused(short);
    r.refused(s(&saved));
    // A tune state's bot.
    let state = tune_state(&dir);
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    v["settings"]["bot"] = serde_json::json!(bot);
    let bad = dir.join("bad-state.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let r = run(&["tune", "--resume", s(&bad)]);
    r.refused(short);
    r.refused(s(&bad));
    assert!(r.err.len() < 1000, "the name is quoted cut short: {} bytes", r.err.len());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tune_state_no_search_can_have_written_is_refused_naming_the_field() {
    let dir = temp_dir("tune-state");
    let state = tune_state(&dir);
    let good: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert!(good["outcome"]["ranking"].as_array().is_some_and(|r| !r.is_empty()), "{good}");
    let games = good["candidates"][0]["games"].as_u64().unwrap();
    assert!(games > 0, "{good}");
    let part = serde_json::json!({ "rung": good["rung"], "k": 0, "n": 2, "work": [], "tallies": [] });
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, Change)> = vec![
        ("outcome.ranking: empty", Box::new(|v| v["outcome"]["ranking"] = serde_json::json!([]))),
        ("outcome.ranking: candidate 99 of 2", Box::new(|v| v["outcome"]["ranking"] = serde_json::json!([99]))),
        ("candidates: 0 candidates", Box::new(|v| v["candidates"] = serde_json::json!([]))),
        ("settings.budget", Box::new(|v| v["settings"]["budget"] = serde_json::json!(1u64 << 60))),
        ("settings.first_games", Box::new(|v| v["settings"]["first_games"] = serde_json::json!(0))),
        // 20 wins of 10 games.
        (
            "candidates[0].tally: a sum of",
            Box::new(move |v| {
                v["candidates"][0]["tally"]["whole"] = serde_json::json!(2 * games);
                v["candidates"][0]["tally"]["squares"] = serde_json::json!(2 * games);
            }),
        ),
        ("candidates[0].tally", Box::new(move |v| v["candidates"][0]["tally"]["n"] = serde_json::json!(games + 1))),
        ("candidates[1]", Box::new(|v| v["candidates"][1]["values"] = serde_json::json!([99]))),
        ("spent", Box::new(|v| v["spent"] = serde_json::json!(1))),
        // A shard's part with a bad shard number, a huge count, or work for a candidate that is not there.
        (
            "part: shard 5/2",
            Box::new(move |v| {
                v["outcome"] = serde_json::Value::Null;
                v["part"] = part.clone();
                v["part"]["k"] = serde_json::json!(5);
            }),
        ),
        (
            "part: shard 0/1000000000000",
            Box::new(|v| {
                v["outcome"] = serde_json::Value::Null;
                v["part"] = serde_json::json!({ "rung": v["rung"], "k": 0, "n": 1_000_000_000_000u64, "work": [], "tallies": [] });
            }),
        ),
        (
            "part.work[0]: candidate 7 of 2",
            Box::new(|v| {
                v["outcome"] = serde_json::Value::Null;
                v["part"] = serde_json::json!({ "rung": v["rung"], "k": 0, "n": 1,
                    "work": [{ "candidate": 7, "from": 0, "to": 1 }], "tallies": [{ "n": 0, "whole": 0, "squares": 0, "shared": [], "players": 0 }] });
            }),
        ),
    ];
    for (needle, change) in &cases {
        let mut v = good.clone();
        change(&mut v);
        let bad = dir.join("bad.json");
        std::fs::write(&bad, v.to_string()).unwrap();
        let r = run(&["tune", "--resume", s(&bad), "--quiet"]);
        r.refused(needle);
        r.refused(&format!("--resume {}", bad.display()));
        r.refused("no search writes such a state");
    }
    // What the state says against its ruleset is located in the file too.
    for (key, value, needle) in [
        ("fingerprint", serde_json::json!("chess"), "ruleset `second-edition` is not what the search started from"),
        ("players", serde_json::json!(9), "settings.players: 9 players"),
        ("ruleset", serde_json::json!("third-edition"), "settings.ruleset: "),
    ] {
        let mut v = good.clone();
        v["settings"][key] = value;
        let bad = dir.join("bad.json");
        std::fs::write(&bad, v.to_string()).unwrap();
        let r = run(&["tune", "--resume", s(&bad), "--quiet"]);
        r.refused(&format!("--resume {}: ", bad.display()));
        r.refused(needle);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tune_refuses_a_state_or_out_file_that_is_its_own_input() {
    let dir = temp_dir("tune-paths");
    let ruleset = dir.join("r.toml");
    let text = "id = \"r\"\nname = \"R\"\nextends = \"second-edition\"\n";
    std::fs::write(&ruleset, text).unwrap();
    // The same file by another spelling: through `.` and a link.
    let dotted = format!("{}/./r.toml", dir.display());
    std::os::unix::fs::symlink(&ruleset, dir.join("link.toml")).unwrap();
    let start = |extra: &[&str]| {
        let mut a = common::quick_tune(s(&ruleset));
        a.extend_from_slice(extra);
        run(&a)
    };
    let other = dir.join("other.json");
    for (args, needle) in [
        (vec!["--state", s(&ruleset)], "--state"),
        (vec!["--state", &dotted], "is the ruleset"),
        (vec!["--out", s(&dir.join("link.toml"))], "is the ruleset"),
        (vec!["--out", s(&other), "--state", s(&other)], "is --out"),
    ] {
        let r = start(&args);
        r.refused(needle);
        r.refused("destroy an input");
        assert_eq!(std::fs::read_to_string(&ruleset).unwrap(), text, "{args:?} changed the ruleset");
        assert!(!other.exists(), "{args:?} wrote {}", other.display());
    }
    // A resumed search: its state may be rewritten, but not replaced by the tuned ruleset.
    let state = dir.join("state.json");
    let r = start(&["--state", s(&state)]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let before = std::fs::read_to_string(&state).unwrap();
    run(&["tune", "--resume", s(&state), "--out", s(&state)]).refused("the state file --resume reads");
    run(&["tune", "--resume", s(&state), "--state", s(&ruleset)]).refused("is the ruleset");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&ruleset).unwrap(), text);
    std::fs::remove_dir_all(&dir).ok();
}

/// A folder with one scenario (no snapshot yet) for `sanjuan test`.
fn scenario_folder(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    std::fs::write(
        dir.join("tie.toml"),
        "ruleset = \"second-edition\"\n[[players]]\nbuildings = [\"indigo_plant\"]\n\
         [[players]]\nbuildings = [\"indigo_plant\"]\n[expect]\nscores = [1, 1]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("snapshots")).unwrap();
    let snap = dir.join("snapshots/tie.snap");
    (dir, snap)
}

#[test]
fn a_snapshot_that_is_a_pipe_a_device_or_huge_is_refused_at_once() {
    let (dir, snap) = scenario_folder("snap-read");
    let start = Instant::now();
    let fifo = Command::new("mkfifo").arg(&snap).status().is_ok_and(|s| s.success());
    if fifo {
        let r = run(&["test", s(&dir)]);
        assert_eq!(r.code, Some(1), "{}{}", r.out, r.err);
        assert!(r.out.contains(&format!("{}: not a regular file", snap.display())), "{}", r.out);
        assert!(r.out.contains("remove it and run again"), "{}", r.out);
        std::fs::remove_file(&snap).unwrap();
    }
    std::os::unix::fs::symlink("/dev/zero", &snap).unwrap();
    let r = run(&["test", s(&dir)]);
    assert_eq!(r.code, Some(1), "{}{}", r.out, r.err);
    assert!(r.out.contains(&format!("{}: not a regular file", snap.display())), "{}", r.out);
    std::fs::remove_file(&snap).unwrap();
    std::fs::write(&snap, vec![b'#'; (16 << 20) + 1]).unwrap();
    let r = run(&["test", s(&dir)]);
    assert_eq!(r.code, Some(1), "{}{}", r.out, r.err);
    assert!(r.out.contains("larger than 16 MiB, too big for a snapshot"), "{}", r.out);
    assert!(start.elapsed() < Duration::from_secs(60), "no hang");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_snapshot_write_never_follows_a_planted_temporary_file() {
    let (dir, snap) = scenario_folder("snap-write");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    // The old fixed name `tie.snap.tmp`: a link out of the folder, then a pipe.
    let planted = dir.join("snapshots/tie.snap.tmp");
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let r = run(&["test", s(&dir)]);
    assert_eq!(r.code, Some(0), "{}{}", r.out, r.err);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n", "the link was followed");
    assert!(std::fs::read_to_string(&snap).unwrap().contains("sanjuan test"), "the snapshot is written");
    std::fs::remove_file(&planted).unwrap();
    std::fs::remove_file(&snap).unwrap();
    if Command::new("mkfifo").arg(&planted).status().is_ok_and(|s| s.success()) {
        let start = Instant::now();
        let r = run(&["test", s(&dir)]);
        assert_eq!(r.code, Some(0), "{}{}", r.out, r.err);
        assert!(start.elapsed() < Duration::from_secs(30), "no hang on a planted pipe");
    }
    // Nothing but the snapshot and what was planted is left in the folder.
    let mut left: Vec<String> = std::fs::read_dir(dir.join("snapshots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert!(left.iter().all(|n| n == "tie.snap" || n == "tie.snap.tmp"), "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn test_review_on_endless_input_ends_with_an_error() {
    let (dir, _) = scenario_folder("review-zero");
    let r = run_with(&["test", s(&dir), "--review"], Some(Path::new("/dev/zero")));
    r.refused("longer than 64 KiB");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_hook_returning_ten_thousand_effects_is_a_script_error_naming_the_card_in_both_games() {
    let dir = temp_dir("many-effects");
    let many = |effect: &str| format!("let a = []; a.pad(10000, #{{ {effect} }}); a");
    std::fs::write(dir.join("sj.rhai"), format!("fn on_any_role(ctx) {{ {} }}\n", many("draw: 1"))).unwrap();
    std::fs::write(
        dir.join("sj.toml"),
        "id = \"m\"\nname = \"M\"\nextends = \"second-edition\"\n[cards.indigo_plant]\nscript = \"sj.rhai\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("al.rhai"), format!("fn on_taken(ctx) {{ {} }}\n", many("draw_money: 1"))).unwrap();
    std::fs::write(
        dir.join("al.toml"),
        "id = \"ma\"\nname = \"MA\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[money]\ncurrencies = [\
         { id = \"denar\", name = \"denars\", script = \"al.rhai\" }, { id = \"dirham\", name = \"dirhams\", script = \"al.rhai\" }, \
         { id = \"ducat\", name = \"ducats\", script = \"al.rhai\" }, { id = \"florin\", name = \"florins\", script = \"al.rhai\" }]\n\
         values = [1, 2, 3, 4, 5, 6, 7, 8, 9]\ncopies = 3\n",
    )
    .unwrap();
    for (file, card) in [("sj.toml", "card `indigo_plant`"), ("al.toml", "script `currency ")] {
        let start = Instant::now();
        let r = run(&["check", s(&dir.join(file)), "--games", "2"]);
        r.refused("returned a list of 10000 effects; a hook returns at most 1000 at once");
        r.refused(card);
        assert!(start.elapsed() < Duration::from_secs(30), "{file}: bounded at once");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// One random 2-player game of `ruleset`, saved: (the file's text, its seed, its entries).
fn saved_game(dir: &Path, ruleset: &str) -> (String, u64, Vec<String>) {
    let folder = dir.join(format!("saved-{ruleset}"));
    let r = run(&[
        "simulate",
        "--ruleset",
        ruleset,
        "--games",
        "1",
        "--players",
        "2",
        "--bots",
        "random",
        "--seed",
        "5",
        "--save-games",
        s(&folder),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let text = std::fs::read_to_string(folder.join("game-0.toml")).unwrap();
    // (Read by hand: a seed may pass i64, which a TOML reader refuses.)
    let line = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).unwrap().to_owned();
    let seed = line("seed = ").parse().unwrap();
    let actions = serde_json::from_str(&line("actions = ")).unwrap();
    (text, seed, actions)
}

#[test]
fn a_redeal_between_a_decision_and_its_answer_never_panics_in_replay_resume_or_scenario() {
    let dir = temp_dir("redeal");
    let mut refused_for_the_mover = 0;
    for ruleset in ["second-edition", "second-edition-expansion", "first-edition", "alhambra"] {
        let (text, seed, actions) = saved_game(&dir, ruleset);
        let head: String = text.lines().filter(|l| !l.starts_with("actions")).collect::<Vec<_>>().join("\n");
        // The reproducer is `redeal` between `role builder` and its `build`; every early gap here.
        let gaps: Vec<usize> = (0..actions.len().min(40)).step_by(3).collect();
        for at in gaps {
            for seat in 0..2 {
                let mut entries = actions.clone();
                entries.insert(at + 1, format!("redeal {seat} 7"));
                let list = serde_json::to_string(&entries).unwrap();
                let game = dir.join("game.toml");
                std::fs::write(&game, format!("{head}\nactions = {list}\n")).unwrap();
                let scenario = dir.join("moment.toml");
                std::fs::write(
                    &scenario,
                    format!("ruleset = \"{ruleset}\"\n[from_game]\nplayers = 2\nseed = {seed}\nactions = {list}\n"),
                )
                .unwrap();
                let quit = dir.join("quit.txt");
                std::fs::write(&quit, "quit\n").unwrap();
                let runs = [
                    ("replay", run(&["replay", s(&game)]), &game),
                    ("play --resume", run_with(&["play", "--resume", s(&game)], Some(&quit)), &game),
                    ("scenario", run(&["scenario", s(&scenario)]), &scenario),
                ];
                for (what, r, file) in runs {
                    let case = format!("{ruleset}, `redeal {seat} 7` after entry {}, {what}", at + 1);
                    assert!(matches!(r.code, Some(0 | 1)), "{case}: exit {:?}\n{}", r.code, r.err);
                    assert!(!r.err.contains("panicked"), "{case}: {}", r.err);
                    if r.code == Some(1) {
                        assert!(r.err.contains(s(file)), "{case}: the error names the file: {}", r.err);
                        assert!(r.err.contains("action "), "{case}: the error names the entry: {}", r.err);
                        if r.err.contains("a re-deal keeps the cards of the seat to move") {
                            refused_for_the_mover += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(refused_for_the_mover > 0, "no re-deal for a seat not to move was refused");
    std::fs::remove_dir_all(&dir).ok();
}
