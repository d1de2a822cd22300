//! High-Low through the engine's generic interface, as every front end reaches it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine_game::saved::SavedGame;
use engine_game::{Game as _, Kind, KindOf, Models, Rules as _, run};
use engine_play::Determinize;
use engine_rules::Source;
use toy::{Action, Game, GameError, Ruleset};

fn rules() -> Arc<Ruleset> {
    Ruleset::load("high-low", None).expect("the built-in ruleset loads")
}

fn names(bots: &[&str]) -> Vec<String> {
    bots.iter().map(|b| (*b).to_owned()).collect()
}

/// A file written for one test, under the test binary's own scratch folder.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("toy-{name}"));
    std::fs::write(&path, text).expect("the scratch folder is writable");
    path
}

fn worked_example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cards/toy/scenarios/beat-the-top.toml")
}

#[test]
fn the_built_in_ruleset_has_the_defaults() {
    let rs = rules();
    let r = &rs.rules;
    assert_eq!((r.low, r.high, r.copies, r.hand, r.rounds), (1, 9, 4, 3, 8));
    assert_eq!(rs.players(), (2, 4));
    assert_eq!(rs.deck().len(), 36);
    assert_eq!(rs.fingerprint.len(), 16);
}

#[test]
fn the_worked_example_plays_as_its_expect_says() {
    let s = Game::scenario(&worked_example(), None, true).expect("the scenario loads");
    assert_eq!(s.failures, Some(Vec::new()));
    assert_eq!(s.notes.len(), 1, "{:?}", s.notes);
    assert!(s.trace.iter().any(|l| l.contains("seat 0 plays c7 and scores 7")), "{:?}", s.trace);
    // After the refused `play c3`, the game stands where it was.
    let mut game = s.game;
    assert_eq!(game.pile_top(), Some(7));
    assert_eq!(game.legal_actions(), [Action::Play(9), Action::Draw]);
    let refused = game.apply(Action::Play(3)).expect_err("3 does not beat 7");
    assert!(matches!(refused, GameError::Illegal { .. }) && refused.refused());
    let parse = game.apply_text("play seven").expect_err("no card");
    assert!(parse.refused());
    game.apply_text("play 9").expect("`play 9` is `play c9`");
    assert_eq!(game.scores(), [16, 4]);
}

#[test]
fn two_passes_in_a_row_with_an_empty_deck_end_the_game() {
    let text = "pile_top = \"c9\"\nplayers = [{ hand = [\"c1\"] }, { hand = [\"c2\"], score = 3 }]\n\
                actions = [\"pass\", \"pass\"]\n[expect]\nover = true\nscores = [0, 3]\n";
    let s = Game::scenario(&scratch("passes.toml", text), None, false).expect("it loads");
    assert_eq!(s.failures, Some(Vec::new()));
    assert_eq!(s.game.winners(), [1]);
    assert!(s.game.view(None).winners.is_some());
}

#[test]
fn a_scenario_card_the_deck_lacks_is_located() {
    let text = std::fs::read_to_string(worked_example()).unwrap().replace("ruleset = \"high-low\"\n", "");
    let bad = text.replace("deck = [\"c8\", \"c1\"]", "deck = [\"c8\", \"c9\", \"c9\", \"c9\", \"c9\"]");
    let e = Game::scenario(&scratch("too-many-nines.toml", &bad), None, false).err().expect("five 9s");
    assert!(e[0].contains("no `c9` left") && e[0].contains(":5:"), "{e:?}");
    let typo = text.replace("round = 1", "rund = 1");
    let e = Game::scenario(&scratch("typo.toml", &typo), None, false).err().expect("an unknown key");
    assert!(e[0].contains("did you mean `round`"), "{e:?}");
    let seat_typo = text.replacen("score = 4", "scor = 4", 1);
    let e = Game::scenario(&scratch("seat-typo.toml", &seat_typo), None, false).err().expect("an unknown seat key");
    let at = format!(":{}:", 1 + seat_typo.lines().position(|l| l.contains("scor =")).unwrap());
    assert!(
        e[0].contains("unknown field `scor`") && e[0].contains(&at) && e[0].contains("did you mean `score`"),
        "{e:?}"
    );
}

#[test]
fn a_ruleset_file_is_checked_where_it_is_wrong() {
    let good =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cards/toy/rulesets/high-low.toml"))
            .unwrap();
    let load = |name: &str, text: String| {
        Ruleset::load(scratch(name, &text).to_str().unwrap(), None).map_err(|e| e.to_string())
    };
    assert!(load("good.toml", good.clone()).is_ok());
    let e = load("unknown.toml", good.replace("rounds = 8", "rounds = 8\nbonus = 2")).unwrap_err();
    assert!(e.contains("unknown field `bonus`") && e.contains(":19:"), "{e}");
    let e = load("low.toml", good.replace("low = 1", "low = 12")).unwrap_err();
    assert!(e.contains("above the highest"), "{e}");
    let e = load("hand.toml", good.replace("hand = 3", "hand = 9")).unwrap_err();
    assert!(e.contains("37 cards are dealt to 4 players, the deck has 36"), "{e}");
    let e = load("game.toml", good.replace("game = \"toy\"", "game = \"alhambra\"")).unwrap_err();
    assert!(e.contains("is for `alhambra`"), "{e}");
}

#[test]
fn random_games_end_with_every_card_in_one_place_and_replay_from_their_seed() {
    let rs = rules();
    for seed in 0..200 {
        let players = 2 + (seed % 3) as usize;
        let actions = Game::check_random_game(&rs, players, seed).expect("the census holds");
        assert!(actions > 0);
    }
    let bots = names(&["random", "random", "random"]);
    for index in 0..20 {
        let a = run::play_one::<Game>(&rs, &bots, 7, index, &engine_game::Models::default()).unwrap();
        assert_eq!(a, run::play_one::<Game>(&rs, &bots, 7, index, &engine_game::Models::default()).unwrap());
        assert!(!a.stalled && a.rounds <= 8 && !a.winners.is_empty());
    }
}

#[test]
fn a_saved_game_replays_to_the_same_state_with_a_redeal_in_it() {
    let rs = rules();
    let (record, game) =
        run::play_game::<Game>(&rs, &names(&["greedy", "random"]), 3, 0, true, &engine_game::Models::default())
            .unwrap();
    let saved = SavedGame::<Game>::of(&game, "high-low", record.seed, names(&["greedy", "random"]));
    let source = Source::Disk("saved.toml".into());
    let back = SavedGame::<Game>::parse(&source, &saved.to_toml()).expect("it reads back");
    assert_eq!(back, saved);
    let (replayed, _) = back.replay_with(Arc::clone(&rs), &source, false).expect("it replays");
    assert_eq!(replayed.view_json(None).unwrap(), game.view_json(None).unwrap());

    // An undo's re-deal is an entry of its own, and replays too.
    let mut game = Game::start(&rs, 2, 11).unwrap();
    game.record_actions(true);
    game.apply(Action::Draw).unwrap();
    engine_game::Game::redeal(&mut game, &[1], 99).unwrap();
    // Draw (or pass) to the end: the redeal must not break the replay of later draws.
    while !game.is_over() {
        let last = *game.legal_actions().last().unwrap();
        game.apply(last).unwrap();
    }
    let saved = SavedGame::<Game>::of(&game, "high-low", 11, Vec::new());
    assert_eq!(saved.actions[1], "redeal 1 99");
    let (replayed, _) = saved.replay_with(Arc::clone(&rs), &source, false).unwrap();
    assert_eq!(replayed.view_json(None).unwrap(), game.view_json(None).unwrap());
}

#[test]
fn determinize_keeps_what_the_seat_sees_and_deals_the_rest_again() {
    let rs = rules();
    let game = Game::start(&rs, 3, 5).unwrap();
    let mine = game.view_json(Some(0)).unwrap();
    let mut changed = false;
    for seed in 0..20 {
        let other = game.determinize(0, seed);
        assert_eq!(other.view_json(Some(0)).unwrap(), mine);
        assert_eq!(other.census(), game.census());
        changed |= other.hand(1) != game.hand(1) || other.hand(2) != game.hand(2);
    }
    assert!(changed, "no seed dealt the others' hands differently");
}

/// Greedy wins 56.0% against random over 20,000 games: once a 9 is on the pile nobody can
/// play again, and a deal that turns up a 9 is a 0:0 tie, so luck weighs heavily. 400 games
/// (one standard error 2.5%) cannot tell 56% from 55%; 2,000 games, seats swapped, can tell it
/// from a coin flip.
#[test]
fn the_greedy_bot_beats_random() {
    let rs = rules();
    let games = 2000;
    let mut greedy = 0.0;
    for index in 0..games {
        let seats = if index % 2 == 0 { ["greedy", "random"] } else { ["random", "greedy"] };
        let r = run::play_one::<Game>(&rs, &names(&seats), 1, index, &engine_game::Models::default()).unwrap();
        let seat = (index % 2) as usize;
        if r.winners.contains(&seat) {
            greedy += 1.0 / r.winners.len() as f64;
        }
    }
    assert!(greedy / games as f64 > 0.53, "greedy won {greedy} of {games}");
}

#[test]
fn the_balance_and_search_bots_play_and_learning_is_quick() {
    let rs = rules();
    let started = std::time::Instant::now();
    let models = Models::new();
    let model = models.balance::<Game>(&rs).expect("it learns");
    assert!(started.elapsed().as_secs_f64() < 5.0, "learning took {:?}", started.elapsed());
    assert_eq!(model.features.len(), 6);
    let face = KindOf::<Game>::new().load("high-low", None).unwrap();
    assert!(Models::new().give(face.as_ref(), (*model).clone()).is_ok(), "a model fits its own content");
    for bots in [["balance", "random"], ["mcts:30", "greedy"]] {
        let r = run::play_one::<Game>(&rs, &names(&bots), 2, 0, &models).unwrap();
        assert_eq!(r.scores.len(), 2);
    }
    assert!(engine_game::bots::make::<Game>(&rs, "clever", 0, &models).is_err());
}

#[test]
fn every_front_end_reaches_it_through_the_registry_face() {
    static KIND: KindOf<Game> = KindOf::new();
    let kind: &dyn Kind = &KIND;
    assert_eq!((kind.id(), kind.title(), kind.default_ruleset()), ("toy", "High-Low", "high-low"));
    let rules = kind.load("high-low", None).unwrap();
    assert_eq!(rules.game_id(), "toy");
    let mut game = rules.start(2, 4).unwrap();
    game.log_events(true);
    game.record_actions(true);
    let view = game.view(Some(0)).unwrap();
    assert!(view["players"][0]["hand"].is_array() && view["players"][1].get("hand").is_none());
    assert_eq!(view["players"][1]["hand_size"], 3);
    let legal = game.legal();
    let last = legal.last().unwrap();
    assert_eq!((last.verb, last.text.as_str()), ("draw", "draw"));
    assert!(legal.iter().filter(|a| a.verb == "play").all(|a| a.zone == Some("hand") && a.card.is_some()));
    let played = game.play(last.id).unwrap();
    assert!(played.seats[1][0].text.contains("draws a card"), "{:?}", played.seats);
    assert_eq!(game.resolve("c7"), Ok("play c7".into()));
    assert_eq!(game.resolve("x"), Ok("draw".into()));
    assert!(game.resolve("7").is_err());
    while !game.over() {
        let choice = game.bot_choice("greedy", 1, &Models::new()).unwrap();
        game.play(choice).unwrap();
    }
    assert!(game.final_scores().is_some() && game.end_text(0, &[]).is_ok());
    let text = game.save("high-low", 4, &names(&["human", "greedy"]));
    let source = Source::Disk("saved.toml".into());
    let saved = kind.read_saved(&source, &text).unwrap();
    let (back, log) = kind.replay(&saved, &rules, &source, true).unwrap();
    assert_eq!(back.view(None).unwrap(), game.view(None).unwrap());
    assert!(log.last().is_some_and(|l| l.text.starts_with("the game ends")), "{log:?}");
    assert!(game.record(4, &names(&["human", "greedy"])).is_some());
}

/// The schemas `sanjuan schema --game toy` writes accept the game's shipped
/// files and refuse a misspelt key, as a new game's should (an independent
/// validator reads them: `boon`, a dev-dependency).
#[test]
fn the_shipped_files_are_valid_under_their_schemas_and_a_misspelt_key_is_not() {
    let schemas = KindOf::<Game>::new().schemas();
    assert_eq!(schemas.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["ruleset", "scenario"]);
    let mut compiled = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let mut index = std::collections::BTreeMap::new();
    for (kind, schema) in schemas {
        let url = format!("mem:///toy-{kind}.json");
        compiler.add_resource(&url, schema).unwrap();
        index.insert(kind, compiler.compile(&url, &mut compiled).unwrap());
    }
    let refuses = |kind: &str, text: &str| {
        let value: serde_json::Value = toml::from_str(text).unwrap();
        compiled.validate(&value, index[kind]).err().map(|e| e.to_string())
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cards/toy");
    let ruleset = std::fs::read_to_string(repo.join("rulesets/high-low.toml")).unwrap();
    let scenario = std::fs::read_to_string(worked_example()).unwrap();
    assert_eq!(refuses("ruleset", &ruleset), None);
    assert_eq!(refuses("scenario", &scenario), None);
    let typo = ruleset.replacen("\nrounds =", "\nround =", 1);
    assert!(refuses("ruleset", &typo).is_some_and(|e| e.contains("round")), "{typo}");
    assert!(Ruleset::load(scratch("typo.toml", &typo).to_str().unwrap(), None).is_err());
    let typo = scenario.replacen("pile_top =", "pile =", 1);
    assert!(refuses("scenario", &typo).is_some_and(|e| e.contains("pile")), "{typo}");
}
