//! High-Low through the engine's generic interface, as every front end reaches it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine_game::saved::SavedGame;
use engine_game::{Game as _, Kind, KindOf, Models, Rules as _, run};
use engine_play::{Determinize, TurnGame};
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
    assert!(s.trace.iter().any(|l| l.contains("seat 0 plays c6 and scores 6")), "{:?}", s.trace);
    // After the refused `play c1`, the game stands where it was.
    let mut game = s.game;
    assert_eq!(game.pile_top(), Some(6));
    assert_eq!(game.legal_actions(), [Action::Draw]);
    let refused = game.apply(Action::Play(1)).expect_err("1 does not beat 6");
    assert!(matches!(refused, GameError::Illegal { .. }) && refused.refused());
    let unknown = game.apply_text("play seven").expect_err("no such answer");
    assert!(unknown.refused() && unknown.to_string().contains("legal now: draw"), "{unknown}");
    game.apply_text("  draw ").expect("spaces aside, the notation is read back");
    assert_eq!(game.hand(0).len(), 3);
}

#[test]
fn two_passes_in_a_row_with_an_empty_deck_end_the_game() {
    let ruleset =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cards/toy/rulesets/high-low.toml"))
            .unwrap()
            .replace("high = 9", "high = 3")
            .replace("rounds = 8", "rounds = 100")
            .replace("max_players = 4", "max_players = 3");
    let rs = Ruleset::load(scratch("short-deck.toml", &ruleset).to_str().unwrap(), None).unwrap();
    let mut game = Game::start(&rs, 2, 1).unwrap();
    let mut last = Vec::new();
    while !game.is_over() {
        let a = *game.legal_actions().last().expect("someone is to move");
        game.apply(a).unwrap();
        last.push(a);
    }
    assert_eq!(game.deck_size(), 0);
    assert_eq!(last[last.len() - 2..], [Action::Pass, Action::Pass]);
    assert_eq!(last.iter().filter(|a| **a == Action::Draw).count(), 12 - 7, "every card of the deck was drawn");
}

#[test]
fn a_scenario_is_checked_where_it_is_wrong() {
    let text = std::fs::read_to_string(worked_example()).unwrap().replace("ruleset = \"high-low\"\n", "");
    let typo = text.replace("seed = 16", "sed = 16");
    let e = Game::scenario(&scratch("typo.toml", &typo), None, false).err().expect("an unknown key");
    assert!(e[0].contains("did you mean `seed`") && e[0].contains(":7:"), "{e:?}");
    let refused = text.replace("error = \"illegal action `play c1`\"\n", "");
    let e = Game::scenario(&scratch("refused.toml", &refused), None, false).err().expect("an action refused");
    assert!(e[0].contains("action 3: illegal action `play c1`") && e[0].contains(":8:"), "{e:?}");
    let players = text.replace("players = 2", "players = 7");
    let e = Game::scenario(&scratch("players.toml", &players), None, false).err().expect("seven players");
    assert!(e[0].contains("7 players") && e[0].contains(":6:"), "{e:?}");
    let wrong = text
        .replace("\"/pile_top\" = \"c6\"", "\"/pile_top\" = \"c5\"\n\"/pile\" = 1")
        .replace("scores = [6, 0]", "scores = [6, 1]");
    let s = Game::scenario(&scratch("wrong.toml", &wrong), None, false).expect("it plays");
    assert_eq!(
        s.failures.unwrap(),
        [
            "scores: expected [6, 1], got [6, 0]",
            "view /pile: expected 1, but the view has no such entry",
            "view /pile_top: expected \"c5\", got \"c6\"",
        ]
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
    assert_eq!((&*last.verb, last.text.as_str()), ("draw", "draw"));
    assert!(legal.iter().filter(|a| a.verb == "play").all(|a| a.label == a.text && a.text.starts_with("play c")));
    let played = game.play(last.id).unwrap();
    assert!(played.seats[1][0].text.contains("draws a card"), "{:?}", played.seats);
    assert_eq!(game.resolve(" play c7 "), Ok("play c7".into()), "the engine's default: the line as typed");
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
    let typo = scenario.replacen("seed =", "sed =", 1);
    assert!(refuses("scenario", &typo).is_some_and(|e| e.contains("sed")), "{typo}");
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../cards/toy/scenarios/{name}.toml"))
}

fn gamble_files() -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cards/toy/rulesets");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("a shipped file");
    (read("gamble.toml"), read("gamble.rhai"))
}

/// A ruleset written to the scratch folder with its script beside it, loaded.
fn scripted(name: &str, toml: &str, script: &str) -> Result<Arc<Ruleset>, String> {
    scratch(&format!("{name}.rhai"), script);
    let toml = toml.replace("script = \"gamble.rhai\"", &format!("script = \"toy-{name}.rhai\""));
    Ruleset::load(scratch(&format!("{name}.toml"), &toml).to_str().unwrap(), None).map_err(|e| e.to_string())
}

#[test]
fn the_gamble_is_an_action_and_a_choice_of_toml_and_a_script_only() {
    for name in ["gamble-take-top", "gamble-two-cards"] {
        let s = Game::scenario(&scenario(name), None, true).expect("the scenario loads");
        assert_eq!(s.failures, Some(Vec::new()), "{name}");
    }
    let s = Game::scenario(&scenario("gamble-take-top"), None, true).unwrap();
    assert!(s.trace.iter().any(|l| l.contains("seat 0 moves c6 from the pile to the hand")), "{:?}", s.trace);
    // Before its answer the choice is the seat's whole decision; a second gamble is not offered with 0 points.
    let mut game = Game::scenario(&scenario("gamble-two-cards"), None, false).unwrap().game;
    let legal: Vec<String> = game.legal_actions().iter().map(|a| game.action_text(a)).collect();
    assert_eq!(legal, ["choose two_cards", "choose take_top"]);
    game.apply_text("choose two_cards").unwrap();
    assert_eq!((game.hand(0).len(), game.deck_size(), game.scores()), (4, 26, &[4, 0][..]));
    let legal: Vec<String> = game.legal_actions().iter().map(|a| game.action_text(a)).collect();
    assert!(!legal.iter().any(|a| a.starts_with("gamble") || a.starts_with("choose")), "{legal:?}");
    assert!(game.apply_text("choose take_top").unwrap_err().refused());
}

#[test]
fn every_bot_plays_the_gamble_and_a_saved_game_with_it_replays() {
    let rs = Ruleset::load("gamble", None).expect("the built-in ruleset loads");
    for seed in 0..300 {
        Game::check_random_game(&rs, 2 + (seed % 3) as usize, seed).expect("the census holds");
    }
    let models = Models::new();
    let mut gambled = 0;
    for (i, bots) in
        [["random", "random"], ["greedy", "random"], ["balance", "random"], ["mcts:20", "random"]].iter().enumerate()
    {
        for index in 0..20 {
            let (record, game) = run::play_game::<Game>(&rs, &names(bots), i as u64, index, true, &models).unwrap();
            let saved = SavedGame::<Game>::of(&game, "gamble", record.seed, names(bots));
            gambled += saved.actions.iter().filter(|a| a.starts_with("choose")).count();
            let source = Source::Disk("saved.toml".into());
            let back = SavedGame::<Game>::parse(&source, &saved.to_toml()).expect("it reads back");
            let (replayed, _) = back.replay_with(Arc::clone(&rs), &source, false).expect("it replays");
            assert_eq!(replayed.view_json(None).unwrap(), game.view_json(None).unwrap());
        }
    }
    assert!(gambled > 10, "the bots gambled {gambled} times in 80 games");
}

#[test]
fn an_action_of_a_design_nobody_wrote_rust_for_plays_from_its_arguments() {
    // Another game's idea (Dominion's trashing): put a card that cannot beat the top under the deck... on top.
    let (toml, _) = gamble_files();
    let toml =
        toml.replace("verb = \"gamble\"", "verb = \"bury\"").replace("id = \"gamble\"\nname", "id = \"bury\"\nname");
    let script = "fn legal(ctx) { let top = ctx.pile_top; if top == () { [] } else { ctx.hand.filter(|c| c < top) } }\n\
                  fn on_action(ctx) { #{ move: ctx.args[0], from: \"hand\", to: \"deck\" } }\n";
    let rs = scripted("bury", &toml, script).expect("it loads");
    let mut game = Game::start(&rs, 2, 16).unwrap();
    let legal: Vec<String> = game.legal_actions().iter().map(|a| game.action_text(a)).collect();
    assert_eq!(legal, ["play c6", "draw", "bury c1"], "c5 is not below the 5");
    game.apply_text("bury c1").unwrap();
    assert_eq!((game.hand(0), game.deck_size(), game.to_move()), (&[5, 6][..], 30, Some(1)));
}

#[test]
fn a_broken_action_is_refused_where_it_is_written() {
    let (toml, script) = gamble_files();
    let e = scripted("collide", &toml.replace("verb = \"gamble\"", "verb = \"draw\""), &script).unwrap_err();
    assert!(e.contains("`draw` is a verb of the game already") && e.contains("toy-collide.toml:"), "{e}");
    let e = scripted("decision", &toml.replace("decision = \"turn\"", "decision = \"round\""), &script).unwrap_err();
    assert!(e.contains("an action is offered at one of: turn"), "{e}");
    let e = scripted("effect", &toml, &script.replace("#{ draw: 2 }", "#{ teleport: 2 }")).unwrap_err();
    assert!(e.contains("teleport") && e.contains("toy-effect.rhai:"), "{e}");
    let e = scripted("member", &toml, &script.replace("ctx.score >= 2", "ctx.choice == 2")).unwrap_err();
    assert!(e.contains("choice") && e.contains("toy-member.rhai:"), "{e}");
    // At play: an effect the state cannot carry out stops the action, located, and changes nothing.
    let rs =
        scripted("missing", &toml, &script.replace("move: \"top\", from: \"pile\"", "move: \"c0\", from: \"deck\""))
            .expect("it loads: the deck's cards are known only at play");
    let mut game = Game::start(&rs, 2, 16).unwrap();
    for a in ["play c6", "draw", "gamble"] {
        game.apply_text(a).unwrap();
    }
    let before = game.view_json(None).unwrap();
    let e = game.apply_text("choose take_top").unwrap_err().to_string();
    assert!(e.contains("no `c0` in the deck") && e.contains("toy-missing.rhai:"), "{e}");
    assert_eq!(game.view_json(None).unwrap(), before, "a failed action changes nothing");
}

/// Hostile rulesets for the `[[action]]` surface: random values, lines and
/// script snippets in the shipped gamble. Each loads with a located error or
/// plays random games that end, or stop with an error; none panics.
#[test]
fn hostile_actions_load_or_are_refused_and_never_panic() {
    use rand::{RngExt, SeedableRng};
    let (toml, script) = gamble_files();
    let values = [
        "\"\"",
        "\"choose\"",
        "\"play c1\"",
        "\"../../../etc/passwd\"",
        "-1",
        "[]",
        "{}",
        "\"\\u0000\"",
        "true",
        "\"turn turn turn turn\"",
        "\"gamble\"",
        "\"x\"",
    ];
    let snippets = [
        "loop {}",
        "#{ draw: 100000 }",
        "#{ score: 2147483647 }",
        "#{ score: -2147483647 }",
        "#{ move: \"top\", from: \"hand\", to: \"hand\" }",
        "[#{ choose: [] }]",
        "#{ choose: [\"a b\"] }",
        "#{ choose: [\"x\"], prompt: 3 }",
        "throw \"no\";",
        "ctx.hand",
        "[[1, 2, 3]]",
        "[#{ id: 4 }]",
        "#{}",
        "[(), (), ()]",
        "fn legal(ctx) { [\"c1\", \"c1\"] }",
        "fn on_choice(ctx, x) { () }",
        "ctx.nothing",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(51);
    let (mut loaded, mut refused) = (0, 0);
    for i in 0..300 {
        let mut t: Vec<String> = toml.lines().map(str::to_owned).collect();
        let mut s: Vec<String> = script.lines().map(str::to_owned).collect();
        let at = t.len() - 6 + rng.random_range(0..6);
        match rng.random_range(0..4) {
            0 => {
                let key = t[at].split(" = ").next().unwrap_or("id").to_owned();
                t[at] = format!("{key} = {}", values[rng.random_range(0..values.len())]);
            }
            1 => drop(t.remove(at)),
            2 => t.extend(toml.lines().skip(toml.lines().count() - 6).map(str::to_owned)),
            _ => {
                let line = rng.random_range(0..s.len());
                s[line] = snippets[rng.random_range(0..snippets.len())].to_owned();
            }
        }
        match scripted(&format!("hostile-{i}"), &t.join("\n"), &s.join("\n")) {
            Err(e) => {
                assert!(e.contains("toy-hostile-"), "an error names the file: {e}");
                refused += 1;
            }
            Ok(rs) => {
                loaded += 1;
                for seed in 0..3 {
                    if let Err(e) = Game::check_random_game(&rs, 2, seed) {
                        assert!(e.contains("error") || e.contains("action"), "{e}");
                    }
                }
            }
        }
    }
    assert!(loaded > 30 && refused > 30, "{loaded} loaded, {refused} refused");
}

/// Hostile scenario files for the engine's seeded format (a new file kind):
/// hostile values, lines dropped, `[from_game]` and view pointers of any
/// shape. Each plays or is refused with the file named; none panics.
#[test]
fn hostile_seeded_scenarios_are_refused_or_played_and_never_panic() {
    use rand::{RngExt, SeedableRng};
    let text = std::fs::read_to_string(scenario("gamble-take-top")).unwrap();
    let values = [
        "-1",
        "18446744073709551615",
        "\"\"",
        "[]",
        "{}",
        "99",
        "0",
        "\"../../../etc/passwd\"",
        "[\"choose x\", \"\"]",
        "true",
        "\"gamble\"",
        "[1, 2]",
    ];
    let extra = [
        "[from_game]\nplayers = 2\nseed = 3\nactions = [\"draw\", \"redeal 0 5\", \"play c99\"]",
        "[from_game]\nplayers = 0",
        "[expect.view]\n\"\" = 1\n\"/~1/~0\" = []\n\"not a pointer\" = {}\n\"/players/99/hand\" = 3",
        "[expect]\nlegal = [\"\"]\nwinners = [99]\nbreakdown = [{ x = 1 }]",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(35);
    let (mut played, mut refused) = (0, 0);
    for i in 0..200 {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let at = rng.random_range(0..lines.len());
        match rng.random_range(0..3) {
            0 if lines[at].contains(" = ") => {
                let key = lines[at].split(" = ").next().unwrap_or("seed").to_owned();
                lines[at] = format!("{key} = {}", values[rng.random_range(0..values.len())]);
            }
            1 => drop(lines.remove(at)),
            _ => lines.push(extra[rng.random_range(0..extra.len())].to_owned()),
        }
        let file = scratch(&format!("hostile-scenario-{i}.toml"), &lines.join("\n"));
        match Game::scenario(&file, None, true) {
            Ok(_) => played += 1,
            Err(e) => {
                assert!(e.iter().any(|l| l.contains("hostile-scenario-") || l.contains("ruleset")), "{e:?}");
                refused += 1;
            }
        }
    }
    assert!(played > 20 && refused > 20, "{played} played, {refused} refused");
}
