//! Bad input gets a clear error naming the file, the line and what to do;
//! and rule changes are data: editing TOML or a script changes behaviour
//! without recompiling.

use std::fs;
use std::path::{Path, PathBuf};

use sanjuan_core::Ruleset;
use sanjuan_core::scenario::Scenario;

/// A copy of the repository's cards/ and scripts/ to edit.
fn copy_rules() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for sub in ["cards", "cards/rulesets", "scripts"] {
        fs::create_dir_all(dir.path().join(sub)).unwrap();
        for entry in fs::read_dir(root.join(sub)).unwrap().flatten() {
            if entry.path().is_file() {
                fs::copy(entry.path(), dir.path().join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    let ruleset = dir.path().join("cards/rulesets/second-edition.toml");
    (dir, ruleset)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} does not contain {from:?}", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

fn load_err(ruleset: &Path) -> String {
    Ruleset::load(ruleset.to_str().unwrap()).expect_err("should not load").to_string()
}

#[test]
fn toml_syntax_error_names_file_and_line() {
    let (dir, ruleset) = copy_rules();
    edit(&dir.path().join("cards/base.toml"), "cost = 2\nvp = 1\ncopies = 8", "cost = = 2\nvp = 1\ncopies = 8");
    let err = load_err(&ruleset);
    assert!(err.contains("base.toml:25:8:"), "{err}");
}

#[test]
fn script_that_does_not_compile_names_file_line_and_column() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/smithy.rhai"), "fn on_build_cost(ctx) {\n    let x = ;\n    x\n}\n").unwrap();
    let err = load_err(&ruleset);
    assert!(err.contains("smithy.rhai:2:"), "{err}");
    assert!(err.contains("does not compile"), "{err}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/smithy.rhai"), "fn on_build_cost(ctx, extra) { 1 }\n").unwrap();
    fs::write(dir.path().join("scripts/quarry.rhai"), "fn on_bulid_cost(ctx) { 1 }\n").unwrap();
    edit(&dir.path().join("cards/base.toml"), "script = \"well.rhai\"", "script = \"wel.rhai\"");
    let err = load_err(&ruleset);
    assert!(err.contains("smithy.rhai:1:") && err.contains("takes 2 parameter(s)"), "{err}");
    assert!(err.contains("quarry.rhai:1:") && err.contains("did you mean `on_build_cost`"), "{err}");
    assert!(err.contains("wel.rhai") && err.contains("cannot read"), "{err}");
}

#[test]
fn a_script_that_loops_forever_is_stopped_and_named() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/poor_house.rhai"), "fn on_build(ctx) { let n = 0; loop { n += 1; } }\n")
        .unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = r#"
actions = ["role builder", "build well pay quarry"]
[[players]]
buildings = ["poor_house"]
hand = ["well", "quarry"]
[[players]]
"#;
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("loop.toml".into()), text.into()).unwrap();
    let err = scenario.play(rs).unwrap_err().to_string();
    assert!(err.contains("poor_house.rhai:1:1:") && err.contains("on_build") && err.contains("ran too long"), "{err}");
}

#[test]
fn a_hook_returning_the_wrong_type_names_card_and_hook() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/tower.rhai"), "fn on_hand_limit(ctx) { \"twelve\" }\n").unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    // The hand limit is checked when a round starts.
    let text = r#"
round_start = true
round = 2
[[players]]
buildings = ["tower"]
[[players]]
"#;
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("t.toml".into()), text.into()).unwrap();
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("tower") && err.contains("on_hand_limit") && err.contains("expected an integer"), "{err}");
}

#[test]
fn a_game_stops_after_a_script_error_and_says_why() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/library.rhai"), "fn on_privilege(ctx) { ctx.no_such_thing }\n").unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "actions = [\"role builder\"]\n[[players]]\nbuildings = [\"library\"]\n[[players]]\n";
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("l.toml".into()), text.into()).unwrap();
    // The library is asked for its factor when its owner is about to choose a role.
    let err = scenario.setup(rs).unwrap_err().to_string();
    assert!(err.contains("library.rhai:1:") && err.contains("no_such_thing"), "{err}");
}

#[test]
fn unknown_card_in_a_scenario_names_line_and_suggests() {
    let text = "[[players]]\nbuildings = [\"indigo_plant\"]\nhand = [\"smithee\"]\n[[players]]\n";
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("s.toml".into()), text.into()).unwrap();
    let err = scenario.run().unwrap_err().to_string();
    assert!(err.contains("s.toml:3:") && err.contains("unknown card `smithee`") && err.contains("smithy"), "{err}");
}

#[test]
fn illegal_action_in_a_scenario_says_which_and_what_was_legal() {
    let text = "actions = [\"role builder\", \"build palace pay well\"]\n[[players]]\nhand = [\"palace\", \"well\"]\n[[players]]\n";
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("s.toml".into()), text.into()).unwrap();
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
        let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("x.toml".into()), text).unwrap();
        let game = scenario.setup(rs.clone()).unwrap();
        let idx = rs.cards.idx(card).unwrap();
        game.build_cost_now(0, idx).unwrap()
    };
    let (dir, ruleset) = copy_rules();
    let path = ruleset.to_str().unwrap().to_owned();
    assert_eq!(cost(&path, "sugar_mill"), 1);
    assert_eq!(cost(&path, "well"), 2);
    edit(&dir.path().join("cards/base.toml"), "script = \"smithy.rhai\"", "script = \"quarry.rhai\"");
    assert_eq!(cost(&path, "sugar_mill"), 2);
    assert_eq!(cost(&path, "well"), 1);
    // Renaming the card's id renames it everywhere a scenario or action names it.
    edit(&dir.path().join("cards/base.toml"), "id = \"smithy\"", "id = \"forge\"");
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
            "card gold_mine: script scripts/gold_mine.rhai -> scripts/gold_mine_1st.rhai",
            "card prefecture: cost 4 -> 3",
            "card guild_hall: script scripts/guild_hall.rhai -> scripts/guild_hall_1st.rhai",
        ]
    );
    let expansion = Ruleset::load("second-edition-expansion").unwrap();
    let diff = second.diff(&expansion);
    assert!(diff.contains(&"rules.hand_limit: 7 -> 6".to_owned()), "{diff:?}");
    assert!(diff.contains(&"+ card cathedral (cost 7, 0 VP, 1 copies)".to_owned()), "{diff:?}");
    assert_eq!(diff.iter().filter(|l| l.starts_with("+ card")).count(), 11);
}

#[test]
fn a_trading_tile_listed_twice_or_a_sixth_tile_is_refused() {
    let first = "[1, 1, 1, 2, 2]";
    let all = "[1, 1, 1, 2, 2], [1, 1, 2, 2, 2], [1, 1, 2, 2, 3], [1, 2, 2, 2, 3], [1, 2, 2, 3, 3]";
    for tiles in [format!("{first}, {first}"), format!("{all}, {first}")] {
        let text = format!("trading_tiles = [{tiles}]\n[[players]]\n[[players]]\n");
        let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("t.toml".into()), text).unwrap();
        let err = scenario.run().unwrap_err().to_string();
        assert!(err.contains("t.toml:1:") && err.contains("listed more often than the ruleset has it"), "{err}");
    }
    let text = format!("trading_tiles = [{all}]\n[[players]]\n[[players]]\n");
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("t.toml".into()), text).unwrap();
    assert!(scenario.run().is_ok(), "all five tiles, each once, is a valid order");
}

#[test]
fn a_hook_returning_a_runaway_number_names_card_and_hook() {
    let (dir, ruleset) = copy_rules();
    fs::write(dir.path().join("scripts/tower.rhai"), "fn on_hand_limit(ctx) { 2147483647 }\n").unwrap();
    let rs = Ruleset::load(ruleset.to_str().unwrap()).unwrap();
    let text = "round_start = true\nround = 2\n[[players]]\nbuildings = [\"tower\"]\n[[players]]\n";
    let scenario = Scenario::parse(sanjuan_core::files::Source::Disk("t.toml".into()), text.into()).unwrap();
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
    for what in
        ["max_players = 100000000000 is too large", "max_rounds = 4294967295 is too large", "produce: 2147483647"]
    {
        assert!(err.contains(what), "{what}: {err}");
    }
}
