//! The checks every game's tests run on "why did the bot do that?"
//! ([`crate::explain`]), written once: a bot explained plays the same game
//! as unexplained, and the balance bot's explanation shows the values and the
//! features it chose by. A game's test gives its ruleset, its bots and the
//! feature names that should drive some choices.

use std::sync::Arc;

use crate::explain::{Explanation, explained_choice};
use crate::run::bot_choice;
use crate::{Game, Models, Rules};

/// A balance model from a short self-play, so that a test stays quick in a debug build.
pub fn short_models<G: Game>(rs: &Arc<G::Rules>) -> Models {
    let schedule = engine_play::value::Schedule { games: 60, rounds: 2, ..Default::default() };
    let model = crate::models::learn::<G>(rs, vec![2], schedule, None).expect("a short model learns");
    let models = Models::new();
    models.get_or_learn(G::ID, rs.fingerprint(), || Ok(model)).expect("kept");
    models
}

/// A 2-player game between `bot`s, each move chosen plain or explained: the
/// actions played and the explanations.
pub fn play<G: Game>(
    rs: &Arc<G::Rules>,
    bot: &str,
    seed: u64,
    models: &Models,
    explain: bool,
) -> (Vec<String>, Vec<Explanation>) {
    let mut game = G::start(rs, 2, seed).expect("a game starts");
    game.record_actions(true);
    let mut explanations = Vec::new();
    while let Some(seat) = game.to_move() {
        let bot_seed = seed ^ (game.saved_len() as u64) << 8 ^ seat as u64;
        let choice = if explain {
            let (choice, why) = explained_choice(&game, bot, bot_seed, models).expect("explained");
            assert_eq!(why.seat, seat);
            explanations.push(why);
            choice
        } else {
            bot_choice(&game, bot, bot_seed, models).expect("chosen")
        };
        let action = game.legal()[choice];
        game.apply(action).expect("a legal answer applies");
    }
    (game.recorded_texts(), explanations)
}

/// Each of `bots` plays the same games explained as unexplained; bots without
/// values say so instead of giving numbers.
pub fn same_games_explained<G: Game>(rs: &Arc<G::Rules>, models: &Models, bots: &[&str]) {
    for &bot in bots {
        for seed in 0..2 {
            let (plain, none) = play::<G>(rs, bot, seed, models, false);
            let (explained, why) = play::<G>(rs, bot, seed, models, true);
            assert!(none.is_empty());
            assert!(plain.len() > 20, "{bot}: a whole game");
            assert_eq!(plain, explained, "{bot}, seed {seed}: the same game with and without explanations");
            for w in &why {
                let chosen = w.options.iter().filter(|o| o.chosen).count();
                assert_eq!(chosen, 1, "{bot}: one chosen option: {w:?}");
                if matches!(bot, "random" | "greedy") {
                    assert!(w.unit.is_none() && w.options.len() == 1 && w.options[0].value.is_none(), "{w:?}");
                    assert!(w.how.contains("no values") || w.how.contains("one legal answer"), "{}", w.how);
                }
            }
        }
    }
}

/// The balance bot's explanations of a game: the chosen option comes first and
/// is the top-valued, at most three others follow, the drivers are the model's
/// features (`effect = weight × (chosen − other)`, largest first), some
/// choices were driven by a feature starting with one of `drivers`, and the
/// terminal's lines name the bot, the chosen answer and the drivers. Returns
/// the explanations with values.
pub fn balance_explained<G: Game>(rs: &Arc<G::Rules>, models: &Models, drivers: &[&str]) -> Vec<Explanation> {
    let model = models.balance::<G>(rs).expect("a model");
    let (_, why) = play::<G>(rs, "balance", 3, models, true);
    let valued: Vec<Explanation> = why.into_iter().filter(|w| w.unit.is_some()).collect();
    assert!(valued.len() > 20, "{} moves valued", valued.len());
    let (mut driven, mut with_three) = (0, 0);
    for w in &valued {
        assert_eq!(w.unit, Some("points of final margin"));
        let top = w.options[0].value.expect("a value");
        assert!(w.options[0].chosen, "the chosen answer comes first: {w:?}");
        assert!(w.options.iter().all(|o| o.value.is_some_and(|v| v <= top)), "the chosen is the top-valued: {w:?}");
        assert_eq!(w.options.len(), w.answers.min(4), "the chosen and at most three others: {w:?}");
        with_three += usize::from(w.options.len() == 4);
        assert_eq!(w.against.as_deref(), Some(w.options[1].label.as_str()), "drivers against the runner-up");
        for d in &w.drivers {
            assert!(model.features.contains(&d.feature), "{}", d.feature);
            assert!((d.effect - d.weight * (d.chosen - d.other)).abs() < 1e-9, "{d:?}");
        }
        assert!(w.drivers.windows(2).all(|p| p[0].effect.abs() >= p[1].effect.abs()), "largest first: {w:?}");
        driven += usize::from(w.drivers.iter().any(|d| drivers.iter().any(|p| d.feature.starts_with(p))));
    }
    assert!(with_three > 5, "decisions with three alternatives shown: {with_three}");
    assert!(driven > 3, "a feature of {drivers:?} drove some choices: {driven}");
    // The terminal's lines: the bot, the chosen answer marked with its value, and the drivers.
    let w = valued.iter().find(|w| !w.drivers.is_empty() && w.options.len() == 4).expect("a driven choice of four");
    let lines = w.lines();
    assert!(lines[0].starts_with(&format!("why seat {} (balance) chose so (values: points of final margin)", w.seat)));
    let chosen = format!("▸ {}", w.options[0].label);
    assert!(lines[1].trim_start().starts_with(&chosen) && lines[1].contains('.'), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("driven by: ") && l.contains(&w.drivers[0].feature)), "{lines:?}");
    valued
}

/// A search's explanation at the first decision of a 2-player game (one the
/// search looks at): win shares, most visited first for MCTS, the same deals
/// for `paired`; the choice is the plain bot's; a finished game and an unknown
/// bot are refused, not a panic.
pub fn search_explained<G: Game>(rs: &Arc<G::Rules>, models: &Models) {
    let mut game = G::start(rs, 2, 4).expect("a game starts");
    let (choice, w) = explained_choice(&game, "mcts:40", 9, models).expect("explained");
    assert_eq!(choice, bot_choice(&game, "mcts:40", 9, models).expect("chosen"));
    assert_eq!(w.unit, Some("win share"));
    let visits: Vec<u32> = w.options.iter().map(|o| o.visits.expect("visits")).collect();
    assert!(visits.windows(2).all(|p| p[0] >= p[1]) && w.options[0].chosen, "most visited first: {w:?}");
    assert!(w.options.iter().all(|o| o.value.is_none_or(|v| (0.0..=1.0).contains(&v))), "{w:?}");
    assert!(w.lines().iter().any(|l| l.contains("visits")), "{:?}", w.lines());
    let (_, w) = explained_choice(&game, "paired-balance:20", 9, models).expect("explained");
    assert_eq!(w.unit, Some("win share"));
    assert!(w.how.contains("the same"), "{}", w.how);
    while game.to_move().is_some() {
        let a = game.legal()[0];
        game.apply(a).expect("a legal answer applies");
    }
    assert!(explained_choice(&game, "balance", 1, models).unwrap_err().contains("over"));
    let fresh = G::start(rs, 2, 4).expect("a game starts");
    assert!(explained_choice(&fresh, "nobot", 1, models).unwrap_err().contains("unknown bot"));
}
