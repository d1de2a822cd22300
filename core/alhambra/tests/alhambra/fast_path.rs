//! The script host's fast path (loop-free and looping hooks run without
//! Rhai's tree walk) plays every game exactly as Rhai does: the built-in
//! ruleset and every scripted design of the corpus (`cards/alhambra/examples/`),
//! each game played twice from the same seed — with the fast path, then with
//! every script in Rhai — and compared action by action.

use std::sync::Arc;

use alhambra::Ruleset;
use alhambra::hooks::Hook;
use engine_play::bots::{Bot, RandomBot};
use engine_play::turns::TurnGame as _;

/// Every action of a random game and the final scores, as text.
fn played(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Vec<String> {
    let mut game = alhambra::Game::new(Arc::clone(rs), players, seed).unwrap();
    let mut bot = RandomBot::new(seed * 7 + 1);
    let mut out = Vec::new();
    while game.to_move().is_some() {
        let a = bot.choose(&game, game.legal());
        out.push(a.text(rs));
        game.play(a).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    }
    out.push(format!("{:?}", game.scores().iter().map(|s| s.total).collect::<Vec<_>>()));
    out
}

fn both_ways(rs: &Arc<Ruleset>, players: usize, seed: u64) -> (Vec<String>, Vec<String>) {
    rs.hooks.set_rhai_only(false);
    let fast = played(rs, players, seed);
    rs.hooks.set_rhai_only(true);
    let slow = played(rs, players, seed);
    rs.hooks.set_rhai_only(false);
    (fast, slow)
}

#[test]
fn the_fast_path_plays_the_built_in_ruleset_and_the_corpus_as_rhai_does() {
    let base = Ruleset::load("alhambra").unwrap();
    // The scoring and the neutral collector's scripts (loops, `push`, ranges) take the fast path.
    for hook in [Hook::Score, Hook::Neutral] {
        assert!(base.hooks.script_host().is_fast(hook as usize, hook as usize), "{hook:?}");
    }
    let mut rulesets = vec![base];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/alhambra/examples/");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            rulesets.push(Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{path:?}: {e}")));
        }
    }
    assert!(rulesets.len() > 10, "the corpus was read");
    for rs in &rulesets {
        for seed in 0..6 {
            let players = 2 + (seed as usize % 5);
            let (fast, slow) = both_ways(rs, players, seed);
            assert_eq!(fast, slow, "{}: seed {seed}, {players} players", rs.id);
        }
    }
}

#[test]
fn the_fast_path_plays_the_corpus_actions_as_rhai_does() {
    // An action's `allowed` and `on_action` read `ctx.args`, made only when
    // read on the fast path and whole for Rhai.
    for design in ["money_changer", "reserve", "vizier"] {
        let path = format!("{}/../../corpus/alhambra/{design}/ruleset.toml", env!("CARGO_MANIFEST_DIR"));
        let rs = Ruleset::load(&path).unwrap_or_else(|e| panic!("{design}: {e}"));
        assert!(!rs.actions.is_empty(), "{design} has an action of its own");
        for seed in 0..4 {
            let players = 2 + (seed as usize % 3);
            let (fast, slow) = both_ways(&rs, players, seed);
            assert!(
                fast.iter().any(|a| rs.actions.iter().any(|d| d.verb.iter().any(|v| a.starts_with(v.as_str())))),
                "{design}: acted"
            );
            assert_eq!(fast, slow, "{design}: seed {seed}, {players} players");
        }
    }
}

/// A ruleset like the garden guild example whose garden's price script is `script`.
fn garden_priced_by(dir: &std::path::Path, name: &str, script: &str) -> Arc<Ruleset> {
    std::fs::write(dir.join(format!("{name}.rhai")), script).unwrap();
    let toml = format!(
        "id = \"{name}\"\ngame = \"alhambra\"\nname = \"{name}\"\nextends = \"alhambra\"\n\n\
         [[building]]\nid = \"garden\"\nname = \"Garden\"\nprices = [6, 7, 8, 8, 8, 9, 10, 10, 10, 11, 12]\nscript = \"{name}.rhai\"\n"
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, toml).unwrap();
    Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_price_that_reads_only_the_card_and_the_building_on_offer_is_remembered_and_answers_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let rule = "if ctx.target.type == ctx.card.type { 1 } else { 0 }";
    let remembered = garden_priced_by(dir.path(), "remembered", &format!("fn on_price(ctx) {{ {rule} }}"));
    // Reading one more member (its value unused) makes the answer depend on more: asked every time.
    let asked = garden_priced_by(dir.path(), "asked", &format!("fn on_price(ctx) {{ let t = ctx.turn; {rule} }}"));
    let by_turn = garden_priced_by(dir.path(), "by_turn", "fn on_price(ctx) { if ctx.turn % 2 == 0 { 1 } else { 0 } }");
    let garden = |rs: &Arc<Ruleset>| {
        let t = rs.types.iter().position(|t| t.id == "garden").unwrap();
        rs.hooks.type_owner(t)
    };
    assert!(remembered.hooks.reads_card_and_target_only(Hook::Price, garden(&remembered)));
    assert!(!asked.hooks.reads_card_and_target_only(Hook::Price, garden(&asked)));
    assert!(!by_turn.hooks.reads_card_and_target_only(Hook::Price, garden(&by_turn)));
    for seed in 0..12 {
        let players = 2 + (seed as usize % 4);
        assert_eq!(played(&remembered, players, seed), played(&asked, players, seed), "seed {seed}");
    }
    // Reading of `ctx.card` only what its type fixes, every garden answers alike (remembered once
    // per building on offer, not per garden card); reading when it was bought, each its own.
    assert!(remembered.hooks.reads_card_kind_only(Hook::Price, garden(&remembered)));
    let early = "fn on_price(ctx) { if ctx.target.type == ctx.card.type && ctx.card.bought < 10 { 1 } else { 0 } }";
    let by_purchase = garden_priced_by(dir.path(), "by_purchase", early);
    assert!(!by_purchase.hooks.reads_card_kind_only(Hook::Price, garden(&by_purchase)));
    let whole =
        garden_priced_by(dir.path(), "whole", "fn on_price(ctx) { let c = ctx.card; if c.nth == 0 { 1 } else { 0 } }");
    assert!(!whole.hooks.reads_card_kind_only(Hook::Price, garden(&whole)));
    let nth = garden_priced_by(dir.path(), "nth", "fn on_price(ctx) { if ctx.card.nth == 0 { 1 } else { 0 } }");
    // Reading no building on offer, it is remembered by its card alone, for every slot and building.
    assert!(remembered.hooks.reads_target(Hook::Price, garden(&remembered)));
    assert!(!nth.hooks.reads_target(Hook::Price, garden(&nth)));
    assert!(!whole.hooks.reads_target(Hook::Price, garden(&whole)));
    let nth_asked = garden_priced_by(
        dir.path(),
        "nth_asked",
        "fn on_price(ctx) { let t = ctx.turn; if ctx.card.nth == 0 { 1 } else { 0 } }",
    );
    let passed_on = garden_priced_by(
        dir.path(),
        "passed_on",
        "fn nth(c) { c.card.nth } fn on_price(ctx) { if nth(ctx) == 0 { 1 } else { 0 } }",
    );
    // `ctx` passed to a helper of the script is read through it: the card alone, as `nth`.
    assert!(!passed_on.hooks.reads_target(Hook::Price, garden(&passed_on)), "read through the helper");
    let passed_out = garden_priced_by(
        dir.path(),
        "passed_out",
        "fn on_price(ctx) { if type_of(ctx) == \"\" || ctx.card.nth == 0 { 1 } else { 0 } }",
    );
    assert!(passed_out.hooks.reads_target(Hook::Price, garden(&passed_out)), "ctx given away may read anything");
    for seed in 0..8 {
        let players = 2 + (seed as usize % 4);
        let answered = played(&nth_asked, players, seed);
        assert_eq!(played(&nth, players, seed), answered, "seed {seed}");
        assert_eq!(played(&whole, players, seed), answered, "seed {seed}");
        assert_eq!(played(&passed_on, players, seed), answered, "seed {seed}");
        assert_eq!(played(&passed_out, players, seed), answered, "seed {seed}");
    }
}

#[test]
fn a_price_that_reads_only_its_owner_s_seat_of_the_table_answers_as_one_that_sees_every_seat() {
    let dir = tempfile::tempdir().unwrap();
    let garden = |rs: &Arc<Ruleset>| {
        let t = rs.types.iter().position(|t| t.id == "garden").unwrap();
        rs.hooks.type_owner(t)
    };
    // Its own seat only: the table made for it holds that seat, the others `()`.
    let own = garden_priced_by(
        dir.path(),
        "own",
        "fn on_price(ctx) { let n = 0; for b in ctx.table.seats[ctx.seat].buildings { if b.type == \"garden\" { n += 1; } } \
         n + ctx.table.seats[ctx.seat].money % 2 }",
    );
    // The same answer, found by walking every seat: every seat made.
    let every = garden_priced_by(
        dir.path(),
        "every",
        "fn on_price(ctx) { let n = 0; for (s, i) in ctx.table.seats { if i == ctx.seat { \
         for b in s.buildings { if b.type == \"garden\" { n += 1; } } n += s.money % 2; } } n }",
    );
    assert!(own.hooks.reads_own_seat_only(Hook::Price, garden(&own)));
    assert!(!every.hooks.reads_own_seat_only(Hook::Price, garden(&every)));
    for seed in 0..12 {
        let players = 2 + (seed as usize % 4);
        assert_eq!(played(&own, players, seed), played(&every, players, seed), "seed {seed}");
    }
    // The reserve's `legal` (both its actions) reads its own reserve only.
    let reserve =
        Ruleset::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/alhambra/reserve/ruleset.toml")).unwrap();
    let owners: Vec<usize> = (0..reserve.actions.len()).map(|a| reserve.hooks.action_owner(a)).collect();
    assert!(owners.iter().all(|&o| reserve.hooks.reads_own_seat_only(Hook::Legal, o)));
}

#[test]
fn a_table_kept_for_a_decision_s_slots_answers_as_one_made_for_each() {
    // A price that reads the table and the building on offer runs once a slot;
    // the table is made by the first slot's run and read in place by the
    // others. Rhai is given a whole `ctx` at every run: the games must match,
    // with memory off (every slot runs), for a tax by every seat's buildings
    // (a rules script), for a script that writes its copy of the table at one
    // slot (the next slot must not see it), and for a building card's price.
    let dir = tempfile::tempdir().unwrap();
    let rules_priced_by = |name: &str, script: &str| {
        std::fs::write(dir.path().join(format!("{name}.rhai")), script).unwrap();
        let toml = format!(
            "id = \"{name}\"\ngame = \"alhambra\"\nname = \"{name}\"\nextends = \"alhambra\"\n\n[scripts]\nrules = \"{name}.rhai\"\n"
        );
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, toml).unwrap();
        Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let tax = rules_priced_by(
        "tax",
        "fn count(bs, t) { let n = 0; for b in bs { if b.type == t { n += 1; } } n }\n\
         fn on_price(ctx) { let t = ctx.target.type; let mine = count(ctx.table.seats[ctx.seat].buildings, t);\n\
         let more = 0; for s in ctx.table.seats { if count(s.buildings, t) > mine { more += 1; } } -more }",
    );
    let writer = rules_priced_by(
        "writer",
        "fn on_price(ctx) { let seats = ctx.table.seats; let n = seats.len();\n\
         seats.push(ctx.target.slot); seats[0] = 0;\n\
         if n == ctx.players { ctx.target.slot % 2 } else { 5 } }",
    );
    let garden = garden_priced_by(
        dir.path(),
        "garden_by_table",
        "fn on_price(ctx) { let n = 0; for s in ctx.table.seats { n += s.buildings.len(); } \
         if ctx.target.type == \"garden\" && n % 3 == 0 { 1 } else { 0 } }",
    );
    for rs in [&tax, &writer] {
        assert!(
            rs.hooks.script_host().is_fast(Hook::Price as usize, rs.hooks.rules_owner()),
            "{}: on the fast path",
            rs.id
        );
    }
    for rs in [&tax, &writer, &garden] {
        rs.hooks.set_remember_reads(false);
        let owner = rs.hooks.rules_owner();
        let reads =
            |o: usize| rs.hooks.reads_target(Hook::Price, o) && !rs.hooks.reads_card_and_target_only(Hook::Price, o);
        let t = rs.types.iter().position(|t| t.id == "garden").unwrap();
        assert!(reads(owner) || reads(rs.hooks.type_owner(t)), "{}: asked slot by slot, table and all", rs.id);
        for seed in 0..4 {
            let players = 2 + (seed as usize % 5);
            let (fast, slow) = both_ways(rs, players, seed);
            assert_eq!(fast, slow, "{}: seed {seed}, {players} players", rs.id);
        }
    }
}
