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

/// A balance bot's model that counts points and cards in hand: enough to
/// price every building and role it may choose.
fn model(rs: &Ruleset) -> Arc<ValueModel> {
    let features = san_juan::value::feature_names(rs);
    let weights = features
        .iter()
        .map(|f| match f.as_str() {
            "score" => 1.0,
            "hand" => 0.3,
            "goods" => 0.4,
            _ => 0.0,
        })
        .collect();
    Arc::new(ValueModel {
        version: ValueModel::VERSION,
        start: None,
        game: "san-juan".into(),
        ruleset: rs.id.clone(),
        fingerprint: String::new(),
        games: 0,
        rounds: 0,
        seed: 0,
        features,
        weights,
        by_start: false,
        memos: Default::default(),
    })
}

/// Every action of a game and the final scores, as text: random bots, or
/// balance bots at every seat.
fn played(rs: &Arc<Ruleset>, players: usize, seed: u64, balance: bool) -> Vec<String> {
    let mut game = Game::new(Arc::clone(rs), players, seed).unwrap();
    let mut bots: Vec<Box<dyn Bot<Game>>> = (0..players as u64)
        .map(|s| match balance {
            true => Box::new(ValueBot::new(model(rs), seed * 7 + s)) as Box<dyn Bot<Game>>,
            false => Box::new(RandomBot::new(seed * 7 + s)),
        })
        .collect();
    let mut out = Vec::new();
    while let Some(d) = game.pending() {
        let action = bots[d.seat()].choose(&game, game.legal_actions());
        out.push(action.text(&rs.cards));
        game.apply(action).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    }
    out.push(format!("{:?}", game.scores().unwrap().iter().map(|s| s.total).collect::<Vec<_>>()));
    out
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
