//! "Why did the bot do that?" (`engine_game::explain`) in San Juan: a bot
//! explained chooses exactly as it does unexplained, and its explanation
//! shows the values it chose by (the checks every game shares are
//! `engine_game::explain_check`'s).

use engine_game::Game as _;
use engine_game::explain::explained_choice;
use engine_game::explain_check::{balance_explained, same_games_explained, short_models};
use engine_game::run::bot_choice;
use engine_play::TurnGame;
use san_juan::{Game, Ruleset};

#[test]
fn a_bot_explained_plays_the_same_game_as_unexplained() {
    let rs = Ruleset::load("second-edition").unwrap();
    let models = short_models::<Game>(&rs);
    let bots = ["balance", "balance~0.5", "random", "greedy", "mcts:12", "paired-balance:8", "paired-balance:8@build"];
    same_games_explained::<Game>(&rs, &models, &bots);
}

#[test]
fn the_balance_bot_chose_its_top_valued_option_and_names_the_features_that_drove_it() {
    let rs = Ruleset::load("second-edition").unwrap();
    let models = short_models::<Game>(&rs);
    let valued = balance_explained::<Game>(&rs, &models, &["built:"]);
    // The terminal's lines: the bot, the chosen answer marked with its value, and the drivers.
    let w = valued.iter().find(|w| !w.drivers.is_empty() && w.options.len() == 4).unwrap();
    let lines = w.lines();
    eprintln!("{}", lines.join("\n"));
    assert!(lines[0].starts_with(&format!("why seat {} (balance) chose so (values: points of final margin)", w.seat)));
    let chosen = format!("▸ {}", w.options[0].label);
    assert!(lines[1].trim_start().starts_with(&chosen) && lines[1].contains('.'), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("driven by: ") && l.contains(&w.drivers[0].feature)), "{lines:?}");
}

#[test]
fn a_search_explains_by_win_shares() {
    let rs = Ruleset::load("second-edition").unwrap();
    let models = short_models::<Game>(&rs);
    let mut game = Game::start(&rs, 2, 4).unwrap();
    // The first decision is a role: searched.
    let (choice, w) = explained_choice(&game, "mcts:40", 9, &models).unwrap();
    assert_eq!(choice, bot_choice(&game, "mcts:40", 9, &models).unwrap());
    assert_eq!(w.unit, Some("win share"));
    let visits: Vec<u32> = w.options.iter().map(|o| o.visits.unwrap()).collect();
    assert!(visits.windows(2).all(|p| p[0] >= p[1]) && w.options[0].chosen, "most visited first: {w:?}");
    assert!(w.options.iter().all(|o| o.value.is_none_or(|v| (0.0..=1.0).contains(&v))), "{w:?}");
    assert!(w.lines().iter().any(|l| l.contains("visits")), "{:?}", w.lines());
    let (_, w) = explained_choice(&game, "paired-balance:20", 9, &models).unwrap();
    assert_eq!(w.unit, Some("win share"));
    assert!(w.how.contains("the same"), "{}", w.how);
    // No bot is to move once the game is over: refused, not a panic.
    while game.to_move().is_some() {
        let a = game.legal()[0];
        game.apply(a).unwrap();
    }
    assert!(explained_choice(&game, "balance", 1, &models).unwrap_err().contains("over"));
    assert!(
        explained_choice(&Game::start(&rs, 2, 4).unwrap(), "nobot", 1, &models).unwrap_err().contains("unknown bot")
    );
}
