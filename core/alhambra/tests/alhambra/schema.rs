//! The JSON Schemas `sanjuan schema` writes for Alhambra's files: every
//! shipped ruleset and scenario (and every complete example in the docs) is
//! valid under its schema, every key has a description, and the schema
//! refuses what `check` refuses.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use alhambra::files::Source;
use alhambra::scenario::Scenario;
use alhambra::{Game, Ruleset};
use engine_game::Game as _;
use engine_game::doc_check::toml_blocks;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Alhambra's schemas, compiled by an independent validator.
struct Schemas {
    compiled: boon::Schemas,
    by_kind: BTreeMap<&'static str, boon::SchemaIndex>,
}

impl Schemas {
    fn new() -> Schemas {
        let mut compiled = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        let mut by_kind = BTreeMap::new();
        for (kind, schema) in Game::schemas() {
            let url = format!("mem:///alhambra-{kind}.json");
            compiler.add_resource(&url, schema).unwrap();
            let index = compiler.compile(&url, &mut compiled).unwrap_or_else(|e| panic!("{kind}: {e}"));
            by_kind.insert(kind, index);
        }
        Schemas { compiled, by_kind }
    }

    /// Why TOML `text` is not valid under the `kind` schema (`None`: it is).
    fn refuses(&self, kind: &str, text: &str) -> Option<String> {
        let value: serde_json::Value = toml::from_str(text).unwrap_or_else(|e| panic!("not TOML: {e}\n{text}"));
        self.compiled.validate(&value, self.by_kind[kind]).err().map(|e| e.to_string())
    }

    /// Panics with every file of `files` the `kind` schema refuses, and why.
    fn accept_all(&self, kind: &str, files: &[(String, String)]) {
        let refused: Vec<String> = files
            .iter()
            .filter_map(|(name, text)| self.refuses(kind, text).map(|why| format!("{name}: {why}")))
            .collect();
        assert!(refused.is_empty(), "the {kind} schema refuses:\n{}", refused.join("\n"));
    }
}

/// Every `*.toml` under `dir`, all levels down, with its text.
fn toml_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push((path.display().to_string(), fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_shipped_ruleset_and_scenario_is_valid_under_its_schema() {
    let schemas = Schemas::new();
    // Every file under cards/alhambra is a ruleset (a type's or a scoring's script is Rhai).
    let rulesets = toml_files(&repo().join("cards/alhambra"));
    for (name, _) in &rulesets {
        Ruleset::load(name).unwrap_or_else(|e| panic!("{name} is a ruleset that loads: {e}"));
    }
    assert!(rulesets.len() >= 10, "{}", rulesets.len());
    schemas.accept_all("ruleset", &rulesets);
    // The scenarios are the folder's own files (what the snapshot harness runs);
    // a subfolder holds rulesets they name.
    let folder = repo().join("snapshots/alhambra");
    let (scenarios, rules): (Vec<_>, Vec<_>) = toml_files(&folder)
        .into_iter()
        .partition(|(name, _)| std::path::Path::new(name).parent() == Some(folder.as_path()));
    assert!(scenarios.len() >= 30 && !rules.is_empty(), "{}", scenarios.len());
    schemas.accept_all("scenario", &scenarios);
    schemas.accept_all("ruleset", &rules);

    let page = fs::read_to_string(repo().join("docs/alhambra.md")).unwrap();
    let blocks = |holding: &str| -> Vec<(String, String)> {
        toml_blocks(&page, holding)
            .into_iter()
            .enumerate()
            .map(|(i, b)| (format!("docs/alhambra.md {holding} #{}", i + 1), b))
            .collect()
    };
    let (examples, designs) = (blocks("[[players]]"), blocks("game = \"alhambra\""));
    assert!(examples.len() >= 2 && designs.len() >= 2, "{examples:?} {designs:?}");
    schemas.accept_all("scenario", &examples);
    schemas.accept_all("ruleset", &designs);
}

#[test]
fn every_key_of_every_schema_has_a_one_line_description() {
    for (kind, schema) in Game::schemas() {
        let mut tables = vec![("(file)".to_owned(), &schema)];
        for (name, def) in schema["definitions"].as_object().into_iter().flatten() {
            tables.push((name.clone(), def));
        }
        for (table, def) in tables {
            for (key, prop) in def["properties"].as_object().into_iter().flatten() {
                let d = prop["description"].as_str().unwrap_or_default();
                assert!(!d.is_empty() && !d.contains('\n'), "{kind}: {table}.{key} has no one-line description: {d:?}");
            }
        }
    }
}

#[test]
fn a_misspelt_key_or_a_number_out_of_range_fails_the_schema_as_it_fails_check() {
    let schemas = Schemas::new();
    let ruleset = "id = \"mine\"\nname = \"Mine\"\nextends = \"alhambra\"\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    fs::write(&file, ruleset).unwrap();
    Ruleset::load(file.to_str().unwrap()).unwrap();
    assert_eq!(schemas.refuses("ruleset", ruleset), None);
    for (text, needle) in [
        (format!("{ruleset}[rules]\ntake_limt = 6\n"), "take_limt"),
        (format!("{ruleset}[rules]\npiles = 0\n"), "/rules/piles"),
        (format!("{ruleset}[[building]]\nid = \"garden\"\nprice = [1]\n"), "price"),
        (format!("{ruleset}[yard]\nslot = []\n"), "slot"),
        (format!("{ruleset}[[scoring]]\nname = \"A\"\nrank = [[1]]\n"), "rank"),
        (format!("{ruleset}[[building]]\nid = \"garden\"\nprices = [0]\n"), "/building/0/prices/0"),
        (format!("{ruleset}[[scoring]]\nname = \"A\"\nranks = [[1, 2, 3, 4, 5, 1001]]\n"), "/scoring/0/ranks/0/5"),
        (format!("{ruleset}[money]\ncurrencies = []\nvalues = [100]\ncopies = 3\n"), "/money/values/0"),
    ] {
        let why = schemas.refuses("ruleset", &text).unwrap_or_else(|| panic!("the ruleset schema accepts:\n{text}"));
        assert!(why.contains(needle), "{needle} not in: {why}");
        fs::write(&file, &text).unwrap();
        assert!(Ruleset::load(file.to_str().unwrap()).is_err(), "check accepts:\n{text}");
    }

    let scenario = "actions = [\"take denar3\"]\n[[players]]\n[[players]]\n[expect]\nover = false\n";
    assert_eq!(schemas.refuses("scenario", scenario), None);
    for (text, needle) in [
        (scenario.replace("over = false", "neutral_scor = 3"), "neutral_scor"),
        (scenario.replace("[[players]]\n[expect]", "[[players]]\nbuilding = []\n[expect]"), "building"),
        (format!("to_mov = 1\n{scenario}"), "to_mov"),
    ] {
        let why = schemas.refuses("scenario", &text).unwrap_or_else(|| panic!("the scenario schema accepts:\n{text}"));
        assert!(why.contains(needle), "{needle} not in: {why}");
        assert!(Scenario::parse(Source::Disk("s.toml".into()), text.clone()).is_err(), "check accepts:\n{text}");
    }
}
