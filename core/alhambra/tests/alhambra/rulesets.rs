//! Rulesets on disk: `extends` the built-in one and changes only what
//! differs; every problem is reported at its file, line and key; the scripts
//! are the ruleset's own and their failures name the script.

use std::sync::Arc;

use alhambra::{Game, GameError, Ruleset};

/// A rules tree (`cards/`, `scripts/`) in a fresh temporary folder, removed when dropped.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = root.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    root
}

fn load(root: &tempfile::TempDir, file: &str) -> Result<Arc<Ruleset>, String> {
    Ruleset::load(root.path().join(file).to_str().unwrap()).map_err(|e| e.to_string())
}

#[test]
fn a_variant_extends_the_builtin_ruleset() {
    let root = tree(&[(
        "cards/six.toml",
        "id = \"six\"\ngame = \"alhambra\"\nname = \"Take six\"\nextends = \"alhambra\"\n[rules]\ntake_limit = 6\n",
    )]);
    let rs = load(&root, "cards/six.toml").unwrap();
    assert_eq!(rs.id, "six");
    assert_eq!(rs.rules.take_limit, 6);
    assert_eq!(rs.building_cards(), 54);
    assert_ne!(rs.fingerprint, Ruleset::load("alhambra").unwrap().fingerprint);
    let game = Game::new(rs, 3, 1).unwrap();
    assert!(game.pending().is_some());
}

#[test]
fn problems_name_file_line_and_key() {
    let root = tree(&[(
        "cards/bad.toml",
        "id = \"bad\"\nname = \"Bad\"\nextends = \"alhambra\"\n[rules]\ntake_limit = 5000\n[yard]\nslots = [\"denar\", \"euro\", \"ducat\", \"florin\"]\n",
    )]);
    let e = load(&root, "cards/bad.toml").unwrap_err();
    assert!(e.contains("bad.toml:5:14"), "{e}");
    assert!(e.contains("rules.take_limit is 5000; it must be between 0 and 1000"), "{e}");
    assert!(e.contains("bad.toml:7:19"), "{e}");
    assert!(e.contains("unknown currency `euro`; currencies: denar, dirham, ducat, florin"), "{e}");
    let e = Ruleset::load("alhambr").unwrap_err().to_string();
    assert!(e.contains("did you mean `alhambra`?"), "{e}");
}

#[test]
fn a_ruleset_of_another_game_is_refused() {
    let root = tree(&[("cards/o.toml", "id = \"o\"\nname = \"O\"\ngame = \"san-juan\"\nextends = \"alhambra\"\n")]);
    let e = load(&root, "cards/o.toml").unwrap_err();
    assert!(e.contains("this ruleset is for `san-juan`"), "{e}");
}

const SCORING: &str = "id = \"s\"\nname = \"S\"\nextends = \"alhambra\"\n[scripts]\nscore = \"../scripts/score.rhai\"\nneutral = \"../scripts/neutral.rhai\"\n";
const NEUTRAL: &str = "fn on_neutral(ctx) { ctx.cards }\n";

#[test]
fn a_script_that_does_not_compile_is_a_load_error() {
    let root = tree(&[
        ("cards/s.toml", SCORING),
        ("scripts/score.rhai", "fn on_score(ctx) {\n    let x = ;\n}\n"),
        ("scripts/neutral.rhai", NEUTRAL),
    ]);
    let e = load(&root, "cards/s.toml").unwrap_err();
    assert!(e.contains("score.rhai:2"), "{e}");
    assert!(e.contains("script does not compile"), "{e}");
}

#[test]
fn a_script_without_its_hook_is_a_load_error() {
    let root = tree(&[
        ("cards/s.toml", SCORING),
        ("scripts/score.rhai", "fn on_scor(ctx) { [] }\n"),
        ("scripts/neutral.rhai", NEUTRAL),
    ]);
    let e = load(&root, "cards/s.toml").unwrap_err();
    assert!(e.contains("did you mean `on_score`?"), "{e}");
}

#[test]
fn a_script_returning_the_wrong_shape_fails_the_game_with_its_name() {
    let root = tree(&[
        ("cards/s.toml", SCORING),
        ("scripts/score.rhai", "fn on_score(ctx) { \"lots\" }\n"),
        ("scripts/neutral.rhai", NEUTRAL),
    ]);
    let rs = load(&root, "cards/s.toml").unwrap();
    // Play random games until a scoring runs the script.
    let mut game = Game::new(rs, 3, 5).unwrap();
    let mut bot = engine_play::bots::RandomBot::new(1);
    let e = loop {
        let a = engine_play::bots::Bot::choose(&mut bot, &game, game.legal_actions());
        match game.apply(a) {
            Ok(_) => assert!(!game.is_over(), "the game ended without scoring"),
            Err(e) => break e,
        }
    };
    assert!(matches!(e, GameError::Script(_)), "{e}");
    let e = e.to_string();
    assert!(e.contains("score.rhai"), "{e}");
    assert!(e.contains("returned a string, expected an array"), "{e}");
    // The game stopped part way: it says so instead of going on from a broken state.
    let a = game.legal_actions().first().copied().unwrap_or(alhambra::Action::Pass);
    assert!(matches!(game.apply(a), Err(GameError::Broken(_))));
}

#[test]
fn a_starting_capital_the_money_cannot_always_deal_is_refused_where_it_is_set() {
    let rules = |capital: u32| {
        format!(
            "id = \"c\"\nname = \"C\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[rules]\nstarting_capital = {capital}\n"
        )
    };
    // 6 players may need up to 6 x (capital + 8) of the 540 in money.
    let root = tree(&[("cards/ok.toml", &rules(82)), ("cards/short.toml", &rules(83))]);
    let rs = load(&root, "cards/ok.toml").unwrap();
    for seed in 0..20 {
        Game::new(Arc::clone(&rs), 6, seed).unwrap();
    }
    let e = load(&root, "cards/short.toml").unwrap_err();
    assert!(e.contains("short.toml:6:20"), "{e}");
    assert!(e.contains("a starting capital of 83 cannot always be dealt to 6 players"), "{e}");
}

#[test]
fn extending_a_file_of_another_game_names_the_game_not_its_first_unknown_key() {
    let root = tree(&[
        (
            "cards/sj.toml",
            "id = \"sj\"\nname = \"SJ\"\ngame = \"san-juan\"\nsets = [\"base.toml\"]\n[rules]\nhand_limit = 7\n",
        ),
        ("cards/a.toml", "id = \"a\"\nname = \"A\"\ngame = \"alhambra\"\nextends = \"sj.toml\"\n"),
    ]);
    let e = load(&root, "cards/a.toml").unwrap_err();
    assert!(e.contains("this ruleset is for `san-juan`, but it is being loaded as `alhambra`"), "{e}");
    assert!(e.contains("sj.toml:3:8"), "{e}");
    assert!(!e.contains("unknown field"), "{e}");
}
