//! The user documentation in `docs/` keeps up with the code: every file-format
//! key, hook, script property and JSON key the code has must be named on its
//! docs page, written as code (`` `hand_limit` ``), and the scenario examples
//! on the pages must run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use engine_game::doc_check::{json_keys, mentions, toml_blocks};
use san_juan::doc_keys::{self, JSON_MD, SCENARIOS_MD};
use san_juan::files::Source;
use san_juan::scenario::Scenario;

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

fn read_page(page: &str) -> String {
    let path = docs_dir().join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every (page, key) whose key the page does not name, as `docs/page: `key``.
fn missing(keys: impl IntoIterator<Item = (&'static str, String)>) -> Vec<String> {
    let mut pages: BTreeMap<&str, String> = BTreeMap::new();
    let mut out = Vec::new();
    for (page, key) in keys {
        let text = pages.entry(page).or_insert_with(|| read_page(page));
        let line = format!("docs/{page}: `{key}`");
        if !mentions(text, &key) && !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

#[test]
fn every_key_and_hook_in_the_code_is_in_the_docs() {
    let missing = missing(doc_keys::code_keys());
    assert!(
        missing.is_empty(),
        "{} name(s) are in the code but not in the docs (write each between backticks on its page):\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

/// Keys of maps keyed by card id or a script's names (a score's `breakdown`, a
/// player's `under` and `player_counters`): their keys are not the state's.
const OPAQUE: &[&str] = &["breakdown", "under", "player_counters"];

/// The JSON state has no struct to read keys from: they are the keys of the
/// states the project's scenarios reach, which between them show every one.
#[test]
fn every_key_of_the_json_state_is_in_the_docs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots/san-juan");
    let mut keys = BTreeSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for path in &files {
        let scenario = Scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
        let game = scenario.run().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        json_keys(&serde_json::to_value(game.view(None).expect("state")).unwrap(), OPAQUE, &mut keys);
        json_keys(&engine_game::Game::scores_json(&game).expect("scores"), OPAQUE, &mut keys);
    }
    assert!(keys.contains("pending") && keys.contains("legal"), "the scenarios were read: {keys:?}");
    let missing = missing(keys.into_iter().map(|k| (JSON_MD, k)));
    assert!(
        missing.is_empty(),
        "{} JSON key(s) are in the state but not in the docs:\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn the_scenario_examples_in_the_docs_run_and_pass_their_checks() {
    let page = docs_dir().join(SCENARIOS_MD);
    let blocks = toml_blocks(&read_page(SCENARIOS_MD), "[[players]]");
    assert!(!blocks.is_empty(), "docs/{SCENARIOS_MD} shows no complete scenario");
    for (i, text) in blocks.into_iter().enumerate() {
        let scenario = Scenario::parse(Source::Disk(page.clone()), text.clone())
            .unwrap_or_else(|e| panic!("example {} of docs/{SCENARIOS_MD}: {e}\n{text}", i + 1));
        let game = scenario.run().unwrap_or_else(|e| panic!("example {} of docs/{SCENARIOS_MD}: {e}\n{text}", i + 1));
        let fails = scenario.check(&game).expect("scoring works");
        assert!(fails.is_empty(), "example {} of docs/{SCENARIOS_MD}: {}\n{text}", i + 1, fails.join("; "));
    }
}

#[test]
fn a_key_counts_only_as_code() {
    assert!(mentions("| `hand_limit` | integer |", "hand_limit"));
    assert!(mentions("the `[rules]` table", "rules"));
    assert!(mentions("`[[card]]`", "card"));
    assert!(mentions("`[cards.<id>]`", "cards"));
    assert!(mentions("`count_kind(k)`", "count_kind"));
    assert!(!mentions("the hand limit is hand_limit", "hand_limit"));
    assert!(!mentions("`start_hand_limit`", "hand_limit"));
    assert!(!mentions("`hand_limits`", "hand_limit"));
}

/// The warlord shown in docs/scripting.md ("the outside corpus") is the
/// corpus's script, from its first function on, so the page cannot drift from
/// the code its scenarios run.
#[test]
fn the_outside_corpus_warlord_in_the_docs_is_its_script() {
    let page = read_page("scripting.md");
    let at = page.find("// outside_warlord.rhai:").expect("the warlord is on the page");
    let shown = page[at..].split("```").next().unwrap();
    let shown = &shown[shown.find("fn on_role").expect("its first function")..];
    let file =
        std::fs::read_to_string(docs_dir().join("../cards/san-juan/rulesets/examples/scripts/outside_warlord.rhai"))
            .unwrap();
    let script = &file[file.find("fn on_role").unwrap()..];
    assert_eq!(shown.trim_end(), script.trim_end());
}

/// The order of events in docs/scripting.md is the trace of
/// `snapshots/san-juan/order_of_events.toml`, played now: it cannot drift
/// from the engine. `SANJUAN_BLESS_DOCS=1` writes the new order into the page.
#[test]
fn order_of_events_in_the_docs_is_the_engines() {
    let file = docs_dir().join("../snapshots/san-juan/order_of_events.toml");
    let played = <san_juan::Game as engine_game::Game>::scenario(&file, None, true).unwrap_or_else(|e| panic!("{e:?}"));
    let body: String = played.trace.iter().filter(|l| !l.is_empty()).map(|l| format!("{l}\n")).collect();
    assert!(body.contains("print: on_phase_start") && body.contains("print: on_round_end"), "{body}");
    let page = read_page("scripting.md");
    let written = engine_game::doc_check::generated_block(&page, "order of events").expect("the page has the block");
    if written != body {
        if std::env::var_os("SANJUAN_BLESS_DOCS").is_some() {
            let path = docs_dir().join("scripting.md");
            std::fs::write(&path, engine_game::doc_check::with_generated_block(&page, "order of events", &body))
                .unwrap();
            return;
        }
        panic!(
            "docs/scripting.md's order of events differs from the engine's; if the new order is meant, run \
             `SANJUAN_BLESS_DOCS=1 cargo test -p san-juan order_of_events` and review the diff.\nThe engine's:\n{body}"
        );
    }
}
