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

/// A number of mean 0 and standard deviation 1, close to normal: the sum of
/// twelve [`unit`] draws less 6 (Irwin–Hall). Additions only, unlike a
/// Box–Muller draw through `ln` and `cos`, whose last bits may differ between
/// machines' maths libraries: a seed replays the same game everywhere.
pub fn normal(rng: &mut impl Rng) -> f64 {
    (0..12).map(|_| unit(rng)).sum::<f64>() - 6.0
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    #[test]
    fn normal_draws_have_mean_0_and_deviation_1() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let xs: Vec<f64> = (0..20_000).map(|_| super::normal(&mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt();
        // Standard errors: 0.007 for the mean, 0.005 for the deviation.
        assert!(mean.abs() < 0.03, "{mean}");
        assert!((sd - 1.0).abs() < 0.03, "{sd}");
        // Within 1 sd about 68% of the draws, as for a normal variable.
        let inside = xs.iter().filter(|x| x.abs() < 1.0).count() as f64 / xs.len() as f64;
        assert!((inside - 0.6827).abs() < 0.015, "{inside}");
        assert!(xs.iter().all(|x| x.abs() <= 6.0));
    }
}
