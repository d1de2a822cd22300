//! "Why did the bot do that?" (`engine_game::explain`) in the Alhambra card game: a bot
//! explained chooses exactly as it does unexplained, and its explanation
//! shows the values it chose by (the checks every game shares are
//! `engine_game::explain_check`'s).

use alhambra::{Game, Ruleset};
use engine_game::explain_check::{balance_explained, same_games_explained, search_explained, short_models};

#[test]
fn a_bot_explained_plays_the_same_game_as_unexplained() {
    let rs = Ruleset::load("alhambra").unwrap();
    let models = short_models::<Game>(&rs);
    let bots = ["balance", "balance~0.5", "random", "greedy", "mcts:12", "paired-balance:8", "paired-balance:8@turn"];
    same_games_explained::<Game>(&rs, &models, &bots);
}

#[test]
fn the_balance_bot_chose_its_top_valued_option_and_names_the_features_that_drove_it() {
    let rs = Ruleset::load("alhambra").unwrap();
    let models = short_models::<Game>(&rs);
    balance_explained::<Game>(&rs, &models, &["lead:", "majority"]);
}

#[test]
fn a_search_explains_by_win_shares() {
    let rs = Ruleset::load("alhambra").unwrap();
    // The first decision is a turn: searched.
    search_explained::<Game>(&rs, &short_models::<Game>(&rs));
}
