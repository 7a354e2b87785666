//! Seeds: every random choice of the engine starts from a user's seed mixed with where it is
//! used, so the same seed gives the same plan (`docs/configuration.md`, "Seeds").

/// The seed of the generator of round `round`: `seed` and `round` mixed with SplitMix64, so that
/// neighbouring seeds and rounds give unrelated generators.
pub fn mix(seed: u64, round: u64) -> u64 {
    let mut z = seed ^ round.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded 64-bit mix (splitmix64's finaliser), for tie-breaking in the schedulers.
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A small seeded xorshift64 stream, for the shapes of generated suites in tests and benchmarks
/// (plans use `rand`'s `StdRng`). The same seed always gives the same numbers.
#[derive(Debug, Clone)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A stream from `seed` (any value; 0 is made odd).
    pub fn new(seed: u64) -> Self {
        Xorshift(seed | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `count` class sizes from 1 to `max`, uniform.
    pub fn sizes(seed: u64, count: usize, max: usize) -> Vec<usize> {
        let mut x = Xorshift::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        (0..count)
            .map(|_| 1 + (x.next_u64() % max as u64) as usize)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_separates_neighbouring_seeds_and_rounds() {
        assert_ne!(mix(0, 1), mix(1, 0));
        assert_ne!(mix(0, 0), mix(0, 1));
        assert_eq!(mix(42, 3), mix(42, 3));
    }

    #[test]
    fn xorshift_sizes_are_in_range_and_reproducible() {
        let a = Xorshift::sizes(7, 50, 9);
        assert_eq!(a, Xorshift::sizes(7, 50, 9));
        assert_ne!(a, Xorshift::sizes(8, 50, 9));
        assert!(a.iter().all(|&s| (1..=9).contains(&s)));
        assert!(a.contains(&1) && a.contains(&9));
    }
}
