//! Bins of classes packed to the size of the biggest class, covered by the equal-size
//! construction: `tuscan` for large uneven suites within a few percent of the bound.

use std::cmp::Reverse;

use rand::seq::SliceRandom;

use super::cost::lower_bound;
use super::orders::{Latin, Orders, HOLE};
use super::random::round_rng;
use super::tuscan;
use super::tuscan_orders::tuscan_orders;
use super::units::Units;
use crate::model::seed::mix64;

/// Uneven class sizes without a greedy: the classes packed into `b` bins of `m` places, `m` the
/// biggest class (by decreasing size, [`pack`]; of the three [`Packing`]s the one giving the
/// fewest orders). Then
///
/// - per bin, the `tuscan` orders of its classes alone (which cover every pair inside the bin),
///   concatenated across bins like the intra-class rows (one order per row, bins in a seeded
///   order);
/// - the pairs of two bins: the [`Latin`] orders over the bins, a bin with fewer than `m` tests
///   leaving a hole in its place (`rows · m²` orders, each through every bin).
///
/// Every order covers at most one pair into the biggest class, `m (n - m)` orders at least, and
/// this takes about `rows · m² ≈ ⌈n / m⌉ m²`: close to the bound when there are many bins and
/// they are nearly full. `None` unless there are at least 4 bins, two of them full (so every
/// order has at least two tests), and the result is within `slack` (a fraction) of the lower
/// bound in orders and executions. No state per pair; the bin-to-bin orders are computed on
/// demand.
pub(super) fn binned_orders(units: &Units, seed: u64, slack: f64) -> Option<Orders> {
    let n = units.len();
    let sizes = &units.sizes;
    let m = sizes.iter().copied().max()?;
    let bound = lower_bound(sizes);
    let within = |orders: u64, executions: u64| {
        orders as f64 <= bound.orders as f64 * (1.0 + slack)
            && executions as f64 <= bound.executions as f64 * (1.0 + slack)
    };
    let at_least = n.div_ceil(m.max(1));
    if m < 2 || at_least < 4 || !within((at_least * m * m) as u64, 0) {
        return None;
    }
    let mut classes: Vec<u32> = (0..sizes.len() as u32)
        .filter(|&c| sizes[c as usize] > 0)
        .collect();
    classes.sort_by_key(|&c| (Reverse(sizes[c as usize]), mix64(seed ^ u64::from(c)), c));
    // Three packings, the one with the fewest orders kept (the first on a tie).
    let mut best: Option<(usize, Bins)> = None;
    let mut square: Option<(usize, Vec<Vec<u32>>)> = None;
    for packing in [Packing::Fullest, Packing::Spread, Packing::Product] {
        let bins = pack(sizes, &classes, m, at_least, packing);
        let k = bins.len();
        let full = bins
            .iter()
            .filter(|bin| bin.iter().map(|&c| sizes[c as usize]).sum::<usize>() == m)
            .count();
        if full < 2 {
            continue;
        }
        let rows = match &square {
            Some(sq) if sq.0 == k => sq.1.len(),
            _ => {
                square = Some((k, tuscan::square(k)));
                square.as_ref().map_or(0, |sq| sq.1.len())
            }
        };
        let latin = rows * m * m;
        if !within(latin as u64, 0) || best.as_ref().is_some_and(|b| b.0 <= latin) {
            continue;
        }
        let inner = inner_orders(units, &bins, seed);
        let explicit = inner.iter().map(|(o, _)| o.len()).max().unwrap_or(0);
        let executions =
            (rows * m * n) as u64 + inner.iter().map(|(o, _)| o.executions()).sum::<u64>();
        let total = latin + explicit;
        if within(total as u64, executions) && best.as_ref().is_none_or(|b| total < b.0) {
            best = Some((total, (bins, inner)));
        }
    }
    let (_, (bins, inner)) = best?;
    let k = bins.len();
    let square = match square {
        Some((kk, sq)) if kk == k => sq,
        _ => tuscan::square(k),
    };
    let rows = inner.iter().map(|(o, _)| o.len()).max().unwrap_or(0);
    let mut orders = Orders::new();
    let mut rng = round_rng(seed, 0);
    let mut sequence: Vec<usize> = (0..k).collect();
    let mut order = Vec::new();
    for j in 0..rows {
        sequence.shuffle(&mut rng);
        for &b in &sequence {
            let (bin, map) = &inner[b];
            if j < bin.len() {
                order.clear();
                bin.get(j, &mut order);
                orders.flat.extend(order.iter().map(|&v| map[v as usize]));
            }
        }
        orders.close();
    }
    drop(inner);
    sequence.shuffle(&mut rng);
    let mut tests = Vec::with_capacity(k * m);
    for &b in &sequence {
        let start = tests.len();
        for &c in &bins[b] {
            let (lo, hi) = units.range(c);
            tests.extend(lo as u32..hi as u32);
        }
        tests[start..].shuffle(&mut rng);
        tests.resize(start + m, HOLE);
    }
    orders.latin = Some(Latin {
        k,
        m,
        rows: square.into_iter().flatten().collect(),
        tests,
        real: n,
    });
    Some(orders)
}

/// How far above the lower bound (orders and executions) `tuscan` takes [`binned_orders`].
pub(super) const BINNED_SLACK: f64 = 0.02;

/// From how many tests `tuscan` tries [`binned_orders`] before the greedy [`cover_inter`] (closer
/// to the bound, about 90 ns per pair: 0.35 s at 2,000 tests).
pub(super) const BINNED_MIN_TESTS: usize = 2000;

/// From how many tests [`binned_orders`] may be up to [`BINNED_LOOSE_SLACK`] above the bound: the
/// greedy would take more than half a second there (about 90 ns per pair: 0.5 s at 2,300 tests).
pub(super) const BINNED_LOOSE_TESTS: usize = 2300;

/// How far above the lower bound `tuscan` takes [`binned_orders`] from [`BINNED_LOOSE_TESTS`].
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

/// The `tuscan` orders of each bin's classes alone, with the map from the units of the bin to the
/// suite's (unit `i` of bin `b` is `map[i]`).
pub(super) fn inner_orders(units: &Units, bins: &[Vec<u32>], seed: u64) -> Vec<(Orders, Vec<u32>)> {
    let mut inner = Vec::with_capacity(bins.len());
    for (b, bin) in bins.iter().enumerate() {
        let mut sub = Units {
            ids: Vec::new(),
            class_of: Vec::new(),
            fixed_next: Vec::new(),
            sizes: Vec::new(),
            first: Vec::new(),
            reorderable: Vec::new(),
        };
        let mut map = Vec::new();
        for (i, &c) in bin.iter().enumerate() {
            let (lo, hi) = units.range(c);
            sub.first.push(map.len() as u32);
            sub.sizes.push(hi - lo);
            sub.reorderable.push(units.reorderable[c as usize]);
            for u in lo..hi {
                let next = units.fixed_next[u];
                sub.fixed_next.push(if next == u32::MAX {
                    u32::MAX
                } else {
                    map.len() as u32 + 1
                });
                sub.class_of.push(i as u32);
                map.push(u as u32);
            }
        }
        sub.ids = vec![String::new(); map.len()];
        inner.push((tuscan_orders(&sub, mix64(seed ^ b as u64), false), map));
    }
    inner
}
