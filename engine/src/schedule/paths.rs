//! Orders along the class paths of the class-path program ([`super::program`], docs/schedules.md,
//! "Class paths"): for a few reorderable classes, `tuscan`'s orders take the sequences of classes
//! the program's solution gives, each class a block of one or two tests or a row of its Tuscan
//! square, and [`super::cover::cover_inter`] covers what they leave.

/// Rounds of the program in [`planned_orders`] (each over the pairs the last left).
const MAX_ROUNDS: usize = 4;

use rand::seq::SliceRandom;

use super::cover::cover_inter;
use super::orders::Orders;
use super::program::{heaviest, solve, MAX_CLASSES};
use super::random::round_rng;
use super::tuscan;
use super::units::{Bits, Units};
use crate::model::seed::mix64;

/// Tests of a few classes as [`planned_orders`] builds orders of them: the uncovered pairs, per
/// test how many into each class, per pair of classes how many.
struct State<'u> {
    units: &'u Units,
    /// The nonempty classes; `index[c]` is the place of class record `c` among them.
    classes: Vec<u32>,
    index: Vec<u8>,
    covered: Bits,
    /// `out[u * k + j]`: uncovered pairs from `u` into class `j` (index into `classes`).
    out: Vec<u32>,
    demand: Vec<u64>,
    /// `open[i * k + j]`: tests of class `i` that had uncovered pairs into class `j` when last
    /// looked at (those found without are dropped).
    open: Vec<Vec<u32>>,
}

impl State<'_> {
    fn k(&self) -> usize {
        self.classes.len()
    }

    fn class(&self, u: u32) -> usize {
        self.index[self.units.class_of[u as usize] as usize] as usize
    }

    fn range(&self, j: usize) -> (usize, usize) {
        self.units.range(self.classes[j])
    }

    fn out(&self, u: u32, j: Option<usize>) -> u32 {
        j.map_or(0, |j| self.out[u as usize * self.k() + j])
    }

    /// Covers `(a, b)`, any pair.
    fn cover(&mut self, a: u32, b: u32) {
        let (i, j) = (self.class(a), self.class(b));
        if !self.covered.get(a, b) {
            self.covered.set(a, b);
            if i != j {
                let k = self.k();
                self.out[a as usize * k + j] -= 1;
                self.demand[i * k + j] -= 1;
            }
        }
    }

    /// A test of class `j` with the most uncovered pairs into class `next`, of the first few
    /// with any looked at from a rotating place in [`State::open`] (any test if none has).
    fn most_out(&mut self, j: usize, next: Option<usize>, salt: u64) -> u32 {
        const LOOK: usize = 16;
        let (lo, hi) = self.range(j);
        let any = lo as u32 + (salt % (hi - lo) as u64) as u32;
        let Some(z) = next else { return any };
        let k = self.k();
        let mut open = std::mem::take(&mut self.open[j * k + z]);
        let mut best: Option<(u32, u32)> = None;
        let mut looked = 0;
        let mut i = if open.is_empty() {
            0
        } else {
            (salt % open.len() as u64) as usize
        };
        while looked < LOOK && !open.is_empty() {
            i %= open.len();
            let u = open[i];
            let score = self.out(u, Some(z));
            if score == 0 {
                open.swap_remove(i);
                continue;
            }
            if best.is_none_or(|b| score > b.1) {
                best = Some((u, score));
            }
            looked += 1;
            i += 1;
        }
        self.open[j * k + z] = open;
        best.map_or(any, |b| b.0)
    }

    /// A test `y` of class `j` with `(x, y)` uncovered, the one with the most uncovered pairs
    /// into class `next` of the first few with any looked at from a rotating offset (a word of
    /// pair bits at a time).
    fn step(&self, x: u32, j: usize, next: Option<usize>, salt: u64) -> Option<u32> {
        const LOOK: usize = 16;
        let (lo, hi) = self.range(j);
        let rot = lo + (mix64(salt ^ u64::from(x)) % (hi - lo) as u64) as usize;
        let row = self.covered.row(x);
        let mut best: Option<(u32, u32)> = None;
        let mut looked = 0;
        for (from, to) in [(rot, hi), (lo, rot)] {
            let mut i = from;
            while i < to && looked < LOOK {
                let end = ((i / 64 + 1) * 64).min(to);
                let mut word = !row[i / 64] >> (i % 64);
                if end - i < 64 {
                    word &= (1u64 << (end - i)) - 1;
                }
                while word != 0 && looked < LOOK {
                    let y = (i + word.trailing_zeros() as usize) as u32;
                    word &= word - 1;
                    let score = self.out(y, next);
                    if best.is_none_or(|b| score > b.1) {
                        best = Some((y, score));
                    }
                    if score > 0 || next.is_none() {
                        looked += 1;
                    }
                }
                i = end;
            }
        }
        best.map(|b| b.0)
    }

    /// The row of class `j` to place after `x` (`None`: first in the order): one whose first
    /// test has an uncovered pair from `x` if any, of those the one whose last test has the most
    /// uncovered pairs into `next`.
    fn pick_row(&self, rows: &mut Vec<Vec<u32>>, x: Option<u32>, next: Option<usize>) -> Vec<u32> {
        let r = (0..rows.len())
            .max_by_key(|&r| {
                let row = &rows[r];
                let open = x.is_none_or(|x| !self.covered.get(x, row[0]));
                (
                    open,
                    self.out(row[row.len() - 1], next),
                    std::cmp::Reverse(r),
                )
            })
            .expect("a row left");
        rows.swap_remove(r)
    }

    /// Appends one order along `path` (cut at an end whose pairs are all covered) to `orders`:
    /// a row of a class's square as its block while it has rows left, otherwise one test where
    /// the pair in and the pair out can share it, else two.
    fn order(&mut self, path: &[u8], rows: &mut [Vec<Vec<u32>>], orders: &mut Orders, salt: u64) {
        let k = self.k();
        let demand = |a: u8, b: u8| self.demand[a as usize * k + b as usize];
        let mut p: &[u8] = path;
        while p.len() >= 2 && demand(p[0], p[1]) == 0 {
            p = &p[1..];
        }
        while p.len() >= 2 && demand(p[p.len() - 2], p[p.len() - 1]) == 0 {
            p = &p[..p.len() - 1];
        }
        if p.len() < 2 {
            return;
        }
        let mut x: Option<u32> = None;
        // Whether the block of the class before is one test (not a row), so a second test may
        // join it.
        let mut single = false;
        for (s, &i) in p.iter().enumerate() {
            let i = i as usize;
            let next = p.get(s + 1).map(|&z| z as usize);
            if !rows[i].is_empty() {
                let row = self.pick_row(&mut rows[i], x, next);
                if let Some(x) = x {
                    self.cover(x, row[0]);
                }
                for w in row.windows(2) {
                    self.cover(w[0], w[1]);
                }
                orders.flat.extend_from_slice(&row);
                x = row.last().copied();
                single = false;
                continue;
            }
            let y = match x {
                None => self.most_out(i, next, salt),
                Some(prev) => {
                    let mut from = prev;
                    let before = self.class(prev);
                    if self.out(prev, Some(i)) == 0 && single && self.demand[before * k + i] > 0 {
                        // No uncovered pair from the test the pair in reached: a second test of
                        // its class, the one with the most uncovered pairs into `i`.
                        from = self.most_out(before, Some(i), salt);
                        self.cover(prev, from);
                        orders.flat.push(from);
                    }
                    // With every pair of this step covered, step on over one (an execution that
                    // covers nothing new, instead of an order).
                    let y = self
                        .step(from, i, next, salt)
                        .unwrap_or_else(|| self.most_out(i, next, salt));
                    self.cover(from, y);
                    y
                }
            };
            orders.flat.push(y);
            x = Some(y);
            single = true;
        }
        orders.close();
    }
}

/// `tuscan`'s orders for at most [`MAX_CLASSES`] reorderable classes, along the paths of
/// [`solve`] (docs/schedules.md, "Class paths"): `⌊x_P⌋` orders along each path `P` (the paths
/// taken in turns). The first orders through a class carry the rows of its Tuscan square as its
/// block (a row whose first test has an uncovered pair from the test before, and whose last test
/// the most uncovered pairs into the next class); elsewhere a class's block is one test (the pair
/// into it and the pair out of it at the same test) where it can be, otherwise two (then the
/// second has an uncovered pair into the next class). A path whose pair at an end is all covered
/// is cut there. Rows no order took are concatenated into orders of their own, and
/// [`super::cover::cover_inter`] covers what is left. With the orders, the lower bound the
/// program proves for the inter-class pairs. `None` for other suites.
pub(super) fn planned_orders(units: &Units, seed: u64) -> Option<(Orders, u64)> {
    let n = units.len();
    let classes: Vec<u32> = (0..units.sizes.len() as u32)
        .filter(|&c| units.sizes[c as usize] > 0)
        .collect();
    let k = classes.len();
    if !(2..=MAX_CLASSES).contains(&k) || classes.iter().any(|&c| !units.reorderable[c as usize]) {
        return None;
    }
    let mut index = vec![u8::MAX; units.sizes.len()];
    for (i, &c) in classes.iter().enumerate() {
        index[c as usize] = i as u8;
    }
    let sizes: Vec<usize> = classes.iter().map(|&c| units.sizes[c as usize]).collect();
    let mut demand = vec![0u64; k * k];
    let mut out = vec![0u32; n * k];
    for u in 0..n {
        let i = index[units.class_of[u] as usize] as usize;
        for j in (0..k).filter(|&j| j != i) {
            out[u * k + j] = sizes[j] as u32;
            demand[i * k + j] += sizes[j] as u64;
        }
    }
    let plan = solve(k, &demand);
    let bound = plan.bound(&demand);
    let open = (0..k * k)
        .map(|a| {
            if a / k == a % k {
                Vec::new()
            } else {
                let (lo, hi) = units.range(classes[a / k]);
                (lo as u32..hi as u32).collect()
            }
        })
        .collect();
    let mut st = State {
        units,
        classes,
        index,
        covered: Bits::new(n),
        out,
        demand,
        open,
    };
    // The rows of each class's square not placed yet (a class of one test has no pairs inside).
    let mut rows: Vec<Vec<Vec<u32>>> = sizes
        .iter()
        .zip(&st.classes)
        .map(|(&s, &c)| {
            let first = units.first[c as usize];
            let mut square = if s >= 2 {
                tuscan::square(s)
            } else {
                Vec::new()
            };
            for row in &mut square {
                row.iter_mut().for_each(|v| *v += first);
            }
            square
        })
        .collect();
    let mut orders = Orders::new();
    let mut stamp = 0u64;
    let mut plan = Some(plan);
    // Rounds of the program over the pairs still uncovered (the first over all of them):
    // `⌊x_P⌋` orders along each path, in turns; then, when no path has a whole order left, one
    // order at a time along the path through the most classes on uncovered pairs of classes.
    for round in 0..MAX_ROUNDS {
        let plan = plan.take().unwrap_or_else(|| solve(k, &st.demand));
        let mut copies: Vec<(Vec<u8>, u64)> = plan
            .paths
            .iter()
            .map(|(p, x)| (p.clone(), (x + 1e-6).floor() as u64))
            .filter(|p| p.1 > 0)
            .collect();
        if copies.is_empty() || (round > 0 && st.demand.iter().all(|&d| d == 0)) {
            break;
        }
        while copies.iter().any(|c| c.1 > 0) {
            for (path, left) in copies.iter_mut() {
                if *left == 0 {
                    continue;
                }
                *left -= 1;
                stamp += 1;
                st.order(
                    path,
                    &mut rows,
                    &mut orders,
                    mix64(seed ^ stamp.rotate_left(17)),
                );
            }
        }
    }
    let mut weight = vec![0.0; k * k];
    let most = st.demand.iter().copied().max().unwrap_or(0) as f64 + 1.0;
    while st.demand.iter().any(|&d| d > 0) {
        for (w, &d) in weight.iter_mut().zip(&st.demand) {
            *w = if d > 0 { 1.0 + d as f64 / most } else { 0.0 };
        }
        let (path, _) = heaviest(k, &weight);
        stamp += 1;
        st.order(
            &path,
            &mut rows,
            &mut orders,
            mix64(seed ^ stamp.rotate_left(17)),
        );
    }
    // Rows no order took: in orders of their own, the classes in a seeded order.
    let mut rng = round_rng(seed, 0);
    let mut left: Vec<usize> = (0..k).filter(|&i| !rows[i].is_empty()).collect();
    while !left.is_empty() {
        left.shuffle(&mut rng);
        for &i in &left {
            let row = rows[i].pop().expect("a row left");
            orders.flat.extend_from_slice(&row);
        }
        orders.close();
        left.retain(|&i| !rows[i].is_empty());
    }
    cover_inter(units, &mut orders, seed);
    Some((orders, bound))
}
