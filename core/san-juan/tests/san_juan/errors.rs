//! Bad input gets a clear error naming the file, the line and what to do;
//! and rule changes are data: editing TOML or a script changes behaviour
//! without recompiling.

use std::fs;
use std::path::{Path, PathBuf};

use san_juan::Ruleset;
use san_juan::scenario::Scenario;

/// A copy of the repository's cards/ and scripts/ to edit.
fn copy_rules() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for sub in ["cards/san-juan", "cards/san-juan/rulesets", "scripts/san-juan"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
        for entry in fs::read_dir(root.join(sub)).unwrap().flatten() {
            if entry.path().is_file() {
                fs::copy(entry.path(), dir.path().join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    let ruleset = dir.path().join("cards/san-juan/rulesets/second-edition.toml");
    (dir, ruleset)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} does not contain {from:?}", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A scenario written inline, named `name` in errors.
fn scenario(name: &str, text: &str) -> Scenario {
    Scenario::parse(san_juan::files::Source::Disk(name.into()), text.to_owned()).unwrap()
}

fn load_err(ruleset: &Path) -> String {
    Ruleset::load(ruleset.to_str().unwrap()).expect_err("should not load").to_string()
}

#[test]
fn toml_syntax_error_names_file_and_line() {
    let (dir, ruleset) = copy_rules();
    let base = dir.path().join("cards/san-juan/base.toml");
    let before = fs::read_to_string(&base).unwrap();
    let line = before[..before.find("cost = 2\nvp = 1\ncopies = 8").unwrap()].lines().count() + 1;
    edit(&base, "cost = 2\nvp = 1\ncopies = 8", "cost = = 2\nvp = 1\ncopies = 8");
    let err = load_err(&ruleset);
    let at = format!("base.toml:{line}:8");
    assert!(err.contains(&at) && err.contains("cost = = 2") && !err.contains("start_buildings"), "{err}");
}

#[test]
fn script_that_does_not_compile_names_file_line_and_column() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/smithy.rhai"), "fn on_build_cost(ctx) {\n    let x = ;\n    x\n}\n")
        .unwrap();
    let err = load_err(&ruleset);
    assert!(err.contains("smithy.rhai:2:"), "{err}");
    assert!(err.contains("does not compile"), "{err}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/smithy.rhai"), "fn on_build_cost(ctx, extra) { 1 }\n").unwrap();
    fs::write(dir.path().join("scripts/san-juan/quarry.rhai"), "fn on_bulid_cost(ctx) { 1 }\n").unwrap();
    edit(&dir.path().join("cards/san-juan/base.toml"), "script = \"well.rhai\"", "script = \"wel.rhai\"");
    let err = load_err(&ruleset);
    assert!(err.contains("smithy.rhai:1:") && err.contains("takes 2 parameter(s)"), "{err}");
    assert!(err.contains("quarry.rhai:1:") && err.contains("did you mean `on_build_cost`"), "{err}");
    assert!(err.contains("wel.rhai") && err.contains("cannot read"), "{err}");
}

#[test]
fn a_script_that_loops_forever_is_stopped_and_named() {
    let (dir, ruleset) = copy_rules();
    fs::write(
        dir.path().join("scripts/san-juan/poor_house.rhai"),
        "fn on_build(ctx) { let n = 0; loop { n += 1; } }\n",
    )
    .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = r#"
actions = ["role builder", "build well pay quarry"]
[[players]]
buildings = ["poor_house"]
hand = ["well", "quarry"]
[[players]]
"#;
    let scenario = scenario("loop.toml", text);
    let err = scenario.play(rs).unwrap_err().to_string();
    assert!(err.contains("poor_house.rhai:1:") && err.contains("on_build") && err.contains("ran too long"), "{err}");
}

#[test]
fn a_hook_returning_the_wrong_type_names_card_and_hook() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/tower.rhai"), "fn on_hand_limit(ctx) { let n = \"twelve\"; n }\n")
        .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    // The hand limit is checked when a round starts.
    let text = r#"
round_start = true
round = 2
[[players]]
buildings = ["tower"]
[[players]]
"#;
    let scenario = scenario("t.toml", text);
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("tower") && err.contains("on_hand_limit") && err.contains("expected an integer"), "{err}");
}

#[test]
fn a_game_stops_after_a_script_error_and_says_why() {
    let (dir, ruleset) = copy_rules();
    fs::write(
        dir.path().join("scripts/san-juan/library.rhai"),
        "fn on_privilege(ctx) {\n  let a = [1];\n  a[ctx.hand + 5]\n}\n",
    )
    .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"library\"]\n[[players]]\n";
    let scenario = scenario("l.toml", text);
    // The library is asked for its factor when its owner is about to choose a role.
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("library.rhai:3:") && err.contains("out of bounds"), "{err}");
}

#[test]
fn unknown_card_in_a_scenario_names_line_and_suggests() {
    let text = "[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"smithee\"]\n[[players]]\n";
    let scenario = scenario("s.toml", text);
    let err = scenario.run().unwrap_err().to_string();
    assert!(err.contains("s.toml:3:") && err.contains("unknown card `smithee`") && err.contains("smithy"), "{err}");
}

/// A misspelt key would leave its position unplaced or its check unread:
/// refused where written, at the top, in a seat's table and in `[expect]`
/// (its shared keys and San Juan's own), with the key meant.
#[test]
fn an_unknown_scenario_key_is_refused_where_written_with_the_key_meant() {
    let good = "governor = 1\n[[players]]\nhand = [\"well\"]\n[[players]]\n\
                [expect]\nlegal_includes = [\"pass\"]\ndeck_top = [\"well\"]\n";
    let parse = |text: String| Scenario::parse(san_juan::files::Source::Disk("k.toml".into()), text);
    assert!(parse(good.to_owned()).is_ok());
    for (key, typo) in
        [("governor", "governer"), ("hand", "hnd"), ("legal_includes", "legal_include"), ("deck_top", "deck_tops")]
    {
        let line = 1 + good.lines().position(|l| l.starts_with(&format!("{key} ="))).unwrap();
        let err = parse(good.replacen(&format!("{key} ="), &format!("{typo} ="), 1)).unwrap_err().to_string();
        let (at, unknown, meant) =
            (format!("k.toml:{line}:1"), format!("unknown field `{typo}`"), format!("did you mean `{key}`?"));
        assert!(err.contains(&at) && err.contains(&unknown) && err.contains(&meant), "{err}");
        assert!(err.contains("docs/scenarios.md"), "{err}");
    }
}

#[test]
fn illegal_action_in_a_scenario_says_which_and_what_was_legal() {
    let text = "actions = [\"role builder\", \"build palace pay well\"]\n[[players]]\nhand = [\"palace\", \"well\"]\n[[players]]\n";
    let scenario = scenario("s.toml", text);
    let err = scenario.run().unwrap_err().to_string();
    assert!(err.contains("s.toml:1:") && err.contains("action 2 `build palace pay well`"), "{err}");
    assert!(err.contains("legal now: build well, pass"), "{err}");
}

#[test]
fn unknown_ruleset_lists_the_built_in_ones() {
    let err = Ruleset::load("third-edition").unwrap_err().to_string();
    assert!(err.contains("unknown ruleset `third-edition`") && err.contains("second-edition"), "{err}");
}

/// The smithy discounts production buildings; give it the quarry's script and
/// it discounts city buildings instead, with no Rust change.
#[test]
fn swapping_a_script_in_toml_changes_behaviour() {
    let scenario_text = |ruleset: &str| {
        format!(
            "ruleset = {ruleset:?}\nactions = [\"role producer\"]\n[[players]]\nbuildings = [\"smithy\"]\nhand = [\"well\", \"sugar_mill\", \"statue\"]\n[[players]]\n"
        )
    };
    let cost = |ruleset: &str, card: &str| -> i32 {
        let rs = Ruleset::load(ruleset).unwrap();
        let text = scenario_text(ruleset);
        let scenario = scenario("x.toml", &text);
        let game = scenario.setup(rs.clone()).unwrap();
        let idx = rs.cards.idx(card).unwrap();
        game.build_cost_now(0, idx).unwrap()
    };
    let (dir, ruleset) = copy_rules();
    let path = ruleset.to_str().unwrap().to_owned();
    assert_eq!(cost(&path, "sugar_mill"), 1);
    assert_eq!(cost(&path, "well"), 2);
    edit(&dir.path().join("cards/san-juan/base.toml"), "script = \"smithy.rhai\"", "script = \"quarry.rhai\"");
    assert_eq!(cost(&path, "sugar_mill"), 2);
    assert_eq!(cost(&path, "well"), 1);
    // Renaming the card's id renames it everywhere a scenario or action names it.
    edit(&dir.path().join("cards/san-juan/base.toml"), "id = \"smithy\"", "id = \"forge\"");
    let rs = Ruleset::load(&path).unwrap();
    assert!(rs.cards.idx("smithy").is_none() && rs.cards.idx("forge").is_some());
    drop(dir);
}

#[test]
fn first_edition_is_three_card_changes_from_the_second() {
    let second = Ruleset::load("second-edition").unwrap();
    let first = Ruleset::load("first-edition").unwrap();
    assert_eq!(
        second.diff(&first),
        vec![
            "card gold_mine: text Prospector: reveal 4 cards; if all costs differ, keep the cheapest, else discard all -> \
             Prospector: reveal 4 cards; if all costs differ, keep any one, else discard all, \
             script scripts/san-juan/gold_mine.rhai -> scripts/san-juan/gold_mine_1st.rhai",
            "card prefecture: cost 4 -> 3",
            "card guild_hall: text Game end: 1 VP per production building and 1 VP per type of production building -> \
             Game end: 2 VP per production building, script scripts/san-juan/guild_hall.rhai -> scripts/san-juan/guild_hall_1st.rhai",
        ]
    );
    let expansion = Ruleset::load("second-edition-expansion").unwrap();
    let diff = second.diff(&expansion);
    assert!(diff.contains(&"rules.hand_limit: 7 -> 6".to_owned()), "{diff:?}");
    assert!(diff.contains(&"+ card cathedral (cost 7, 0 VP, 1 copies)".to_owned()), "{diff:?}");
    assert_eq!(diff.iter().filter(|l| l.starts_with("+ card")).count(), 11);
}

/// A house rule over the built-in 2nd edition, written to a temp dir; its load errors.
fn house_rule_errors(body: &str, extra_files: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("house.toml");
    fs::write(&path, format!("id = \"house\"\nname = \"House\"\nextends = \"second-edition\"\n{body}")).unwrap();
    for (name, text) in extra_files {
        fs::create_dir_all(dir.path().join(name).parent().unwrap()).unwrap();
        fs::write(dir.path().join(name), text).unwrap();
    }
    match Ruleset::load(path.to_str().unwrap()) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

/// Every rule number and card field has a range; a value outside it is an error
/// at the line that writes it, with the source line shown.
#[test]
fn the_schema_refuses_out_of_range_rules_and_card_fields_where_they_are_written() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "[rules]\nhand_limit = -1\n",
            "house.toml:5:14",
            &["rules.hand_limit is -1", "between 1 and 200", "hand_limit = -1"],
        ),
        ("[rules]\nhand_limit = 0\n", "house.toml:5:14", &["between 1 and 200"]),
        ("[rules]\nroles_per_round = { 2 = 0 }\n", "house.toml:5:25", &["rules.roles_per_round.2 is 0"]),
        ("[rules]\ntrading_tiles = [[1, 1, 1, 2, -2]]\n", "house.toml:5:31", &["rules.trading_tiles.0.4 is -2"]),
        ("[rules]\nmax_players = 100\n", "house.toml:5:15", &["rules.max_players is 100", "between 2 and 12"]),
        ("[rules]\nmax_players = 11\n", "house.toml:5:15", &["11 players start with 11 `indigo_plant`", "holds 10"]),
        (
            "[rules]\nstart_buildings = [\"palace\"]\nmax_players = 3\n",
            "house.toml:6:15",
            &["3 players start with 3 `palace`", "holds 2"],
        ),
        (
            "[rules]\nstart_buildings = [\"palace\", \"palace\", \"palace\"]\n",
            "house.toml:5:",
            &["start with 12 `palace`"],
        ),
        ("[rules]\nstart_hand = 40\n", "house.toml:5:14", &["dealt 160 cards"]),
        ("[rules]\nhand_limt = 8\n", "house.toml:5:1", &["unknown field `hand_limt`", "did you mean `hand_limit`?"]),
        (
            "[rules]\nmin_players = 4\nmax_players = 3\n",
            "house.toml:6:15",
            &["min_players (4) is more than max_players (3)"],
        ),
        ("[cards.library]\ncost = -3\n", "house.toml:5:8", &["`cost` is -3", "between 0 and 20"]),
        ("[cards.indigo_plant]\ncopies = 0\n", "house.toml:5:10", &["start with 4 `indigo_plant`", "holds 0"]),
        (
            "[cards.libary]\nvp = 2\n",
            "house.toml:4:8",
            &["[cards.libary] patches a card no set defines", "did you mean `library`?"],
        ),
        ("[cards.library]\nvp = 99\n", "house.toml:5:6", &["`vp` is 99"]),
    ];
    let mut failures = Vec::new();
    for (body, at, wants) in cases {
        let err = house_rule_errors(body, &[]);
        if !err.contains(at) || !wants.iter().all(|w| err.contains(w)) || !err.contains('^') {
            failures.push(format!("--- {body:?}: want {at} and {wants:?}, got:\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn card_ids_that_clash_with_the_notation_or_are_malformed_are_refused() {
    for (id, want) in [
        ("pass", "word of the action notation"),
        ("", "may not be empty"),
        ("Big Hall", "snake_case"),
        ("9lives", "snake_case"),
    ] {
        let set = format!(
            "script_dir = \".\"\n[[card]]\nid = \"{id}\"\nname = \"X\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\n"
        );
        let err = house_rule_errors("extra_sets = [\"set.toml\"]\n", &[("set.toml", &set)]);
        assert!(err.contains("set.toml:3:6") && err.contains(want), "{id:?}: {err}");
    }
}

#[test]
fn paths_may_not_leave_the_rules_tree_nor_name_other_kinds_of_file() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.rhai");
    fs::write(&secret, "topsecretword").unwrap();
    let tree = dir.path().join("tree");
    fs::create_dir_all(tree.join("cards")).unwrap();
    let set = "script_dir = \"../..\"\n[[card]]\nid = \"spy\"\nname = \"Spy\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\nscript = \"secret.rhai\"\n";
    fs::write(tree.join("cards/set.toml"), set).unwrap();
    let rules = "id = \"t\"\nname = \"T\"\nextends = \"second-edition\"\nextra_sets = [\"set.toml\"]\n";
    fs::write(tree.join("cards/r.toml"), rules).unwrap();
    let err = load_err(&tree.join("cards/r.toml"));
    assert!(err.contains("lies outside the rules tree") && err.contains("set.toml:9:10"), "{err}");
    assert!(!err.contains("topsecretword"), "an error must not show another file's content: {err}");
    let err = house_rule_errors("extra_sets = [\"/etc/passwd\"]\n", &[]);
    assert!(err.contains("is not a .toml file") && !err.contains("root:"), "{err}");
}

#[test]
fn scripts_may_not_sleep_and_are_stopped_by_the_clock() {
    let set = "script_dir = \".\"\n[[card]]\nid = \"nap\"\nname = \"Nap\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\nscript = \"nap.rhai\"\n";
    let err = house_rule_errors(
        "extra_sets = [\"set.toml\"]\n",
        &[("set.toml", set), ("nap.rhai", "fn on_score(ctx) {\n    sleep(100);\n    0\n}\n")],
    );
    assert!(err.contains("nap.rhai:2:5") && err.contains("may not call `sleep`"), "{err}");
    // Through a function pointer the load-time check cannot see it; the call still fails at once.
    let (_dir, ruleset) = copy_rules();
    let dir = ruleset.ancestors().nth(4).unwrap();
    fs::write(
        dir.join("scripts/san-juan/tower.rhai"),
        "fn on_hand_limit(ctx) { let f = Fn(\"sle\" + \"ep\"); f.call(100); 12 }\n",
    )
    .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "round_start = true\nround = 2\n[[players]]\nbuildings = [\"tower\"]\n[[players]]\n";
    let scenario = scenario("t.toml", text);
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("may not wait"), "{err}");
}

#[test]
fn hook_results_outside_their_range_stop_the_game_naming_card_file_line_and_hook() {
    for (script, want) in [
        ("fn on_score(ctx) { let n = 2147483647; n }\n", "returned 2147483647, outside the allowed -100 to 200"),
        ("fn on_score(ctx) {\n    let n = -5000;\n    n\n}\n", "returned -5000"),
    ] {
        let (dir, ruleset) = copy_rules();
        fs::write(dir.path().join("scripts/san-juan/guild_hall.rhai"), script).unwrap();
        let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
        let text = "[[players]]\nbuildings = [\"guild_hall\"]\n[[players]]\n";
        let scenario = scenario("g.toml", text);
        let game = scenario.play(rs).unwrap();
        let err = game.scores().unwrap_err().to_string();
        assert!(err.contains("guild_hall.rhai:1:") && err.contains("on_score") && err.contains(want), "{err}");
    }
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/smithy.rhai"), "fn on_build_cost(ctx) { let n = -1; n }\n").unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"smithy\"]\nhand = [\"well\", \"quarry\"]\n[[players]]\n";
    let scenario = scenario("s.toml", text);
    let err = scenario.play(rs).unwrap_err().to_string();
    assert!(err.contains("smithy.rhai:1:") && err.contains("returned -1, outside the allowed 0 to 20"), "{err}");
}

#[test]
fn a_copied_tree_that_keeps_a_builtin_id_is_warned_about_and_fingerprinted_apart() {
    let (dir, ruleset) = copy_rules();
    let same = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    assert!(same.warnings.is_empty(), "an unchanged copy is the same content");
    assert_eq!(same.fingerprint, Ruleset::load("second-edition").unwrap().fingerprint);
    edit(&dir.path().join("cards/san-juan/base.toml"), "cost = 2\nvp = 1\ncopies = 8", "cost = 3\nvp = 1\ncopies = 8");
    let changed = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    assert_ne!(changed.fingerprint, same.fingerprint);
    let w = changed.warnings.iter().map(ToString::to_string).collect::<String>();
    assert!(w.contains("differs from the built-in `second-edition` but has its id"), "{w}");
}

#[test]
fn a_trading_tile_listed_twice_or_a_sixth_tile_is_refused() {
    let first = "[1, 1, 1, 2, 2]";
    let all = "[1, 1, 1, 2, 2], [1, 1, 2, 2, 2], [1, 1, 2, 2, 3], [1, 2, 2, 2, 3], [1, 2, 2, 3, 3]";
    for tiles in [format!("{first}, {first}"), format!("{all}, {first}")] {
        let text = format!("trading_tiles = [{tiles}]\n[[players]]\n[[players]]\n");
        let scenario = scenario("t.toml", &text);
        let err = scenario.run().unwrap_err().to_string();
        assert!(err.contains("t.toml:1:") && err.contains("listed more often than the ruleset has it"), "{err}");
    }
    let text = format!("trading_tiles = [{all}]\n[[players]]\n[[players]]\n");
    let scenario = scenario("t.toml", &text);
    assert!(scenario.run().is_ok(), "all five tiles, each once, is a valid order");
}

#[test]
fn a_hook_returning_a_runaway_number_names_card_and_hook() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/tower.rhai"), "fn on_hand_limit(ctx) { let n = 2147483647; n }\n")
        .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "round_start = true\nround = 2\n[[players]]\nbuildings = [\"tower\"]\n[[players]]\n";
    let scenario = scenario("t.toml", text);
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("on_hand_limit") && err.contains("returned 2147483647"), "{err}");
}

#[test]
fn rule_numbers_beyond_any_game_are_refused() {
    let (_dir, ruleset) = copy_rules();
    edit(&ruleset, "max_players = 4", "max_players = 100000000000");
    edit(&ruleset, "max_rounds = 100", "max_rounds = 4294967295");
    edit(&ruleset, "produce = 1\n", "produce = 2147483647\n");
    let err = load_err(&ruleset);
    for what in ["rules.max_players is 100000000000", "rules.max_rounds is 4294967295", "rules.produce is 2147483647"] {
        assert!(err.contains(what), "{what}: {err}");
    }
}

#[test]
fn a_literal_of_the_wrong_shape_is_a_load_error_naming_file_line_and_hook() {
    for (file, script, want) in [
        ("tower", "fn on_hand_limit(ctx) { \"twelve\" }\n", "returns a string, not an integer"),
        ("guild_hall", "fn on_score(ctx) {\n    -5000\n}\n", "returns -5000, outside -100..=200"),
        ("smithy", "fn on_build_cost(ctx) { -1 }\n", "returns -1, outside 0..=20"),
    ] {
        let (dir, ruleset) = copy_rules();
        fs::write(dir.path().join(format!("scripts/san-juan/{file}.rhai")), script).unwrap();
        let err = Ruleset::load(ruleset.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains(&format!("{file}.rhai:1:")) && err.contains(want), "{err}");
    }
    // A hook that may return effects may return them as a literal.
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/well.rhai"), "fn on_produced(ctx) { #{ draw: 1 } }\n").unwrap();
    assert!(Ruleset::load(ruleset.to_str().unwrap()).is_ok());
}

/// Seat 0 produces with a well whose script the test writes; the error it gets.
fn well_error(script: &str, actions: &str) -> String {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/well.rhai"), script).unwrap();
    let rs = match Ruleset::load(ruleset.to_str().unwrap()) {
        Ok(rs) => rs,
        Err(e) => return e.to_string(),
    };
    let text = format!(
        "actions = [{actions}]\n[[players]]\nbuildings = [\"well\", \"indigo_plant\"]\nhand = [\"tower\"]\n[[players]]\nhand = [\"chapel\"]\n"
    );
    match scenario("w.toml", &text).play(rs) {
        Ok(_) => panic!("{script} ran without an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_wrong_effect_stops_the_game_naming_card_file_hook_and_what_is_wrong() {
    let produce = "\"role producer\", \"produce indigo_plant\"";
    for (script, want) in [
        ("fn on_produced(ctx) { #{ take_random: 1, from: ctx.seat } }\n", "`from: 0` is the same seat as the owner"),
        ("fn on_produced(ctx) { #{ draw: 1, seat: ctx.players + 7 } }\n", "`seat: 9` is outside 0..=1"),
        ("fn on_produced(ctx) { #{ give: 1 } }\n", "`give` needs `to: seat`"),
        ("fn on_produced(ctx) { [#{ draw: 1 }, 3] }\n", "effect 2 is a i32, expected a map"),
        // Maps made as the script runs, which `check` cannot read beforehand.
        (
            "fn on_produced(ctx) { let m = #{ draw: 1 }; m.discard = 1; m }\n",
            "one effect per map, this one names discard and draw",
        ),
        ("fn on_produced(ctx) { let m = #{}; m[\"drw\"] = 1; m }\n", "names no effect; did you mean `draw`?"),
        (
            "fn on_produced(ctx) { let g = \"bu\"; g += \"ild\"; #{ grant: g } }\n",
            "cannot grant `build`; grants: sell, produce, discount",
        ),
        ("fn on_produced(ctx) { #{ choose: [] } }\n", "`choose` needs at least one option"),
        (
            "fn on_produced(ctx) { #{ choose_cards: 1, from: \"hand\", of: 1 } }\n",
            "`of: 1` with `from: \"hand\"`: a hand is secret",
        ),
        ("fn on_produced(ctx) { #{ remove_good: \"self\", seat: 1 } }\n", "\"self\" is one building already"),
        (
            "fn on_produced(ctx) { let w = \"ca\"; w += \"rd\"; #{ move: w, to_building: \"well\" } }\n",
            "a card moves with `from` and `to` zones",
        ),
        ("fn on_produced(ctx) { #{ move: \"good\", from_building: \"self\" } }\n", "needs `to_building`"),
        ("fn on_produced(ctx) { let f = \"fu\"; f += \"ll\"; #{ choose_cards: 1, from: f } }\n", "or \"empty\""),
        ("fn on_produced(ctx) { #{ reveal: 2, optional: 1 } }\n", "`optional` is a i32, expected true or false"),
    ] {
        let err = well_error(script, produce);
        assert!(
            err.contains("well.rhai:1:")
                && err.contains("card `well`")
                && err.contains("on_produced")
                && err.contains(want),
            "{script}: {err}"
        );
    }
}

#[test]
fn check_finds_a_misspelt_effect_before_any_game() {
    let err = well_error("fn on_produced(ctx) {\n    #{ drw: 1 }\n}\n", "");
    assert!(
        err.contains("well.rhai:2:") && err.contains("`drw` is not an effect") && err.contains("did you mean `draw`"),
        "{err}"
    );
    let err = well_error("fn on_produced(ctx) { [#{ draw: 1 }, #{ look: 3, may_discrd: 1 }] }\n", "");
    assert!(err.contains("did you mean `may_discard`"), "{err}");
    // Each map is checked against the effect it names: its keys and its values.
    let err = well_error("fn on_produced(ctx) {\n    #{ tuck: 1, seat: 1 }\n}\n", "");
    assert!(err.contains("well.rhai:2:") && err.contains("`seat` is not a key of the `tuck` effect"), "{err}");
    let err = well_error("fn on_produced(ctx) {\n    #{ choose_cards: 1, from: \"empty_production\" }\n}\n", "");
    assert!(
        err.contains("`from: \"empty_production\"` is not a value `choose_cards` takes")
            && err.contains("did you mean \"empty\"?"),
        "{err}"
    );
    let err = well_error("fn on_produced(ctx) { #{ grant: \"sel\", n: 1 } }\n", "");
    assert!(err.contains("did you mean \"sell\"?"), "{err}");
    let err = well_error("fn on_produced(ctx) { #{ draw: 1, give: 1, to: 1 } }\n", "");
    assert!(err.contains("one effect per map; this one names draw and give"), "{err}");
    // A hook's own result map is not an effect: the council's draw and keep, the sale's tuck_sold.
    let (dir, ruleset) = copy_rules();
    let results = "fn on_council(ctx) { #{ draw: 1, keep: 1 } }\nfn on_sold(ctx) { #{ draw: 1, tuck_sold: 1 } }\n";
    fs::write(dir.path().join("scripts/san-juan/well.rhai"), results).unwrap();
    if let Err(e) = Ruleset::load(ruleset.to_str().unwrap()) {
        panic!("a hook's own result map was refused: {e}");
    }
    // A misspelt scoped event names the event meant.
    let err = well_error("fn on_other_prodused(ctx) { 1 }\n", "");
    assert!(
        err.contains("`on_other_prodused` is not a hook") && err.contains("did you mean `on_other_produced`"),
        "{err}"
    );
}

#[test]
fn a_script_error_in_the_answer_to_a_choice_names_on_choice() {
    let script =
        "fn on_produced(ctx) { #{ choose: [\"yes\", \"no\"] } }\n\nfn on_choice(ctx) {\n    ctx.choice.len() / 0\n}\n";
    let err = well_error(script, "\"role producer\", \"produce indigo_plant\", \"choose yes\"");
    assert!(err.contains("well.rhai:4:") && err.contains("on_choice") && err.contains("Division by zero"), "{err}");
}

#[test]
fn a_card_set_given_as_a_ruleset_says_what_it_is() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cards/san-juan/rulesets/examples/lab-cards.toml");
    let err = Ruleset::load(path).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("lab-cards.toml is a card set, not a ruleset"), "{err}");
    assert!(err.contains("`sets` or `extra_sets`") && !err.contains("unknown field"), "{err}");
}

/// Seat 0 chooses the councillor with an archive whose `on_council` the test
/// writes; the game's events, or its error.
fn council_with(script: &str) -> Result<Vec<String>, String> {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/san-juan/prefecture.rhai"), script).unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).map_err(|e| e.to_string())?;
    let text = "[[players]]\nbuildings = [\"prefecture\"]\n[[players]]\n";
    let mut game = scenario("c.toml", text).setup(rs).map_err(|e| e.to_string())?;
    engine_game::Game::log_events(&mut game, true);
    let events = game.apply_text("role councillor").map_err(|e| e.to_string())?;
    Ok(events.into_iter().map(|e| e.text).collect())
}

#[test]
fn a_literal_map_answer_is_read_in_place_as_a_computed_one_is_read() {
    // The prefecture's literal (kept by the ruleset and read where it is) and
    // the same map computed by the script (answered per call): the same game.
    let literal = council_with("fn on_council(ctx) { #{ keep: 1 } }\n").unwrap();
    let computed = council_with("fn on_council(ctx) { let k = ctx.players - 1; #{ keep: k } }\n").unwrap();
    assert_eq!(literal, computed);
    assert!(literal.iter().any(|e| e.contains("prefecture lets it keep 1 card more")), "{literal:#?}");
    // Nothing (a unit) is an empty map either way.
    assert_eq!(
        council_with("fn on_council(ctx) { () }\n").unwrap(),
        council_with("fn on_council(ctx) { if ctx.players > 9 { #{ keep: 1 } } }\n").unwrap()
    );
    // A key the hook does not know, and a value of the wrong type, are named with the card and hook.
    for script in ["fn on_council(ctx) { let k = 1; #{ kept: k } }\n", "fn on_council(ctx) { #{ kept: 1 } }\n"] {
        let err = council_with(script).unwrap_err();
        assert!(err.contains("prefecture") && err.contains("`kept`"), "{script}: {err}");
    }
    for script in
        ["fn on_council(ctx) { let k = \"one\"; #{ keep: k } }\n", "fn on_council(ctx) { #{ keep: \"one\" } }\n"]
    {
        let err = council_with(script).unwrap_err();
        assert!(err.contains("prefecture") && err.contains("keep"), "{script}: {err}");
    }
}

/// What `check` says of a house rule whose smithy runs the script `text` (`s.rhai`).
fn smithy_errors(text: &str) -> String {
    house_rule_errors("[cards.smithy]\nscript = \"s.rhai\"\n", &[("s.rhai", text)])
}

/// The payment and price hooks are known to `check`: a misspelt result key, a
/// member a hook is never given (`ctx.paying` outside `on_card_value`,
/// `ctx.covered_by` outside `on_score`), each refused where it is written.
#[test]
fn check_knows_the_payment_hooks_their_keys_and_members() {
    let script = smithy_errors;
    assert_eq!(script("fn on_payment(ctx) { #{ min_goods: 2, goods_as_cards: 1, refuse: \"no\" } }\n"), "");
    assert_eq!(script("fn on_card_value(ctx) { if ctx.paying.cost > 3 { 2 } else { 1 } }\n"), "");
    assert_eq!(script("fn on_sale_price(ctx) { ctx.table.tile.coffee }\n"), "");
    let err = script("fn on_payment(ctx) { #{ min_good: 2 } }\n");
    assert!(err.contains("min_good") && err.contains("min_goods"), "{err}");
    let err = script("fn on_build_cost(ctx) { if ctx.paying == () { 0 } else { 1 } }\n");
    assert!(err.contains("`ctx.paying` is `()` in `on_build_cost`"), "{err}");
    let err = script("fn on_build(ctx) { if ctx.covered_by == () { 0 } else { 1 } }\n");
    assert!(err.contains("`ctx.covered_by` is `()` in `on_build`"), "{err}");
    let err = script("fn on_card_value(ctx) { 30 }\n");
    assert!(err.contains("on_card_value"), "{err}");
}

/// `ctx.target` and `ctx.over` are given only where a building is priced,
/// paid for or built; `ctx.choice` and `ctx.tag` only in `on_choice`.
/// Elsewhere they are always `()`: `check` refuses the read where it is
/// written, and accepts every hook that is given them.
#[test]
fn check_knows_which_hooks_are_given_a_target_and_a_choice() {
    let script = smithy_errors;
    for hook in
        ["on_build_cost", "on_other_build_cost", "on_covered_cost", "on_build", "on_other_build", "on_any_build"]
    {
        let text = format!("fn {hook}(ctx) {{ if ctx.over == () && ctx.target.cost > 3 {{ 1 }} else {{ 0 }} }}\n");
        assert_eq!(script(&text), "", "{hook}");
    }
    assert_eq!(script("fn on_choice(ctx) { if ctx.choice == \"a\" && ctx.tag == 1 { 1 } else { 0 } }\n"), "");
    for (text, member, hook) in [
        ("fn on_produce(ctx) { if ctx.target == () { 1 } else { 0 } }\n", "target", "on_produce"),
        ("fn on_score(ctx) { if ctx.over == () { 1 } else { 0 } }\n", "over", "on_score"),
        ("fn on_build(ctx) { if ctx.tag == \"x\" { 1 } else { 0 } }\n", "tag", "on_build"),
        ("fn on_sold(ctx) { if ctx.choice == \"sell\" { 1 } else { 0 } }\n", "choice", "on_sold"),
    ] {
        let err = script(text);
        assert!(err.contains(&format!("`ctx.{member}` is `()` in `{hook}`")) && err.contains("s.rhai:1:"), "{err}");
    }
}

/// A key `ctx.table` (or a seat or building in it) does not hold is refused
/// by `check` where it is read, with the nearest key; every key it holds loads.
#[test]
fn check_knows_the_keys_of_the_table() {
    let script = smithy_errors;
    let good = "fn on_score(ctx) {\n    ctx.table.round + ctx.table.players[ctx.seat].hand\n        + ctx.table.players[0].buildings[0].card.cost + ctx.table.players[1].counters.len()\n}\n";
    assert_eq!(script(good), "");
    for (text, wrong, near) in [
        ("fn on_score(ctx) { ctx.table.rounds }\n", "`ctx.table` has no `rounds`", "round"),
        ("fn on_score(ctx) { ctx.table.players[0].hands }\n", "`ctx.table.players[…]` has no `hands`", "hand"),
        (
            "fn on_score(ctx) { if ctx.table.players[0].buildings[0].goods { 1 } else { 0 } }\n",
            "`ctx.table.players[…].buildings[…]` has no `goods`",
            "good",
        ),
    ] {
        let err = script(text);
        assert!(
            err.contains(wrong) && err.contains("s.rhai:1:") && err.contains(&format!("did you mean `{near}`")),
            "{err}"
        );
    }
    // Through variables bound once to a part of the table (a loop's, a `let`'s); not through one bound twice.
    let looped = "fn on_score(ctx) {\n    let n = 0;\n    for p in ctx.table.players {\n        for b in p.buildings { if b.goods { n += 1; } }\n    }\n    n\n}\n";
    let err = script(looped);
    assert!(
        err.contains("`b` has no `goods`") && err.contains("s.rhai:4:") && err.contains("did you mean `good`"),
        "{err}"
    );
    let me = "fn on_score(ctx) { let me = ctx.table.players[ctx.seat]; me.hnd }\n";
    assert!(script(me).contains("`me` has no `hnd`"), "{}", script(me));
    let twice = "fn on_score(ctx) { let p = 1; for p in ctx.table.players { p.hnd } 0 }\n";
    assert_eq!(script(twice), "");
    let written = "fn on_score(ctx) { let p = ctx.table.players[0]; p.extra = 1; p.extra }\n";
    assert_eq!(script(written), "");
    // An index that is itself a read of `ctx` ends the chain: `actor` is no key of a seat's.
    let indexed =
        "fn on_score(ctx) { let p = ctx.table.players[ctx.actor]; p.hand + ctx.table.players[ctx.actor].goods }\n";
    assert_eq!(script(indexed), "");
}

/// `on_targeted` is known to `check`: its answer key and what its `ctx.event` holds.
#[test]
fn check_knows_on_targeted_its_answer_and_its_event() {
    let script = smithy_errors;
    let ok = "fn on_targeted(ctx) {\n  let e = ctx.event;\n  if e.effect == \"discard\" && e.seat == ctx.seat && e.by != () { #{ cancel: true } } else { () }\n}\n";
    assert_eq!(script(ok), "");
    let err = script("fn on_targeted(ctx) { #{ cancle: true } }\n");
    assert!(err.contains("cancle") && err.contains("cancel"), "{err}");
    let err = script("fn on_build(ctx) { if ctx.event.effect == \"draw\" { 1 } else { 0 } }\n");
    assert!(err.contains("effect"), "{err}");
}
