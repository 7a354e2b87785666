//! `tuscan`'s orders: the rows of a Tuscan square per class, concatenated across classes, then
//! the inter-class pairs they missed (equal sizes: a computed construction; uneven sizes: bins
//! or Algorithm 1's greedy).

use rand::seq::SliceRandom;

use super::bins::{
    binned_orders, BINNED_LOOSE_SLACK, BINNED_LOOSE_TESTS, BINNED_MIN_TESTS, BINNED_SLACK,
};
use super::cover::cover_inter;
use super::orders::{Latin, Orders};
use super::random::round_rng;
use super::tuscan;
use super::units::Units;

/// The `tuscan` orders.
///
/// - One test per class: the rows of one Tuscan square over all tests.
/// - Otherwise, first the intra-class phase: row `r` of every class's square (a fixed-order
///   class: its order, once), classes in a seeded order, one order per `r`.
/// - Then the inter-class pairs: with `k` classes of equal size `m >= 2` (and a Tuscan square of
///   `k` rows, or `k >= 7`), the computed [`Latin`] orders; otherwise [`cover_inter`].
/// - Uneven sizes from [`BINNED_MIN_TESTS`] tests: [`binned_orders`] instead of both phases when
///   it is within [`BINNED_SLACK`] of the lower bound.
pub(super) fn tuscan_orders(units: &Units, seed: u64) -> Orders {
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
    for r in 0..rows {
        let mut classes: Vec<usize> = (0..sizes.len()).filter(|&c| r < squares[c].len()).collect();
        classes.shuffle(&mut rng);
        for c in classes {
            let first = units.first[c];
            orders.flat.extend(squares[c][r].iter().map(|&v| first + v));
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
