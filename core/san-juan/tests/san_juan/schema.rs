//! The JSON Schemas `sanjuan schema` writes for San Juan's files: every
//! shipped ruleset, card set and scenario (and every complete example in the
//! docs) is valid under its schema, every key has a description, and the
//! schema refuses what `check` refuses.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use engine_game::Game as _;
use engine_game::doc_check::toml_blocks;
use san_juan::files::Source;
use san_juan::scenario::Scenario;
use san_juan::{Game, Ruleset};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// San Juan's schemas, compiled by an independent validator.
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
            let url = format!("mem:///san-juan-{kind}.json");
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

/// Every `*.toml` under `dir`, all levels down.
fn toml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn named(paths: &[PathBuf]) -> Vec<(String, String)> {
    paths.iter().map(|p| (p.display().to_string(), fs::read_to_string(p).unwrap())).collect()
}

#[test]
fn every_shipped_ruleset_card_set_and_scenario_is_valid_under_its_schema() {
    let schemas = Schemas::new();
    let cards = repo().join("cards/san-juan");
    // The rulesets are the files under rulesets/ that no ruleset reads as a card set.
    let mut sets = BTreeSet::new();
    let mut rulesets = Vec::new();
    for path in toml_files(&cards.join("rulesets")) {
        if let Ok(rs) = Ruleset::load(path.to_str().unwrap()) {
            for set in &rs.sets {
                if let Source::Disk(p) = set {
                    sets.insert(p.canonicalize().unwrap());
                }
            }
            rulesets.push(path);
        }
    }
    rulesets.retain(|p| !sets.contains(p));
    let every: Vec<PathBuf> = toml_files(&cards);
    let neither: Vec<&PathBuf> = every.iter().filter(|p| !sets.contains(*p) && !rulesets.contains(p)).collect();
    assert!(neither.is_empty(), "neither a ruleset that loads nor a card set a ruleset reads: {neither:?}");
    assert!(rulesets.len() >= 10 && sets.len() >= 8, "{rulesets:?} {sets:?}");
    schemas.accept_all("ruleset", &named(&rulesets));
    schemas.accept_all("cards", &named(&sets.into_iter().collect::<Vec<_>>()));

    // The scenarios are the folder's own files (what the snapshot harness runs);
    // a subfolder holds rulesets they name.
    let folder = repo().join("snapshots/san-juan");
    let (scenarios, rules): (Vec<PathBuf>, Vec<PathBuf>) =
        toml_files(&folder).into_iter().partition(|p| p.parent() == Some(folder.as_path()));
    assert!(scenarios.len() > 200, "{}", scenarios.len());
    schemas.accept_all("scenario", &named(&scenarios));
    // A card set there is one that a ruleset there reads.
    let mut rule_sets = BTreeSet::new();
    for path in &rules {
        if let Ok(rs) = Ruleset::load(path.to_str().unwrap()) {
            rule_sets.extend(rs.sets.iter().filter_map(|s| match s {
                Source::Disk(p) => p.canonicalize().ok(),
                _ => None,
            }));
        }
    }
    let (rule_cards, rules): (Vec<PathBuf>, Vec<PathBuf>) =
        rules.into_iter().partition(|p| p.canonicalize().is_ok_and(|p| rule_sets.contains(&p)));
    schemas.accept_all("ruleset", &named(&rules));
    schemas.accept_all("cards", &named(&rule_cards));

    // The docs' complete examples: scenarios, the house rule and the festival's card set.
    let page = |name: &str| fs::read_to_string(repo().join(name)).unwrap();
    let blocks = |name: &str, holding: &str| -> Vec<(String, String)> {
        toml_blocks(&page(name), holding)
            .into_iter()
            .enumerate()
            .map(|(i, b)| (format!("{name} #{}", i + 1), b))
            .collect()
    };
    let mut examples = Vec::new();
    for name in ["docs/scenarios.md", "docs/json.md", "docs/notation.md", "docs/scripting.md", "README.md"] {
        examples.extend(blocks(name, "[[players]]"));
    }
    assert!(examples.len() >= 5, "{examples:?}");
    schemas.accept_all("scenario", &examples);
    schemas.accept_all("ruleset", &blocks("docs/rulesets.md", "extends ="));
    schemas.accept_all("cards", &blocks("docs/rulesets.md", "[[card]]"));
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

/// A designer's folder holding `files` (name, text), for `check`.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_misspelt_key_or_a_number_out_of_range_fails_the_schema_as_it_fails_check() {
    let schemas = Schemas::new();
    let ruleset = "id = \"mine\"\nname = \"Mine\"\nextends = \"second-edition\"\nextra_sets = [\"mine-cards.toml\"]\n";
    let card =
        "script_dir = \".\"\n[[card]]\nid = \"shed\"\nname = \"Shed\"\nkind = \"city\"\ncost = 1\nvp = 1\ncopies = 1\n";
    let good = folder(&[("mine.toml", ruleset), ("mine-cards.toml", card)]);
    Ruleset::load(good.path().join("mine.toml").to_str().unwrap()).unwrap();
    assert_eq!(schemas.refuses("ruleset", ruleset), None);
    assert_eq!(schemas.refuses("cards", card), None);

    // (kind, the file's text with the mistake, what the schema's error holds)
    let cases = [
        ("ruleset", format!("{ruleset}[rules]\nhand_limt = 8\n"), "hand_limt"),
        ("ruleset", format!("{ruleset}[rules]\nhand_limit = 0\n"), "/rules/hand_limit"),
        ("ruleset", format!("{ruleset}[cards.library]\ncots = 6\n"), "cots"),
        ("ruleset", format!("{ruleset}extra_set = []\n"), "extra_set"),
        ("ruleset", format!("{ruleset}game = \"sanjuan\"\n"), "/game"),
        ("cards", card.replace("cost = 1", "cots = 1"), "cots"),
        ("cards", card.replace("kind = \"city\"", "kind = \"town\""), "/card/0/kind"),
        ("cards", card.replace("vp = 1", "vp = 99"), "/card/0/vp"),
    ];
    for (kind, text, needle) in &cases {
        let why = schemas.refuses(kind, text).unwrap_or_else(|| panic!("the {kind} schema accepts:\n{text}"));
        assert!(why.contains(needle), "{needle} not in: {why}");
        let files = match *kind {
            "ruleset" => [("mine.toml", text.as_str()), ("mine-cards.toml", card)],
            _ => [("mine.toml", ruleset), ("mine-cards.toml", text.as_str())],
        };
        let dir = folder(&files);
        assert!(Ruleset::load(dir.path().join("mine.toml").to_str().unwrap()).is_err(), "check accepts:\n{text}");
    }

    let scenario = "actions = [\"role builder\"]\n[[players]]\n[[players]]\n[expect]\nover = false\n";
    assert_eq!(schemas.refuses("scenario", scenario), None);
    for (text, needle) in [
        (scenario.replace("over = false", "ovre = false"), "ovre"),
        (scenario.replace("[[players]]\n[expect]", "[[players]]\nhnad = []\n[expect]"), "hnad"),
        (scenario.replace("actions", "action"), "action"),
    ] {
        let why = schemas.refuses("scenario", &text).unwrap_or_else(|| panic!("the scenario schema accepts:\n{text}"));
        assert!(why.contains(needle), "{needle} not in: {why}");
        assert!(Scenario::parse(Source::Disk("s.toml".into()), text.clone()).is_err(), "check accepts:\n{text}");
    }
}
