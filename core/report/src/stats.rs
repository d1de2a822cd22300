//! Estimates with 95% intervals and the tests that compare them; every
//! interval and p-value of a report comes from here.

/// The normal quantile used for every 95% interval.
pub const Z95: f64 = 1.96;

/// The significance level of the `significant` flags (after Holm's correction).
pub const ALPHA: f64 = 0.05;

/// The smallest difference of two rates flagged: 2 percentage points.
pub const MIN_RATE_EFFECT: f64 = 0.02;

/// The smallest difference of two means flagged: half a point (or round).
pub const MIN_MEAN_EFFECT: f64 = 0.5;

/// Holm's step-down adjusted p-values (NaN stays NaN and does not count).
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ps.len()).filter(|&i| ps[i].is_finite()).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
    let m = order.len();
    let mut out = vec![f64::NAN; ps.len()];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * ps[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Corrects a family of differences (Holm) and flags those that are both
/// significant and at least `min_effect` large.
pub fn control<'a>(family: impl IntoIterator<Item = &'a mut Diff>, min_effect: f64) {
    let mut diffs: Vec<&mut Diff> = family.into_iter().collect();
    let ps: Vec<f64> = diffs.iter().map(|d| d.p).collect();
    for (d, q) in diffs.iter_mut().zip(holm(&ps)) {
        d.p_adj = q;
        d.significant = q < ALPHA && d.diff.abs() >= min_effect;
    }
}

/// A proportion with its Wilson 95% interval. `hits` may be fractional
/// (shared wins). Every field but `hits` and `n` is NaN when `n` is 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Successes (a shared win counts 1/k).
    pub hits: f64,
    /// Trials.
    pub n: u64,
    /// hits / n.
    pub value: f64,
    /// Lower bound of the Wilson interval.
    pub lo: f64,
    /// Upper bound of the Wilson interval.
    pub hi: f64,
}

impl Rate {
    /// The rate `hits / n` and its Wilson score interval at z = 1.96.
    pub fn wilson(hits: f64, n: u64) -> Rate {
        Rate::wilson_at(hits, n, Z95)
    }

    /// The rate `hits / n` and its Wilson score interval at `z` (a search
    /// comparing many candidates widens it).
    pub fn wilson_at(hits: f64, n: u64, z: f64) -> Rate {
        if n == 0 {
            return Rate { hits, n, value: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let nf = n as f64;
        let p = hits / nf;
        let z2 = z * z;
        let denom = 1.0 + z2 / nf;
        let centre = (p + z2 / (2.0 * nf)) / denom;
        let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).max(0.0).sqrt();
        Rate { hits, n, value: p, lo: (centre - half).max(0.0), hi: (centre + half).min(1.0) }
    }
}

/// A mean with its 95% interval mean ± 1.96·sd/√n. `value` is NaN when
/// `n` is 0; `sd`, `lo` and `hi` are NaN when `n` is below 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    /// Observations.
    pub n: u64,
    /// The mean.
    pub value: f64,
    /// Sample standard deviation (n − 1).
    pub sd: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Mean {
    /// The mean of some observations.
    pub fn of(xs: &[f64]) -> Mean {
        let n = xs.len();
        if n == 0 {
            return Mean { n: 0, value: f64::NAN, sd: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Mean { n: 1, value: mean, sd: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let half = Z95 * sd / (n as f64).sqrt();
        Mean { n: n as u64, value: mean, sd, lo: mean - half, hi: mean + half }
    }
}

/// The quartiles of some observations, by linear interpolation between the
/// order statistics (the rule of R's and NumPy's default); NaN when there are none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quartiles {
    /// The 25th percentile.
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The 75th percentile.
    pub q3: f64,
}

impl Quartiles {
    /// The quartiles of `xs` (in any order).
    pub fn of(xs: &[f64]) -> Quartiles {
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |p: f64| {
            if sorted.is_empty() {
                return f64::NAN;
            }
            let h = (sorted.len() - 1) as f64 * p;
            let (lo, frac) = (h.floor() as usize, h - h.floor());
            let hi = (lo + 1).min(sorted.len() - 1);
            sorted[lo] + frac * (sorted[hi] - sorted[lo])
        };
        Quartiles { q1: at(0.25), median: at(0.5), q3: at(0.75) }
    }
}

/// The complementary error function, erfc(x) = 1 − erf(x), with fractional
/// error below 1.2e-7 everywhere: the Chebyshev fit `erfcc` of Press,
/// Teukolsky, Vetterling and Flannery, *Numerical Recipes in C*, 2nd ed.,
/// §6.2 (1992).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let ans = t * (-z * z + poly).exp();
    if x >= 0.0 { ans } else { 2.0 - ans }
}

/// The two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|).
pub fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// Two-sided p-value of the pooled two-proportion z-test of `a` against `b`.
/// NaN when either has no trials; 1 when the pooled rate is 0 or 1.
pub fn two_proportion_p(a: &Rate, b: &Rate) -> f64 {
    if a.n == 0 || b.n == 0 {
        return f64::NAN;
    }
    let (na, nb) = (a.n as f64, b.n as f64);
    let pooled = (a.hits + b.hits) / (na + nb);
    let se = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).max(0.0).sqrt();
    let diff = b.value - a.value;
    if se == 0.0 {
        return if diff == 0.0 { 1.0 } else { 0.0 };
    }
    two_sided_p(diff / se)
}

/// Two-sided p-value of Welch's z for the difference of two means (unequal
/// variances, normal approximation). NaN when either side has fewer than 2
/// observations.
pub fn welch_p(a: &Mean, b: &Mean) -> f64 {
    if a.n < 2 || b.n < 2 {
        return f64::NAN;
    }
    let se = (a.sd * a.sd / a.n as f64 + b.sd * b.sd / b.n as f64).sqrt();
    let diff = b.value - a.value;
    if se == 0.0 {
        return if diff == 0.0 { 1.0 } else { 0.0 };
    }
    two_sided_p(diff / se)
}

/// One quantity in sets A and B, the difference B − A and its p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diff {
    /// Value in set A.
    pub a: f64,
    /// Value in set B.
    pub b: f64,
    /// b − a.
    pub diff: f64,
    /// Lower bound of the 95% interval of b − a.
    pub lo: f64,
    /// Upper bound of the 95% interval of b − a.
    pub hi: f64,
    /// Two-sided p-value (NaN when it cannot be computed).
    pub p: f64,
    /// The p-value corrected for the other tests of its family (Holm).
    pub p_adj: f64,
    /// Corrected p < 0.05 and the difference at least the effect threshold.
    pub significant: bool,
}

impl Diff {
    fn with_p(a: f64, b: f64, se: f64, p: f64) -> Diff {
        let diff = b - a;
        let (lo, hi) = if se.is_finite() { (diff - Z95 * se, diff + Z95 * se) } else { (f64::NAN, f64::NAN) };
        Diff { a, b, diff, lo, hi, p, p_adj: p, significant: false }
    }

    /// Two rates, by the two-proportion z-test.
    pub fn rates(a: &Rate, b: &Rate) -> Diff {
        let var = |r: &Rate| if r.n == 0 { f64::NAN } else { r.value * (1.0 - r.value) / r.n as f64 };
        let d = Diff::with_p(a.value, b.value, (var(a) + var(b)).sqrt(), two_proportion_p(a, b));
        Diff { significant: d.p < ALPHA && d.diff.abs() >= MIN_RATE_EFFECT, ..d }
    }

    /// Two means, by Welch's z.
    pub fn means(a: &Mean, b: &Mean) -> Diff {
        let var = |m: &Mean| if m.n < 2 { f64::NAN } else { m.sd * m.sd / m.n as f64 };
        let d = Diff::with_p(a.value, b.value, (var(a) + var(b)).sqrt(), welch_p(a, b));
        Diff { significant: d.p < ALPHA && d.diff.abs() >= MIN_MEAN_EFFECT, ..d }
    }
}
