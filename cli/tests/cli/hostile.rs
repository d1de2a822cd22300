//! A hostile-input run of our own: every input kind (San Juan and Alhambra
//! rulesets, card sets, scripts, scenarios of both games, saved games,
//! JSON-lines records, command lines) mutated structurally — keys dropped or
//! doubled, values of the wrong type, extreme integers, huge strings, deep
//! nesting, cycles, paths out of the rules tree, devices and pipes — and run
//! through the binary under a time and memory limit. Nothing may panic, hang,
//! run out of memory, read a file outside the rules tree, or refuse without
//! saying where.
//!
//! Generated and deterministic (a fixed seed). CI runs a small corpus; set
//! `HOSTILE_INPUTS=10000` for a long run (it prints the counts per kind).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Inputs per run in CI.
const CI_INPUTS: usize = 90;
/// How long one command may take (a debug build; the limit is about hangs, not speed).
const DEADLINE: Duration = Duration::from_secs(30);
/// The address-space limit of each run.
const MEMORY: u64 = 2 << 30;
/// Written outside the rules tree: it must never appear in any output.
const SECRET: &str = "HOSTILE-SECRET-7f3a";

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// TOML values of every hostile sort.
fn hostile_value(rng: &mut Rng) -> String {
    let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let table = |n: usize| format!("{}1{}", "{ a = ".repeat(n), " }".repeat(n));
    match rng.below(26) {
        0 => "9223372036854775807".into(),
        1 => "-9223372036854775808".into(),
        2 => "4294967296".into(),
        3 => "-1".into(),
        4 => "0".into(),
        5 => "1e308".into(),
        6 => "nan".into(),
        7 => "\"\"".into(),
        8 => format!("\"{}\"", "x".repeat(200_000)),
        9 => "[]".into(),
        10 => "{}".into(),
        11 => "true".into(),
        12 => format!("[{}]", vec!["\"well\""; 5000].join(", ")),
        13 => "\"/etc/passwd\"".into(),
        14 => "\"/dev/zero\"".into(),
        15 => "\"../../../../../../etc/hostname.toml\"".into(),
        16 => "\"fifo.toml\"".into(),
        17 => "\"link.toml\"".into(),
        18 => "\"self.toml\"".into(),
        19 => "\"a\\nb\\u0000c\"".into(),
        20 => deep(rng.below(3000) + 1),
        21 => table(rng.below(3000) + 1),
        22 => "\"fifo.rhai\"".into(),
        23 => "\"link.rhai\"".into(),
        24 => "\"../secret.toml\"".into(),
        _ => "65536".into(),
    }
}

/// One structural change to TOML text.
fn mutate_toml(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let i = rng.below(lines.len());
    match rng.below(8) {
        0 => {
            lines.remove(i);
        }
        1 => lines.insert(i, lines[i].clone()),
        2..=4 => {
            // A key's value replaced (the first key of the file when the line has none).
            let at = (0..lines.len()).map(|k| (i + k) % lines.len()).find(|&k| lines[k].contains(" = "));
            if let Some(k) = at {
                let key = lines[k].split(" = ").next().unwrap_or("x").to_owned();
                lines[k] = format!("{key} = {}", hostile_value(rng));
            }
        }
        5 => {
            let keys: Vec<String> = lines
                .iter()
                .filter_map(|l| l.split(" = ").next().filter(|k| !k.contains('[')).map(str::to_owned))
                .collect();
            let key = if keys.is_empty() { "x".to_owned() } else { rng.pick(&keys).trim().to_owned() };
            lines.insert(i, format!("{key} = {}", hostile_value(rng)));
        }
        6 => {
            let cut = rng.below(text.len().max(1));
            let mut cut = cut.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_owned();
        }
        _ => lines
            .insert(i, format!("[{}]", rng.pick(&["rules", "cards.well", "expect", "x", "[players]", "add_copies"]))),
    }
    lines.join("\n") + "\n"
}

/// One structural change to a JSON record.
fn mutate_json(v: &mut serde_json::Value, rng: &mut Rng) {
    use serde_json::{Value, json};
    let Value::Object(map) = v else { return };
    let keys: Vec<String> = map.keys().cloned().collect();
    let key = rng.pick(&keys).clone();
    let deep = |n: usize| -> Value {
        let mut x = json!(1);
        for _ in 0..n {
            x = json!([x]);
        }
        x
    };
    let value = match rng.below(16) {
        0 => {
            map.remove(&key);
            return;
        }
        1 => json!(i64::MAX),
        2 => json!(-1),
        3 => json!(u64::MAX),
        4 => json!(4_294_967_296u64),
        5 => json!("x".repeat(100_000)),
        6 => json!(null),
        7 => json!([]),
        8 => json!({}),
        9 => deep(rng.below(200) + 1),
        10 => json!([7, 7, 99]),
        11 => json!("chess"),
        12 => json!(99),
        13 => json!("a\nb"),
        14 => json!([-5000, 3]),
        _ => json!(0),
    };
    map.insert(key, value);
}

/// One structural change to a script.
fn mutate_script(text: &str, rng: &mut Rng) -> String {
    let snippets = [
        "fn on_build(ctx) { loop {} }".to_owned(),
        "fn on_score(ctx) { on_score(ctx) }".to_owned(),
        "fn on_build(ctx) { let s = \"x\"; loop { s += s; } }".to_owned(),
        "fn on_score(ctx) { 9223372036854775807 }".to_owned(),
        "fn on_score(ctx) { -9223372036854775808 }".to_owned(),
        "fn on_build(ctx) { #{ draw: 4294967296 } }".to_owned(),
        "fn on_build(ctx) { #{ draw: -1 } }".to_owned(),
        "fn on_hand_limit(ctx) { 9223372036854775807 }".to_owned(),
        format!("fn on_build(ctx) {{ {}1{} }}", "(".repeat(2000), ")".repeat(2000)),
        format!("fn on_build(ctx) {{ \"{}\" }}", "y".repeat(100_000)),
        "fn on_build(ctx) { ctx.nothing.deeper }".to_owned(),
        "fn on_build(ctx, b) { 1 }".to_owned(),
        "fn on_build(ctx) { eval(\"1\") }".to_owned(),
        "fn on_build(ctx) { [1,2,3].map(|x| x / 0) }".to_owned(),
        "fn on_build(ctx) { let a = []; a.pad(100000000, 0); a.len() }".to_owned(),
        "}{".to_owned(),
    ];
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let i = rng.below(lines.len() + 1);
    match rng.below(3) {
        0 if !lines.is_empty() => {
            lines.remove(i.min(lines.len() - 1));
        }
        _ => lines.insert(i, rng.pick(&snippets).clone()),
    }
    lines.join("\n") + "\n"
}

/// What one run did.
struct Outcome {
    code: Option<i32>,
    out: String,
    err: String,
    took: Duration,
}

/// Runs the binary under the deadline and the memory limit.
fn run(args: &[String], dir: &Path, stdin: &str) -> Outcome {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let mut cmd = common::command();
    cmd.args(args).current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: MEMORY, rlim_max: MEMORY };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run sanjuan");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()).ok());
    let (code, out, err) = common::wait_with_deadline(&mut child, DEADLINE);
    let took = start.elapsed();
    writer.join().ok();
    Outcome { code, out, err, took }
}

/// The input kinds.
const KINDS: &[&str] = &[
    "ruleset (San Juan)",
    "ruleset (Alhambra)",
    "card set",
    "script",
    "scenario (San Juan)",
    "scenario (Alhambra)",
    "saved game",
    "JSON-lines records",
    "command line",
];

/// A rules tree for one input: `cards/`, the hostile neighbours (a pipe, a link out,
/// a file naming itself) and a secret outside it.
fn tree(root: &Path, n: usize) -> PathBuf {
    let dir = root.join(format!("t{n}"));
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    for ext in ["toml", "rhai"] {
        let fifo = dir.join(format!("fifo.{ext}"));
        Command::new("mkfifo").arg(&fifo).status().ok();
        std::os::unix::fs::symlink(root.join("secret.toml"), dir.join(format!("link.{ext}"))).ok();
    }
    std::fs::write(dir.join("self.toml"), "id = \"s\"\nname = \"S\"\nextends = \"self.toml\"\n").unwrap();
    // What the San Juan ruleset base names: a card set with a script.
    let examples = repo("cards/san-juan/rulesets/examples");
    std::fs::copy(examples.join("festival-cards.toml"), dir.join("festival-cards.toml")).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::copy(examples.join("scripts/fountain.rhai"), dir.join("scripts/fountain.rhai")).unwrap();
    dir
}

/// What was written for one input: the command to run and where.
fn input(kind: usize, rng: &mut Rng, dir: &Path, bases: &Bases) -> Vec<String> {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    let times = 1 + rng.below(3);
    let mutated = |base: &str, rng: &mut Rng| (0..times).fold(base.to_owned(), |t, _| mutate_toml(&t, rng));
    let owned = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    match kind {
        0 => {
            write("r.toml", &mutated(&bases.ruleset, rng));
            owned(&["check", "r.toml"])
        }
        1 => {
            write("r.toml", &mutated(&bases.alhambra, rng));
            owned(&["check", "r.toml", "--games", "1"])
        }
        2 => {
            write(
                "r.toml",
                "id = \"sets\"\nname = \"Sets\"\nextends = \"second-edition\"\nextra_sets = [\"set.toml\"]\n",
            );
            write("set.toml", &mutated(&bases.card_set, rng));
            owned(&["check", "r.toml"])
        }
        3 => {
            write(
                "r.toml",
                "id = \"scr\"\nname = \"Scr\"\nextends = \"second-edition\"\n[cards.well]\nscript = \"s.rhai\"\n",
            );
            let script = (0..times).fold(bases.script.clone(), |t, _| mutate_script(&t, rng));
            write("s.rhai", &script);
            owned(&["check", "r.toml", "--games", "1"])
        }
        4 => {
            write("s.toml", &mutated(&rng.pick(&bases.sj_scenarios).clone(), rng));
            owned(&["scenario", "s.toml", "--check"])
        }
        5 => {
            write("s.toml", &mutated(&rng.pick(&bases.al_scenarios).clone(), rng));
            owned(&["scenario", "s.toml", "--check"])
        }
        6 => {
            write("g.toml", &mutated(&rng.pick(&bases.saved).clone(), rng));
            if rng.below(3) == 0 { owned(&["play", "--resume", "g.toml"]) } else { owned(&["replay", "g.toml"]) }
        }
        7 => {
            let mut lines = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let mut v: serde_json::Value = serde_json::from_str(&rng.pick(&bases.records).clone()).unwrap();
                if rng.below(4) != 0 {
                    mutate_json(&mut v, rng);
                }
                lines.push(v.to_string());
            }
            if rng.below(8) == 0 {
                lines.push("{\"truncated\":".into());
            }
            write("rec.jsonl", &(lines.join("\n") + "\n"));
            if rng.below(2) == 0 {
                owned(&["report", "rec.jsonl"])
            } else {
                owned(&["merge", "rec.jsonl", "-o", "out.jsonl"])
            }
        }
        _ => {
            let numbers =
                ["0", "-1", "1", "3", "18446744073709551615", "18446744073709551616", "4294967296", "1e9", "", "x"];
            let files = [
                "/dev/zero",
                "/dev/full",
                "fifo.toml",
                "link.toml",
                "self.toml",
                "/etc/passwd",
                ".",
                "missing.toml",
                "cards",
            ];
            let commands: &[&[&str]] = &[
                &["simulate", "--games", "N", "--players", "N", "--bots", "random", "--seed", "N"],
                &["simulate", "--games", "1", "--shard", "N/N", "--seed-start", "N", "--json-lines", "F"],
                &["check", "F", "--games", "N"],
                &["check", "second-edition", "--ruleset", "F"],
                &["cards", "--ruleset", "F", "--diff", "F"],
                &["replay", "F"],
                &["scenario", "F", "--check"],
                &["score", "F"],
                &["report", "F", "--html", "F"],
                &["merge", "F", "-o", "F"],
                &["play", "--players", "N", "--seat", "N", "--seed", "N", "--save", "F"],
                &["play", "--resume", "F"],
                &["test", "F", "--filter", "F"],
                &["learn", "--ruleset", "F", "--output", "F"],
                &["bench", "--games", "N"],
            ];
            rng.pick(commands)
                .iter()
                .map(|a| match *a {
                    "N" => (*rng.pick(&numbers)).to_owned(),
                    "N/N" => format!("{}/{}", rng.pick(&numbers), rng.pick(&numbers)),
                    "F" => (*rng.pick(&files)).to_owned(),
                    other => other.to_owned(),
                })
                .collect()
        }
    }
}

/// The valid inputs the mutations start from.
struct Bases {
    ruleset: String,
    alhambra: String,
    card_set: String,
    script: String,
    sj_scenarios: Vec<String>,
    al_scenarios: Vec<String>,
    saved: Vec<String>,
    records: Vec<String>,
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Scenario files of a folder with their ruleset named by id (they are copied elsewhere).
fn scenarios(folder: &str, take: usize) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo(folder)).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .step_by((files.len() / take).max(1))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|t| t.lines().all(|l| !l.starts_with("ruleset") || !l.contains(".toml")))
        .collect()
}

fn bases(root: &Path) -> Bases {
    let (ok, _, err) = common::sanjuan(&[
        "simulate",
        "--games",
        "4",
        "--players",
        "3",
        "--bots",
        "random",
        "--json-lines",
        root.join("base.jsonl").to_str().unwrap(),
        "--save-games",
        root.join("saved").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = common::sanjuan(&[
        "simulate",
        "--ruleset",
        "alhambra",
        "--games",
        "2",
        "--players",
        "2",
        "--bots",
        "random",
        "--json-lines",
        root.join("al.jsonl").to_str().unwrap(),
        "--save-games",
        root.join("al-saved").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
    let mut records: Vec<String> = read(root.join("base.jsonl")).lines().map(str::to_owned).collect();
    records.extend(read(root.join("al.jsonl")).lines().map(str::to_owned));
    Bases {
        ruleset: read(repo("cards/san-juan/rulesets/examples/house-rule.toml"))
            .replace("extends = \"../second-edition.toml\"", "extends = \"second-edition\""),
        alhambra: "id = \"al\"\nname = \"Al\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[rules]\ntake_limit = 6\n\
                   max_players = 6\n[money]\ncurrencies = [{ id = \"denar\", name = \"denars\" }, { id = \"ducat\", name = \"ducats\" }]\n\
                   values = [1, 2, 3, 4, 5, 6, 7, 8, 9]\ncopies = 3\n[yard]\nslots = [\"denar\", \"ducat\", \"denar\", \"ducat\"]\n"
            .to_owned(),
        card_set: "script_dir = \".\"\n[[card]]\nid = \"tower_two\"\nname = \"Tower two\"\nkind = \"city\"\ncost = 3\nvp = 2\n\
                   copies = 3\n[add_copies]\nwell = 2\n"
            .to_owned(),
        script: read(repo("scripts/san-juan/well.rhai")),
        sj_scenarios: scenarios("snapshots/san-juan", 12),
        al_scenarios: scenarios("snapshots/alhambra", 8),
        saved: vec![read(root.join("saved/game-0.toml")), read(root.join("al-saved/game-0.toml"))],
        records,
    }
}

/// What went wrong with one input, if anything.
fn judge(kind: usize, args: &[String], o: &Outcome, dir: &Path) -> Option<String> {
    let all = format!("{}{}", o.out, o.err);
    let what = match o.code {
        None if o.took >= DEADLINE => Some("hang (deadline)".to_owned()),
        None => Some("killed by a signal (abort, stack overflow or allocation failure)".to_owned()),
        Some(101) => Some("panic".to_owned()),
        Some(c) if c > 2 => Some(format!("exit code {c}")),
        _ if all.contains("panicked") || all.contains("memory allocation") => Some("panic message".to_owned()),
        // (A system file named on the command line itself is the user's choice, not a leak.)
        _ if all.contains(SECRET) || (kind < 8 && all.contains("root:x:0:0")) => {
            Some("printed a file outside the rules tree".to_owned())
        }
        // A refusal of a file says where: a path in the run's folder, or a file of the built-in tree.
        Some(1) if kind < 8 && o.err.starts_with("error") => {
            let located = o.err.contains("-->") || o.err.contains(".toml:") || o.err.contains(".jsonl:");
            (!located).then(|| "an error without a file and line".to_owned())
        }
        _ => None,
    };
    what.map(|w| {
        let clip = |s: &str| s.chars().take(600).collect::<String>();
        format!("{}: {w}: sanjuan {} (in {})\n  stderr: {}", KINDS[kind], args.join(" "), dir.display(), clip(&o.err))
    })
}

#[test]
fn hostile_inputs_neither_panic_nor_hang_nor_leak_and_every_refusal_is_located() {
    let total: usize = std::env::var("HOSTILE_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(CI_INPUTS);
    let root = std::env::temp_dir().join(format!("sanjuan-hostile-{}", std::process::id()));
    std::fs::remove_dir_all(&root).ok();
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("secret.toml"), format!("{SECRET} = 1\n")).unwrap();
    let bases = bases(&root);
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::<String>::new());
    // Per kind: inputs, exit 0, refused (exit 1 or 2).
    let counts = Mutex::new(BTreeMap::<usize, [usize; 3]>::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let n = {
                        let mut k = next.lock().unwrap();
                        *k += 1;
                        *k - 1
                    };
                    if n >= total {
                        break;
                    }
                    let kind = n % KINDS.len();
                    let mut rng = Rng(0x5EED_0019 ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                    let dir = tree(&root, n);
                    let args = input(kind, &mut rng, &dir, &bases);
                    let o = run(&args, &dir, "quit\n");
                    {
                        let mut c = counts.lock().unwrap();
                        let e = c.entry(kind).or_default();
                        e[0] += 1;
                        e[if o.code == Some(0) { 1 } else { 2 }] += 1;
                    }
                    match judge(kind, &args, &o, &dir) {
                        Some(f) => {
                            eprintln!("{f}");
                            failures.lock().unwrap().push(f);
                        }
                        None => {
                            std::fs::remove_dir_all(&dir).ok();
                        }
                    }
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();
    let failures = failures.into_inner().unwrap();
    eprintln!("hostile inputs: {total} (kind: inputs, accepted, refused)");
    for (kind, [n, ok, refused]) in &counts {
        eprintln!("  {:<22} {n:>6} {ok:>6} {refused:>6}", KINDS[*kind]);
    }
    eprintln!("  failures: {}", failures.len());
    assert!(failures.is_empty(), "{} of {total} inputs misbehave:\n{}", failures.len(), failures.join("\n"));
    std::fs::remove_dir_all(&root).ok();
}
