//! The script host's fast path (simple hooks run without Rhai's tree walk)
//! plays every game exactly as Rhai does: the built-in rulesets and a house
//! ruleset of cards written for this test, each game played twice from the
//! same seed — once with the fast path, once with every hook in Rhai — and
//! compared action by action.

use std::fs;
use std::sync::Arc;

use san_juan::bots::{Bot, RandomBot};
use san_juan::hooks::Hook;
use san_juan::{Game, Ruleset};

/// Cards whose scripts take the shapes designers write: effects as maps, `if`
/// chains, arithmetic, `ctx` methods, cards and their properties, event maps,
/// loops with `break`, `continue` and `push`, `in`, text built from values,
/// a map built key by key; and some the fast path leaves to Rhai (a helper
/// function, a write into a map inside a list, a function of Rhai's own library
/// such as `parse_int`, an overflow).
const HOUSE: &[(&str, &str, bool)] = &[
    ("herald", "fn on_role(ctx) { if ctx.role == \"builder\" && ctx.hand < 3 { #{ draw: 1 } } else { () } }", true),
    (
        "tally",
        "fn on_score(ctx) {\n  let n = ctx.count_kind(\"production\");\n  let m = ctx.buildings.len();\n  \
         if n * 2 > m { n - 1 } else if m > 6 { return m / 3; } else { -(m % 2) }\n}",
        true,
    ),
    ("assessor", "fn on_score(ctx) { let c = costs(ctx.buildings); if all_different(c) { 2 } else { 0 } }", true),
    (
        "watcher",
        "fn on_any_build(ctx) {\n  let e = ctx.event;\n  \
         if e.actor != ctx.seat && e.target.cost >= 4 && !e.target.has_tag(\"monument\") { #{ draw: 1 } }\n}",
        true,
    ),
    ("counter", "fn on_score(ctx) { let n = 0; n += ctx.round; n -= 1; n = n / 2; [n, ctx.players][0] }", true),
    ("looper", "fn on_score(ctx) { let n = 0; for b in ctx.buildings { n += b.vp; } n / 4 }", true),
    (
        "pairs",
        "fn on_score(ctx) {\n  let seen = [];\n  let n = 0;\n  for city in ctx.others {\n    for (b, i) in city {\n               if i > 5 { break; }\n      if b.cost == 1 { continue; }\n      seen.push(b.cost); n += 1;\n    }\n  }\n           let k = 0; while k < seen.len() && k < 3 { k += 1; }\n  n % 3 + k\n}",
        true,
    ),
    ("spelled", "fn on_score(ctx) { let s = `${ctx.round}`; if \"1\" in s { s.len() } else { 0 } }", true),
    ("parsed", "fn on_score(ctx) { parse_int(`${ctx.round}`) % 3 }", false),
    // A helper of the script's own is translated with the hook; one that calls itself is Rhai's.
    ("helper", "fn on_score(ctx) { bonus(ctx) }\nfn bonus(ctx) { ctx.goods }", true),
    (
        "recursive",
        "fn on_score(ctx) { depth(ctx.goods, 3) }\nfn depth(g, n) { if n == 0 { g } else { depth(g, n - 1) } }",
        false,
    ),
    (
        "keyed",
        "fn on_role(ctx) {\n  let m = #{};\n  if ctx.role == \"trader\" { m.draw = 1; }\n  \
         if ctx.role == \"builder\" { m[\"draw\"] = 1; m.draw += ctx.players % 2; }\n  if m.len() > 0 { m } else { () }\n}",
        true,
    ),
    (
        "nested",
        "fn on_role(ctx) { let a = [#{}]; if ctx.role == \"trader\" { a[0].draw = 1; } if a[0].len() > 0 { a[0] } else { () } }",
        false,
    ),
    ("overflow", "fn on_score(ctx) { let big = 2147483647; if ctx.round > 1000 { big + ctx.round } else { 1 } }", true),
];

fn house() -> (tempfile::TempDir, Arc<Ruleset>) {
    let dir = tempfile::tempdir().unwrap();
    let mut cards = String::from("script_dir = \".\"\n");
    for (id, script, _) in HOUSE {
        cards += &format!(
            "[[card]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 3\nscript = \"{id}.rhai\"\n"
        );
        fs::write(dir.path().join(format!("{id}.rhai")), format!("{script}\n")).unwrap();
    }
    fs::write(dir.path().join("extra.toml"), cards).unwrap();
    let rules =
        "id = \"house\"\nname = \"House\"\nextends = \"second-edition-expansion\"\nextra_sets = [\"extra.toml\"]\n";
    let path = dir.path().join("house.toml");
    fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    (dir, rs)
}

/// Every action of a random game and the final scores, as text.
fn played(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Vec<String> {
    let bots = (0..players as u64).map(|s| Box::new(RandomBot::new(seed * 7 + s)) as Box<dyn Bot<Game>>).collect();
    let (mut out, game) = crate::common::played_by(rs, players, seed, bots);
    for p in 0..players {
        out.extend(game.player(p).city.iter().map(|slot| format!("built {}", rs.cards.id(slot.card))));
    }
    out
}

/// Both ways, each from an empty memo (else the second run would read what the first remembered).
fn both_ways(rs: &Arc<Ruleset>, players: usize, seed: u64) -> (Vec<String>, Vec<String>) {
    rs.scripts.set_rhai_only(false);
    rs.scripts.forget();
    let fast = played(rs, players, seed);
    rs.scripts.set_rhai_only(true);
    rs.scripts.forget();
    let slow = played(rs, players, seed);
    rs.scripts.set_rhai_only(false);
    (fast, slow)
}

#[test]
fn the_fast_path_plays_every_built_in_game_and_the_examples_as_rhai_does() {
    let mut rulesets: Vec<Arc<Ruleset>> =
        ["second-edition", "first-edition", "second-edition-expansion"].map(|id| Ruleset::load(id).unwrap()).into();
    // The designs in `cards/san-juan/rulesets/examples/` (each ruleset, not its card sets).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/");
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".toml") && !name.ends_with("-cards.toml") {
            rulesets.push(Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    assert!(rulesets.len() >= 9, "the examples were read");
    for rs in &rulesets {
        let id = &rs.id;
        for seed in 0..24 {
            let players = 2 + (seed as usize % 3);
            let (fast, slow) = both_ways(rs, players, seed);
            assert_eq!(fast, slow, "{id}, seed {seed}, {players} players");
        }
    }
    // The gold mine's reveal, the one script San Juan's random games really run, takes the fast path.
    let rs = Ruleset::load("second-edition").unwrap();
    let gold_mine = rs.cards.idx("gold_mine").unwrap();
    assert!(rs.scripts.is_fast(Hook::Reveal as usize, usize::from(gold_mine)));
    // The residence's sets, counted in a map of maps, too (in Rhai it was 8% of an expansion game).
    let rs = Ruleset::load("second-edition-expansion").unwrap();
    let residence = rs.cards.idx("residence").unwrap();
    assert!(rs.scripts.is_fast(Hook::Score as usize, usize::from(residence)));
}

#[test]
fn the_fast_path_plays_a_house_ruleset_as_rhai_does_and_leaves_what_it_cannot_do_to_rhai() {
    let (_dir, rs) = house();
    for (id, script, fast) in HOUSE {
        let card = usize::from(rs.cards.idx(id).unwrap());
        let hook = if script.contains("on_role") {
            Hook::Role
        } else if script.contains("on_any_build") {
            Hook::AnyBuild
        } else {
            Hook::Score
        };
        assert_eq!(rs.scripts.is_fast(hook as usize, card), *fast, "{id}");
    }
    let mut built = vec![0; HOUSE.len()];
    for seed in 0..60 {
        let players = 2 + (seed as usize % 3);
        let (fast, slow) = both_ways(&rs, players, seed);
        assert_eq!(fast, slow, "seed {seed}, {players} players");
        for (k, (id, ..)) in HOUSE.iter().enumerate() {
            built[k] += usize::from(fast.contains(&format!("built {id}")));
        }
    }
    // Each card was in play (its hooks ran) in some of the games compared.
    for (k, (id, ..)) in HOUSE.iter().enumerate() {
        assert!(built[k] >= 5, "{id} built in {} games of 60", built[k]);
    }
}
