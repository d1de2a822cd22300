//! Rulesets on disk: `extends` the built-in one and changes only what
//! differs; every problem is reported at its file, line and key; the scripts
//! are the ruleset's own and their failures name the script.

use std::sync::Arc;

use alhambra::{Game, GameError, Ruleset};

/// A rules tree (`cards/`, `scripts/`) in a fresh temporary folder, removed when dropped.
pub(crate) fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = root.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    root
}

/// The ruleset at `file` of a tree, or its errors as text.
pub(crate) fn load(root: &tempfile::TempDir, file: &str) -> Result<Arc<Ruleset>, String> {
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

const HEAD: &str = "id = \"p\"\ngame = \"alhambra\"\nname = \"Patch\"\nextends = \"alhambra\"\n";

/// A file that extends another patches one type or one scoring: the rest is
/// the parent's, the new type's column comes from its `points`.
#[test]
fn a_patch_adds_a_type_with_its_column_or_changes_one_scoring() {
    let bath = "[[building]]\nid = \"bath\"\nname = \"Bath\"\nprices = [8, 9]\npoints = { A = [7], B = [14, 7], C = [22, 14, 7] }\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{bath}"))]);
    let rs = load(&root, "cards/p.toml").unwrap();
    assert_eq!(rs.types.len(), 7);
    assert_eq!(rs.types[6].id, "bath");
    assert_eq!(rs.scorings[1].ranks, [vec![8, 9, 10, 11, 12, 13, 14], vec![1, 2, 3, 4, 5, 6, 7]]);
    assert_eq!(rs.building_cards(), 56);
    // One scoring changed: its card and pile are kept, the others untouched.
    let c = "[[scoring]]\nname = \"A\"\nranks = [[2, 2, 3, 4, 5, 6]]\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{c}"))]);
    let rs = load(&root, "cards/p.toml").unwrap();
    assert_eq!(rs.scorings[0].ranks, [vec![2, 2, 3, 4, 5, 6]]);
    assert_eq!((rs.scorings[0].card.as_deref(), rs.scorings[0].pile), (Some("scoring_a"), Some(2)));
    assert_eq!(rs.scorings[2].ranks[0], [16, 17, 18, 19, 20, 21]);
    // An existing type changed in place keeps its column.
    let g = "[[building]]\nid = \"garden\"\nname = \"Garden\"\nprices = [6, 7]\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{g}"))]);
    let rs = load(&root, "cards/p.toml").unwrap();
    assert_eq!((rs.types[4].id.as_str(), rs.building_cards()), ("garden", 45));
}

/// The house rule written as a patch is the ruleset it was when it repeated
/// every type and scoring: the same fingerprint, so the same games.
#[test]
fn the_house_rule_patch_is_the_ruleset_it_was() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/alhambra/examples/house-rule.toml");
    let rs = Ruleset::load(path).unwrap();
    assert_eq!(rs.fingerprint, "c80f820a97966e7b");
    assert_eq!(rs.scorings[2].ranks[0], [16, 17, 18, 19, 20, 21, 22]);
}

#[test]
fn a_patch_missing_a_column_or_naming_a_wrong_scoring_is_refused_with_the_fix() {
    for (body, at, says, fix) in [
        (
            "[[building]]\nid = \"bath\"\nname = \"Bath\"\nprices = [8]\n",
            "p.toml:6:1",
            "new building type `bath` has no column in the scoring table",
            "add `points = { A = […], B = […, …], C = […, …, …] }`",
        ),
        (
            "[[building]]\nid = \"bath\"\nname = \"Bath\"\nprices = [8]\npoints = { A = [7], B = [14, 7], D = [1] }\n",
            "p.toml:9:",
            "there is no scoring `D`",
            "the scorings are A, B, C",
        ),
        (
            "[[building]]\nid = \"bath\"\nname = \"Bath\"\nprices = [8]\npoints = { A = [7], B = [14], C = [22, 14, 7] }\n",
            "p.toml:9:",
            "1 points; scoring B has 2 rank(s): give one number per rank",
            "",
        ),
        (
            "[[building]]\nid = \"bath\"\nname = \"Bath\"\nprices = [8]\npoints = { A = [7], B = [14, 7] }\n",
            "p.toml:9:",
            "no points for scoring C",
            "add `C = […, …, …]`",
        ),
    ] {
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{body}"))]);
        let err = load(&root, "cards/p.toml").unwrap_err();
        assert!(err.contains(at) && err.contains(says) && err.contains(fix), "{err}");
    }
}

/// A card's script is read against the vocabulary at load: a hook its owner
/// may not define and an effect's wrong key are refused with the fix.
#[test]
fn a_card_script_outside_the_vocabulary_is_refused_at_load() {
    let bazaar = "[[building]]\nid = \"bazaar\"\nname = \"Bazaar\"\nprices = [4]\npoints = { A = [2], B = [9, 2], C = [17, 9, 2] }\nscript = \"b.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{bazaar}")),
        ("cards/b.rhai", "fn on_score(ctx) { [] }\nfn on_bought(ctx) { #{ draw_money: 1, form: 0 } }\n"),
    ]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("building type bazaar may not define `on_score`"), "{err}");
    assert!(err.contains("`form` is not an effect or a result key") && err.contains("did you mean `from`?"), "{err}");
}

/// A hook a currency may not define is reported at the function in the
/// designer's script (not at the built-in ruleset's `scripts.score` key), with
/// every hook it may define; a currency's script that cannot be read, at the
/// designer's `script` key.
#[test]
fn a_currency_hook_error_points_at_the_designers_own_files() {
    let money = "[money]\ncurrencies = [\n  { id = \"denar\", name = \"denars\" },\n  { id = \"dirham\", name = \"dirhams\" },\n  \
                 { id = \"ducat\", name = \"ducats\" },\n  { id = \"florin\", name = \"florins\", script = \"g.rhai\" },\n]\n\
                 values = [1, 2, 3, 4, 5, 6, 7, 8, 9]\ncopies = 3\n";
    let root =
        tree(&[("cards/p.toml", &format!("{HEAD}{money}")), ("cards/g.rhai", "// gold\nfn on_points(ctx) { 2 }\n")]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("currency florin may not define `on_points`"), "{err}");
    assert!(err.contains("g.rhai:2:19") && !err.contains("alhambra.toml"), "{err}");
    assert!(
        err.contains("it may define: on_taken, on_paid, on_pays, can_pay, on_pay_value (") && !err.contains('…'),
        "{err}"
    );
    std::fs::remove_file(root.path().join("cards/g.rhai")).unwrap();
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("p.toml:") && !err.contains("alhambra.toml"), "{err}");
}

/// A ruleset's rules script (`[scripts] rules`) is heard by every player; it
/// may define every card hook but not the scoring's or the neutral
/// collector's, and both its errors and a missing file point at the
/// designer's own files.
#[test]
fn a_rules_script_is_checked_like_a_cards() {
    let rules = "[scripts]\nrules = \"r.rhai\"\n";
    let root =
        tree(&[("cards/p.toml", &format!("{HEAD}{rules}")), ("cards/r.rhai", "// tax\nfn on_score(ctx) { 1 }\n")]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("the rules script may not define `on_score`"), "{err}");
    assert!(err.contains("r.rhai:2:") && err.contains("on_price") && err.contains("on_points"), "{err}");
    std::fs::write(root.path().join("cards/r.rhai"), "fn on_price(ctx) { -1 }\n").unwrap();
    assert!(load(&root, "cards/p.toml").is_ok(), "a modifier loads");
    std::fs::remove_file(root.path().join("cards/r.rhai")).unwrap();
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("p.toml:") && err.contains("rules = ") && !err.contains("alhambra.toml"), "{err}");
}

/// A `ctx` member a hook is never given (it would be `()` at run time) is
/// refused by `check` where the script reads it: the table in the scoring
/// script, a price's target in an event; the same member in a hook that is
/// given it loads.
#[test]
fn a_ctx_member_the_hook_is_not_given_is_refused_where_read() {
    let score = "[scripts]\nscore = \"s.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{score}")),
        ("cards/s.rhai", "fn on_score(ctx) {\n    let t = ctx.table.turn;\n    ctx.counts.map(|n| n)\n}\n"),
    ]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("`ctx.table` is `()` in `on_score`") && err.contains("s.rhai:2:17"), "{err}");
    assert!(err.contains("in `on_score`, ctx has: counts, ranks, needs_building"), "{err}");
    let tower = "[[building]]\nid = \"tower\"\nscript = \"t.rhai\"\n";
    for (script, refused) in [
        ("fn on_bought(ctx) { if ctx.target == () { () } else { #{ score: 1 } } }\n", true),
        ("fn on_price(ctx) { if ctx.target.slot == 4 { 1 } else { 0 } }\n", false),
        ("fn on_points(ctx) { if ctx.scoring == \"C\" { 1 } else { 0 } }\n", false),
        ("fn on_points(ctx) { if ctx.event == () { 1 } else { 0 } }\n", true),
    ] {
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", script)]);
        match load(&root, "cards/p.toml") {
            Ok(_) => assert!(!refused, "{script} loaded"),
            Err(e) => assert!(refused && e.contains("t.rhai:1:") && e.contains("this hook is not given it"), "{e}"),
        }
    }
}

/// A key `ctx.table` (or a map in it) does not hold is refused by `check`
/// where it is read, with the nearest key; every key it holds loads, through
/// seats, the neutral collector, the display and the scorings done.
#[test]
fn a_table_key_no_map_holds_is_refused_where_read() {
    let tower = "[[building]]\nid = \"tower\"\nscript = \"t.rhai\"\n";
    let good = "fn on_bought(ctx) {\n    let t = ctx.table;\n    let n = ctx.table.seats[ctx.seat].buildings[0].bought + ctx.table.neutral.buildings.len()\n        + ctx.table.building_display[0].slot + ctx.table.seats[0].hand.len() + ctx.table.scored_at.len()\n        + ctx.table.seats[1].counts.len() + ctx.table.rules.len();\n    ()\n}\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", good)]);
    assert!(load(&root, "cards/p.toml").is_ok());
    for (script, wrong, near) in [
        ("fn on_bought(ctx) { let n = ctx.table.seat.len(); () }\n", "`ctx.table` has no `seat`", "seats"),
        (
            "fn on_bought(ctx) { let n = ctx.table.seats[0].building; () }\n",
            "`ctx.table.seats[…]` has no `building`",
            "buildings",
        ),
        (
            "fn on_bought(ctx) { let n = ctx.table.neutral.buildings[0].prise; () }\n",
            "`ctx.table.neutral.buildings[…]` has no `prise`",
            "price",
        ),
    ] {
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", script)]);
        let err = load(&root, "cards/p.toml").unwrap_err();
        assert!(
            err.contains(wrong) && err.contains("t.rhai:1:") && err.contains(&format!("did you mean `{near}`")),
            "{err}"
        );
    }
    // Through a loop's variable and a `let`'s.
    let looped = "fn on_bought(ctx) {\n    for s in ctx.table.seats { for b in s.buildings { let p = b.prise; } }\n    let d = ctx.table.building_display;\n    let x = d[0].slott;\n    ()\n}\n";
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", looped)]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("`b` has no `prise`") && err.contains("t.rhai:2:"), "{err}");
    assert!(err.contains("`d` has no `slott`") && err.contains("t.rhai:4:"), "{err}");
}

/// A patch of an existing type gives only the keys it changes: a script alone
/// keeps the name, prices and column; prices alone keep the script, read
/// relative to the file that named it.
#[test]
fn a_patch_of_an_existing_type_gives_only_the_keys_it_changes() {
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}[[building]]\nid = \"garden\"\nscript = \"scripts/g.rhai\"\n")),
        ("cards/scripts/g.rhai", "fn on_points(ctx) { 1 }\n"),
        (
            "cards/sub/q.toml",
            "id = \"q\"\ngame = \"alhambra\"\nname = \"Q\"\nextends = \"../p.toml\"\n[[building]]\nid = \"garden\"\nprices = [6, 7]\n",
        ),
    ]);
    let base = Ruleset::load("alhambra").unwrap();
    let rs = load(&root, "cards/p.toml").unwrap();
    assert_eq!(rs.types[4].name, "Garden");
    assert_eq!(rs.types[4].prices, base.types[4].prices);
    assert_eq!(rs.types[4].script.as_deref(), Some("scripts/g.rhai"));
    assert_eq!(rs.building_cards(), 54);
    assert_eq!(rs.scorings[2].ranks, base.scorings[2].ranks);
    assert!(rs.hooks.type_listens(alhambra::hooks::Hook::Points, 4));
    let q = load(&root, "cards/sub/q.toml").unwrap();
    assert_eq!((q.types[4].prices.as_slice(), q.building_cards()), (&[6u8, 7][..], 45));
    assert!(q.hooks.type_listens(alhambra::hooks::Hook::Points, 4), "the script is kept");
    // `cards --diff` names the type whose script differs.
    assert_eq!(base.diff(&rs), ["building type garden: script added"]);
    assert_eq!(rs.diff(&base), ["building type garden: script removed"]);
    let other = tree(&[
        ("cards/p.toml", &format!("{HEAD}[[building]]\nid = \"garden\"\nscript = \"scripts/g.rhai\"\n")),
        ("cards/scripts/g.rhai", "fn on_points(ctx) { 2 }\n"),
    ]);
    let rs2 = load(&other, "cards/p.toml").unwrap();
    assert_eq!(rs.diff(&rs2), ["building type garden: script text differs"]);
}

/// A new type without `name` or `prices` is refused with a `[[building]]` entry's keys.
#[test]
fn a_new_type_missing_a_key_lists_the_building_keys() {
    let root = tree(&[("cards/p.toml", &format!("{HEAD}[[building]]\nid = \"bath\"\nscript = \"b.rhai\"\n"))]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("new building type `bath` has no name and prices"), "{err}");
    assert!(err.contains("a [[building]] entry has id, name, prices, points, script"), "{err}");
    assert!(!err.contains("[two_players]"), "{err}");
    assert!(err.contains("p.toml:6:"), "{err}");
    // A misspelt patch reads as a new type: the type meant is named.
    let root = tree(&[("cards/p.toml", &format!("{HEAD}[[building]]\nid = \"gardn\"\nscript = \"b.rhai\"\n"))]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(
        err.contains("new building type `gardn` has no name and prices") && err.contains("did you mean `garden`?"),
        "{err}"
    );
}

/// The new effects' keys are in the vocabulary `check` reads scripts against:
/// a misspelt one is refused with the key meant.
#[test]
fn the_money_and_counter_effects_misspelt_are_refused_with_the_key_meant() {
    let bazaar = "[[building]]\nid = \"garden\"\nscript = \"g.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{bazaar}")),
        (
            "cards/g.rhai",
            "fn on_bought(ctx) { [#{ take_mony: 1, from: 1 }, #{ counter: 1, mx: 3 }, #{ player_counter: \"x\", ad: 2 }] }\n",
        ),
    ]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    for (key, meant) in [("take_mony", "take_money"), ("mx", "max"), ("ad", "add")] {
        assert!(
            err.contains(&format!("`{key}` is not an effect")) && err.contains(&format!("did you mean `{meant}`?")),
            "{err}"
        );
    }
}

/// The scoring answers are remembered by sorted counts when the script scores
/// by count alone; a script that tells collectors apart by position must still
/// get every order right.
#[test]
fn a_scoring_script_that_tells_collectors_apart_is_answered_per_order() {
    // The first collector (seat 0) scores ten per building, everyone else one.
    let root = tree(&[
        ("cards/s.toml", SCORING),
        (
            "scripts/score.rhai",
            "fn on_score(ctx) { let p = []; for i in 0..ctx.counts.len() { p.push(if i == 0 { 10 * ctx.counts[i] } else { ctx.counts[i] }); } p }\n",
        ),
        ("scripts/neutral.rhai", NEUTRAL),
    ]);
    let rs = load(&root, "cards/s.toml").unwrap();
    for counts in [[3u8, 1, 2], [1, 3, 2], [2, 1, 3], [3, 1, 2]] {
        let rows: Vec<[u8; 8]> = counts.iter().map(|&c| [c; 8]).collect();
        let p = rs.type_points(0, 0, &rows).unwrap();
        let want = [10 * i32::from(counts[0]), i32::from(counts[1]), i32::from(counts[2])];
        assert_eq!(&p[..3], &want, "counts {counts:?}");
    }
    // More columns than the table of recent answers holds, asked twice over:
    // an answer found there is the one worked out, and no other column's.
    for pass in 0..2 {
        for n in 0..12u16 * 12 * 12 {
            let counts = [n % 12, n / 12 % 12, n / 144].map(|c| c as u8);
            let rows: Vec<[u8; 8]> = counts.iter().map(|&c| [c; 8]).collect();
            let p = rs.type_points(0, 0, &rows).unwrap();
            let want = [10 * i32::from(counts[0]), i32::from(counts[1]), i32::from(counts[2])];
            assert_eq!(&p[..3], &want, "pass {pass}, counts {counts:?}");
        }
    }
}

#[test]
fn the_rulebook_scoring_gives_each_seat_its_own_points_in_any_order() {
    let rs = Ruleset::load("alhambra").unwrap();
    // Third scoring, first type: the ranks' points, then the same counts in every seat order.
    let ranks: Vec<i32> = rs.scorings[2].ranks.iter().map(|r| r[0]).collect();
    let counts = [4u8, 0, 4, 2];
    let mut seen = Vec::new();
    // Each order twice: the second answer comes from the recent answers.
    for shift in 0..8 {
        let order: Vec<u8> = (0..4).map(|i| counts[(i + shift) % 4]).collect();
        let rows: Vec<[u8; 8]> = order.iter().map(|&c| [c; 8]).collect();
        let p = rs.type_points(2, 0, &rows).unwrap();
        for (i, &c) in order.iter().enumerate() {
            let want = match c {
                // Two tied for first share the 1st and 2nd ranks' points, rounded down.
                4 => (ranks[0] + ranks[1]) / 2,
                2 => ranks[2],
                _ => 0,
            };
            assert_eq!(p[i], want, "order {order:?}, seat {i}");
        }
        seen.push(p);
    }
    assert_ne!(seen[0], seen[1], "the points follow the seats");
}

#[test]
fn a_variant_replaces_the_scoring_script_alone_and_keeps_the_neutral_one() {
    // Winner takes all: only the most buildings score, ties share nothing.
    let root = tree(&[
        (
            "cards/s.toml",
            "id = \"s\"\nname = \"S\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[scripts]\nscore = \"../scripts/top.rhai\"\n",
        ),
        (
            "scripts/top.rhai",
            "fn on_score(ctx) { let top = 0; for n in ctx.counts { if n > top { top = n; } }\n\
             let many = 0; for n in ctx.counts { if n == top { many += 1; } }\n\
             let p = []; for n in ctx.counts { p.push(if n == top && many == 1 && n > 0 { ctx.ranks[0] } else { 0 }); } p }\n",
        ),
    ]);
    let rs = load(&root, "cards/s.toml").unwrap();
    let rows = |counts: &[u8]| counts.iter().map(|&c| [c; 8]).collect::<Vec<[u8; 8]>>();
    let first = rs.scorings[2].ranks[0][0];
    assert_eq!(&rs.type_points(2, 0, &rows(&[1, 3, 2])).unwrap()[..3], &[0, first, 0]);
    assert_eq!(&rs.type_points(2, 0, &rows(&[3, 3, 2])).unwrap()[..3], &[0, 0, 0]);
    // The neutral collector's script is the built-in one: two players play to the end.
    let builtin = Ruleset::load("alhambra").unwrap();
    assert_eq!(rs.hooks.neutral_draws(30, 6, 0).unwrap(), builtin.hooks.neutral_draws(30, 6, 0).unwrap());
    let mut game = Game::new(rs, 2, 3).unwrap();
    let mut bot = engine_play::bots::RandomBot::new(4);
    while !game.is_over() {
        let a = engine_play::bots::Bot::choose(&mut bot, &game, game.legal_actions());
        game.apply(a).unwrap();
    }
}

#[test]
fn a_script_path_is_checked_in_the_file_that_writes_it() {
    // A child's missing scoring script is reported at the child's own key.
    let root = tree(&[(
        "cards/s.toml",
        "id = \"s\"\nname = \"S\"\ngame = \"alhambra\"\nextends = \"alhambra\"\n[scripts]\nscore = \"../scripts/gone.rhai\"\n",
    )]);
    let e = load(&root, "cards/s.toml").unwrap_err();
    assert!(e.contains("s.toml:6"), "{e}");
    assert!(e.contains("gone.rhai"), "{e}");
    // A ruleset that extends nothing must name both scripts.
    let builtin = alhambra::files::BUILTINS
        .ruleset("alhambra")
        .unwrap()
        .read()
        .unwrap()
        .replace("neutral = \"../", "# neutral = \"../");
    let root = tree(&[("cards/root.toml", builtin.replace("id = \"alhambra\"", "id = \"root\"").as_str())]);
    let e = load(&root, "cards/root.toml").unwrap_err();
    assert!(e.contains("has no scripts.neutral"), "{e}");
}

/// `[[action]]`: a verb the notation has already, a verb two actions share,
/// a decision or argument kind the game lacks, a hook an action's script may
/// not define, and an action hook in a card's script are each refused where
/// they are written, with what the game has.
#[test]
fn an_action_is_refused_where_it_would_not_work() {
    let action = |verb: &str, decision: &str, args: &str| {
        format!(
            "[[action]]\nid = \"a\"\nverb = \"{verb}\"\ndecision = \"{decision}\"\nargs = [{args}]\nscript = \"a.rhai\"\n"
        )
    };
    let script = ("cards/a.rhai", "fn on_action(ctx) { () }\n");
    for (text, key, says) in [
        (action("take", "turn", ""), "action.0.verb", "`take` is a verb of the game already"),
        (action("Sell!", "turn", ""), "action.0.verb", "lower-case letters"),
        (action("sell", "night", ""), "action.0.decision", "an action is offered at one of: turn"),
        (action("sell", "turn", "\"moon\""), "action.0.args", "`moon` is not an argument kind"),
    ] {
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{text}")), script]);
        let err = load(&root, "cards/p.toml").unwrap_err();
        assert!(err.contains(says) && err.contains("p.toml:"), "{key}: {err}");
    }
    let two =
        format!("{}{}", action("sell", "turn", ""), action("sell", "turn", "").replace("\"a\"\nverb", "\"b\"\nverb"));
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{two}")), script]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("action `a` has the verb `sell` too"), "{err}");
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{}", action("sell", "turn", ""))),
        ("cards/a.rhai", "fn on_price(ctx) { 1 }\n"),
    ]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("action a may not define `on_price`") && err.contains("a.rhai:1:"), "{err}");
    let root = tree(&[("cards/p.toml", &format!("{HEAD}{}", action("sell back", "turn", "\"building\""))), script]);
    assert!(load(&root, "cards/p.toml").is_ok(), "two words, a building argument: loads");
    // Out of turn and purchases: a payment rule the game lacks, a turn to end
    // out of turn, a purchase whose first argument is neither a slot nor a
    // reserved building, a reserved building paid in a slot's currency.
    for (extra, args, key, says) in [
        (
            "payment = \"cheap\"\n",
            "\"slot\"",
            "action.0.payment",
            "an action is paid by one of: exact, price, any_one_currency",
        ),
        ("ends_turn = false\n", "", "action.0.ends_turn", "leave `ends_turn` out"),
        ("payment = \"exact\"\n", "\"hand\"", "action.0.args", "(the actor's reserve), not `hand`"),
        ("payment = \"price\"\n", "\"reserve\"", "action.0.payment", "`payment = \"any_one_currency\"`"),
    ] {
        let text = action("favour", "other_turn_end", args).replace("script =", &format!("{extra}script ="));
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{text}")), script]);
        let err = load(&root, "cards/p.toml").unwrap_err();
        assert!(err.contains(says) && err.contains("p.toml:"), "{key}: {err}");
    }
}

/// An action with `payment` whose script lists something other than a
/// display slot as its first argument stops the game with the script named,
/// rather than buying nothing or guessing.
#[test]
fn a_purchase_by_an_action_needs_a_slot() {
    let text = "[[action]]\nid = \"favour\"\nverb = \"favour\"\ndecision = \"other_turn_end\"\npayment = \"exact\"\nscript = \"a.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{text}")),
        ("cards/a.rhai", "fn legal(ctx) { [\"garden\"] }\nfn on_action(ctx) { () }\n"),
    ]);
    use alhambra::turns::TurnGame;
    let rs = load(&root, "cards/p.toml").unwrap();
    let mut game = alhambra::Game::new(rs, 3, 1).unwrap();
    let take = game.legal().iter().copied().find(|a| matches!(a, alhambra::actions::Action::Take(_))).unwrap();
    let mut err = None;
    for _ in 0..6 {
        let a = game.legal().first().copied().unwrap_or(take);
        match game.apply(a) {
            Ok(_) => {}
            Err(e) => {
                err = Some(e.to_string());
                break;
            }
        }
    }
    let err = err.expect("the first turn's end asks the script, which fails");
    assert!(err.contains("first argument is a display slot") && err.contains("a.rhai"), "{err}");
    // An `on_action` that takes away the building it buys stops the game with the fix.
    let text = "[[action]]\nid = \"grab\"\nverb = \"grab\"\ndecision = \"turn\"\nargs = [\"slot\"]\npayment = \"price\"\nscript = \"a.rhai\"\n";
    let root = tree(&[
        ("cards/p.toml", &format!("{HEAD}{text}")),
        (
            "cards/a.rhai",
            "fn on_action(ctx) { #{ move: \"building\", from: \"building_display\", slot: ctx.args[0], to: \"building_deck\" } }\n",
        ),
    ]);
    let rs = load(&root, "cards/p.toml").unwrap();
    let mut game = alhambra::Game::new(rs, 3, 1).unwrap();
    let grab = game.legal().iter().copied().find(|a| matches!(a, alhambra::actions::Action::Act(_)));
    let err = game.apply(grab.expect("a start player can pay some building")).unwrap_err().to_string();
    assert!(
        err.contains("cannot pay for slot") && err.contains("leave that slot alone") && err.contains("a.rhai"),
        "{err}"
    );
}

/// A `move` map that is wrong stops the game naming the key at fault and
/// what to write, for each of its keys (three players: no neutral collector).
/// Its values come from a helper, as computed ones would: literals are
/// checked when the ruleset loads.
#[test]
fn a_wrong_move_names_its_key_and_the_fix() {
    use alhambra::turns::TurnGame;
    let text = "[[action]]\nid = \"shift\"\nverb = \"shift\"\ndecision = \"turn\"\nscript = \"a.rhai\"\n";
    for (map, says) in [
        ("#{ move: v(5), from: v(\"hand\"), to: v(\"discard\") }", "`move` is a i32; write a card id"),
        ("#{ move: v(\"nothing\"), from: v(\"hand\"), to: v(\"discard\") }", "`move: \"nothing\"` names no card"),
        ("#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1) }", "`move` needs `to`"),
        ("#{ move: v(\"money\"), to: v(\"discard\") }", "`move` needs `from`"),
        ("#{ move: v(\"money\"), from: v(3), to: v(\"discard\") }", "`from` is a i32; write a zone name"),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"pocket\") }",
            "`to: \"pocket\"` is not a zone",
        ),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"neutral\") }",
            "only two players have a neutral",
        ),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"hand\"), to_seat: v(9) }",
            "key `to_seat`",
        ),
        ("#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"hand\"), seat: v(3) }", "key `seat`"),
        ("#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(9), to: v(\"discard\") }", "`slot`"),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"money_display\"), to_slot: v(0) }",
            "`to_slot`",
        ),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"money_deck\"), at: v(\"middle\") }",
            "`at` is \"top\" or \"bottom\"",
        ),
        (
            "#{ move: v(\"money\"), from: v(\"money_display\"), slot: v(1), to: v(\"discard\"), in_place_of: v(\"x\") }",
            "`in_place_of` puts a card on the money display",
        ),
        (
            "#{ move: v(\"garden\"), from: v(\"buildings\"), to: v(\"discard\") }",
            "a building card cannot go to the discard pile",
        ),
        (
            "#{ move: v(\"money\"), from: v(\"out\"), to: v(\"discard\") }",
            "a money card cannot be moved from out of the game",
        ),
    ] {
        let root = tree(&[
            ("cards/p.toml", &format!("{HEAD}{text}")),
            ("cards/a.rhai", &format!("fn v(x) {{ x }}\nfn on_action(ctx) {{ {map} }}\n")),
        ]);
        let rs = load(&root, "cards/p.toml").unwrap();
        let mut game = alhambra::Game::new(rs, 3, 1).unwrap();
        let shift = game.legal().iter().copied().find(|a| matches!(a, alhambra::actions::Action::Act(_)));
        let err = game.apply(shift.expect("offered at the first turn")).unwrap_err().to_string();
        assert!(err.contains(says) && err.contains("a.rhai"), "{map}: {err}");
    }
}

/// `counts_as`: a bonus card counts as a type with a column of its own; it
/// names one that exists, not itself nor another bonus, and gives no points.
#[test]
fn a_bonus_card_is_refused_where_it_would_not_count() {
    let bonus = |counts_as: &str, extra: &str| {
        format!(
            "{HEAD}[[building]]\nid = \"bonus\"\nname = \"Bonus\"\nprices = [4]\ncounts_as = \"{counts_as}\"\n{extra}\
             [[building]]\nid = \"bonus_two\"\nname = \"Bonus two\"\nprices = [4]\ncounts_as = \"bonus\"\n"
        )
    };
    for (text, says) in [
        (bonus("gardn", ""), "unknown building type `gardn`"),
        (bonus("bonus", ""), "`bonus` may not count as `bonus`"),
        (bonus("garden", "points = { A = [1], B = [2, 1], C = [3, 2, 1] }\n"), "it has no column of its own"),
    ] {
        let root = tree(&[("cards/p.toml", &text)]);
        let err = load(&root, "cards/p.toml").unwrap_err();
        assert!(err.contains(says) && err.contains("p.toml:"), "{says}: {err}");
    }
    // A bonus of a bonus is refused too, where the second one is written.
    let root = tree(&[("cards/p.toml", &bonus("garden", ""))]);
    let err = load(&root, "cards/p.toml").unwrap_err();
    assert!(err.contains("`bonus_two` may not count as `bonus`") && err.contains("p.toml:"), "{err}");
}

/// A card's `ctx.table` holds only the keys its script reads, when it only
/// reads keys (`ctx.table.currencies`, and of each seat `ctx.table.seats[0].money`,
/// also through a walk, a local or a helper of its own; of each displayed
/// building its `slot`, or nothing when it only asks whether a slot is full);
/// a script that uses the table otherwise (`let t = ctx.table`,
/// `ctx.table.keys()`, a seat returned or printed) is given all of it, and
/// both answer alike in play.
#[test]
fn a_table_is_made_of_the_keys_read_unless_the_script_takes_it_whole() {
    use alhambra::hooks::{COLLECTOR_SHAPE, DISPLAYED_SHAPE, Hook, TABLE_SHAPE};
    use engine_play::turns::TurnGame as _;
    let bit = |k: &str| 1u32 << TABLE_SHAPE.iter().position(|s| s.key == k).unwrap();
    let held = |k: &str| 1u32 << COLLECTOR_SHAPE.iter().position(|s| s.key == k).unwrap();
    let shown = |k: &str| 1u32 << DISPLAYED_SHAPE.iter().position(|s| s.key == k).unwrap();
    let tower = "[[building]]\nid = \"tower\"\nscript = \"t.rhai\"\n";
    // (script, the table's keys, a collector's, a displayed building's)
    for (body, keys, collector, displayed) in [
        (
            "ctx.table.currencies.len() + ctx.table.seats[ctx.seat].money",
            bit("currencies") | bit("seats"),
            held("money"),
            0,
        ),
        (
            "ctx.table.seats[ctx.seat].reserve.len() + ctx.table.seats[0].buildings.len() \
             + if ctx.players == 2 { ctx.table.neutral.counts.len() } else { 0 }",
            bit("seats") | bit("neutral"),
            held("reserve") | held("buildings") | held("counts"),
            0,
        ),
        (
            "let n = 0; for s in ctx.table.seats { n += s.money; } n + ctx.table.turn",
            bit("seats") | bit("turn"),
            held("money"),
            0,
        ),
        (
            "let n = 0; for s in ctx.table.seats { n += worth(s); } n + worth(ctx.table.seats[ctx.seat])",
            bit("seats"),
            held("score") | held("buildings"),
            0,
        ),
        (
            "let n = 0; for b in ctx.table.building_display { if b != () { n += b.slot; } } n",
            bit("building_display"),
            0,
            shown("slot"),
        ),
        (
            "let d = ctx.table.building_display; let n = 0; \
             for s in 0..d.len() { let b = d[s]; if b == () { n += s; } } n",
            bit("building_display"),
            0,
            0,
        ),
        (
            "let n = 0; for b in ctx.table.building_display { if b != () && b.type == \"garden\" { n += b.price; } } n",
            bit("building_display"),
            0,
            shown("type") | shown("price"),
        ),
        (
            "let n = 0; for s in ctx.table.seats { if s.hand != () { for c in s.hand { n += c.value; } } } n",
            bit("seats"),
            held("hand"),
            0,
        ),
        (
            "let left = (ctx.seat + 1) % ctx.players; let theirs = ctx.table.seats[left].buildings; \
             if theirs.len() == 0 { 0 } else { theirs[theirs.len() - 1].price + theirs[0].nth }",
            bit("seats"),
            held("buildings"),
            0,
        ),
        (
            "let n = 0; for s in ctx.table.seats { for b in s.buildings { if b.type == \"garden\" && b.exact { n += b.bought; } } } n",
            bit("seats"),
            held("buildings"),
            0,
        ),
        ("let t = ctx.table; t.seats[ctx.seat].money", u32::MAX, u32::MAX, u32::MAX),
        ("ctx.table.keys().len()", u32::MAX, u32::MAX, u32::MAX),
        ("let n = 0; for s in ctx.table.seats { n += s.len(); } n", bit("seats"), u32::MAX, 0),
        (
            "let n = []; for b in ctx.table.building_display { n.push(b); } n.len()",
            bit("building_display"),
            0,
            u32::MAX,
        ),
    ] {
        let helper = "fn worth(seat) { seat.score + seat.buildings.len() }\n";
        let script = format!("{helper}fn on_points(ctx) {{ if ctx.card.nth != 0 {{ return 0; }} {body} }}\n");
        let root = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", &script)]);
        let rs = load(&root, "cards/p.toml").unwrap_or_else(|e| panic!("{body}: {e}"));
        let owner = rs.hooks.type_owner(rs.types.iter().position(|t| t.id == "tower").unwrap());
        let reads = rs.hooks.table_reads(Hook::Points, owner, 0);
        assert_eq!((reads.keys, reads.collector, reads.displayed), (keys, collector, displayed), "{body}");
        // Lists only counted are made as that many `()`: the reserve's and the buildings' `len()`.
        let counted = match body {
            b if b.contains("reserve.len()") => held("reserve") | held("buildings") | held("counts"),
            b if b.contains("worth(") => held("buildings"),
            _ => 0,
        };
        assert_eq!(reads.counted, counted, "{body}");
        // Of the cards in a hand (shown at the game's end), only the keys read.
        let card = |k: &str| 1u32 << alhambra::hooks::HAND_SHAPE.iter().position(|s| s.key == k).unwrap();
        let hand = match body {
            b if b.contains("c.value") => card("value"),
            b if b.contains("let t = ctx.table") || b.contains("keys()") => u32::MAX,
            b if b.contains("n += s.len()") => u32::MAX,
            _ => 0,
        };
        assert_eq!(reads.hand, hand, "{body}");
        // Of the buildings a collector owns, only the keys read.
        let owned = |k: &str| 1u32 << alhambra::hooks::OWNED_SHAPE.iter().position(|s| s.key == k).unwrap();
        let owned_keys = match body {
            b if b.contains("theirs") => owned("price") | owned("nth"),
            b if b.contains("b.exact") => owned("type") | owned("exact") | owned("bought"),
            b if b.contains("let t = ctx.table") || b.contains("keys()") || b.contains("n += s.len()") => u32::MAX,
            _ => 0,
        };
        assert_eq!(reads.owned, owned_keys, "{body}");
        // The card itself (`ctx.card.nth`): made with that key alone.
        assert_eq!(rs.hooks.card_keys(Hook::Points, owner), owned("nth"), "{body}");
        // The table each is given answers as the whole one would: the same games, point for point.
        let whole =
            format!("{helper}fn on_points(ctx) {{ if ctx.card.nth != 0 {{ return 0; }} let ctx = ctx; {body} }}\n");
        let root_whole = tree(&[("cards/p.toml", &format!("{HEAD}{tower}")), ("cards/t.rhai", &whole)]);
        let rs_whole = load(&root_whole, "cards/p.toml").unwrap();
        for seed in 0..4 {
            let scores = |rs: &Arc<Ruleset>| {
                let mut game = alhambra::Game::new(Arc::clone(rs), 3, seed).unwrap();
                let mut bot = engine_play::bots::RandomBot::new(seed);
                while game.to_move().is_some() {
                    let a = engine_play::bots::Bot::choose(&mut bot, &game, game.legal());
                    game.play(a).unwrap();
                }
                game.scores().iter().map(|s| s.total).collect::<Vec<_>>()
            };
            assert_eq!(scores(&rs), scores(&rs_whole), "{body}, seed {seed}");
        }
    }
}
