//! What a game shares to let `tune` change its numbers: a `[rules]` table's
//! integers by path (`rules.hand_limit`, `rules.trading_tiles[0][4]`), and
//! the helpers that write the tables of a ruleset file setting some of them.
//! Which other numbers have paths, and how a file sets them, is the game's
//! ([`crate::Rules::tunables`], [`crate::Rules::tuned_tables`]).

use engine_rules::keys::{self, Step};
use serde::Serialize;
use toml::{Table, Value};

/// A serializable table as a TOML table (empty when it does not serialize as one).
pub fn table_of(value: &impl Serialize) -> Table {
    match Value::try_from(value) {
        Ok(Value::Table(t)) => t,
        _ => Table::new(),
    }
}

/// Every integer of a `[rules]` table, by path (`rules.hand_limit`, `rules.roles_per_round.4`).
pub fn rule_integers(rules: &impl Serialize) -> Vec<(String, i64)> {
    keys::integers("rules", &Value::Table(table_of(rules)))
}

/// Sets `to` at `steps` (below `section.key`) in the file table `out`: the
/// whole value of `out[section][key]` is written, starting from `base` when
/// `out` does not hold it yet, because a parent's value under one key is
/// replaced whole (a list is never merged element by element).
pub fn set_whole(
    out: &mut Table,
    section: &str,
    key: &str,
    base: Value,
    steps: &[Step],
    to: i64,
) -> Result<(), String> {
    let table = out.entry(section).or_insert_with(|| Value::Table(Table::new()));
    let Value::Table(table) = table else { return Err(format!("`{section}` is not a table")) };
    let value = table.entry(key).or_insert(base);
    keys::set(value, steps, to)
}

/// Sets a `rules.…` path in `out` from the resolved `rules`: `[rules]` is
/// merged key by key along `extends`, so one key is written whole.
pub fn set_rule(rules: &impl Serialize, out: &mut Table, path: &str, to: i64) -> Result<(), String> {
    let steps = keys::parse(path)?;
    let (Some(Step::Key(first)), Some(Step::Key(key))) = (steps.first(), steps.get(1)) else {
        return Err(format!("`{path}` is not a rule's path (`rules.<key>`)"));
    };
    if first != "rules" {
        return Err(format!("`{path}` is not a rule's path (`rules.<key>`)"));
    }
    let all = table_of(rules);
    let base = all.get(key).cloned().ok_or_else(|| format!("`rules.{key}` is not a rule"))?;
    set_whole(out, "rules", key, base, &steps[2..], to)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Rules {
        limit: u32,
        tiles: Vec<Vec<i32>>,
        per_count: BTreeMap<String, usize>,
        flag: bool,
    }

    fn rules() -> Rules {
        Rules { limit: 5, tiles: vec![vec![1, 2], vec![3, 4]], per_count: [("2".to_owned(), 3)].into(), flag: true }
    }

    #[test]
    fn a_rule_path_writes_its_key_whole_and_two_paths_share_it() {
        let r = rules();
        assert_eq!(
            super::rule_integers(&r).iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
            [
                "rules.limit",
                "rules.per_count.2",
                "rules.tiles[0][0]",
                "rules.tiles[0][1]",
                "rules.tiles[1][0]",
                "rules.tiles[1][1]"
            ]
        );
        let mut out = toml::Table::new();
        super::set_rule(&r, &mut out, "rules.tiles[1][0]", 9).unwrap();
        super::set_rule(&r, &mut out, "rules.tiles[0][1]", 8).unwrap();
        super::set_rule(&r, &mut out, "rules.limit", 6).unwrap();
        assert_eq!(out.to_string(), "[rules]\nlimit = 6\ntiles = [[1, 8], [9, 4]]\n");
        assert!(super::set_rule(&r, &mut out, "rules.nope", 1).is_err());
        assert!(super::set_rule(&r, &mut out, "rules.flag", 1).unwrap_err().contains("not an integer"));
        assert!(super::set_rule(&r, &mut out, "cards.x", 1).is_err());
    }
}
