//! `docs/alhambra.md` keeps up with the code: every `[rules]` key (with its
//! range), every key of the ruleset, scenario and saved-game files, every
//! hook and `ctx` member of the scripts and every key of the JSON state must
//! be named on the page as code (`` `take_limit` ``), and the page's scenario
//! examples must run and pass their checks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use alhambra::files::Source;
use alhambra::hooks::{CTX_MORE, HOOKS, SCALARS};
use alhambra::ruleset::{
    BuildingType, Currency, DeckCardFile, MoneyCardFile, NeutralDraw, RULE_KEYS, Scoring, TwoPlayers,
};
use alhambra::saved::SavedGame;
use alhambra::scenario::{Expect, PlayerSpec, Scenario, ScenarioFile};
use engine_game::doc_check::{json_keys, mentions, toml_blocks};
use engine_rules::schema::field_names;

const PAGE: &str = "docs/alhambra.md";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn page() -> String {
    let path = repo().join(PAGE);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every key of a TOML value, all levels down (tables in arrays included).
fn toml_keys(value: &toml::Value, out: &mut BTreeSet<String>) {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                out.insert(k.clone());
                toml_keys(v, out);
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|v| toml_keys(v, out)),
        _ => {}
    }
}

/// The keys the page does not name, one line each, with what they are.
fn missing<'a>(what: &str, keys: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let text = page();
    let mut out: Vec<String> =
        keys.into_iter().filter(|k| !mentions(&text, k)).map(|k| format!("{what} `{k}`")).collect();
    out.dedup();
    out
}

fn assert_none_missing(missing: Vec<String>) {
    assert!(
        missing.is_empty(),
        "{} name(s) are in the code but not in {PAGE} (write each between backticks):\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn every_rule_key_is_documented_with_its_range() {
    let text = page();
    let mut problems = missing("[rules] key", RULE_KEYS.iter().map(|(k, _)| *k));
    for (key, range) in RULE_KEYS {
        let Some((lo, hi)) = range else { continue };
        let row = text.lines().find(|l| l.starts_with(&format!("| `{key}` |")));
        let range = format!("{lo} to {hi}");
        if !row.is_some_and(|r| r.contains(&range)) {
            problems.push(format!("[rules] key `{key}`: no table row `| `{key}` | …` that gives its range, {range}"));
        }
    }
    assert_none_missing(problems);
}

#[test]
fn every_key_of_the_ruleset_files_is_documented() {
    let mut keys = BTreeSet::new();
    for file in ["cards/alhambra/alhambra.toml", "cards/alhambra/examples/house-rule.toml"] {
        let path = repo().join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let table = text.parse::<toml::Table>().unwrap_or_else(|e| panic!("{file}: {e}"));
        toml_keys(&toml::Value::Table(table), &mut keys);
    }
    for fields in [
        field_names::<Currency>(),
        field_names::<BuildingType>(),
        field_names::<Scoring>(),
        field_names::<NeutralDraw>(),
        field_names::<TwoPlayers>(),
        field_names::<MoneyCardFile>(),
        field_names::<DeckCardFile>(),
    ] {
        keys.extend(fields.iter().map(|f| (*f).to_owned()));
    }
    assert!(keys.contains("extends") && keys.contains("neutral_draws"), "the ruleset files were read: {keys:?}");
    assert_none_missing(missing("ruleset key", keys.iter().map(String::as_str)));
}

#[test]
fn every_scenario_and_saved_game_key_is_documented() {
    let mut problems = Vec::new();
    for (what, fields) in [
        ("scenario key", field_names::<ScenarioFile>()),
        ("scenario [[players]] key", field_names::<PlayerSpec>()),
        ("scenario [expect] key", field_names::<Expect>()),
        ("saved-game key", field_names::<SavedGame>()),
    ] {
        problems.extend(missing(what, fields.iter().copied()));
    }
    assert_none_missing(problems);
}

#[test]
fn every_hook_and_ctx_member_is_documented() {
    let mut problems = missing("hook", HOOKS.iter().map(|h| h.name));
    problems.extend(missing("ctx member", SCALARS.iter().chain(CTX_MORE).copied()));
    assert_none_missing(problems);
}

fn scenario_files() -> Vec<PathBuf> {
    let dir = repo().join("snapshots/alhambra");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// The JSON state has no list of keys to read: they are the keys of the states
/// the project's scenarios reach (a game over, two players, a pending decision).
#[test]
fn every_key_of_the_json_state_is_documented() {
    let mut keys = BTreeSet::new();
    for path in scenario_files() {
        let scenario = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let run = scenario.run().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for viewer in [None, Some(0)] {
            json_keys(
                &serde_json::to_value(run.game.view(viewer)).unwrap(),
                &["breakdown", "counts", "counters", "player_counters"],
                &mut keys,
            );
        }
    }
    for key in ["pending", "legal", "winners", "neutral", "building_display"] {
        assert!(keys.contains(key), "no scenario reaches a state with `{key}`: {keys:?}");
    }
    assert_none_missing(missing("JSON key", keys.iter().map(String::as_str)));
}

/// Every scenario file starts with its `ruleset = …` line: the command line
/// tells the game of a file from it, and a file without one is San Juan's.
#[test]
fn every_scenario_names_its_ruleset_first() {
    for path in scenario_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("ruleset = "), "{}: the first line must be `ruleset = …`", path.display());
    }
}

/// The page's scenarios are read as if they lay in `snapshots/alhambra/`,
/// where the page says they are, so their ruleset paths resolve the same.
#[test]
fn the_scenario_examples_on_the_page_run_and_pass_their_checks() {
    let blocks = toml_blocks(&page(), "[[players]]");
    assert!(blocks.len() >= 2, "{PAGE} shows {} complete scenario(s)", blocks.len());
    let home = repo().join("snapshots/alhambra/docs-example.toml");
    for (i, text) in blocks.into_iter().enumerate() {
        let scenario = Scenario::parse(Source::Disk(home.clone()), text.clone())
            .unwrap_or_else(|e| panic!("example {} of {PAGE}: {e}\n{text}", i + 1));
        assert!(scenario.file.expect.is_some(), "example {} of {PAGE} has no [expect]:\n{text}", i + 1);
        let run = scenario.run().unwrap_or_else(|e| panic!("example {} of {PAGE}: {e}\n{text}", i + 1));
        let fails = scenario.check(&run);
        assert!(fails.is_empty(), "example {} of {PAGE}: {}\n{text}", i + 1, fails.join("; "));
    }
}

#[test]
fn a_key_counts_only_as_code() {
    assert!(mentions("| `take_limit` | integer |", "take_limit"));
    assert!(mentions("the `[two_players]` table", "two_players"));
    assert!(mentions("`[[building]]`", "building"));
    assert!(mentions("`ctx.deck`", "ctx"));
    assert!(!mentions("the take limit is take_limit", "take_limit"));
    assert!(!mentions("`building_deck`", "building"));
    assert!(!mentions("`buildings`", "building"));
}

/// The order of events in docs/alhambra.md is the trace of
/// `snapshots/alhambra/order_of_events.toml`, played now: it cannot drift
/// from the engine. `SANJUAN_BLESS_DOCS=1` writes the new order into the page.
#[test]
fn order_of_events_in_the_docs_is_the_engines() {
    let file = repo().join("snapshots/alhambra/order_of_events.toml");
    let played = <alhambra::Game as engine_game::Game>::scenario(&file, None, true).unwrap_or_else(|e| panic!("{e:?}"));
    let body: String = played.trace.iter().filter(|l| !l.is_empty()).map(|l| format!("{l}\n")).collect();
    assert!(body.contains("print: on_scored") && body.contains("print: on_refilled"), "{body}");
    let page = page();
    let written = engine_game::doc_check::generated_block(&page, "order of events").expect("the page has the block");
    if written != body {
        if std::env::var_os("SANJUAN_BLESS_DOCS").is_some() {
            let path = repo().join("docs/alhambra.md");
            std::fs::write(&path, engine_game::doc_check::with_generated_block(&page, "order of events", &body))
                .unwrap();
            return;
        }
        panic!(
            "docs/alhambra.md's order of events differs from the engine's; if the new order is meant, run \
             `SANJUAN_BLESS_DOCS=1 cargo test -p alhambra order_of_events` and review the diff.\nThe engine's:\n{body}"
        );
    }
}
