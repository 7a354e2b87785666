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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_separates_neighbouring_seeds_and_rounds() {
        assert_ne!(mix(0, 1), mix(1, 0));
        assert_ne!(mix(0, 0), mix(0, 1));
        assert_eq!(mix(42, 3), mix(42, 3));
    }
}
