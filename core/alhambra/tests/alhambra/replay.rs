//! The same seed gives the same game; the recorded actions, as text, replay it.

use std::sync::Arc;

use alhambra::bots::{Bot, RandomBot};
use alhambra::sim::{play_game, play_one};
use alhambra::{Game, Ruleset};

#[test]
fn same_seed_same_game() {
    let rs = Ruleset::load("alhambra").unwrap();
    for n in 2..=6 {
        let bots = vec!["random".to_owned(); n];
        for index in 0..20 {
            let a = play_one(&rs, &bots, 7, index).unwrap();
            let b = play_one(&rs, &bots, 7, index).unwrap();
            assert_eq!(a, b);
        }
        let a = play_one(&rs, &bots, 7, 0).unwrap();
        let c = play_one(&rs, &bots, 8, 0).unwrap();
        assert_ne!(a.seed, c.seed);
        assert_ne!(a, c);
    }
}

#[test]
fn replaying_the_actions_of_a_seed_gives_the_same_game() {
    let rs = Ruleset::load("alhambra").unwrap();
    for n in [2, 3, 5] {
        let mut game = Game::new(Arc::clone(&rs), n, 42).unwrap();
        let mut bot = RandomBot::new(1);
        let mut actions = Vec::new();
        while game.pending().is_some() {
            let a = bot.choose(&game, game.legal_actions());
            actions.push(a);
            game.apply(a).unwrap();
        }
        let mut replay = Game::new(Arc::clone(&rs), n, 42).unwrap();
        for a in actions {
            replay.apply(a).unwrap();
        }
        assert!(replay.is_over());
        assert_eq!(replay.scores(), game.scores());
        assert_eq!(replay.census(), game.census());
    }
}

/// Every game played by bots of each kind replays from its saved game (the
/// recorded actions as text, written as TOML and read back) to the same final state.
#[test]
fn saved_bot_games_replay_to_the_same_final_state() {
    use alhambra::files::Source;
    use alhambra::saved::SavedGame;

    let rs = Ruleset::load("alhambra").unwrap();
    let lineups: [&[&str]; 4] =
        [&["random", "random"], &["greedy", "random", "mcts:4"], &["mcts:3", "greedy"], &["greedy"; 6]];
    for (k, lineup) in lineups.iter().enumerate() {
        let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
        let games = if lineup.iter().any(|b| b.starts_with("mcts")) { 3 } else { 30 };
        for index in 0..games {
            let (record, game) = play_game(&rs, &bots, 11 + k as u64, index, true).unwrap();
            let saved = SavedGame::of(&game, "alhambra", record.seed, bots.clone());
            let source = Source::Disk(format!("saved-{k}-{index}.toml").into());
            let back = SavedGame::parse(&source, &saved.to_toml()).unwrap();
            assert_eq!(back, saved, "the saved TOML reads back as written");
            let (again, _) = back.replay_with(Arc::clone(&rs), &source, false).unwrap_or_else(|e| panic!("{e}"));
            assert!(again.is_over(), "{lineup:?} game {index}: replay stops before the end");
            assert_eq!(again.view(None), game.view(None), "{lineup:?} game {index}");
            assert_eq!(again.census(), game.census());
            assert_eq!(again.actions_applied(), game.actions_applied());
        }
    }
}
