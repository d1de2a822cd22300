//! A hook's answer remembered against what it read: the game writes the exact
//! content of every `ctx` member the hook may read (the analysis of its
//! program says which) as a row of numbers, and the same row gives the same
//! answer without running the script. A hook is a function of its `ctx`
//! (scripts keep no state between calls), so the answer cannot go stale: a
//! change to anything read is a change to the row. Rows the game cannot write
//! exactly (a value of a type [`write_value`] does not know) are not
//! remembered.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rhai::Dynamic;
use smallvec::SmallVec;

use crate::Shards;

/// The content of what a hook read, as the game writes it.
pub type ReadRow = SmallVec<[u32; 40]>;

/// Most answers a thread keeps before it starts afresh: rows hold positions of
/// a game, most never met again once the game moves on.
pub const READ_MEMO_CAPACITY: usize = 1 << 13;

/// A remembered answer's key: the hook, its owner and the row.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct ReadKey {
    hook: u16,
    owner: u32,
    row: ReadRow,
}

impl ReadKey {
    /// The key of `owner`'s `hook` having read `row`.
    pub(crate) fn new(hook: usize, owner: usize, row: ReadRow) -> ReadKey {
        ReadKey { hook: hook as u16, owner: owner as u32, row }
    }
}

/// How often one hook's rows were looked up, and found.
#[derive(Default)]
pub(crate) struct ReadStats {
    asked: AtomicU32,
    found: AtomicU32,
}

/// Lookups of a hook's rows before [`ReadStats::pays`] may say no: about
/// twenty games of a hook asked at every draw. Rows that hold a game's
/// position fill the memory as games go by, and their hit rate with it: a
/// mirage's found 22 of its first 256 (under one in ten, and stopped), 177 of
/// its first 1,024 (and nearly all of them after 100 games).
const TRIAL: u32 = 1024;

impl ReadStats {
    pub(crate) fn count(&self, found: bool) {
        if self.asked.load(Relaxed) < TRIAL {
            self.asked.fetch_add(1, Relaxed);
            if found {
                self.found.fetch_add(1, Relaxed);
            }
        }
    }

    /// False once [`TRIAL`] lookups found fewer than one answer in twenty: the
    /// rows cost more to write and look up than the answers found save (a row
    /// and a lookup cost about a twentieth of a hook that walks the display).
    pub(crate) fn pays(&self) -> bool {
        self.asked.load(Relaxed) < TRIAL || self.found.load(Relaxed) * 20 >= TRIAL
    }

    pub(crate) fn reset(&self) {
        self.asked.store(0, Relaxed);
        self.found.store(0, Relaxed);
    }
}

/// Answers remembered by the rows of what they read, a map per thread.
#[derive(Default)]
pub(crate) struct ReadMemo(Shards<rustc_hash::FxHashMap<ReadKey, Dynamic>>);

impl ReadMemo {
    /// This thread's answer for `key`, if remembered.
    pub(crate) fn recall(&self, key: &ReadKey) -> Option<Dynamic> {
        self.0.mine().read().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
    }

    /// Keeps `value` as this thread's answer for `key`, starting afresh when full.
    pub(crate) fn keep(&self, key: ReadKey, value: &Dynamic) {
        let mut shard = self.0.mine().write().unwrap_or_else(|e| e.into_inner());
        if shard.len() >= READ_MEMO_CAPACITY {
            shard.clear();
        }
        shard.insert(key, value.clone());
    }

    /// Forgets every answer.
    pub(crate) fn forget(&self) {
        for shard in self.0.all() {
            shard.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }
}

/// Writes `v` exactly into `row` (a tag from 0 to 6, then its content; strings by their
/// bytes, maps in key order; tag 7 is [`write_keys_read`]'s, a caller's own tags start at 8): false for a value no row can stand for (a
/// function pointer, a float, a type of the game's own), which is then not remembered.
pub fn write_value(v: &Dynamic, row: &mut ReadRow) -> bool {
    // Each kind told by its tag before it is read: Rhai's `as_…` names the
    // type of any other value to say why not, which cost more than the row.
    if v.is_unit() {
        row.push(0);
    } else if let Some(i) = crate::fast::int_of(v) {
        row.extend([2, i as u32]);
    } else if v.is_string()
        && let Ok(s) = v.as_immutable_string_ref()
    {
        write_str(&s, row);
    } else if let Some(b) = crate::fast::flag_of(v) {
        row.extend([1, u32::from(b)]);
    } else if v.is_char()
        && let Ok(c) = v.as_char()
    {
        row.extend([4, u32::from(c)]);
    } else if let Ok(a) = v.as_array_ref() {
        row.extend([5, a.len() as u32]);
        return a.iter().all(|x| write_value(x, row));
    } else if let Ok(m) = v.as_map_ref() {
        row.extend([6, m.len() as u32]);
        for (k, x) in m.iter() {
            write_str(k, row);
            if !write_value(x, row) {
                return false;
            }
        }
    } else {
        return false;
    }
    true
}

/// What a hook reads of a map it is given (`ctx.event`): the keys it reads,
/// each with what it reads of the map found there (`None`: all of it). Found
/// by [`crate::ScriptHost::keys_read`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeysRead(pub Vec<(String, Option<KeysRead>)>);

/// Writes into `row` what a hook that reads `keys` of `v` can see of it: a
/// map by those keys alone (tag 7, then each key's value in `keys`' order, a
/// missing one `()`), anything else whole ([`write_value`]). Two values that
/// write the same row are the same to that hook: a mirage that reads only the
/// type of the building drawn is answered from memory for every building of
/// the type. False as for [`write_value`].
pub fn write_keys_read(v: &Dynamic, keys: &KeysRead, row: &mut ReadRow) -> bool {
    let Ok(map) = v.as_map_ref() else { return write_value(v, row) };
    row.push(7);
    for (key, below) in &keys.0 {
        let found = map.get(key.as_str()).unwrap_or(&Dynamic::UNIT);
        let written = match below {
            Some(keys) => write_keys_read(found, keys, row),
            None => write_value(found, row),
        };
        if !written {
            return false;
        }
    }
    true
}

/// A string's length, then its bytes four to a number.
pub fn write_str(s: &str, row: &mut ReadRow) {
    let bytes = s.as_bytes();
    row.reserve(2 + bytes.len().div_ceil(4));
    row.push(3);
    row.push(bytes.len() as u32);
    let mut words = bytes.chunks_exact(4);
    for c in &mut words {
        row.push(u32::from_be_bytes([c[0], c[1], c[2], c[3]]));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        row.push(rest.iter().fold(0u32, |w, &b| (w << 8) | u32::from(b)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: Dynamic) -> ReadRow {
        let mut r = ReadRow::new();
        assert!(write_value(&v, &mut r));
        r
    }

    #[test]
    fn a_hook_whose_rows_are_seldom_found_is_no_longer_remembered() {
        // 51 found of 1,024 (under one in twenty): no longer worth a row; 52 still is.
        for (found, pays) in [(51, false), (52, true), (0, false), (TRIAL, true)] {
            let stats = ReadStats::default();
            for i in 0..TRIAL {
                assert!(stats.pays(), "still on trial after {i} lookups");
                stats.count(i < found);
            }
            assert_eq!(stats.pays(), pays, "{found} found of {TRIAL}");
            // Later lookups do not count (the trial is over), and a reset starts a new one.
            stats.count(true);
            assert_eq!(stats.pays(), pays);
            stats.reset();
            assert!(stats.pays());
        }
    }

    #[test]
    fn a_row_by_the_keys_read_holds_those_alone() {
        let e = rhai::Engine::new();
        // What a mirage reads of its event: the type of the building drawn.
        let keys = KeysRead(vec![("building".into(), Some(KeysRead(vec![("type".into(), None)])))]);
        let row = |v: &str| {
            let mut r = ReadRow::new();
            assert!(write_keys_read(&e.eval::<Dynamic>(v).unwrap(), &keys, &mut r), "{v}");
            r
        };
        let tower = row("#{ building: #{ type: \"tower\", id: \"tower-3\", price: 5 }, slot: 1 }");
        assert_eq!(tower, row("#{ building: #{ type: \"tower\", id: \"tower-7\", price: 9 }, slot: 4 }"));
        // Anything it can tell apart: another type, no type, no building, a building that is not a map, no map at all.
        let apart = [
            "#{ building: #{ type: \"garden\" } }",
            "#{ building: #{ id: \"tower-3\" } }",
            "#{ slot: 1 }",
            "#{ building: \"tower\" }",
            "()",
            "[1]",
        ];
        let mut rows = vec![tower];
        for v in apart {
            let r = row(v);
            assert!(!rows.contains(&r), "{v}: a row of its own");
            rows.push(r);
        }
        // A missing key reads as `()`, as in Rhai: the same to the script.
        assert_eq!(row("#{ building: () }"), row("#{ slot: 1 }"));
        // A value no row stands for is not written.
        let mut r = ReadRow::new();
        assert!(!write_keys_read(&e.eval::<Dynamic>("#{ building: #{ type: Fn(\"f\") } }").unwrap(), &keys, &mut r));
    }

    #[test]
    fn rows_tell_apart_what_a_script_can_tell_apart() {
        let e = rhai::Engine::new();
        let values = [
            "()",
            "0",
            "1",
            "-1",
            "true",
            "false",
            "\"\"",
            "\"a\"",
            "\"ab\"",
            "\"abcd\"",
            "\"abcde\"",
            "[]",
            "[()]",
            "[1]",
            "[1, 2]",
            "[[1], 2]",
            "[1, [2]]",
            "#{}",
            "#{a: 1}",
            "#{b: 1}",
            "#{a: \"1\"}",
            "#{a: 1, b: 2}",
            "'a'",
            "97",
            "[\"a\", \"b\"]",
            "[\"ab\"]",
        ];
        let rows: Vec<ReadRow> = values.iter().map(|s| row(e.eval::<Dynamic>(s).unwrap())).collect();
        for (i, a) in rows.iter().enumerate() {
            for (j, b) in rows.iter().enumerate() {
                assert_eq!(a == b, i == j, "{} and {}", values[i], values[j]);
            }
        }
        assert_eq!(row(e.eval::<Dynamic>("#{b: 2, a: 1}").unwrap()), row(e.eval::<Dynamic>("#{a: 1, b: 2}").unwrap()));
        assert!(!write_value(&e.eval::<Dynamic>("[1, Fn(\"f\")]").unwrap(), &mut ReadRow::new()));
    }
}
