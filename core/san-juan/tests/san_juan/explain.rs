//! "Why did the bot do that?" (`engine_game::explain`) in San Juan: a bot
//! explained chooses exactly as it does unexplained, and its explanation
//! shows the values it chose by.

use std::sync::Arc;

use engine_game::explain::{Explanation, explained_choice};
use engine_game::run::bot_choice;
use engine_game::{Game as _, Models, Rules as _};
use engine_play::TurnGame;
use san_juan::{Game, Ruleset};

/// A balance model from a short self-play, so that the test stays quick in a debug build.
fn short_models(rs: &Arc<Ruleset>) -> Models {
    let schedule = engine_play::value::Schedule { games: 60, rounds: 2, ..Default::default() };
    let model = engine_game::models::learn::<Game>(rs, vec![2], schedule).unwrap();
    let models = Models::new();
    models.get_or_learn(Game::ID, rs.fingerprint(), || Ok(model)).unwrap();
    models
}

/// A 2-player game between `bot`s, each move chosen plain or explained; the
/// actions played and the explanations.
fn play(rs: &Arc<Ruleset>, bot: &str, seed: u64, models: &Models, explain: bool) -> (Vec<String>, Vec<Explanation>) {
    let mut game = Game::start(rs, 2, seed).unwrap();
    game.record_actions(true);
    let mut explanations = Vec::new();
    while let Some(seat) = game.to_move() {
        let bot_seed = seed ^ (game.saved_len() as u64) << 8 ^ seat as u64;
        let choice = if explain {
            let (choice, why) = explained_choice(&game, bot, bot_seed, models).unwrap();
            assert_eq!(why.seat, seat);
            explanations.push(why);
            choice
        } else {
            bot_choice(&game, bot, bot_seed, models).unwrap()
        };
        let action = game.legal()[choice];
        game.apply(action).unwrap();
    }
    (game.recorded_texts(), explanations)
}

#[test]
fn a_bot_explained_plays_the_same_game_as_unexplained() {
    let rs = Ruleset::load("second-edition").unwrap();
    let models = short_models(&rs);
    for bot in ["balance", "balance~0.5", "random", "greedy", "mcts:12", "paired-balance:8", "paired-balance:8@build"] {
        for seed in 0..2 {
            let (plain, none) = play(&rs, bot, seed, &models, false);
            let (explained, why) = play(&rs, bot, seed, &models, true);
            assert!(none.is_empty());
            assert!(plain.len() > 20, "{bot}: a whole game");
            assert_eq!(plain, explained, "{bot}, seed {seed}: the same game with and without explanations");
            for w in &why {
                let chosen: Vec<_> = w.options.iter().filter(|o| o.chosen).collect();
                assert_eq!(chosen.len(), 1, "{bot}: one chosen option: {w:?}");
                match bot {
                    "random" | "greedy" => {
                        assert!(w.unit.is_none() && w.options.len() == 1 && w.options[0].value.is_none(), "{w:?}");
                        assert!(w.how.contains("no values") || w.how.contains("one legal answer"), "{}", w.how);
                    }
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn the_balance_bot_chose_its_top_valued_option_and_names_the_features_that_drove_it() {
    let rs = Ruleset::load("second-edition").unwrap();
    let models = short_models(&rs);
    let model = models.balance::<Game>(&rs).unwrap();
    let (_, why) = play(&rs, "balance", 3, &models, true);
    let valued: Vec<&Explanation> = why.iter().filter(|w| w.unit.is_some()).collect();
    assert!(valued.len() > 20, "{} of {} moves valued", valued.len(), why.len());
    let (mut built, mut with_three) = (0, 0);
    for w in &valued {
        assert_eq!(w.unit, Some("points of final margin"));
        let top = w.options[0].value.unwrap();
        assert!(w.options[0].chosen, "the chosen answer comes first: {w:?}");
        assert!(w.options.iter().all(|o| o.value.unwrap() <= top), "the chosen is the top-valued: {w:?}");
        assert_eq!(w.options.len(), w.answers.min(4), "the chosen and at most three others: {w:?}");
        with_three += usize::from(w.options.len() == 4);
        assert_eq!(w.against.as_deref(), Some(w.options[1].label.as_str()), "drivers against the runner-up");
        for d in &w.drivers {
            assert!(model.features.contains(&d.feature), "{}", d.feature);
            assert!((d.effect - d.weight * (d.chosen - d.other)).abs() < 1e-9, "{d:?}");
        }
        assert!(w.drivers.windows(2).all(|p| p[0].effect.abs() >= p[1].effect.abs()), "largest first: {w:?}");
        built += usize::from(w.drivers.iter().any(|d| d.feature.starts_with("built:")));
    }
    assert!(with_three > 5, "decisions with three alternatives shown: {with_three}");
    assert!(built > 3, "a building drove some choices: {built}");
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
    let models = short_models(&rs);
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
