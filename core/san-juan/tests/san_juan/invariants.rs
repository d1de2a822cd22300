//! Invariants over many seeded random games: every card is always in exactly
//! one place, nobody holds more than their hand limit when a round starts,
//! and every game ends.

use std::sync::Arc;

use engine_game::Game as _;
use san_juan::bots::{Bot, RandomBot};
use san_juan::{Game, Ruleset};

const GAMES_PER_COUNT: u64 = 1000;

fn check_game(rs: &Arc<Ruleset>, players: usize, seed: u64) {
    san_juan::sim::check_random_game(rs, players, seed).unwrap_or_else(|e| panic!("{e}"));
}

fn check_count(ruleset: &str, cards: usize, players: usize) {
    let rs = Ruleset::load(ruleset).unwrap();
    assert_eq!(rs.total_cards(), cards);
    for seed in 0..GAMES_PER_COUNT {
        check_game(&rs, players, seed);
    }
}

#[test]
fn two_players() {
    check_count("second-edition", 110, 2);
}

#[test]
fn three_players() {
    check_count("second-edition", 110, 3);
}

#[test]
fn four_players() {
    check_count("second-edition", 110, 4);
}

/// 143 deck cards and the cathedral.
#[test]
fn expansion_two_players() {
    check_count("second-edition-expansion", 144, 2);
}

#[test]
fn expansion_three_players() {
    check_count("second-edition-expansion", 144, 3);
}

#[test]
fn expansion_four_players() {
    check_count("second-edition-expansion", 144, 4);
}

#[test]
fn first_edition_four_players() {
    check_count("first-edition", 110, 4);
}

const GALLERY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/gallery.toml");

/// The gallery's ten buildings (two copies each) react to anyone's actions,
/// ask for choices, move cards between players and keep counters: 110 + 20 cards.
#[test]
fn gallery_two_to_four_players() {
    for players in 2..=4 {
        check_count(GALLERY, 130, players);
    }
}

const TABLE_LAB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/table.toml");

/// The table lab's ten buildings (one copy each) hear other players' sales and
/// production, read the whole table and act on other players' buildings: 110 + 10
/// cards, every invariant kept.
#[test]
fn table_lab_two_to_four_players() {
    for players in 2..=4 {
        check_count(TABLE_LAB, 120, players);
    }
}

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/corpus.toml");

/// The corpus's 22 buildings (one copy each) hear draws, discards, tucks,
/// goods placed and removed, counters, turns and rounds, and act on them:
/// 110 + 22 cards, every invariant kept with random bots, 2 to 4 players.
#[test]
fn corpus_two_to_four_players() {
    for players in 2..=4 {
        check_count(CORPUS, 132, players);
    }
}

const OUTSIDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/outside.toml");

/// The outside corpus's 12 buildings, written from the docs alone (a building
/// removed from another city, choices carried by a tag, filtered and optional):
/// 110 + 12 cards, every invariant kept with random bots, 2 to 4 players.
#[test]
fn outside_corpus_two_to_four_players() {
    for players in 2..=4 {
        check_count(OUTSIDE, 122, players);
    }
}

/// The corpus between balance bots (and greedy ones): whole games end, and
/// every card is where it should be at the end.
#[test]
fn corpus_games_between_balance_and_greedy_bots_end() {
    let rs = Ruleset::load(CORPUS).unwrap();
    let models = engine_game::Models::new();
    for (k, bots) in [["balance"; 4].as_slice(), ["greedy", "balance", "random"].as_slice()].iter().enumerate() {
        let bots: Vec<String> = bots.iter().map(|b| (*b).to_owned()).collect();
        for index in 0..40 {
            let (record, game) =
                engine_game::run::play_game::<san_juan::Game>(&rs, &bots, 3 + k as u64, index, false, &models)
                    .unwrap_or_else(|e| panic!("{bots:?} game {index}: {e}"));
            assert!(record.rounds > 0 && record.rounds < 100, "game {index} took {} rounds", record.rounds);
            let cards: u32 = game.census().iter().sum();
            assert_eq!(cards as usize, rs.total_cards(), "{bots:?} game {index}: cards conserved");
        }
    }
}

/// The greedy bot answers the gallery's choices too, through whole games.
#[test]
fn gallery_games_between_greedy_bots_end() {
    let rs = Ruleset::load(GALLERY).unwrap();
    let bots = vec!["greedy".to_owned(); 4];
    for index in 0..200 {
        let record =
            engine_game::run::play_one::<san_juan::Game>(&rs, &bots, 11, index, &engine_game::Models::default())
                .unwrap();
        assert!(record.rounds > 0 && record.rounds < 100, "game {index} took {} rounds", record.rounds);
    }
}

#[test]
fn same_seed_same_game() {
    let bots = vec!["random".to_owned(); 4];
    for index in 0..20 {
        let rs = Ruleset::load(if index % 2 == 0 { "second-edition" } else { "second-edition-expansion" }).unwrap();
        let a = engine_game::run::play_one::<san_juan::Game>(&rs, &bots, 7, index, &engine_game::Models::default())
            .unwrap();
        let b = engine_game::run::play_one::<san_juan::Game>(&rs, &bots, 7, index, &engine_game::Models::default())
            .unwrap();
        assert_eq!(a, b);
    }
    let rs = Ruleset::load("second-edition").unwrap();
    let c = engine_game::run::play_one::<san_juan::Game>(&rs, &bots, 8, 0, &engine_game::Models::default()).unwrap();
    let a = engine_game::run::play_one::<san_juan::Game>(&rs, &bots, 7, 0, &engine_game::Models::default()).unwrap();
    assert_ne!(a.seed, c.seed);
    assert_ne!(a, c);
}

#[test]
fn replaying_the_actions_of_a_seed_gives_the_same_game() {
    let rs = Ruleset::load("second-edition").unwrap();
    let mut game = Game::new(Arc::clone(&rs), 3, 42).unwrap();
    let mut bot = RandomBot::new(1);
    let mut actions = Vec::new();
    while game.pending().is_some() {
        let a = bot.choose(&game, game.legal_actions());
        actions.push(a);
        game.apply(a).unwrap();
    }
    let mut replay = Game::new(rs, 3, 42).unwrap();
    for a in actions {
        replay.apply(a).unwrap();
    }
    assert!(replay.is_over());
    assert_eq!(replay.scores().unwrap(), game.scores().unwrap());
    assert_eq!(replay.census(), game.census());
}

/// Every game the program saves replays to the same final state: bots of every
/// kind (their produce, sell and pay choices are one card per action), every
/// built-in ruleset, 2 to 4 players, through the TOML text a user would keep.
#[test]
fn saved_bot_games_replay_to_the_same_final_state() {
    use engine_game::run::play_game;
    use san_juan::files::Source;
    use san_juan::saved::SavedGame;

    let lineups: [&[&str]; 4] =
        [&["random", "random"], &["greedy", "random", "mcts:4"], &["mcts:3", "greedy"], &["greedy"; 4]];
    let mut replayed = 0;
    for id in san_juan::files::BUILTINS.ruleset_ids() {
        let rs = Ruleset::load(&id).unwrap();
        for (k, lineup) in lineups.iter().enumerate() {
            let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
            let games = if lineup.iter().any(|b| b.starts_with("mcts")) { 6 } else { 30 };
            for index in 0..games {
                let (record, game) = play_game::<san_juan::Game>(
                    &rs,
                    &bots,
                    11 + k as u64,
                    index,
                    true,
                    &engine_game::Models::default(),
                )
                .unwrap();
                let saved = SavedGame::of(&game, &id, record.seed, bots.clone());
                let source = Source::Disk(format!("{id}-{k}-{index}.toml").into());
                let back = SavedGame::parse(&source, &saved.to_toml()).unwrap();
                assert_eq!(back, saved, "the saved TOML reads back as written");
                let (again, _) = back.replay_with(Arc::clone(&rs), &source, false).unwrap_or_else(|e| panic!("{e}"));
                assert!(again.is_over(), "{id} {lineup:?} game {index}: replay stops before the end");
                assert_eq!(again.view(None).unwrap(), game.view(None).unwrap(), "{id} {lineup:?} game {index}");
                assert_eq!(again.actions_applied(), game.actions_applied());
                replayed += 1;
            }
        }
    }
    assert!(replayed >= 200, "only {replayed} games replayed");
}

/// Games with the gallery's choices (`choose sell`, a discard for the
/// embassy, the scriptorium's look) replay from their saved text onto a
/// freshly loaded ruleset, which has never seen the options' names.
#[test]
fn saved_gallery_games_with_choices_replay() {
    use engine_game::run::play_game;
    use san_juan::files::Source;
    use san_juan::saved::SavedGame;

    let rs = Ruleset::load(GALLERY).unwrap();
    let mut choices = 0;
    for (k, lineup) in [["random"; 3], ["greedy"; 3]].iter().enumerate() {
        let bots: Vec<String> = lineup.iter().map(|b| (*b).to_owned()).collect();
        for index in 0..20 {
            let (record, game) =
                play_game::<san_juan::Game>(&rs, &bots, 5 + k as u64, index, true, &engine_game::Models::default())
                    .unwrap();
            let saved = SavedGame::of(&game, GALLERY, record.seed, bots.clone());
            let text = saved.to_toml();
            choices += text.matches("\"choose ").count();
            let source = Source::Disk(format!("gallery-{k}-{index}.toml").into());
            let back = SavedGame::parse(&source, &text).unwrap();
            let fresh = Ruleset::load(GALLERY).unwrap();
            let (again, _) = back.replay_with(fresh, &source, false).unwrap_or_else(|e| panic!("{e}"));
            assert!(again.is_over(), "{lineup:?} game {index}: replay stops before the end");
            assert_eq!(again.view(None).unwrap(), game.view(None).unwrap(), "{lineup:?} game {index}");
        }
    }
    assert!(choices >= 20, "only {choices} choices in 40 saved games");
}

/// Scoring scripts that count a city's kinds or tags are remembered per city
/// (keyed by what those counts depend on); the same scripts made to read
/// something unkeyed run every time. Random games on both score alike, with
/// the remembered answers shared across all of them.
#[test]
fn remembered_scoring_answers_equal_the_scripts_run_afresh() {
    use san_juan::hooks::Hook;
    let rs = Ruleset::load("second-edition").unwrap();
    for id in ["guild_hall", "city_hall", "triumphal_arch"] {
        let card = rs.cards.idx(id).unwrap() as usize;
        assert!(rs.scripts.memo_reads(Hook::Score as usize, card).is_some(), "{id} is not remembered");
    }
    let dir = tempfile::tempdir().unwrap();
    let unkeyed = [
        ("guild_hall", "ctx.count_kind(\"production\") + ctx.count_types(\"production\")"),
        ("city_hall", "ctx.count_kind(\"city\")"),
        ("triumphal_arch", "{ let n = ctx.count_tag(\"monument\"); if n == 0 { 0 } else { 2 + 2 * n } }"),
    ];
    let mut toml = "id = \"afresh\"\nname = \"afresh\"\nextends = \"second-edition\"\n".to_owned();
    for (id, body) in unkeyed {
        // Reading `ctx.buildings` (a list) keeps the answer from being remembered.
        let script = format!("fn on_score(ctx) {{ let city = ctx.buildings; {body} }}\n");
        std::fs::write(dir.path().join(format!("{id}.rhai")), script).unwrap();
        toml.push_str(&format!("[cards.{id}]\nscript = \"{id}.rhai\"\n"));
    }
    let path = dir.path().join("afresh.toml");
    std::fs::write(&path, toml).unwrap();
    let afresh = Ruleset::load(path.to_str().unwrap()).unwrap();
    let card = afresh.cards.idx("guild_hall").unwrap() as usize;
    assert!(afresh.scripts.memo_reads(Hook::Score as usize, card).is_none());
    let models = engine_game::Models::new();
    let bots = vec!["random".to_owned(); 4];
    let mut scored = 0;
    for i in 0..400 {
        let a = engine_game::run::play_one::<Game>(&rs, &bots, 9, i, &models).unwrap();
        let b = engine_game::run::play_one::<Game>(&afresh, &bots, 9, i, &models).unwrap();
        assert_eq!((&a.scores, &a.winners), (&b.scores, &b.winners), "game {i}");
        scored += a.buildings.iter().flatten().filter(|b| &*b.id == "guild_hall" || &*b.id == "city_hall").count();
    }
    assert!(scored > 100, "only {scored} scoring buildings built: the test would prove little");
}

/// `refill_from` reuses a stale copy's buffers (the balance bot's spare copy):
/// the game it makes must play on exactly as the original does.
#[test]
fn a_game_copied_into_an_old_one_plays_on_the_same() {
    use engine_play::turns::TurnGame;
    use rand::SeedableRng;
    for ruleset in ["second-edition", "first-edition", "second-edition-expansion"] {
        let rs = Ruleset::load(ruleset).unwrap();
        for seed in 0..30u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let pick =
                |g: &Game, rng: &mut rand_chacha::ChaCha8Rng| g.legal()[engine_play::rng::below(rng, g.legal().len())];
            // A stale copy: another deal, further on, with other cards in other places.
            let mut copy = Game::new(Arc::clone(&rs), 4, seed + 1000).unwrap();
            for _ in 0..80 {
                if copy.to_move().is_none() {
                    break;
                }
                let a = pick(&copy, &mut rng);
                copy.play(a).unwrap();
            }
            let mut game = Game::new(Arc::clone(&rs), 4, seed).unwrap();
            for _ in 0..25 {
                let a = pick(&game, &mut rng);
                game.play(a).unwrap();
            }
            copy.refill_from(&game);
            let mut steps = 0;
            while game.to_move().is_some() {
                assert_eq!((copy.to_move(), copy.legal()), (game.to_move(), game.legal()), "{ruleset} seed {seed}");
                let a = pick(&game, &mut rng);
                game.play(a).unwrap();
                copy.play(a).unwrap();
                steps += 1;
            }
            assert!(copy.to_move().is_none() && steps > 50, "{ruleset} seed {seed}: {steps} steps");
            assert_eq!(copy.scores().unwrap(), game.scores().unwrap(), "{ruleset} seed {seed}");
        }
    }
}
