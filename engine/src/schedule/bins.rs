//! Bins of classes packed to the size of the biggest class ([`pack`]), and when `tuscan` takes
//! them: the binned construction over them is [`super::tuscan_orders::binned_orders`] (it and
//! `tuscan_orders` call each other, so they share a file).

use super::orders::Orders;

/// How far above the lower bound (orders and executions) `tuscan` takes
/// [`binned_orders`](super::tuscan_orders::binned_orders).
pub(super) const BINNED_SLACK: f64 = 0.02;

/// From how many tests `tuscan` tries [`binned_orders`](super::tuscan_orders::binned_orders)
/// before the greedy [`cover_inter`](super::cover::cover_inter) (closer to the bound, about 90 ns
/// per pair: 0.35 s at 2,000 tests).
pub(super) const BINNED_MIN_TESTS: usize = 2000;

/// From how many tests [`binned_orders`](super::tuscan_orders::binned_orders) may be up to
/// [`BINNED_LOOSE_SLACK`] above the bound: the greedy would take more than half a second there
/// (about 90 ns per pair: 0.5 s at 2,300 tests).
pub(super) const BINNED_LOOSE_TESTS: usize = 2300;

/// How far above the lower bound `tuscan` takes
/// [`binned_orders`](super::tuscan_orders::binned_orders) from [`BINNED_LOOSE_TESTS`].
pub(super) const BINNED_LOOSE_SLACK: f64 = 0.05;

/// Classes per bin, and per bin its orders as a suite of its own with the map from its units to
/// the suite's.
pub(super) type Bins = (Vec<Vec<u32>>, Vec<(Orders, Vec<u32>)>);

/// How [`pack`] chooses a bin for a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Packing {
    /// The fullest bin it fits (best fit), a new one otherwise.
    Fullest,
    /// A test of its own the fullest bin; a bigger class the emptiest bin that keeps room for one
    /// more class (the pairs of two classes take one order each, a third class about halves
    /// that), or a bin of several classes it fills, or while fewer than `at_least` bins are open
    /// a new one, or a bin of one class it fills.
    Spread,
    /// The bin it fits whose biggest class is smallest (the pairs between the two biggest classes
    /// of a bin take one order each), then the fullest; a new one (biggest class 0) only while
    /// fewer than `at_least` bins are open or when none fits.
    Product,
}

/// `classes` (by decreasing size) packed into bins of `m` places.
pub(super) fn pack(
    sizes: &[usize],
    classes: &[u32],
    m: usize,
    at_least: usize,
    packing: Packing,
) -> Vec<Vec<u32>> {
    let mut bins: Vec<Vec<u32>> = Vec::new();
    let mut room: Vec<usize> = Vec::new();
    // The bins with `r` places left, for every `r`.
    let mut by_room: Vec<Vec<u32>> = vec![Vec::new(); m + 1];
    // The biggest class of each bin (the first placed).
    let mut biggest: Vec<usize> = Vec::new();
    for &c in classes {
        let s = sizes[c as usize];
        let b = if packing == Packing::Product {
            if bins.len() < at_least {
                None
            } else {
                (s..=m)
                    .filter_map(|r| {
                        let b = *by_room[r].iter().min_by_key(|&&b| biggest[b as usize])?;
                        Some((biggest[b as usize], r, b))
                    })
                    .min()
                    .map(|(_, r, b)| {
                        let i = by_room[r].iter().position(|&x| x == b).unwrap_or(0);
                        by_room[r].remove(i)
                    })
            }
        } else if s == 1 || packing == Packing::Fullest {
            (s..=m)
                .find(|&r| !by_room[r].is_empty())
                .and_then(|r| by_room[r].pop())
        } else {
            match (s + 1..=m).rev().find(|&r| !by_room[r].is_empty()) {
                Some(r) => by_room[r].pop(),
                None => match by_room[s]
                    .iter()
                    .rposition(|&b| bins[b as usize].len() != 1)
                {
                    Some(i) => Some(by_room[s].remove(i)),
                    None if bins.len() < at_least => None,
                    None => by_room[s].pop(),
                },
            }
        };
        let b = match b {
            Some(b) => b as usize,
            None => {
                bins.push(Vec::new());
                room.push(m);
                biggest.push(s);
                bins.len() - 1
            }
        };
        bins[b].push(c);
        room[b] -= s;
        by_room[room[b]].push(b as u32);
    }
    bins
}
