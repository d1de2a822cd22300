//! House rulesets for the crate's own tests: cards written for a test, each
//! with its script, added to a built-in ruleset in a temporary folder.

use std::sync::Arc;

use crate::Ruleset;

/// A ruleset `house` extending `extends` with `cards`: each an id, its card
/// table's other keys (`kind`, `cost`, `copies`…) and its script.
pub(crate) fn house(extends: &str, cards: &[(&str, &str, String)]) -> (tempfile::TempDir, Arc<Ruleset>) {
    let dir = tempfile::tempdir().unwrap();
    let mut set = String::from("script_dir = \".\"\n");
    for (id, keys, script) in cards {
        set += &format!("[[card]]\nid = \"{id}\"\nname = \"{id}\"\n{keys}\nscript = \"{id}.rhai\"\n");
        std::fs::write(dir.path().join(format!("{id}.rhai")), format!("{script}\n")).unwrap();
    }
    std::fs::write(dir.path().join("extra.toml"), set).unwrap();
    let rules = format!("id = \"house\"\nname = \"House\"\nextends = \"{extends}\"\nextra_sets = [\"extra.toml\"]\n");
    let path = dir.path().join("house.toml");
    std::fs::write(&path, rules).unwrap();
    let rs = Ruleset::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    (dir, rs)
}
