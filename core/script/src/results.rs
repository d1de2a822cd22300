//! Typed hook results: a script returns a `Dynamic`; these read it as the
//! type and range the hook's contract says, or say what was wrong.

use rhai::{Array, Dynamic, Map};

/// Reads an integer result; `()` counts as 0.
#[inline]
pub fn as_int(value: Dynamic) -> Result<i32, String> {
    int_at(&value)
}

/// [`as_int`] read in place (a literal answer the host keeps).
#[inline]
pub fn int_at(value: &Dynamic) -> Result<i32, String> {
    if value.is_unit() {
        return Ok(0);
    }
    value.as_int().map_err(|t| format!("returned a {t}, expected an integer"))
}

/// Reads an integer result that must lie in `range` (a hook's [`crate::HookSpec::range`]).
#[inline]
pub fn as_int_in(value: Dynamic, range: Option<(i64, i64)>) -> Result<i32, String> {
    int_in(as_int(value)?, range)
}

/// An integer result that must lie in `range`, or what is wrong with it.
#[inline]
pub fn int_in(n: i32, range: Option<(i64, i64)>) -> Result<i32, String> {
    match range {
        Some((lo, hi)) if i64::from(n) < lo || i64::from(n) > hi => {
            Err(format!("returned {n}, outside the allowed {lo} to {hi}"))
        }
        _ => Ok(n),
    }
}

/// Reads a boolean result; `()` counts as false.
pub fn as_bool(value: Dynamic) -> Result<bool, String> {
    if value.is_unit() {
        return Ok(false);
    }
    value.as_bool().map_err(|t| format!("returned a {t}, expected true or false"))
}

/// Reads a map result with only the keys in `allowed`; `()` is an empty map.
pub fn as_map(value: Dynamic, allowed: &[&str]) -> Result<Map, String> {
    if value.is_unit() {
        return Ok(Map::new());
    }
    let type_name = value.type_name();
    let map = value.try_cast::<Map>().ok_or_else(|| format!("returned a {type_name}, expected a map"))?;
    only_keys(&map, allowed)?;
    Ok(map)
}

/// [`as_map`] read in place: `read` is given the map, which is not copied
/// (a literal answer the host keeps, read at every call).
pub fn with_map<R>(
    value: &Dynamic,
    allowed: &[&str],
    read: impl FnOnce(&Map) -> Result<R, String>,
) -> Result<R, String> {
    if value.is_unit() {
        return read(&Map::new());
    }
    let map = value.as_map_ref().map_err(|_| format!("returned a {}, expected a map", value.type_name()))?;
    only_keys(&map, allowed)?;
    read(&map)
}

/// An error naming the first key of `map` not in `allowed`.
fn only_keys(map: &Map, allowed: &[&str]) -> Result<(), String> {
    match map.keys().find(|k| !allowed.iter().any(|a| same_key(a, k))) {
        Some(k) => Err(format!("returned unknown key `{k}` (allowed: {})", allowed.join(", "))),
        None => Ok(()),
    }
}

/// `a == b` for a map's keys, most of which differ in length or first
/// letter: told apart without a call to compare their bytes (a literal
/// answer's keys are checked at every call of its hook).
#[inline(always)]
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// `map[key]`: a small map (an answer names a key or two) is walked with
/// [`same_key`] rather than searched, which compares bytes at every step.
#[inline(always)]
pub fn field<'m>(map: &'m Map, key: &str) -> Option<&'m Dynamic> {
    if map.len() <= 8 { map.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| v) } else { map.get(key) }
}

/// An integer field of a map result (0 when missing), in the range `ranges` gives its key.
pub fn map_int_in(map: &Map, key: &str, ranges: &[(&str, i64, i64)]) -> Result<i32, String> {
    // Most keys asked for are absent (a map names what it grants): that answer
    // needs neither the key's range nor a copy of a value.
    let Some(v) = field(map, key) else { return Ok(0) };
    let range = ranges.iter().find(|(k, ..)| same_key(k, key)).map(|&(_, lo, hi)| (lo, hi));
    int_at(v).and_then(|n| int_in(n, range)).map_err(|e| format!("key `{key}` {e}"))
}

/// The argument lists an action's `legal` hook returned (every game's
/// `[[action]]`): a list whose entries are `()` (no argument), a value, or a
/// list of at most two values, each as the notation writes it. `card` reads
/// a value of the game's own card type as its id (`None`: not a card).
pub fn listed_args(
    v: Dynamic,
    card: impl Fn(&Dynamic) -> Option<Result<String, String>>,
) -> Result<Vec<Vec<String>>, String> {
    let t = v.type_name();
    let list = v.try_cast::<Array>().ok_or_else(|| format!("returned a {t}; return a list of arguments"))?;
    let mut out = Vec::with_capacity(list.len());
    for entry in list {
        let args = if entry.is_unit() {
            Vec::new()
        } else if entry.is_array() {
            let inner = entry.cast::<Array>();
            if inner.len() > 2 {
                return Err(format!("listed {} arguments for one action; an action takes at most two", inner.len()));
            }
            inner.into_iter().map(|v| arg_text(v, &card)).collect::<Result<_, _>>()?
        } else {
            vec![arg_text(entry, &card)?]
        };
        out.push(args);
    }
    Ok(out)
}

/// An argument listed as a map: a card, by its text `id` (`None`: not a map)
/// — what [`listed_args`] is given by a game whose cards are maps.
pub fn card_map_id(v: &Dynamic) -> Option<Result<String, String>> {
    let map = v.read_lock::<Map>()?;
    let id = map.get("id").and_then(|id| id.clone().into_string().ok());
    Some(id.ok_or_else(|| "listed a map without a text `id`; list a card by its id".to_owned()))
}

/// One argument as the notation writes it: a number, a word, or a card's id.
fn arg_text(v: Dynamic, card: &impl Fn(&Dynamic) -> Option<Result<String, String>>) -> Result<String, String> {
    let text = if v.is_int() {
        v.as_int().map(|n| n.to_string()).unwrap_or_default()
    } else if let Some(id) = card(&v) {
        id?
    } else {
        let t = v.type_name();
        v.into_string().map_err(|_| format!("listed a {t}; an argument is a number, a word or a card"))?
    };
    if !crate::words::is_option_name(&text) && !text.parse::<i32>().is_ok_and(|n| n >= 0) {
        return Err(format!("listed `{text}`; an argument is 1 to 40 letters, digits or `_`"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map's integer field: absent or `()` is 0, a value is checked against
    /// its key's range, and each wrong answer names the key and what is wrong.
    #[test]
    fn a_map_field_is_read_checked_and_named() {
        let ranges = [("tuck", 0, 5), ("draw", 0, 50)];
        let mut map = Map::new();
        map.insert("tuck".into(), Dynamic::from_int(3));
        map.insert("draw".into(), Dynamic::UNIT);
        map.insert("keep".into(), Dynamic::from_int(-7));
        map.insert("why".into(), Dynamic::from("x"));
        assert_eq!(map_int_in(&map, "tuck", &ranges), Ok(3));
        assert_eq!(map_int_in(&map, "draw", &ranges), Ok(0));
        assert_eq!(map_int_in(&map, "exchange", &ranges), Ok(0));
        assert_eq!(map_int_in(&map, "keep", &ranges), Ok(-7), "a key without a range is any integer");
        map.insert("tuck".into(), Dynamic::from_int(6));
        assert_eq!(map_int_in(&map, "tuck", &ranges), Err("key `tuck` returned 6, outside the allowed 0 to 5".into()));
        let wrong = map_int_in(&map, "why", &ranges).unwrap_err();
        assert!(wrong.starts_with("key `why` returned a ") && wrong.ends_with("expected an integer"), "{wrong}");
    }

    /// A field is found by its whole key in a small map (walked) and a large
    /// one (searched) alike; keys of one length and first letter stay apart.
    #[test]
    fn a_field_is_found_by_its_whole_key_in_small_and_large_maps() {
        let keys = ["tuck", "turn", "draw", "drew", "d", "", "keep", "kept", "goods_as_cards", "goods_as_carts"];
        for n in [1, 2, 4, 8, 9, keys.len()] {
            let map: Map =
                keys[..n].iter().enumerate().map(|(i, k)| ((*k).into(), Dynamic::from_int(i as i32))).collect();
            for (i, k) in keys.iter().enumerate() {
                let found = field(&map, k).map(|v| v.as_int().unwrap());
                assert_eq!(found, (i < n).then_some(i as i32), "{k} in a map of {n}");
            }
            assert!(field(&map, "tucks").is_none() && field(&map, "t").is_none());
            let allowed = &keys[..n];
            assert!(only_keys(&map, allowed).is_ok(), "{n}");
            if n > 1 {
                let e = only_keys(&map, &allowed[1..]).unwrap_err();
                assert!(e.starts_with("returned unknown key `tuck`"), "{e}");
            }
        }
    }
}
