//! `tuscan`'s orders: the rows of a Tuscan square per class, concatenated across classes, then
//! the inter-class pairs they missed (equal sizes: a computed construction; uneven sizes: bins
//! or Algorithm 1's greedy). The binned construction ([`binned_orders`]) lives here too: it takes
//! `tuscan_orders` of each bin, and `tuscan_orders` takes it for large uneven suites.

use std::cmp::Reverse;

use rand::seq::SliceRandom;

use super::bins::{
    pack, Bins, Packing, BINNED_LOOSE_SLACK, BINNED_LOOSE_TESTS, BINNED_MIN_TESTS, BINNED_SLACK,
};
use super::cost::lower_bound;
use super::cover::cover_inter;
use super::orders::{Latin, Orders, HOLE};
use super::paths;
use super::program;
use super::random::round_rng;
use super::tuscan;
use super::units::Units;
use crate::model::seed::mix64;

/// Suites of up to this many classes get [`Fill`] in the intra-class phase.
const FILL_MAX_CLASSES: usize = 8;

/// The inter-class pairs the orders cover so far, to end intra-class orders with tests of the
/// classes they lack.
struct Fill<'u> {
    units: &'u Units,
    covered: std::collections::HashSet<(u32, u32)>,
    /// Per unit, its inter-class pairs out of it not covered yet.
    out_left: Vec<usize>,
}

impl<'u> Fill<'u> {
    fn new(units: &'u Units) -> Self {
        let n = units.len();
        let out_left = (0..n)
            .map(|u| n - units.sizes[units.class_of[u] as usize])
            .collect();
        Fill {
            units,
            covered: std::collections::HashSet::new(),
            out_left,
        }
    }

    fn cover(&mut self, a: u32, b: u32) {
        let class = |u: u32| self.units.class_of[u as usize];
        if class(a) != class(b) && self.covered.insert((a, b)) {
            self.out_left[a as usize] -= 1;
        }
    }

    /// Takes in the order `flat[start..]`, then appends one test of each class of `absent` (in
    /// that order) whose pair from the order's last test is not covered yet (of those, the one
    /// with the most uncovered pairs out of it, then the lowest); a class without one is skipped.
    fn extend(&mut self, flat: &mut Vec<u32>, start: usize, absent: &[usize]) {
        for i in start + 1..flat.len() {
            self.cover(flat[i - 1], flat[i]);
        }
        if flat.len() <= start {
            return;
        }
        let mut last = flat[flat.len() - 1];
        for &c in absent {
            let first = self.units.first[c];
            let best = (first..first + self.units.sizes[c] as u32)
                .filter(|&y| !self.covered.contains(&(last, y)))
                .max_by_key(|&y| (self.out_left[y as usize], Reverse(y)));
            if let Some(y) = best {
                self.cover(last, y);
                flat.push(y);
                last = y;
            }
        }
    }
}

/// The `tuscan` orders.
///
/// - One test per class: the rows of one Tuscan square over all tests.
/// - Otherwise, first the intra-class phase: row `r` of every class's square (a fixed-order
///   class: its order, once), classes in a seeded order, one order per `r`.
/// - Then the inter-class pairs: with `k` classes of equal size `m >= 2` (and a Tuscan square of
///   `k` rows, or `k >= 7`), the computed [`Latin`] orders; otherwise [`cover_inter`].
/// - Uneven sizes from [`BINNED_MIN_TESTS`] tests: [`binned_orders`] instead of both phases when
///   it is within [`BINNED_SLACK`] of the lower bound.
/// - With `plan` (not for the bins of [`binned_orders`], where only the longest bin counts), at
///   most [`program::MAX_CLASSES`] reorderable classes of uneven sizes: first
///   [`paths::planned_orders`] (the intra-class rows inside orders along class paths), kept when
///   it meets its lower bound, otherwise when it takes fewer orders than both phases above.
pub(super) fn tuscan_orders(units: &Units, seed: u64, plan: bool) -> Orders {
    let n = units.len();
    let mut orders = Orders::new();
    if n == 0 {
        return orders;
    }
    let sizes = &units.sizes;
    let nonempty: Vec<u32> = (0..sizes.len() as u32)
        .filter(|&c| sizes[c as usize] > 0)
        .collect();
    let mut rng = round_rng(seed, 0);
    // One test per class: every pair is inter-class and one square over all tests is optimal.
    // The `v`-th nonempty class holds exactly unit `v`, so the rows are the orders as they are
    // (kept, not copied: 100 MB for 5,000 tests).
    if nonempty.len() > 1 && nonempty.iter().all(|&c| sizes[c as usize] == 1) {
        orders.rows = tuscan::square(n);
        return orders;
    }
    // One class (with or without empty ones): its square's rows, shifted to its units, kept.
    if let [c] = nonempty[..] {
        let c = c as usize;
        if units.reorderable[c] {
            let first = units.first[c];
            orders.rows = tuscan::square(sizes[c]);
            orders.rows.retain(|row| row.len() >= 2);
            for row in &mut orders.rows {
                row.iter_mut().for_each(|v| *v += first);
            }
            return orders;
        }
    }
    let equal = nonempty
        .iter()
        .all(|&c| sizes[c as usize] == sizes[nonempty[0] as usize]);
    if !equal && n >= BINNED_MIN_TESTS {
        // Where the greedy would take over a second, a little more slack beats waiting.
        let slack = if n >= BINNED_LOOSE_TESTS {
            BINNED_LOOSE_SLACK
        } else {
            BINNED_SLACK
        };
        if let Some(orders) = binned_orders(units, seed, slack) {
            return orders;
        }
    }
    // A few classes of uneven sizes: orders along the paths of the class-path program (they
    // reach its tighter bound, docs/schedules.md, "Class paths"): kept if they meet that bound,
    // otherwise if they take fewer orders (then executions) than the greedy below.
    let planned = if plan && !equal && nonempty.len() <= program::MAX_CLASSES {
        paths::planned_orders(units, seed)
    } else {
        None
    };
    if let Some((planned, bound)) = planned {
        if planned.len() as u64 <= bound {
            return planned;
        }
        let greedy = tuscan_orders(units, seed, false);
        let better = (planned.len(), planned.executions()) < (greedy.len(), greedy.executions());
        return if better { planned } else { greedy };
    }
    let squares: Vec<Vec<Vec<u32>>> = sizes
        .iter()
        .enumerate()
        .map(|(c, &s)| {
            if units.reorderable[c] {
                tuscan::square(s)
            } else if s > 0 {
                vec![(0..s as u32).collect()]
            } else {
                Vec::new()
            }
        })
        .collect();
    let rows = squares.iter().map(Vec::len).max().unwrap_or(0);
    // With few classes, an order of this phase that lacks some classes (their squares have fewer
    // rows) ends with single tests of them, each on an inter-class pair not covered yet: pairs
    // the inter-class phase would otherwise spend an order on (2 classes of 161 and 2 tests: 644
    // orders, the lower bound, instead of 803).
    let mut fill = (nonempty.len() <= FILL_MAX_CLASSES).then(|| Fill::new(units));
    for r in 0..rows {
        let mut classes: Vec<usize> = (0..sizes.len()).filter(|&c| r < squares[c].len()).collect();
        classes.shuffle(&mut rng);
        let start = orders.flat.len();
        for &c in &classes {
            let first = units.first[c];
            orders.flat.extend(squares[c][r].iter().map(|&v| first + v));
        }
        if let Some(fill) = fill.as_mut() {
            let mut absent: Vec<usize> = (0..sizes.len())
                .filter(|&c| sizes[c] > 0 && units.reorderable[c] && !classes.contains(&c))
                .collect();
            absent.shuffle(&mut rng);
            fill.extend(&mut orders.flat, start, &absent);
        }
        orders.close();
    }
    drop(squares);
    let k = nonempty.len();
    if k < 2 {
        return orders;
    }
    let m = sizes[nonempty[0] as usize];
    if nonempty.iter().all(|&c| sizes[c as usize] == m) {
        let square = tuscan::square(k);
        if square.len() == k || k >= 7 {
            let mut classes = nonempty.clone();
            classes.shuffle(&mut rng);
            let mut tests = Vec::with_capacity(n);
            for &c in &classes {
                let start = tests.len();
                tests.extend(units.first[c as usize]..units.first[c as usize] + m as u32);
                tests[start..].shuffle(&mut rng);
            }
            orders.latin = Some(Latin {
                k,
                m,
                rows: square.into_iter().flatten().collect(),
                tests,
                real: n,
            });
            return orders;
        }
    }
    cover_inter(units, &mut orders, seed);
    orders
}

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
