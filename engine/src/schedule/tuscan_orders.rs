//! `tuscan`'s orders: the rows of a Tuscan square per class, concatenated across classes, then
//! the inter-class pairs they missed (equal sizes: a computed construction; uneven sizes: bins
//! or Algorithm 1's greedy).

use rand::seq::SliceRandom;

use super::bins::{
    binned_orders, BINNED_LOOSE_SLACK, BINNED_LOOSE_TESTS, BINNED_MIN_TESTS, BINNED_SLACK,
};
use super::cover::cover_inter;
use super::orders::{Latin, Orders};
use super::paths;
use super::random::round_rng;
use super::tuscan;
use super::units::Units;

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
                .max_by_key(|&y| (self.out_left[y as usize], std::cmp::Reverse(y)));
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
///   most [`paths::MAX_CLASSES`] reorderable classes of uneven sizes: first
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
    let planned = if plan && !equal && nonempty.len() <= paths::MAX_CLASSES {
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
