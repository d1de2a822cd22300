//! Portable randomness: our own bounded draw and shuffle over `next_u64`, so a
//! seed replays the same game on any machine and across `rand` upgrades.

use rand::Rng;

/// A number in `0..n` (n > 0). The modulo bias is below 2⁻⁵⁰ for game sizes.
pub fn below(rng: &mut impl Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Fisher–Yates shuffle.
pub fn shuffle<T>(rng: &mut impl Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// A number in `0..1`, from the top 53 bits.
pub fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}
