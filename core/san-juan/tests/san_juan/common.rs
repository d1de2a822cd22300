//! Scenario helpers for the integration tests: a position from scenario text.

use std::sync::Arc;

use engine_game::Game as _;
use engine_play::bots::Bot;
use engine_play::value::ValueModel;
use san_juan::files::Source;
use san_juan::scenario::Scenario;
use san_juan::{Game, Ruleset};

/// The position `text` (scenario TOML) sets up, before its actions.
pub fn setup(text: &str) -> Game {
    let scenario = Scenario::parse(Source::Disk("test.toml".into()), text.into()).unwrap();
    let rs = scenario.ruleset().unwrap();
    scenario.setup(rs).unwrap_or_else(|e| panic!("{e}"))
}

/// The position `text` sets up, with the event log on.
pub fn setup_logged(text: &str) -> Game {
    let mut game = setup(text);
    game.log_events(true);
    game
}

/// The message of the error `text` (one line of actions) gets.
pub fn refused(game: &mut Game, text: &str) -> String {
    match game.apply_text(text) {
        Ok(_) => panic!("`{text}` was accepted"),
        Err(e) => e.to_string(),
    }
}

/// A balance bot's model for `rs` whose weight of each feature is `weight(name)`.
pub fn model(rs: &Ruleset, weight: impl Fn(&str) -> f64) -> Arc<ValueModel> {
    let features = san_juan::value::feature_names(rs);
    let weights = features.iter().map(|f| weight(f)).collect();
    Arc::new(ValueModel {
        version: ValueModel::VERSION,
        start: None,
        game: "san-juan".into(),
        ruleset: rs.id.clone(),
        fingerprint: rs.fingerprint.clone(),
        games: 0,
        rounds: 0,
        seed: 0,
        features,
        weights,
        by_start: false,
        memos: Default::default(),
    })
}

/// Every action of a game between `bots` from `seed` and the final scores, as
/// text, and the game at its end.
pub fn played_by(
    rs: &Arc<Ruleset>,
    players: usize,
    seed: u64,
    mut bots: Vec<Box<dyn Bot<Game>>>,
) -> (Vec<String>, Game) {
    let mut game = Game::new(Arc::clone(rs), players, seed).unwrap();
    let mut out = Vec::new();
    while let Some(d) = game.pending() {
        let action = bots[d.seat()].choose(&game, game.legal_actions());
        out.push(action.text(&rs.cards));
        game.apply(action).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    }
    out.push(format!("{:?}", game.scores().unwrap().iter().map(|s| s.total).collect::<Vec<_>>()));
    (out, game)
}
