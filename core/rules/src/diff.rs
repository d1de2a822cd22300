//! What differs between two rulesets' content, key by key: any data that
//! serializes (rule numbers, tables, lists) is compared as TOML values and
//! each difference named by its dotted path (`rules.take_limit: 5 -> 6`).

use serde::Serialize;
use toml::Value;

/// The differences between `a` and `b`, one line per changed, added or removed value.
pub fn changes<T: Serialize>(a: &T, b: &T) -> Vec<String> {
    let (Ok(a), Ok(b)) = (Value::try_from(a), Value::try_from(b)) else { return Vec::new() };
    let mut out = Vec::new();
    walk(&a, &b, "", &mut out);
    out
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

fn walk(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
    match (a, b) {
        (Value::Table(x), Value::Table(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    Some(vb) => walk(va, vb, &join(k), out),
                    None => out.push(format!("{}: {} -> (none)", join(k), show(va))),
                }
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                out.push(format!("{}: (none) -> {}", join(k), show(vb)));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                walk(va, vb, &join(&i.to_string()), out);
            }
        }
        _ if a != b => out.push(format!("{path}: {} -> {}", show(a), show(b))),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Rules {
        limit: u32,
        prices: Vec<u8>,
        names: BTreeMap<String, String>,
    }

    #[test]
    fn every_changed_added_or_removed_value_is_named_by_its_path() {
        let a = Rules { limit: 5, prices: vec![2, 3], names: [("a".into(), "x".into())].into() };
        let b = Rules { limit: 6, prices: vec![2, 4], names: [("b".into(), "y".into())].into() };
        assert_eq!(
            super::changes(&a, &b),
            ["limit: 5 -> 6", "names.a: \"x\" -> (none)", "names.b: (none) -> \"y\"", "prices.1: 3 -> 4"]
        );
        assert!(super::changes(&a, &a).is_empty());
        // A list that changes length is one difference, shown whole.
        let c = Rules { limit: 5, prices: vec![2, 3, 4], names: [("a".into(), "x".into())].into() };
        assert_eq!(super::changes(&a, &c), ["prices: [2, 3] -> [2, 3, 4]"]);
    }
}
