//! Scenario helpers for the integration tests: a position from scenario text.

use engine_game::Game as _;
use san_juan::Game;
use san_juan::files::Source;
use san_juan::scenario::Scenario;

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
