//! [`Seen`]: the keys met so far in a walk that keeps one of each, for games
//! whose legal actions are "one per distinct card" (a card's index, or a small
//! code of its parts), without searching the list built so far.

use smallvec::SmallVec;

/// A set of small keys: a bit per key below 256, a short list for the rest.
#[derive(Default)]
pub struct Seen {
    bits: [u64; 4],
    more: SmallVec<[usize; 4]>,
}

impl Seen {
    /// True the first time `key` is met.
    #[inline]
    pub fn insert(&mut self, key: usize) -> bool {
        if let Some(word) = self.bits.get_mut(key / 64) {
            let bit = 1u64 << (key % 64);
            let new = *word & bit == 0;
            *word |= bit;
            new
        } else {
            self.insert_more(key)
        }
    }

    /// True when `key` was met before.
    #[inline]
    pub fn contains(&self, key: usize) -> bool {
        match self.bits.get(key / 64) {
            Some(word) => word & (1u64 << (key % 64)) != 0,
            None => self.more.contains(&key),
        }
    }

    /// [`insert`](Self::insert) for a key above the bits: rare, so kept out of
    /// line to let the common case inline.
    #[cold]
    #[inline(never)]
    fn insert_more(&mut self, key: usize) -> bool {
        if self.more.contains(&key) {
            false
        } else {
            self.more.push(key);
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

    #[test]
    fn each_key_is_new_once_below_and_above_the_bits() {
        let mut seen = Seen::default();
        let keys = [0, 63, 64, 255, 256, 1000, 3, 63, 256, 1000, 0, 255];
        assert!(!seen.contains(0) && !seen.contains(1000));
        let new: Vec<bool> = keys.iter().map(|&k| seen.insert(k)).collect();
        assert_eq!(new, [true, true, true, true, true, true, true, false, false, false, false, false]);
        for k in keys {
            assert!(seen.contains(k), "{k} was inserted");
        }
        for k in [1, 62, 65, 254, 257, 999] {
            assert!(!seen.contains(k), "{k} was not inserted");
        }
    }
}
