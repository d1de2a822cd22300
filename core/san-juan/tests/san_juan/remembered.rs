//! A hook asked again about what it has seen answers from memory (the row of
//! what it read, `engine_script::reads`): every game plays exactly as with
//! every hook run at every call. The built-in rulesets, every example and
//! every design of the corpus, random bots and a balance bot (whose pricing
//! of buildings it has not built asks the memory alone), 2 to 4 players,
//! each game played with remembering on and off and compared action by action.

use std::sync::Arc;

use engine_play::bots::Bot;
use engine_play::value::{ValueBot, ValueModel};
use san_juan::bots::RandomBot;
use san_juan::{Game, Ruleset};

/// A balance bot's model that counts points, cards in hand and goods:
/// enough to price every building and role it may choose.
fn model(rs: &Ruleset) -> Arc<ValueModel> {
    crate::common::model(rs, |f| match f {
        "score" => 1.0,
        "hand" => 0.3,
        "goods" => 0.4,
        _ => 0.0,
    })
}

/// Every action of a game and the final scores, as text: random bots, or
/// balance bots at every seat.
fn played(rs: &Arc<Ruleset>, players: usize, seed: u64, balance: bool) -> Vec<String> {
    let bots: Vec<Box<dyn Bot<Game>>> = (0..players as u64)
        .map(|s| match balance {
            true => Box::new(ValueBot::new(model(rs), seed * 7 + s)) as Box<dyn Bot<Game>>,
            false => Box::new(RandomBot::new(seed * 7 + s)),
        })
        .collect();
    crate::common::played_by(rs, players, seed, bots).0
}

/// The built-in rulesets, the examples and the corpus's designs.
fn rulesets() -> Vec<Arc<Ruleset>> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut paths: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(format!("{root}/cards/san-juan/rulesets/examples")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".toml") && !name.ends_with("-cards.toml") {
            paths.push(path.to_str().unwrap().to_owned());
        }
    }
    for entry in std::fs::read_dir(format!("{root}/corpus/san-juan")).unwrap() {
        let path = entry.unwrap().path().join("ruleset.toml");
        if path.exists() {
            paths.push(path.to_str().unwrap().to_owned());
        }
    }
    paths.sort();
    let mut out: Vec<Arc<Ruleset>> =
        ["second-edition", "first-edition", "second-edition-expansion"].map(|id| Ruleset::load(id).unwrap()).into();
    out.extend(paths.iter().map(|p| Ruleset::load(p).unwrap_or_else(|e| panic!("{p}: {e}"))));
    out
}

#[test]
fn remembered_answers_play_every_game_as_answers_worked_out_each_time() {
    let rulesets = rulesets();
    assert!(rulesets.len() > 25, "the examples and the corpus were read: {}", rulesets.len());
    for rs in &rulesets {
        for seed in 0..3 {
            let players = 2 + (seed as usize % 3);
            let balance = seed != 1;
            rs.scripts.set_remember_reads(true);
            let remembered = played(rs, players, seed, balance);
            rs.scripts.set_remember_reads(false);
            let worked_out = played(rs, players, seed, balance);
            rs.scripts.set_remember_reads(true);
            assert_eq!(remembered, worked_out, "{}: seed {seed}, {players} players", rs.id);
        }
    }
}

#[test]
fn helpers_given_ctx_in_every_shape_play_as_answers_worked_out_each_time() {
    // `ctx` handed to helpers of the script: at two places, handed back (the
    // hook then takes it whole), down a chain longer than the reading follows,
    // and back and forth without end (a script error, at the hook, every time).
    let chain: String = (0..30).map(|i| format!("fn h{i}(c) {{ h{}(c) + c.round }}\n", i + 1)).collect();
    let scripts = [
        (
            "both",
            "fn on_score(ctx) { both(ctx, ctx) }\nfn both(a, b) { a.round + b.table.players[b.seat].hand }".to_owned(),
        ),
        ("back", "fn on_score(ctx) { back(ctx).table.players.len() }\nfn back(x) { x }".to_owned()),
        ("chain", format!("{chain}fn h30(c) {{ c.table.deck }}\nfn on_score(ctx) {{ h0(ctx) % 7 }}")),
        ("ping", "fn on_score(ctx) { ping(ctx) }\nfn ping(c) { pong(c) }\nfn pong(c) { ping(c) }".to_owned()),
    ];
    for (name, script) in scripts {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.rhai"), script).unwrap();
        let toml = format!(
            "id = \"{name}\"\nname = \"{name}\"\nextends = \"second-edition\"\n[cards.well]\nscript = \"s.rhai\"\n"
        );
        std::fs::write(dir.path().join("r.toml"), toml).unwrap();
        let rs = Ruleset::load(dir.path().join("r.toml").to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for seed in 0..3 {
            let outcome = |on: bool| {
                rs.scripts.set_remember_reads(on);
                played_or_error(&rs, 2 + seed as usize, seed)
            };
            let (remembered, worked_out) = (outcome(true), outcome(false));
            rs.scripts.set_remember_reads(true);
            assert_eq!(remembered, worked_out, "{name}, seed {seed}");
            // Only the endless one fails (a stack overflow, named at the hook); the others score.
            let last = remembered.last().unwrap();
            assert_eq!(name == "ping", last.contains("on_score"), "{name}: {last}");
        }
    }
}

/// [`played`] with random bots, ending at the first error (its text the last line).
fn played_or_error(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Vec<String> {
    let mut game = Game::new(Arc::clone(rs), players, seed).unwrap();
    let mut bots: Vec<RandomBot> = (0..players as u64).map(|s| RandomBot::new(seed * 7 + s)).collect();
    let mut out = Vec::new();
    while let Some(d) = game.pending() {
        let action = bots[d.seat()].choose(&game, game.legal_actions());
        out.push(action.text(&rs.cards));
        if let Err(e) = game.apply(action) {
            out.push(e.to_string());
            return out;
        }
    }
    match game.scores() {
        Ok(scores) => out.push(format!("{:?}", scores.iter().map(|s| s.total).collect::<Vec<_>>())),
        Err(e) => out.push(e.to_string()),
    }
    out
}
