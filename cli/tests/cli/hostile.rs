//! A hostile-input run of our own over every input surface of the program:
//! one entry of `sanjuan_cli::surfaces::SURFACES` each (every command-line
//! value, every kind of file read, standard input, every HTTP request of
//! `serve`). Each surface has a generator here; a surface without one fails
//! the test before anything runs, so a new parser or reader cannot be added
//! without hostile inputs. Inputs are mutated structurally — keys dropped or
//! doubled, values of the wrong type, extreme integers, huge strings, deep
//! nesting, cycles, re-deals in saved games, paths out of the rules tree,
//! devices, pipes and links — and run through the binary under a time and
//! memory limit. Nothing may panic, abort, hang, run out of memory, read or
//! damage a file outside the rules tree, answer a request with a server error
//! or stop the server, or refuse without saying where.
//!
//! Generated and deterministic (a fixed seed). CI runs a small corpus; set
//! `HOSTILE_INPUTS=10000` for a long run (it prints the counts per surface).

use crate::common;
use sanjuan_cli::surfaces::{SURFACES, Surface, Via};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Inputs per run in CI: one for each surface at least.
const CI_INPUTS: usize = 100;
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
    if map.is_empty() {
        map.insert("x".into(), json!(u64::MAX));
        return;
    }
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
        // `ctx` given to helpers of the script (read as the hook): endlessly, at two places,
        // handed back, and down a chain past the depth the reading follows.
        "fn on_score(ctx) { ping(ctx) }\nfn ping(c) { pong(c) }\nfn pong(c) { ping(c) }".to_owned(),
        "fn on_score(ctx) { both(ctx, ctx) }\nfn both(a, b) { a.round + b.table.players[b.seat].hand }".to_owned(),
        "fn on_score(ctx) { back(ctx).table.players.len() }\nfn back(x) { x }".to_owned(),
        (0..30)
            .map(|i| format!("fn h{i}(c) {{ h{}(c) + c.round }}\n", i + 1))
            .chain(["fn h30(c) { c.table.deck }\nfn on_score(ctx) { h0(ctx) }".to_owned()])
            .collect(),
        "}{".to_owned(),
    ];
    let snippets: Vec<&str> = snippets.iter().map(String::as_str).collect();
    mutate_script_lines(text, &snippets, rng)
}

/// A line of `text` dropped, or one of `snippets` put in at a random place.
fn mutate_script_lines(text: &str, snippets: &[&str], rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let i = rng.below(lines.len() + 1);
    match rng.below(3) {
        0 if !lines.is_empty() => {
            lines.remove(i.min(lines.len() - 1));
        }
        _ => lines.insert(i, (*rng.pick(snippets)).to_owned()),
    }
    lines.join("\n") + "\n"
}

/// A San Juan ruleset with a rules script (`s.rhai`) and a public card only a script claims.
const SJ_RULES_RULESET: &str = "id = \"rul\"\nname = \"Rul\"\nextends = \"second-edition\"\n\
                                extra_sets = [\"c.toml\"]\nrules_script = \"s.rhai\"\n\
                                [[action]]\nid = \"buy_good\"\nverb = \"buy\"\ndecision = \"sell\"\nuses = \"sell\"\n\
                                owners_of = \"trading_house\"\nscript = \"a.rhai\"\n";

/// The action's script: the trading house's buy (corpus/san-juan/trading_house).
const SJ_ACTION_SCRIPT: &str = "fn legal(ctx) {\n    let out = [];\n\
    for b in ctx.table.players[ctx.seat].buildings {\n\
        if b.card.kind == \"production\" && !b.good && !out.contains(b.card.id) && ctx.table.tile[b.card.produces] <= ctx.hand { out.push(b.card.id); }\n\
    }\n    out\n}\n\
    fn on_action(ctx) {\n    let id = ctx.args[0];\n    let price = 0;\n\
    for b in ctx.buildings { if b.id == id { price = ctx.table.tile[b.produces]; } }\n\
    [#{ discard: price }, #{ add_good: id }]\n}\n";

/// An action's script mutated: what `legal` lists, hooks an action has not, effects it cannot run.
fn mutate_sj_action(text: &str, rng: &mut Rng) -> String {
    let snippets = [
        "fn legal(ctx) { [\"a b\", [1, 2, 3], #{ x: 1 }, ()] }",
        "fn legal(ctx) { 7 }",
        "fn legal(ctx) { [\"x\".repeat(300)] }",
        "fn legal(ctx) { let a = []; for i in 0..70000 { a.push(i); } a }",
        "fn on_action(ctx) { #{ tuck: 1 } }",
        "fn on_action(ctx) { #{ add_good: \"self\" } }",
        "fn on_action(ctx) { #{ add_good: ctx.args[5] } }",
        "fn on_build(ctx) { 1 }",
        "fn allowed(ctx) { \"yes\" }",
        "}{",
    ];
    mutate_script_lines(text, &snippets, rng)
}

/// Two public cards nobody may build: only the rules script claims them.
const SJ_PATRON_CARDS: &str = "script_dir = \".\"\n[[card]]\nid = \"patron\"\nname = \"Patron\"\nkind = \"city\"\n\
                               cost = 0\nvp = 3\ncopies = 2\npublic = true\nbuildable = false\n\
                               [[card]]\nid = \"trading_house\"\nname = \"Trading house\"\nkind = \"city\"\n\
                               cost = 1\nvp = 2\ncopies = 6\n";

/// The rules script: every seat's builder end, a moment, an event in scopes, moves between zones.
const SJ_RULES_SCRIPT: &str = "fn on_builder_end(ctx) { if ctx.buildings.len() > 3 { #{ move: \"patron\", from: \"public\", to: \"city\" } } }\n\
    fn on_phase_end(ctx) { #{ draw: 1, seat: ctx.seat } }\n\
    fn on_any_build(ctx) { if ctx.hand > 2 { #{ move: ctx.table.players[ctx.seat].buildings[0].card.id, from: \"hand\", to: \"reserve\" } } }\n\
    fn on_round_end(ctx) { #{ draw: 1 } }\n";

/// A rules script mutated: hooks a rules script may not define, effects that need a building, hostile zones.
fn mutate_sj_rules(text: &str, rng: &mut Rng) -> String {
    let snippets = [
        "fn on_build_cost(ctx) { 1 }",
        "fn on_builder_end(ctx) { #{ tuck: 1 } }",
        "fn on_builder_end(ctx) { #{ add_good: \"self\" } }",
        "fn on_builder_end(ctx) { #{ move: \"patron\", from: \"public\", to: \"public\" } }",
        "fn on_builder_end(ctx) { let z = \"de\"; z += \"ck\"; #{ move: \"well\", from: z, to: \"city\" } }",
        "fn on_builder_end(ctx) { #{ move: \"nothing\", from: \"hand\", to: \"reserve\" } }",
        "fn on_builder_end(ctx) { #{ move: 7, from: \"reserve\", to: \"discard\" } }",
        "fn on_builder_end(ctx) { #{ choose: [\"a\", \"b\"] } }",
        "fn on_phase_end(ctx) { ctx.card.id }",
        "fn on_game_end(ctx) { loop {} }",
        "fn on_choice(ctx) { 1 }",
        "}{",
    ];
    mutate_script_lines(text, &snippets, rng)
}

/// An Alhambra ruleset whose one new type runs `s.rhai` (bought often: it is cheap), with a
/// bonus card of it (counted with it while a probe is held, moved about by the scripts).
const AL_PROBE_RULESET: &str = "id = \"probe\"\nname = \"Probe\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n\
                                [[building]]\nid = \"probe\"\nname = \"Probe\"\nprices = [1, 2, 3]\n\
                                points = { A = [1], B = [2, 1], C = [3, 2, 1] }\nscript = \"s.rhai\"\n\
                                [[building]]\nid = \"probe_bonus\"\nname = \"Probe bonus\"\nprices = [1, 2]\ncounts_as = \"probe\"\n\
                                [scripts]\nrules = \"s.rhai\"\n\
                                [[action]]\nid = \"poke\"\nverb = \"poke\"\ndecision = \"turn\"\nargs = [\"hand\", \"slot\"]\n\
                                script = \"a.rhai\"\n\
                                [[action]]\nid = \"grab\"\nverb = \"grab\"\ndecision = \"other_turn_end\"\n\
                                payment = \"exact\"\nscript = \"g.rhai\"\n\
                                [[action]]\nid = \"stash\"\nverb = \"stash\"\ndecision = \"turn\"\nargs = [\"slot\"]\n\
                                script = \"v.rhai\"\n\
                                [[action]]\nid = \"redeem\"\nverb = \"redeem\"\ndecision = \"turn\"\nargs = [\"reserve\"]\n\
                                payment = \"any_one_currency\"\nscript = \"v.rhai\"\n";

/// The reserve's script: `stash` moves a display building into the actor's
/// reserve; `redeem` buys one from there in any one currency (the engine places it).
const AL_PROBE_RESERVE: &str = "fn on_action(ctx) {\n\
    if ctx.action == \"stash\" { #{ move: \"building\", from: \"building_display\", slot: ctx.args[0], to: \"reserve\" } } else { () }\n\
}\n";

/// One structural change to [`AL_PROBE_RESERVE`]: an action's hostile hooks, or the reserve's own.
fn mutate_al_reserve(text: &str, rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        return mutate_al_action(text, rng);
    }
    let snippets = [
        // The building a purchase from the reserve pays for, taken away by its own `on_action`.
        "fn on_action(ctx) { #{ move: \"building\", from: \"reserve\", to: \"out\" } }",
        "fn on_action(ctx) { #{ move: ctx.args[0], from: \"reserve\", to: \"alhambra\" } }",
        "fn legal(ctx) { [\"garden10\", \"probe\", 5, ()] }",
        "fn legal(ctx) { ctx.table.seats[ctx.seat].reserve }",
        "fn legal(ctx) { ctx.table.seats[0].reserve + ctx.table.seats[1].reserve }",
        "fn on_action(ctx) { #{ move: \"building\", from: \"building_display\", slot: 1, to: \"reserve\", to_seat: 9 } }",
        "fn on_action(ctx) { #{ move: \"denar1\", from: \"hand\", to: \"reserve\" } }",
        "fn on_action(ctx) { #{ move: \"building\", from: \"reserve\", to: \"building_display\", to_slot: 1 } }",
        "fn on_action(ctx) { [#{ move: \"building\", from: \"building_display\", slot: 1, to: \"reserve\", to_seat: 1 }, #{ choose: [\"x\"] }] }",
    ];
    mutate_script_lines(text, &snippets, rng)
}

/// The out-of-turn purchase's script: every slot, once per game.
const AL_PROBE_GRAB: &str = "fn legal(ctx) { if ctx.player_counter(\"g\") > 0 { [] } else { [1, 2, 3, 4] } }\n\
fn on_action(ctx) { #{ player_counter: \"g\", add: 1 } }\n";

/// An action's script: its arguments filtered, a move and a choice.
const AL_PROBE_ACTION: &str = "fn allowed(ctx) { ctx.args[1] > 1 }\n\
fn on_action(ctx) {\n\
    [#{ move: ctx.args[0].id, from: \"hand\", to: \"discard\" }, #{ choose: [\"x\", \"y\"] }]\n\
}\n\
fn on_choice(ctx) { #{ draw_money: 1 } }\n";

/// One structural change to [`AL_PROBE_ACTION`]: a line dropped or a hostile hook added.
fn mutate_al_action(text: &str, rng: &mut Rng) -> String {
    let snippets = [
        "fn legal(ctx) { 7 }",
        "fn legal(ctx) { [[1, 2, 3]] }",
        "fn legal(ctx) { [\"a b\", #{}] }",
        "fn legal(ctx) { let o = []; for i in 0..5000 { o.push(`w${i}`); } o }",
        "fn legal(ctx) { [ctx.table] }",
        "fn allowed(ctx) { 3 }",
        // A purchase's slot that is none (`grab` buys what its first argument names).
        "fn legal(ctx) { [0, 99, -1] }",
        "fn legal(ctx) { [\"x\", [1, 1]] }",
        "fn legal(ctx) { [1, 2, 3, 4] }",
        // The building a purchase pays for, taken away by its own `on_action`.
        "fn on_action(ctx) { #{ move: \"building\", from: \"building_display\", slot: 1, to: \"building_deck\" } }",
        "fn allowed(ctx) { ctx.args[5].value }",
        "fn on_action(ctx) { #{ move: ctx.args[0], from: \"hand\", to: \"alhambra\" } }",
        "fn on_action(ctx) { #{ move: \"money\", from: \"money_display\", to: \"money_display\", in_place_of: 5 } }",
        "fn on_action(ctx) { #{ move: \"building\", from: \"building_deck\", to: \"building_deck\", at: \"middle\" } }",
        "fn on_price(ctx) { 1 }",
        "fn on_action(ctx) { loop {} }",
    ];
    mutate_script_lines(text, &snippets, rng)
}

/// A script using the shared vocabulary: choices, moves, a discard, a drawn card.
const AL_PROBE_SCRIPT: &str = "fn on_bought(ctx) {\n\
    [#{ choose: [\"a\", \"b\"], tag: 1 }, #{ choose_cards: 1, from: \"buildings\", of: 0, optional: true }]\n\
}\n\
fn on_choice(ctx) {\n\
    if ctx.chosen.len() > 0 { #{ move: ctx.chosen[0].id, from: \"buildings\", to: \"building_deck\" } } else { () }\n\
}\n\
fn on_turn_end(ctx) {\n\
    if ctx.hand.len() > 6 { #{ discard_money: 1 } } else { () }\n\
}\n\
fn on_building_drawn(ctx) {\n\
    if ctx.event.slot == 2 { #{ move: \"drawn\", to: \"out\" } } else { () }\n\
}\n";

/// One structural change to [`AL_PROBE_SCRIPT`]: a line dropped or a hostile hook added.
fn mutate_al_script(text: &str, rng: &mut Rng) -> String {
    let snippets = [
        "fn on_taken(ctx) { #{ move: \"denar1\", from: \"hand\", to: \"moon\" } }",
        "fn on_taken(ctx) { #{ move: \"garden10\", from: \"buildings\", to: \"hand\" } }",
        "fn on_taken(ctx) { #{ move: \"drawn\", to: \"out\" } }",
        "fn on_taken(ctx) { #{ move: \"building\", from: \"building_display\", to: \"building_display\", to_slot: 99 } }",
        "fn on_taken(ctx) { #{ move: \"building\", from: \"building_display\", slot: 1, to: \"building_display\", to_slot: 2 } }",
        "fn on_taken(ctx) { #{ move: \"money\", from: \"money_deck\", to: \"out\" } }",
        "fn on_taken(ctx) { #{ move: \"building\", from: \"building_deck\", to: \"reserve\" } }",
        "fn on_taken(ctx) { #{ move: \"probe\", from: \"reserve\", to: \"neutral\" } }",
        "fn on_bought(ctx) { #{ move: \"self\", from: \"alhambra\", to: \"reserve\", to_seat: 0 } }",
        "fn on_taken(ctx) { #{ move: 42, from: \"hand\", to: \"out\" } }",
        "fn on_taken(ctx) { #{ choose: [] } }",
        "fn on_taken(ctx) { #{ choose: [\"a b\", \"\"] } }",
        "fn on_taken(ctx) { let o = []; for i in 0..5000 { o.push(`w${i}`); } #{ choose: o } }",
        "fn on_taken(ctx) { #{ choose_cards: 99999, from: \"hand\" } }",
        "fn on_taken(ctx) { #{ choose_cards: 1, from: \"hand\", of: 1 } }",
        "fn on_taken(ctx) { #{ choose_cards: 1, from: \"attic\" } }",
        "fn on_taken(ctx) { #{ choose_cards: 1, only: [1, 2] } }",
        "fn on_taken(ctx) { #{ discard_money: -1 } }",
        "fn on_taken(ctx) { #{ discard_money: 3, seat: 9 } }",
        "fn on_choice(ctx) { #{ choose: [\"again\"] } }",
        "fn on_choice(ctx) { [#{ choose: [\"x\"] }, #{ choose_cards: 2, from: \"money_display\" }] }",
        "fn on_scored(ctx) { #{ discard_money: 20 } }",
        "fn on_game_end(ctx) { #{ choose: [\"late\"] } }",
    ];
    mutate_script_lines(text, &snippets, rng)
}

/// A scenario with reserves set and checked (`[[players]] reserve`, `[expect] reserve`).
const AL_RESERVE_SCENARIO: &str = "ruleset = \"alhambra\"\n\
building_display = [\"pavilion2\", \"seraglio3\", \"arcades4\", \"tower7\"]\n\
actions = [\"take denar2\"]\n\
money_display = [\"denar2\", \"dirham3\", \"ducat1\", \"florin6\"]\n\
[[players]]\nreserve = [\"garden10\", \"garden\"]\n\
[[players]]\nreserve = [\"tower\"]\n\
[[players]]\n\
[expect]\nreserve = [[\"garden10\", \"garden6\"], [\"tower8\"], []]\nhands = [[\"denar2\"], [], []]\n";

/// What one run did.
struct Outcome {
    code: Option<i32>,
    out: String,
    err: String,
    took: Duration,
}

/// What a run reads on its standard input.
enum Input {
    Text(String),
    /// `/dev/zero`: endless input without a newline.
    Zero,
}

/// Runs the binary under the deadline and the memory limit (`env`: more variables).
fn run(args: &[String], dir: &Path, stdin: &Input, env: &[(&str, PathBuf)], deadline: Duration) -> Outcome {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let mut cmd = common::command();
    cmd.args(args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    match stdin {
        Input::Text(_) => cmd.stdin(Stdio::piped()),
        Input::Zero => cmd.stdin(Stdio::from(std::fs::File::open("/dev/zero").unwrap())),
    };
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
    let writer = match (stdin, child.stdin.take()) {
        (Input::Text(text), Some(mut input)) => {
            let text = text.clone();
            Some(std::thread::spawn(move || input.write_all(text.as_bytes()).ok()))
        }
        _ => None,
    };
    let (code, out, err) = common::wait_with_deadline(&mut child, deadline);
    let took = start.elapsed();
    if let Some(w) = writer {
        w.join().ok();
    }
    Outcome { code, out, err, took }
}

/// A rules tree for one input: `cards/`, the hostile neighbours (a pipe, a link out,
/// a file naming itself) and a secret outside it.
///
/// The tree is `root/tN/w`, its secret `root/tN/secret.toml` (`../secret.toml` from the tree):
/// one secret per input, so that a run that damages one is told apart from the others running.
fn tree(root: &Path, n: usize) -> PathBuf {
    let boxed = root.join(format!("t{n}"));
    let dir = boxed.join("w");
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    std::fs::write(boxed.join("secret.toml"), format!("{SECRET} = 1\n")).unwrap();
    for ext in ["toml", "rhai"] {
        let fifo = dir.join(format!("fifo.{ext}"));
        Command::new("mkfifo").arg(&fifo).status().ok();
        std::os::unix::fs::symlink(boxed.join("secret.toml"), dir.join(format!("link.{ext}"))).ok();
    }
    std::fs::write(dir.join("self.toml"), "id = \"s\"\nname = \"S\"\nextends = \"self.toml\"\n").unwrap();
    // What the San Juan ruleset base names: a card set with a script.
    let examples = repo("cards/san-juan/rulesets/examples");
    std::fs::copy(examples.join("festival-cards.toml"), dir.join("festival-cards.toml")).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::copy(examples.join("scripts/fountain.rhai"), dir.join("scripts/fountain.rhai")).unwrap();
    dir
}

/// One hostile input: a run of the binary, or a request to a running `serve`.
enum Case {
    /// `sanjuan ARGS` in the input's folder; `server`: a run that may go on serving (killed after a few seconds).
    Run { args: Vec<String>, stdin: Input, env: Vec<(&'static str, PathBuf)>, server: bool },
    /// One HTTP request (with `{table}` and `{token}` filled in from a fresh table) to the worker's server.
    Http { request: Vec<u8> },
}

fn owned(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| (*s).to_owned()).collect()
}

/// A hostile command-line value: numbers at and past every bound, odd text, deep and long bot names,
/// and paths to devices, pipes, links out of the tree, folders and files that are not what is asked.
fn hostile_arg(rng: &mut Rng) -> String {
    let deep_bot = || format!("balance{}", "~1".repeat(20_000));
    match rng.below(40) {
        0 => "0".into(),
        1 => "-1".into(),
        2 => "1".into(),
        3 => "2".into(),
        4 => "18446744073709551615".into(),
        5 => "18446744073709551616".into(),
        6 => "4294967296".into(),
        7 => "1e9".into(),
        8 => String::new(),
        9 => "x".into(),
        10 => "/dev/zero".into(),
        11 => "/dev/full".into(),
        12 => "fifo.toml".into(),
        13 => "link.toml".into(),
        14 => "self.toml".into(),
        15 => "/etc/passwd".into(),
        16 => ".".into(),
        17 => "missing.toml".into(),
        18 => "cards".into(),
        19 => "../secret.toml".into(),
        20 => deep_bot(),
        21 => "balance~0.5".into(),
        // (The largest search, mcts:1000000, is valid and slow by design: one past it.)
        22 => "mcts:1000001".into(),
        23 => "y".repeat(100_000),
        24 => "a\nb".into(),
        25 => "0/0".into(),
        26 => "5/2".into(),
        27 => "0/18446744073709551615".into(),
        28 => "card.palace.cost=1..99999999999".into(),
        29 => "card.palace.cost=-9223372036854775808..9223372036854775807".into(),
        30 => "win_share(palace)=1e308±1e308".into(),
        31 => "rounds=nan..nan".into(),
        32 => "255.255.255.255".into(),
        33 => "second-edition".into(),
        34 => "alhambra".into(),
        35 => "paired-balance:400@a+b+c".into(),
        36 => "link.rhai".into(),
        37 => "3".into(),
        38 => "007".into(),
        _ => "-9223372036854775808".into(),
    }
}

/// A run of one command with the value of `flag` (or the positional `<…>`) hostile, the
/// other values small and valid, so that an accepted value ends in seconds.
fn arg_case(name: &str, rng: &mut Rng) -> Case {
    let (command, flag) = name.split_once(' ').expect("`command --flag`");
    let quick: &[&str] = match command {
        "simulate" => &["--games", "2", "--players", "2", "--bots", "random", "--quiet"],
        "tune" => &[
            "--ruleset",
            "second-edition",
            "--players",
            "2",
            "--param",
            "card.palace.cost=5..6",
            "--target",
            "seat_advantage=-60..60",
            "--bot",
            "random",
            "--games-budget",
            "4",
            "--first-games",
            "2",
            "--quiet",
        ],
        "serve" => &["--port", "0"],
        "learn" => &["--ruleset", "second-edition"],
        "bench" => &["--games", "1", "--mcts-moves", "1"],
        "play" => &["--players", "2", "--seed", "1", "--bots", "random"],
        "cards" | "check" => &["--ruleset", "second-edition"],
        "report" | "merge" => &["rec.jsonl"],
        "test" => &["tests"],
        _ => &[],
    };
    let value = hostile_arg(rng);
    let mut args = vec![command.to_owned()];
    // The quick values, less the one made hostile (and what excludes it).
    let mut i = 0;
    while i < quick.len() {
        let (k, v) = (quick[i], quick.get(i + 1).copied());
        let takes = v.is_some_and(|v| !v.starts_with("--"));
        let clash = k == flag
            || (flag == "--resume" && ["--ruleset", "--players", "--param", "--target", "--seed"].contains(&k))
            || (flag == "<path>" && k == "--ruleset")
            || (flag.starts_with('<') && !k.starts_with("--"));
        if !clash {
            args.push(k.to_owned());
            if takes {
                args.push(v.unwrap().to_owned());
            }
        }
        i += if takes { 2 } else { 1 };
    }
    if flag.starts_with('<') {
        args.insert(1, value);
    } else {
        args.push(flag.to_owned());
        args.push(value);
    }
    match name {
        "test --ruleset-a" => args.extend(owned(&["--ruleset-b", "second-edition"])),
        // A profile's bot and players need the ruleset profiled.
        "bench --bot" | "bench --players" => args.extend(owned(&["--ruleset", "alhambra"])),
        "test --ruleset-b" => args.extend(owned(&["--ruleset-a", "second-edition"])),
        "report --ruleset-a" | "report --ruleset-b" => args.extend(owned(&["--compare", "rec.jsonl"])),
        // A check of a handful of quick games (the reference search would take minutes in a debug build).
        "report --check-bot" => args.extend(owned(&["--check-with", "random"])),
        "report --check-with" => args.extend(owned(&["--check-bot", "2"])),
        "report --ruleset" | "report --jobs" => args.extend(owned(&["--check-bot", "2", "--check-with", "random"])),
        "merge <files>" | "report --html" => {}
        _ => {}
    }
    if command == "merge" && flag != "--output" {
        args.extend(owned(&["-o", "merged.jsonl"]));
    }
    Case::Run { args, stdin: Input::Text("quit\n".into()), env: Vec::new(), server: command == "serve" }
}

/// A JSON value changed somewhere in its tree: one key or element replaced, removed or doubled.
fn mutate_tree(v: &mut serde_json::Value, rng: &mut Rng) {
    mutate_at(v, rng, 3);
}

fn mutate_at(v: &mut serde_json::Value, rng: &mut Rng, depth: usize) {
    use serde_json::Value;
    // Go down a step (while there is a table or a list below), or change what is here.
    if depth > 0 && rng.below(3) != 0 {
        let child = match v {
            Value::Object(m) if !m.is_empty() => {
                let keys: Vec<String> = m.keys().cloned().collect();
                let k = rng.pick(&keys).clone();
                m.get_mut(&k)
            }
            Value::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len());
                a.get_mut(i)
            }
            _ => None,
        };
        if let Some(c) = child.filter(|c| c.is_object() || c.is_array()) {
            return mutate_at(c, rng, depth - 1);
        }
    }
    match v {
        Value::Array(a) => match rng.below(3) {
            0 => a.clear(),
            1 if !a.is_empty() => {
                let x = a[rng.below(a.len())].clone();
                a.push(x);
            }
            _ => a.push(serde_json::json!(u64::MAX)),
        },
        other => mutate_json(other, rng),
    }
}

/// An HTTP request to a route, its path, query and body hostile.
fn http_case(name: &str, rng: &mut Rng) -> Case {
    let (method, route) = name.split_once(' ').expect("`METHOD /route`");
    let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let body: Vec<u8> = match rng.below(17) {
        0 => Vec::new(),
        1 => b"{not json".to_vec(),
        2 => deep(rng.below(100_000) + 1).into_bytes(),
        3 => vec![0xff, 0xfe, 0x00, 0x7b],
        4 => format!("{{\"ruleset\":\"second-edition\",\"seats\":[\"human\",\"{}\"]}}", "balance~1".repeat(1500))
            .into_bytes(),
        5 => serde_json::json!({ "ruleset": "second-edition", "seats": ["human", "random"], "seed": u64::MAX })
            .to_string()
            .into_bytes(),
        6 => serde_json::json!({ "ruleset": "/etc/passwd", "seats": vec!["human"; 70] }).to_string().into_bytes(),
        7 => serde_json::json!({ "token": "{token}", "action": "x".repeat(15_000) }).to_string().into_bytes(),
        8 => serde_json::json!({ "token": "{token}", "id": u64::MAX }).to_string().into_bytes(),
        9 => serde_json::json!({ "token": "{token}", "action": "role builder" }).to_string().into_bytes(),
        10 => serde_json::json!({ "saved": "x".repeat(100_000), "token": -1 }).to_string().into_bytes(),
        11 => vec![b'a'; 40_000],
        12 => serde_json::json!({ "token": "{token}", "seat": 99 }).to_string().into_bytes(),
        // A seat's name: too long, control characters, markup, escapes of no character.
        13 => match rng.below(5) {
            0 => serde_json::json!({ "token": "{token}", "name": "n".repeat(10_000) }).to_string().into_bytes(),
            1 => serde_json::json!({ "token": "{token}", "name": "a\u{0}b\r\n\u{1b}[31m\u{202e}" })
                .to_string()
                .into_bytes(),
            2 => {
                serde_json::json!({ "token": "{token}", "name": "<script>alert(1)</script>" }).to_string().into_bytes()
            }
            3 => br#"{"token":"{token}","name":"\ud800\udfff\ud800"}"#.to_vec(),
            _ => serde_json::json!({ "token": "{token}", "name": ["x"], "log": -1 }).to_string().into_bytes(),
        },
        // A table whose bots' moves are explained as they move; and the option's value of a wrong type.
        14 => serde_json::json!({ "ruleset": "alhambra", "seats": ["human", "greedy"], "explain": true })
            .to_string()
            .into_bytes(),
        15 => serde_json::json!({ "ruleset": "second-edition", "seats": ["human", "random"], "explain": "yes" })
            .to_string()
            .into_bytes(),
        _ => serde_json::json!({ "ruleset": "alhambra", "seats": ["human", "mcts:100000"] }).to_string().into_bytes(),
    };
    let query = match rng.below(9) {
        0 => String::new(),
        1 => "?token={token}".into(),
        2 => "?token={token}&since=18446744073709551616".into(),
        3 => format!("?token={}", "%ff".repeat(3000)),
        4 => "?token={token}&since=-1".into(),
        // `/why`'s log line: one there is, one past every number, none.
        5 => "?token={token}&line=0".into(),
        6 => "?token={token}&line=18446744073709551616".into(),
        7 => "?token={token}&line=".into(),
        _ => "?token=&since=x".into(),
    };
    let table = match rng.below(4) {
        0 => "no-such-table".to_owned(),
        1 => "%2e%2e%2f%2e%2e%2fetc%2fpasswd".to_owned(),
        _ => "{table}".to_owned(),
    };
    let path = route.replace("{table}", &table).replace("{name}", "..%2f..%2fCargo.toml");
    let mut request = format!(
        "{method} {path}{query} HTTP/1.1\r\nHost: hostile\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend(body);
    Case::Http { request }
}

/// A text mutated line by line (a snapshot, a key).
fn mutate_lines(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let i = rng.below(lines.len());
    match rng.below(6) {
        0 => {
            lines.remove(i);
        }
        1 => lines.insert(i, lines[i].clone()),
        2 => lines[i] = "x".repeat(200_000),
        3 => lines[i] = "---".into(),
        4 => lines.insert(i, format!("{}a: 1", "  ".repeat(rng.below(5000)))),
        _ => lines[i] = lines[i].chars().rev().collect(),
    }
    lines.join("\n") + "\n"
}

/// What to write for one input on `surface` in `dir`, and the case to run.
fn case(surface: &str, rng: &mut Rng, dir: &Path, bases: &Bases) -> Option<Case> {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    let times = 1 + rng.below(3);
    let mutated = |base: &str, rng: &mut Rng| (0..times).fold(base.to_owned(), |t, _| mutate_toml(&t, rng));
    let plain = |args: &[&str]| Case::Run {
        args: owned(args),
        stdin: Input::Text("quit\n".into()),
        env: Vec::new(),
        server: false,
    };
    // Every command-line case finds these beside it: records, a tests folder, a state.
    let records = bases.records[..2].join("\n") + "\n";
    write("rec.jsonl", &records);
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    write("tests/tie.toml", TIE);
    Some(match surface {
        "file: ruleset (San Juan)" => {
            write("r.toml", &mutated(&bases.ruleset, rng));
            plain(&["check", "r.toml"])
        }
        "file: ruleset (Alhambra)" => {
            // Its actions' script: the reserve's (keys such as `payment` and `args` are mutated in the TOML).
            write("v.rhai", AL_PROBE_RESERVE);
            write("r.toml", &mutated(&bases.alhambra, rng));
            plain(&["check", "r.toml", "--games", "1"])
        }
        "file: card set" => {
            write(
                "r.toml",
                "id = \"sets\"\nname = \"Sets\"\nextends = \"second-edition\"\nextra_sets = [\"set.toml\"]\n",
            );
            write("set.toml", &mutated(&bases.card_set, rng));
            plain(&["check", "r.toml"])
        }
        "file: script" if rng.below(2) == 0 => {
            // An Alhambra card that asks choices and moves cards, with hostile effects mixed in,
            // played by random bots: each effect is checked where it runs, not only at load.
            write("r.toml", AL_PROBE_RULESET);
            let script = (0..times).fold(AL_PROBE_SCRIPT.to_owned(), |t, _| mutate_al_script(&t, rng));
            write("s.rhai", &script);
            let action = (0..times).fold(AL_PROBE_ACTION.to_owned(), |t, _| mutate_al_action(&t, rng));
            write("a.rhai", &action);
            let grab = (0..times).fold(AL_PROBE_GRAB.to_owned(), |t, _| mutate_al_action(&t, rng));
            write("g.rhai", &grab);
            let reserve = (0..times).fold(AL_PROBE_RESERVE.to_owned(), |t, _| mutate_al_reserve(&t, rng));
            write("v.rhai", &reserve);
            plain(&["check", "r.toml", "--games", "2"])
        }
        "file: script" => {
            write(
                "r.toml",
                "id = \"scr\"\nname = \"Scr\"\nextends = \"second-edition\"\n[cards.well]\nscript = \"s.rhai\"\n",
            );
            let script = (0..times).fold(bases.script.clone(), |t, _| mutate_script(&t, rng));
            write("s.rhai", &script);
            plain(&["check", "r.toml", "--games", "1"])
        }
        "file: ruleset scripts (San Juan)" => {
            // The ruleset's own scripts: its rules script (every player hears it), mutated.
            // Half the time the ruleset file too: its `rules_script` and `[[action]]` table mutated.
            let ruleset = if rng.below(2) == 0 { mutated(SJ_RULES_RULESET, rng) } else { SJ_RULES_RULESET.to_owned() };
            write("r.toml", &ruleset);
            write("c.toml", SJ_PATRON_CARDS);
            let script = (0..times).fold(SJ_RULES_SCRIPT.to_owned(), |t, _| mutate_sj_rules(&t, rng));
            write("s.rhai", &script);
            let action = (0..times).fold(SJ_ACTION_SCRIPT.to_owned(), |t, _| mutate_sj_action(&t, rng));
            write("a.rhai", &action);
            plain(&["check", "r.toml", "--games", "2"])
        }
        "file: scenario (San Juan)" => {
            write("s.toml", &mutated(&rng.pick(&bases.sj_scenarios).clone(), rng));
            plain(&["scenario", "s.toml", "--check"])
        }
        "file: scenario (Alhambra)" => {
            write("s.toml", &mutated(&rng.pick(&bases.al_scenarios).clone(), rng));
            plain(&["scenario", "s.toml", "--check"])
        }
        "file: saved game" => {
            let base = rng.pick(&bases.saved).clone();
            // Half the time a re-deal among the entries (for any seat, anywhere), then the usual mutations.
            let base = if rng.below(2) == 0 {
                let lines: Vec<String> =
                    base.lines()
                        .map(|l| match l.strip_prefix("actions = ") {
                            Some(list) => {
                                let mut a: Vec<String> = serde_json::from_str(list).unwrap_or_default();
                                let at = rng.below(a.len() + 1);
                                // A re-deal, or another seat's good spent (`spend b@s`, seats real or not).
                                let entry = match rng.below(3) {
                                    0 => format!("spend indigo_plant@{}", rng.next() >> 60),
                                    1 => (*rng.pick(&["spend @1", "spend well@", "spend well@1@2", "spend x@-1"]))
                                        .to_owned(),
                                    _ => format!("redeal {} {}", rng.below(3), rng.next() >> 20),
                                };
                                a.insert(at, entry);
                                format!("actions = {}", serde_json::to_string(&a).unwrap())
                            }
                            None => l.to_owned(),
                        })
                        .collect();
                lines.join("\n") + "\n"
            } else {
                base
            };
            write("g.toml", &mutated(&base, rng));
            match rng.below(3) {
                0 => plain(&["play", "--resume", "g.toml"]),
                1 => plain(&["replay", "g.toml"]),
                _ => {
                    // The same entries as a scenario's `[from_game]`.
                    let text = std::fs::read_to_string(dir.join("g.toml")).unwrap();
                    let moment = text.replace("\nseats", "\n# seats").replacen("version", "# version", 1);
                    let moment = moment.replace("\nplayers", "\n[from_game]\nplayers");
                    write("m.toml", &moment);
                    plain(&["scenario", "m.toml"])
                }
            }
        }
        "file: JSON-lines records" => {
            let mut lines = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let mut v: serde_json::Value = serde_json::from_str(&rng.pick(&bases.records).clone()).unwrap();
                if rng.below(4) != 0 {
                    mutate_json(&mut v, rng);
                }
                if rng.below(3) == 0 {
                    mutate_tree(&mut v, rng);
                }
                lines.push(v.to_string());
            }
            if rng.below(8) == 0 {
                lines.push("{\"truncated\":".into());
            }
            write("rec.jsonl", &(lines.join("\n") + "\n"));
            if rng.below(2) == 0 {
                plain(&["report", "rec.jsonl"])
            } else {
                plain(&["merge", "rec.jsonl", "-o", "out.jsonl"])
            }
        }
        "file: tune state" => {
            let mut v: serde_json::Value = serde_json::from_str(&bases.state).unwrap();
            for _ in 0..times {
                mutate_tree(&mut v, rng);
            }
            write("state.json", &v.to_string());
            plain(&["tune", "--resume", "state.json", "--quiet"])
        }
        "file: snapshot (.snap)" => {
            std::fs::create_dir_all(dir.join("tests/snapshots")).unwrap();
            let snap = dir.join("tests/snapshots/tie.snap");
            match rng.below(6) {
                0 => {
                    Command::new("mkfifo").arg(&snap).status().ok();
                }
                1 => {
                    std::os::unix::fs::symlink("/dev/zero", &snap).ok();
                }
                2 => std::fs::write(&snap, vec![b'#'; (16 << 20) + 1 + rng.below(1000)]).unwrap(),
                3 => {
                    // A link planted where a fixed temporary name would be, and a write asked for.
                    std::os::unix::fs::symlink(dir.join("../secret.toml"), dir.join("tests/snapshots/tie.snap.tmp"))
                        .ok();
                    return Some(plain(&["test", "tests", "--accept"]));
                }
                _ => std::fs::write(&snap, (0..times).fold(bases.snap.clone(), |t, _| mutate_lines(&t, rng))).unwrap(),
            }
            plain(&["test", "tests"])
        }
        "file: test folder" => {
            let t = dir.join("tests");
            match rng.below(6) {
                0 => {
                    Command::new("mkfifo").arg(t.join("pipe.toml")).status().ok();
                }
                1 => {
                    std::os::unix::fs::symlink(&t, t.join("loop.toml")).ok();
                }
                2 => std::fs::write(t.join("snapshots"), "a file where the folder goes").unwrap(),
                3 => {
                    for i in 0..200 {
                        std::fs::write(t.join(format!("s{i}.toml")), "x = ").unwrap();
                    }
                }
                4 => {
                    std::os::unix::fs::symlink("/dev/zero", t.join("zero.toml")).ok();
                }
                _ => {
                    std::os::unix::fs::symlink(dir.join("../secret.toml"), t.join("secret.toml")).ok();
                }
            }
            plain(&["test", "tests"])
        }
        "file: model cache" => {
            let cache = dir.join("cache");
            std::fs::create_dir_all(&cache).unwrap();
            let model = cache.join(&bases.model_name);
            match rng.below(4) {
                0 => {
                    Command::new("mkfifo").arg(&model).status().ok();
                }
                1 => {
                    std::os::unix::fs::symlink("/dev/zero", &model).ok();
                }
                _ => {
                    let mut v: serde_json::Value = serde_json::from_str(&bases.model).unwrap();
                    for _ in 0..times {
                        mutate_tree(&mut v, rng);
                    }
                    std::fs::write(&model, v.to_string()).unwrap();
                }
            }
            Case::Run {
                args: owned(&["simulate", "--games", "1", "--players", "2", "--bots", "balance", "--quiet"]),
                stdin: Input::Text(String::new()),
                env: vec![("SANJUAN_CACHE", cache)],
                server: false,
            }
        }
        "file: key file" => {
            let key = dir.join("key.txt");
            match rng.below(5) {
                0 => {
                    Command::new("mkfifo").arg(&key).status().ok();
                }
                1 => {
                    std::os::unix::fs::symlink("/dev/zero", &key).ok();
                }
                2 => std::fs::write(&key, vec![b'a'; 1 << 20]).unwrap(),
                _ => std::fs::write(&key, mutate_lines(&"ab".repeat(32), rng)).unwrap(),
            }
            Case::Run {
                args: owned(&["serve", "--port", "0", "--key-file", "key.txt"]),
                stdin: Input::Text(String::new()),
                env: Vec::new(),
                server: true,
            }
        }
        "stdin: play" | "stdin: test --review" => {
            let stdin = match rng.below(8) {
                0 => Input::Zero,
                1 => Input::Text("x".repeat(200_000)),
                2 => Input::Text("\n".repeat(5000) + "quit\n"),
                3 => Input::Text("999999999999999999999\nundo\nundo\nshow\n?\n-1\n0\nquit\n".into()),
                4 => Input::Text(String::from_utf8_lossy(&[0xff, 0xfe, b'\n']).into_owned() + "\u{0}\u{1b}[2J\n"),
                5 => Input::Text((0..300).map(|i| format!("{}\n", i % 7)).collect()),
                6 => Input::Text(
                    "build well spend indigo_plant@1 @2 well@ well@99@1 x@-1\nspend sugar_mill@300\nquit\n".into(),
                ),
                _ => Input::Text("a\nr\ns\nq\nbuild palace pay pay pay pay\n".into()),
            };
            let args = if surface == "stdin: play" {
                let ruleset = if rng.below(2) == 0 { "second-edition" } else { "alhambra" };
                owned(&["play", "--players", "2", "--seed", "1", "--bots", "random", "--ruleset", ruleset])
            } else {
                owned(&["test", "tests", "--review"])
            };
            Case::Run { args, stdin, env: Vec::new(), server: false }
        }
        s if s.contains(" /") && s.split(' ').next().is_some_and(|m| m == "GET" || m == "POST") => http_case(s, rng),
        s if s.contains(' ') && !s.starts_with("file:") && !s.starts_with("stdin:") => arg_case(s, rng),
        _ => return None,
    })
}

/// A scenario every folder case holds.
const TIE: &str = "ruleset = \"second-edition\"\n[[players]]\nbuildings = [\"indigo_plant\"]\n\
                   [[players]]\nbuildings = [\"indigo_plant\"]\n[expect]\nscores = [1, 1]\n";

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
    /// A finished search's state file.
    state: String,
    /// The snapshot of [`TIE`].
    snap: String,
    /// The default ruleset's balance model, and its file name in a cache.
    model: String,
    model_name: String,
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
    let state = root.join("state.json");
    let (ok, _, err) =
        common::sanjuan(&[&common::quick_tune("second-edition")[..], &["--state", state.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let folder = root.join("base-tests");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("tie.toml"), TIE).unwrap();
    let (ok, out, err) = common::sanjuan(&["test", folder.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    // The balance model of the default ruleset, learned into the tests' cache if it is not there yet.
    let (ok, _, err) = common::sanjuan(&["simulate", "--games", "1", "--players", "2", "--bots", "balance", "--quiet"]);
    assert!(ok, "{err}");
    let first: serde_json::Value = serde_json::from_str(read(root.join("base.jsonl")).lines().next().unwrap()).unwrap();
    let model_name = format!("balance-san-juan-{}.json", first["fingerprint"].as_str().unwrap());
    let mut records: Vec<String> = read(root.join("base.jsonl")).lines().map(str::to_owned).collect();
    records.extend(read(root.join("al.jsonl")).lines().map(str::to_owned));
    Bases {
        ruleset: read(repo("cards/san-juan/rulesets/examples/house-rule.toml"))
            .replace("extends = \"../second-edition.toml\"", "extends = \"second-edition\""),
        alhambra: "id = \"al\"\nname = \"Al\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[rules]\ntake_limit = 6\n\
                   max_players = 6\n[money]\ncurrencies = [{ id = \"denar\", name = \"denars\" }, { id = \"ducat\", name = \"ducats\" }, \
                   { id = \"obol\", name = \"obols\", values = [1, 2, 4], copies = 2 }]\n\
                   values = [1, 2, 3, 4, 5, 6, 7, 8, 9]\ncopies = 3\n[yard]\nslots = [\"denar\", \"ducat\", \"denar\", \"ducat\"]\n\
                   [[money_card]]\nid = \"joker\"\nname = \"Joker\"\ncurrency = \"any\"\nvalue = 3\ncopies = 2\n\
                   [[deck_card]]\nid = \"caravan\"\nname = \"Caravan\"\npile = 3\n\
                   [[action]]\nid = \"stash\"\nverb = \"stash\"\ndecision = \"turn\"\nargs = [\"slot\"]\nscript = \"v.rhai\"\n\
                   [[action]]\nid = \"redeem\"\nverb = \"buy reserved\"\ndecision = \"turn\"\nargs = [\"reserve\"]\n\
                   payment = \"any_one_currency\"\nscript = \"v.rhai\"\n"
            .to_owned(),
        card_set: "script_dir = \".\"\n[[card]]\nid = \"tower_two\"\nname = \"Tower two\"\nkind = \"city\"\ncost = 3\nvp = 2\n\
                   copies = 3\n[add_copies]\nwell = 2\n"
            .to_owned(),
        script: read(repo("scripts/san-juan/well.rhai")),
        sj_scenarios: scenarios("snapshots/san-juan", 12),
        // The scenario keys of a seat's reserve, on the built-in ruleset (every game has the zone).
        al_scenarios: [scenarios("snapshots/alhambra", 8), vec![AL_RESERVE_SCENARIO.to_owned()]].concat(),
        saved: vec![read(root.join("saved/game-0.toml")), read(root.join("al-saved/game-0.toml"))],
        records,
        state: read(state),
        snap: read(folder.join("snapshots/tie.snap")),
        model: read(common::cache().join(&model_name)),
        model_name,
    }
}

/// What went wrong with one run, if anything.
fn judge(surface: &Surface, args: &[String], o: &Outcome, server: bool, dir: &Path) -> Option<String> {
    let all = format!("{}{}", o.out, o.err);
    let what = match o.code {
        None if server && o.took < SERVER_DEADLINE + Duration::from_secs(5) => None,
        None if o.took >= DEADLINE => Some("hang (deadline)".to_owned()),
        None => Some("killed by a signal (abort, stack overflow or allocation failure)".to_owned()),
        Some(101) => Some("panic".to_owned()),
        Some(c) if c > 2 => Some(format!("exit code {c}")),
        _ if all.contains("panicked") || all.contains("memory allocation") => Some("panic message".to_owned()),
        // (A file named on the command line itself is the user's choice, not a leak.)
        _ if (all.contains(SECRET) && !(surface.via == Via::Arg && args.iter().any(|a| a.contains("secret"))))
            || (surface.via != Via::Arg && all.contains("root:x:0:0")) =>
        {
            Some("printed a file outside the rules tree".to_owned())
        }
        // A refusal of a file says where: a path in the run's folder, or a file of the built-in tree.
        Some(1) if surface.via == Via::File && o.err.starts_with("error") => {
            let named = ["-->", ".toml:", ".jsonl", ".rhai", "state.json", ".snap", "key.txt", "tests"];
            (!named.iter().any(|n| o.err.contains(n))).then(|| "an error without a file and line".to_owned())
        }
        _ => None,
    };
    what.map(|w| {
        let clip = |s: &str| s.chars().take(600).collect::<String>();
        format!(
            "{}: {w}: sanjuan {} (in {})\n  stderr: {}",
            surface.name,
            clip(&args.join(" ")),
            dir.display(),
            clip(&o.err)
        )
    })
}

/// How long a run that may go on serving is given before it is stopped (and counted as serving).
const SERVER_DEADLINE: Duration = Duration::from_secs(4);

/// A `sanjuan serve` for one worker's HTTP cases.
struct Server {
    child: std::process::Child,
    port: u16,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let mut child = common::command()
            // Its tables have no balance bot: nothing to learn.
            .args(["serve", "--port", "0", "--max-tables", "1000000", "--tables-per-minute", "1000000", "--no-learn"])
            .args(["--tables-per-address", "1000000", "--moves-per-second", "1000000"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run sanjuan serve");
        let (port, mut out) = common::served_port(&mut child);
        // Keep draining its output so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()).ok());
        Server { child, port }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().ok().flatten().is_none()
    }

    /// Sends raw bytes; the status code and body, or what went wrong.
    fn send(&self, request: &[u8]) -> Result<(u16, String), String> {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| format!("connect: {e}"))?;
        s.set_read_timeout(Some(DEADLINE)).ok();
        s.write_all(request).map_err(|e| format!("send: {e}"))?;
        let mut reply = Vec::new();
        s.read_to_end(&mut reply).map_err(|e| format!("no answer: {e}"))?;
        let text = String::from_utf8_lossy(&reply).into_owned();
        let code = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("no status line: {text:.200}"))?;
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
        Ok((code, body))
    }

    /// A fresh table with one person: its id and the person's token.
    fn table(&self) -> Result<(String, String), String> {
        let body = r#"{"ruleset":"second-edition","seats":["human","random"],"seed":1}"#;
        let request = format!(
            "POST /api/tables HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let (code, body) = self.send(request.as_bytes())?;
        let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| format!("{code}: {e}: {body:.200}"))?;
        let id = v["table"].as_str().ok_or("no table")?.to_owned();
        let token = v["seats"][0]["token"].as_str().ok_or("no token")?.to_owned();
        Ok((id, token))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// Runs one HTTP case against the worker's server (restarted if it died): what went wrong, if anything.
fn judge_http(surface: &Surface, request: &[u8], server: &mut Server) -> (Option<String>, bool) {
    let fill = |(id, token): &(String, String)| {
        String::from_utf8_lossy(request).replace("{table}", id).replace("{token}", token).into_bytes()
    };
    let request = match server.table() {
        Ok(t) => fill(&t),
        Err(e) => return (Some(format!("{}: making a table failed: {e}", surface.name)), false),
    };
    let start = Instant::now();
    let sent = server.send(&request);
    let head = String::from_utf8_lossy(&request[..request.len().min(300)]).into_owned();
    let what = match sent {
        _ if !server.alive() => Some("the server stopped (abort or crash)".to_owned()),
        Err(e) if start.elapsed() >= DEADLINE => Some(format!("hang: {e}")),
        Err(e) => Some(format!("no answer: {e}")),
        Ok((code, body)) if code >= 500 => Some(format!("server error {code}: {body:.300}")),
        Ok((code, _)) => return (None, code < 300),
    };
    (what.map(|w| format!("{}: {w}\n  request: {head:?}", surface.name)), false)
}

/// The counts per surface: inputs, accepted (exit 0, a server serving, an HTTP 2xx), refused, failures.
fn print_table(counts: &BTreeMap<usize, [usize; 4]>, done: usize) {
    eprintln!("hostile inputs: {done} over {} surfaces (surface: inputs, accepted, refused, failures)", SURFACES.len());
    for (index, [n, ok, refused, failed]) in counts {
        eprintln!("  {:<40} {n:>6} {ok:>6} {refused:>6} {failed:>6}", SURFACES[*index].name);
    }
}

#[test]
fn hostile_inputs_on_every_surface_neither_panic_nor_hang_nor_leak_and_every_refusal_is_located() {
    let total: usize = std::env::var("HOSTILE_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(CI_INPUTS);
    let total = total.max(SURFACES.len());
    let root = std::env::temp_dir().join(format!("sanjuan-hostile-{}", std::process::id()));
    std::fs::remove_dir_all(&root).ok();
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("secret.toml"), format!("{SECRET} = 1\n")).unwrap();
    let bases = bases(&root);
    // Every surface has a generator, checked before anything runs.
    let mut probe = Rng(1);
    let scratch = tree(&root, usize::MAX);
    let missing: Vec<&str> =
        SURFACES.iter().filter(|s| case(s.name, &mut probe, &scratch, &bases).is_none()).map(|s| s.name).collect();
    assert!(missing.is_empty(), "surfaces of sanjuan_cli::surfaces::SURFACES with no hostile generator: {missing:?}");
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::<String>::new());
    // Per surface: inputs, accepted, refused, failures.
    let counts = Mutex::new(BTreeMap::<usize, [usize; 4]>::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut server: Option<Server> = None;
                loop {
                    let n = {
                        let mut k = next.lock().unwrap();
                        *k += 1;
                        *k - 1
                    };
                    if n >= total {
                        break;
                    }
                    let index = n % SURFACES.len();
                    let surface = &SURFACES[index];
                    let mut rng = Rng(0x5EED_0049 ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                    let dir = tree(&root, n);
                    let (failure, accepted) = match case(surface.name, &mut rng, &dir, &bases).expect("a generator") {
                        Case::Run { args, stdin, env, server: serving } => {
                            let deadline = if serving { SERVER_DEADLINE } else { DEADLINE };
                            let o = run(&args, &dir, &stdin, &env, deadline);
                            // (Named as an output on the command line itself, it is the user's to overwrite.)
                            let secret = dir.parent().expect("a tree's box").join("secret.toml");
                            let changed = std::fs::read_to_string(&secret).ok() != Some(format!("{SECRET} = 1\n"));
                            let failure = if changed && !args.iter().any(|a| a.contains("secret")) {
                                Some(format!(
                                    "{}: damaged a file outside the rules tree: sanjuan {}",
                                    surface.name,
                                    args.join(" ")
                                ))
                            } else {
                                judge(surface, &args, &o, serving, &dir)
                            };
                            (failure, o.code == Some(0) || (serving && o.code.is_none()))
                        }
                        Case::Http { request } => {
                            let srv = server.get_or_insert_with(|| Server::start(&root));
                            let judged = judge_http(surface, &request, srv);
                            if !srv.alive() {
                                server = None;
                            }
                            judged
                        }
                    };
                    {
                        let mut c = counts.lock().unwrap();
                        let e = c.entry(index).or_default();
                        e[0] += 1;
                        e[if failure.is_some() {
                            3
                        } else if accepted {
                            1
                        } else {
                            2
                        }] += 1;
                        // A long run shows where it is.
                        let done: usize = c.values().map(|e| e[0]).sum();
                        if total > 1000 && done.is_multiple_of(1000) {
                            print_table(&c, done);
                        }
                    }
                    match failure {
                        Some(f) => {
                            eprintln!("{f}");
                            failures.lock().unwrap().push(f);
                        }
                        None => {
                            std::fs::remove_dir_all(dir.parent().expect("a tree's box")).ok();
                        }
                    }
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();
    let failures = failures.into_inner().unwrap();
    print_table(&counts, total);
    eprintln!("  failures: {}", failures.len());
    assert!(failures.is_empty(), "{} of {total} inputs misbehave:\n{}", failures.len(), failures.join("\n"));
    std::fs::remove_dir_all(&root).ok();
}
