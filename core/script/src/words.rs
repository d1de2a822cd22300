//! The option names scripts' choices offer (`sell`, `draw`), interned so that
//! an action answering a choice stays a small `Copy` value; one table is
//! shared by every game of a ruleset (the names a saved game's choices used
//! read back to the same numbers, whatever game interned them first).

use std::sync::{Arc, PoisonError, RwLock};

/// Most distinct option names a ruleset's choices may use.
pub const MAX_WORDS: usize = 4096;

/// An append-only table of option names, cheap to clone (shared).
#[derive(Clone, Debug, Default)]
pub struct Words(Arc<RwLock<Table>>);

/// The names by number, and their numbers by name: a name is looked up at
/// every offer of an action (each pair of cards an `allowed` is asked about).
#[derive(Debug, Default)]
struct Table {
    names: Vec<Arc<str>>,
    numbers: rustc_hash::FxHashMap<Arc<str>, u16>,
    /// Names joined by spaces (an action's arguments), by their parts' numbers.
    joined: rustc_hash::FxHashMap<smallvec::SmallVec<[u16; 4]>, u16>,
}

impl Words {
    /// The number of an option name, interning it on first use; `None` past [`MAX_WORDS`].
    pub fn word(&self, name: &str) -> Option<u16> {
        if let Some(w) = self.find(name) {
            return Some(w);
        }
        let mut words = self.0.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(&w) = words.numbers.get(name) {
            return Some(w);
        }
        (words.names.len() < MAX_WORDS).then(|| {
            let (name, w): (Arc<str>, u16) = (name.into(), words.names.len() as u16);
            words.names.push(Arc::clone(&name));
            words.numbers.insert(name, w);
            w
        })
    }

    /// The number of the names numbered `parts` joined by spaces (`denar3
    /// ducat2`), interning it on first use; `None` past [`MAX_WORDS`]. Asked
    /// for every combination of arguments an action is offered with: the
    /// joined name is written once, then found by its parts.
    pub fn joined(&self, parts: &[u16]) -> Option<u16> {
        if let [one] = parts {
            return Some(*one);
        }
        if let Some(&w) = self.0.read().unwrap_or_else(PoisonError::into_inner).joined.get(parts) {
            return Some(w);
        }
        let name = parts.iter().map(|&p| self.name(p)).collect::<Vec<_>>().join(" ");
        let w = self.word(&name)?;
        self.0.write().unwrap_or_else(PoisonError::into_inner).joined.insert(parts.into(), w);
        Some(w)
    }

    /// The number of an option name offered before, if any.
    pub fn find(&self, name: &str) -> Option<u16> {
        let words = self.0.read().unwrap_or_else(PoisonError::into_inner);
        words.numbers.get(name).copied()
    }

    /// The option name with this number (`?` for a number never given out).
    pub fn name(&self, w: u16) -> Arc<str> {
        let words = self.0.read().unwrap_or_else(PoisonError::into_inner);
        words.names.get(w as usize).cloned().unwrap_or_else(|| "?".into())
    }
}

/// Words by a small key of the game's own (a money card's kind, a slot),
/// remembered once interned: an action's candidates are named at every
/// decision, and finding a name by its text hashes it each time.
#[derive(Debug)]
pub struct WordCache(Box<[std::sync::atomic::AtomicU16]>);

impl WordCache {
    /// Room for keys `0..len`.
    pub fn new(len: usize) -> Self {
        WordCache((0..len).map(|_| std::sync::atomic::AtomicU16::new(u16::MAX)).collect())
    }
}

impl Words {
    /// The number of the name `name()` gives key `key` in `cache`, interning
    /// it on first use as [`Words::word`] does; a key past the cache's room
    /// is looked up by its name.
    pub fn word_keyed<'n>(
        &self,
        cache: &WordCache,
        key: usize,
        name: impl FnOnce() -> std::borrow::Cow<'n, str>,
    ) -> Option<u16> {
        use std::sync::atomic::Ordering::Relaxed;
        let Some(slot) = cache.0.get(key) else { return self.word(&name()) };
        match slot.load(Relaxed) {
            u16::MAX => {
                let w = self.word(&name())?;
                slot.store(w, Relaxed);
                Some(w)
            }
            w => Some(w),
        }
    }
}

impl Words {
    /// The options of a `choose` effect (a list of names), as numbers, each once.
    pub fn options(&self, v: rhai::Dynamic) -> Result<Vec<u16>, String> {
        let list = v.try_cast::<rhai::Array>().ok_or("`choose` takes an array of option names")?;
        let mut options = Vec::with_capacity(list.len());
        for o in list {
            let type_name = o.type_name();
            let o = o.into_string().map_err(|_| format!("an option is a {type_name}, expected a string"))?;
            if !is_option_name(&o) {
                return Err(format!("option `{o}`: write 1 to 40 letters, digits or `_`"));
            }
            let w = self.word(&o).ok_or("too many different option names in this ruleset")?;
            if !options.contains(&w) {
                options.push(w);
            }
        }
        if options.is_empty() {
            return Err("`choose` needs at least one option".into());
        }
        Ok(options)
    }
}

/// Whether `name` may be an option: 1 to 40 ASCII letters, digits or `_`.
pub fn is_option_name(name: &str) -> bool {
    (1..=40).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyed_word_is_the_word_of_its_name_remembered_by_its_key() {
        let w = Words::default();
        assert_eq!(w.word("sell"), Some(0));
        let cache = WordCache::new(2);
        assert_eq!(w.word_keyed(&cache, 1, || "sell".into()), Some(0), "interned before: its number");
        assert_eq!(w.word_keyed(&cache, 1, || unreachable!("remembered by its key")), Some(0));
        assert_eq!(w.word_keyed(&cache, 0, || "keyed".into()), Some(1), "interned on first use");
        assert_eq!(w.find("keyed"), Some(1));
        assert_eq!(w.word_keyed(&cache, 7, || "sell".into()), Some(0), "past the cache's room: by its name");
    }

    #[test]
    fn a_name_keeps_its_number_and_the_table_stops_at_its_bound() {
        let w = Words::default();
        assert_eq!(w.word("sell"), Some(0));
        assert_eq!(w.word("draw"), Some(1));
        assert_eq!(w.clone().word("sell"), Some(0), "clones share the table");
        assert_eq!(&*w.name(1), "draw");
        let pair = w.joined(&[1, 0]).unwrap();
        assert_eq!(&*w.name(pair), "draw sell");
        assert_eq!(w.joined(&[1, 0]), Some(pair), "found again by its parts");
        assert_eq!(w.word("draw sell"), Some(pair), "the same word as the name written out");
        assert_eq!(w.joined(&[1]), Some(1), "one part is itself");
        let _ = w.joined(&[0, 1]);
        assert_eq!(&*w.name(99), "?");
        for i in 4..MAX_WORDS {
            assert!(w.word(&format!("w{i}")).is_some());
        }
        assert_eq!(w.word("one_more"), None);
        assert!(w.joined(&[0, 1]).is_some(), "written before the table filled");
        assert_eq!(w.joined(&[0, 1]), w.find("sell draw"));
        assert_eq!(w.joined(&[0, 2]), None, "a new joined name past the bound");
        assert!(is_option_name("yes_2") && !is_option_name("") && !is_option_name("a b"));
    }
}
