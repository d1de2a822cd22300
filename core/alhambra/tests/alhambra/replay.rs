//! The same seed gives the same game; the recorded actions, as text, replay it.

use std::sync::Arc;

use alhambra::bots::{Bot, RandomBot};
use alhambra::{Game, Ruleset};
use engine_game::Game as _;
use engine_game::run::{play_game, play_one};

#[test]
fn same_seed_same_game() {
    let rs = Ruleset::load("alhambra").unwrap();
    for n in 2..=6 {
        let bots = vec!["random".to_owned(); n];
        for index in 0..20 {
            let a = play_one::<Game>(&rs, &bots, 7, index, &engine_game::Models::default()).unwrap();
            let b = play_one::<Game>(&rs, &bots, 7, index, &engine_game::Models::default()).unwrap();
            assert_eq!(a, b);
        }
        let a = play_one::<Game>(&rs, &bots, 7, 0, &engine_game::Models::default()).unwrap();
        let c = play_one::<Game>(&rs, &bots, 8, 0, &engine_game::Models::default()).unwrap();
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
    let rs = Ruleset::load("alhambra").unwrap();
    let lineups: [&[&str]; 4] =
        [&["random", "random"], &["greedy", "random", "mcts:4"], &["mcts:3", "greedy"], &["greedy"; 6]];
    for (k, lineup) in lineups.iter().enumerate() {
        let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
        let games = if lineup.iter().any(|b| b.starts_with("mcts")) { 3 } else { 30 };
        for index in 0..games {
            replays_from_its_saved_game(&rs, "alhambra", &bots, 11 + k as u64, index);
        }
    }
}

/// An undo re-deals what the undoing seat has not seen (the others' money, the
/// decks' order, each scoring card within its pile): the seat's view is the
/// same, the hidden cards are not, and the saved game replays the re-deal.
#[test]
fn an_undo_cannot_peek_at_the_decks_and_the_game_still_replays() {
    use engine_game::saved::{SavedGame, undo_to};
    let rs = Ruleset::load("alhambra").unwrap();
    let mut game = Game::new(Arc::clone(&rs), 3, 11).unwrap();
    game.record_actions(true);
    let mut bot = RandomBot::new(2);
    for _ in 0..25 {
        let a = bot.choose(&game, game.legal_actions());
        game.apply(a).unwrap();
    }
    let seat = game.pending().unwrap().seat();
    let mark = game.saved_len();
    let a = undo_to(&game, Arc::clone(&rs), 11, mark, seat, 1).unwrap();
    let b = undo_to(&game, Arc::clone(&rs), 11, mark, seat, 2).unwrap();
    assert_eq!(a.view(Some(seat)), game.view(Some(seat)));
    assert_eq!(b.view(Some(seat)), game.view(Some(seat)));
    assert_ne!(a.view(None), b.view(None), "the others' money is dealt again");
    // Played on, then saved: the re-deal is an entry, and the file replays.
    let mut a = a;
    for _ in 0..30 {
        let x = bot.choose(&a, a.legal_actions());
        a.apply(x).unwrap();
    }
    let saved = SavedGame::<Game>::of(&a, "alhambra", 11, Vec::new());
    assert!(saved.actions.contains(&format!("redeal {seat} 1")), "{:?}", saved.actions);
    let source = engine_rules::files::Source::Disk("game.toml".into());
    let (replayed, _) = SavedGame::<Game>::parse(&source, &saved.to_toml()).unwrap().replay(&source, false).unwrap();
    assert_eq!(replayed.view(None), a.view(None));
    while a.pending().is_some() {
        let x = bot.choose(&a, a.legal_actions());
        a.apply(x).unwrap();
    }
    assert!(a.redeal(&[seat], 3).is_err(), "never once the game is over");
}

/// Games with scripts' choices and moves replay from their saved games in a
/// ruleset loaded afresh (as another process would: the options a choice
/// offered are not known to it until the replay offers them again).
#[test]
fn saved_games_with_choices_and_moves_replay_in_a_fresh_process() {
    use alhambra::files::Source;
    use alhambra::saved::SavedGame;

    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let files = [
        "snapshots/alhambra/rules/choices.toml",
        "corpus/alhambra/incinerator/ruleset.toml",
        "corpus/alhambra/hand_tax/ruleset.toml",
        "corpus/alhambra/concordia_row/ruleset.toml",
        "corpus/alhambra/mirage/ruleset.toml",
        "corpus/alhambra/sell_back/ruleset.toml",
        "corpus/alhambra/money_changer/ruleset.toml",
        "snapshots/alhambra/rules/actions.toml",
    ];
    for file in files {
        let path = format!("{root}{file}");
        let rs = Ruleset::load(&path).unwrap();
        let mut answered = 0;
        for (k, lineup) in [["random", "random", "random"], ["greedy", "random", "greedy"]].iter().enumerate() {
            let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
            for index in 0..6 {
                let (record, game) =
                    play_game::<Game>(&rs, &bots, 5 + k as u64, index, true, &engine_game::Models::default()).unwrap();
                let saved = SavedGame::of(&game, &path, record.seed, bots.clone());
                answered +=
                    saved.actions.iter().filter(|a| a.starts_with("choose") || a.starts_with("discard")).count();
                let source = Source::Disk(format!("{file}-{k}-{index}.toml").into());
                let back = SavedGame::parse(&source, &saved.to_toml()).unwrap();
                assert_eq!(back, saved, "{file}: the saved TOML reads back as written");
                let fresh = Ruleset::load(&path).unwrap();
                let (again, _) = back.replay_with(fresh, &source, false).unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(again.view(None), game.view(None), "{file} {lineup:?} game {index}");
                assert_eq!(again.census(), game.census(), "{file}");
            }
        }
        if file.contains("choices") || file.contains("incinerator") || file.contains("hand_tax") {
            assert!(answered > 0, "{file}: no choice was answered in 12 games; the test tests nothing");
        }
    }
}

/// The vocabulary's newer words replay too: games of the vizier (actions
/// out of turn that buy), the bonus cards (`counts_as`), the reserve (a zone,
/// purchases from it in any one currency) and the test rulesets' purchases by action, played by random, greedy and search bots,
/// saved as text and read back, end in the same state.
#[test]
fn saved_games_with_actions_out_of_turn_and_bonus_cards_replay() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    for path in [
        "corpus/alhambra/vizier/ruleset.toml",
        "corpus/alhambra/bonus_card/ruleset.toml",
        "corpus/alhambra/reserve/ruleset.toml",
        "snapshots/alhambra/rules/out_of_turn.toml",
        "snapshots/alhambra/rules/reserve.toml",
    ] {
        let rs = Ruleset::load(&format!("{folder}{path}")).unwrap();
        for (k, lineup) in [&["random", "random", "random"][..], &["greedy", "mcts:3"]].iter().enumerate() {
            let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
            for index in 0..4 {
                replays_from_its_saved_game(&rs, path, &bots, 5 + k as u64, index);
            }
        }
    }
}

/// Plays game `index` of run `seed` with `bots`, saves it (naming the ruleset
/// `name`), reads the TOML back and replays it: the same final state.
fn replays_from_its_saved_game(rs: &Arc<Ruleset>, name: &str, bots: &[String], seed: u64, index: u64) {
    use alhambra::files::Source;
    use alhambra::saved::SavedGame;

    let (record, game) = play_game::<Game>(rs, bots, seed, index, true, &engine_game::Models::default()).unwrap();
    let saved = SavedGame::of(&game, name, record.seed, bots.to_vec());
    let source = Source::Disk(format!("saved-{seed}-{index}.toml").into());
    let back = SavedGame::parse(&source, &saved.to_toml()).unwrap();
    assert_eq!(back, saved, "{name}: the saved TOML reads back as written");
    let (again, _) = back.replay_with(Arc::clone(rs), &source, false).unwrap_or_else(|e| panic!("{e}"));
    assert!(again.is_over(), "{name} {bots:?} game {index}: replay stops before the end");
    assert_eq!(again.view(None), game.view(None), "{name} {bots:?} game {index}");
    assert_eq!(again.census(), game.census());
    assert_eq!(again.actions_applied(), game.actions_applied());
}
