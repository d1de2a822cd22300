//! Integer values of a ruleset named by a key path, for a tuner that changes
//! them: `rules.hand_limit`, `card.lamp.cost`, `prices[0]`, `ranks[0][5]`.
//! A path is table keys joined by `.`, each list index written `[i]` after
//! the key of its list. A game says which of its numbers have paths (and how a
//! ruleset file sets one); this module reads, writes and suggests paths.

use toml::Value;

/// One step of a key path: a table key or a list index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A table key.
    Key(String),
    /// A list index (from 0).
    Index(usize),
}

/// Reads a path (`scoring.B.ranks[0][5]`) into its steps.
pub fn parse(path: &str) -> Result<Vec<Step>, String> {
    let usage = |why: &str| {
        format!(
            "`{path}`: {why}; write table keys joined by `.` and list indices as `[i]`, e.g. `rules.hand_limit` or `prices[0]`"
        )
    };
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if key.is_empty() || !key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            return Err(usage("a key is empty or holds a character other than letters, digits, `_` and `-`"));
        }
        steps.push(Step::Key(key.to_owned()));
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']').ok_or_else(|| usage("a `[` has no `]`"))?;
            let index: usize = index.trim().parse().map_err(|_| usage("a list index is not a number"))?;
            steps.push(Step::Index(index));
            rest = match after.strip_prefix('[') {
                Some(r) => r,
                None if after.is_empty() => "",
                None => return Err(usage("something follows a `]` other than `[` or `.`")),
            };
        }
    }
    Ok(steps)
}

/// Writes steps as a path (the inverse of [`parse`]).
pub fn format(steps: &[Step]) -> String {
    let mut out = String::new();
    for s in steps {
        match s {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Every integer in `value` with its path under `prefix` (tables by key in
/// their order, lists by index).
pub fn integers(prefix: &str, value: &Value) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    walk(prefix, value, &mut out);
    out
}

fn walk(path: &str, value: &Value, out: &mut Vec<(String, i64)>) {
    match value {
        Value::Integer(i) => out.push((path.to_owned(), *i)),
        Value::Table(t) => {
            for (k, v) in t {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                walk(&p, v, out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                walk(&format!("{path}[{i}]"), v, out);
            }
        }
        _ => {}
    }
}

/// Sets the integer at `steps` inside `value`; an error when the path leads
/// nowhere or to something other than an integer.
pub fn set(value: &mut Value, steps: &[Step], to: i64) -> Result<(), String> {
    let mut at = value;
    for (n, s) in steps.iter().enumerate() {
        let next = match (s, at) {
            (Step::Key(k), Value::Table(t)) => t.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        at = next.ok_or_else(|| format!("`{}` is not in the ruleset", format(&steps[..=n])))?;
    }
    match at {
        Value::Integer(i) => {
            *i = to;
            Ok(())
        }
        _ => Err(format!("`{}` is not an integer", format(steps))),
    }
}

/// Up to `most` of `known` closest to `wrong`, closest first (only those that
/// are somewhat alike; a path with the same ending is always alike).
pub fn closest<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>, most: usize) -> Vec<&'a str> {
    let tail = |p: &str| p.rsplit('.').next().unwrap_or(p).to_owned();
    let wrong_tail = tail(wrong);
    let mut scored: Vec<(f64, &str)> = known
        .into_iter()
        .map(|k| {
            let mut s = strsim::normalized_damerau_levenshtein(wrong, k);
            // The same field of another card (`card.lmap.cost` → `card.lamp.cost`) reads alike.
            if tail(k) == wrong_tail {
                s += 0.2;
            }
            (s, k)
        })
        .filter(|(s, _)| *s >= 0.6)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(most).map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_and_write_back() {
        let steps = parse("scoring.B.ranks[0][5]").unwrap();
        assert_eq!(
            steps,
            [
                Step::Key("scoring".into()),
                Step::Key("B".into()),
                Step::Key("ranks".into()),
                Step::Index(0),
                Step::Index(5)
            ]
        );
        assert_eq!(format(&steps), "scoring.B.ranks[0][5]");
        for bad in ["", "a..b", "a[x]", "a[0", "a[0]b", "a b"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn integers_are_listed_and_set_by_path() {
        let mut v: Value = toml::from_str("limit = 5\nflag = true\nprices = [[1, 2], [3, 4]]\n[t]\nx = 7").unwrap();
        let all = integers("rules", &v);
        assert_eq!(
            all,
            [
                ("rules.limit".to_owned(), 5),
                ("rules.prices[0][0]".to_owned(), 1),
                ("rules.prices[0][1]".to_owned(), 2),
                ("rules.prices[1][0]".to_owned(), 3),
                ("rules.prices[1][1]".to_owned(), 4),
                ("rules.t.x".to_owned(), 7),
            ]
        );
        set(&mut v, &parse("prices[1][0]").unwrap(), 9).unwrap();
        assert_eq!(v["prices"][1][0].as_integer(), Some(9));
        assert!(set(&mut v, &parse("prices[2][0]").unwrap(), 1).unwrap_err().contains("`prices[2]` is not in"));
        assert!(set(&mut v, &parse("flag").unwrap(), 1).unwrap_err().contains("not an integer"));
    }

    #[test]
    fn close_paths_are_suggested_closest_first() {
        let known = ["card.lamp.cost", "card.lamp.vp", "card.lantern.cost", "rules.hand_limit"];
        assert_eq!(closest("card.lmap.cost", known, 1), ["card.lamp.cost"]);
        assert!(!closest("card.lmap.cost", known, 4).contains(&"rules.hand_limit"));
        assert_eq!(closest("rules.handlimit", known, 3), ["rules.hand_limit"]);
        assert!(closest("zzz", known, 3).is_empty());
    }
}
