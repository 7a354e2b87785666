//! Systematic schedules: sets of orders that cover every consecutive ordered test pair.
//!
//! A victim with a single polluter fails in any order where the polluter runs right before it, so
//! a set of orders in which every ordered pair `(t, t')` of the module's tests is consecutive
//! somewhere finds every such victim (Wei et al., "Probabilistic and Systematic Coverage of
//! Consecutive Test-Method Pairs", section 5). Four strategies build such schedules
//! (`docs/schedules.md`):
//!
//! - `tuscan`: class-compatible orders from Tuscan squares ([`crate::tuscan`]): per class the rows
//!   of a square over its tests, concatenated across classes (one order per row), then the
//!   inter-class pairs those orders missed: for classes of equal size a computed construction
//!   that meets the lower bound (a square over the classes, test `u + p·v mod m` at position
//!   `p`); for uneven sizes from 2,000 tests, when it is within 2% of the bound, the same
//!   construction over bins of classes packed to the size of the biggest class
//!   ([`binned_orders`]); otherwise a greedy that routes every order through the classes with the
//!   most uncovered pairs. With one test per class, the rows of one square over all tests.
//! - `dependence-aware` ([`covering`]): greedy class-compatible paths over a given set of
//!   required pairs only.
//! - `pairs-all`: every ordered pair `[t, t']` as an order of its own (the baseline).
//! - `k-bounded`: every ordered `k`-tuple of distinct tests as an order of its own (DTDetector's
//!   k-bounded exploration), `k` from 1 to 3.
//!
//! A [`Schedule`] is a pure function of (suite, strategy, seed, `k`, cost model, required pairs).
//! `tuscan` and `dependence-aware` keep their orders (test indices, one `u32` per execution, plus
//! one bit per ordered pair while the greedy builds them; a Tuscan square's rows are kept as they
//! are, not copied), except the equal-size and bin constructions, computed on demand like
//! `pairs-all` and `k-bounded`, whose size costs no memory.
//!
//! Pairs the framework can never run consecutively are not claimed: in a class that is not
//! reorderable only the pairs consecutive in its fixed order count as intra-class pairs.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, HashSet};

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::strategy::{round_rng, Strategy};
use crate::suite::Suite;
use crate::tuscan;

/// The real cost of running orders: `cost0_ms` per order (a JVM start) plus the time of every
/// test execution.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostModel {
    /// Fixed cost of one order (starting a JVM, the framework), in milliseconds.
    pub cost0_ms: u64,
    /// Time of one run of each test, in milliseconds, by test id. A test without a time costs the
    /// mean of the known ones (0 when none is known).
    #[serde(default)]
    pub test_ms: BTreeMap<String, u64>,
}

impl CostModel {
    /// What a test without a measured time is assumed to cost.
    pub fn default_ms(&self) -> u64 {
        if self.test_ms.is_empty() {
            0
        } else {
            self.test_ms.values().sum::<u64>() / self.test_ms.len() as u64
        }
    }

    /// The time of one run of `test`.
    pub fn ms(&self, test: &str) -> u64 {
        self.test_ms
            .get(test)
            .copied()
            .unwrap_or_else(|| self.default_ms())
    }
}

/// Predicted cost of running `orders`, in milliseconds: `cost0_ms × orders + Σ test_ms(t)` over
/// every execution (a test without a time costs the mean of the known ones).
pub fn predicted_cost(
    orders: &[Vec<String>],
    cost0_ms: u64,
    test_ms: &BTreeMap<String, u64>,
) -> u64 {
    let model = CostModel {
        cost0_ms,
        test_ms: test_ms.clone(),
    };
    let fallback = model.default_ms();
    orders
        .iter()
        .map(|order| {
            cost0_ms
                + order
                    .iter()
                    .map(|t| test_ms.get(t).copied().unwrap_or(fallback))
                    .sum::<u64>()
        })
        .sum()
}

/// Lower bounds for covering every ordered pair of a suite with class-compatible orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LowerBound {
    /// `max(n, I / (k - 1), max_i n_i (n - n_i))`, `I = Σ n_i (n - n_i)` the inter-class pairs
    /// (`I / (k - 1)` rounded up, only when `k > 1`).
    pub orders: u64,
    /// `n (n - 1) + orders`: an order of `l` tests covers at most `l - 1` pairs.
    pub executions: u64,
}

/// The lower bound for a suite whose classes have `sizes` tests.
pub fn lower_bound(sizes: &[usize]) -> LowerBound {
    let n: u64 = sizes.iter().map(|&s| s as u64).sum();
    let k = sizes.iter().filter(|&&s| s > 0).count() as u64;
    let inter: u64 = sizes.iter().map(|&s| s as u64 * (n - s as u64)).sum();
    let mut orders = if n > 1 { n } else { 0 };
    if k > 1 {
        orders = orders.max(inter.div_ceil(k - 1));
    }
    orders = orders.max(
        sizes
            .iter()
            .map(|&s| s as u64 * (n - s as u64))
            .max()
            .unwrap_or(0),
    );
    LowerBound {
        orders,
        executions: n * n.saturating_sub(1) + orders,
    }
}

/// The units of a suite as schedules number them: test ids deduplicated, in suite order; the
/// units of one class record are consecutive indices.
#[derive(Debug, Clone)]
struct Units {
    ids: Vec<String>,
    /// The class record of each unit.
    class_of: Vec<u32>,
    /// For a unit of a fixed-order class, the unit after it there (`u32::MAX` otherwise).
    fixed_next: Vec<u32>,
    /// Units per class record.
    sizes: Vec<usize>,
    /// The first unit of each class record.
    first: Vec<u32>,
    reorderable: Vec<bool>,
}

impl Units {
    fn of(suite: &Suite) -> Units {
        let mut units = Units {
            ids: Vec::new(),
            class_of: Vec::new(),
            fixed_next: Vec::new(),
            sizes: Vec::new(),
            first: Vec::new(),
            reorderable: Vec::new(),
        };
        let mut seen = HashSet::new();
        for (c, record) in suite.classes.iter().enumerate() {
            let start = units.ids.len();
            for id in &record.tests {
                if seen.insert(id.as_str()) {
                    units.ids.push(id.clone());
                    units.class_of.push(c as u32);
                    units.fixed_next.push(u32::MAX);
                }
            }
            let end = units.ids.len();
            if !record.reorderable {
                for u in start..end.saturating_sub(1) {
                    units.fixed_next[u] = u as u32 + 1;
                }
            }
            units.sizes.push(end - start);
            units.first.push(start as u32);
            units.reorderable.push(record.reorderable);
        }
        units
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// The units of class `c`, as a range of indices.
    fn range(&self, c: u32) -> (usize, usize) {
        let lo = self.first[c as usize] as usize;
        (lo, lo + self.sizes[c as usize])
    }

    /// Whether the framework can run `b` right after `a`: any two tests of different classes,
    /// of one reorderable class, or consecutive in a fixed order.
    fn runnable(&self, a: u32, b: u32) -> bool {
        if a == b {
            return false;
        }
        let (ca, cb) = (self.class_of[a as usize], self.class_of[b as usize]);
        ca != cb || self.reorderable[ca as usize] || self.fixed_next[a as usize] == b
    }

    /// Number of ordered pairs the framework can run consecutively.
    fn runnable_total(&self) -> u64 {
        let n = self.len() as u64;
        let mut total = n * n.saturating_sub(1);
        for (size, reorderable) in self.sizes.iter().zip(&self.reorderable) {
            let s = *size as u64;
            if !reorderable && s > 1 {
                total -= s * (s - 1) - (s - 1);
            }
        }
        total
    }
}

/// The units (test ids, deduplicated, in suite order) exactly as [`Schedule::new`] and
/// [`covering`] number them: unit index `i` of a schedule is `unit_ids(suite)[i]`.
pub fn unit_ids(suite: &Suite) -> Vec<String> {
    Units::of(suite).ids
}

/// One bit per ordered pair of `n` units; each row padded to whole 64-bit words.
#[derive(Debug, Clone)]
struct Bits {
    /// Words per row.
    w: usize,
    words: Vec<u64>,
}

impl Bits {
    fn new(n: usize) -> Bits {
        let w = n.div_ceil(64);
        Bits {
            w,
            words: vec![0; n * w],
        }
    }

    fn get(&self, a: u32, b: u32) -> bool {
        let b = b as usize;
        self.words[a as usize * self.w + b / 64] >> (b % 64) & 1 == 1
    }

    fn set(&mut self, a: u32, b: u32) {
        let b = b as usize;
        self.words[a as usize * self.w + b / 64] |= 1u64 << (b % 64);
    }

    /// Clears the bit; whether it was set.
    fn clear(&mut self, a: u32, b: u32) -> bool {
        let b = b as usize;
        let word = &mut self.words[a as usize * self.w + b / 64];
        let mask = 1u64 << (b % 64);
        let was = *word & mask != 0;
        *word &= !mask;
        was
    }

    /// Sets (`on`) or clears the bits `lo..hi` of row `a`.
    fn fill(&mut self, a: u32, lo: usize, hi: usize, on: bool) {
        let w = self.w;
        fill_words(
            &mut self.words[a as usize * w..(a as usize + 1) * w],
            lo,
            hi,
            on,
        );
    }

    /// The words of row `a`.
    fn row(&self, a: u32) -> &[u64] {
        &self.words[a as usize * self.w..(a as usize + 1) * self.w]
    }

    /// Calls `f` with every set bit `b` in `lo..hi` of row `a`, ascending, until it returns false.
    /// Whether it was stopped.
    fn scan(&self, a: u32, lo: usize, hi: usize, mut f: impl FnMut(u32) -> bool) -> bool {
        let row = &self.words[a as usize * self.w..(a as usize + 1) * self.w];
        let mut i = lo;
        while i < hi {
            let end = ((i / 64 + 1) * 64).min(hi);
            let span = end - i;
            let mut word = row[i / 64] >> (i % 64);
            if span < 64 {
                word &= (1u64 << span) - 1;
            }
            while word != 0 {
                if !f((i + word.trailing_zeros() as usize) as u32) {
                    return true;
                }
                word &= word - 1;
            }
            i = end;
        }
        false
    }

    /// Set bits of row `a`.
    fn count_row(&self, a: u32) -> u32 {
        self.words[a as usize * self.w..(a as usize + 1) * self.w]
            .iter()
            .map(|w| w.count_ones())
            .sum()
    }
}

/// The required pairs of a `dependence-aware` schedule: sorted successor lists when sparse (one
/// `u32` per pair), one bit per ordered pair when that is smaller.
#[derive(Debug, Clone)]
enum PairSet {
    Sparse { offsets: Vec<usize>, succ: Vec<u32> },
    Dense { bits: Bits, len: u64 },
}

impl PairSet {
    /// The runnable pairs `(a, b)` with `required(a, b)`, asking `required` once per pair.
    fn collect(units: &Units, required: &dyn Fn(u32, u32) -> bool) -> PairSet {
        let n = units.len();
        // A list costs 32 bits per pair, a bit set one bit per ordered pair.
        let limit = (n * n) / 32;
        let mut offsets = Vec::with_capacity(n + 1);
        let mut succ: Vec<u32> = Vec::new();
        let mut dense: Option<(Bits, u64)> = None;
        for a in 0..n as u32 {
            offsets.push(succ.len());
            for b in 0..n as u32 {
                if !units.runnable(a, b) || !required(a, b) {
                    continue;
                }
                match &mut dense {
                    Some((bits, len)) => {
                        bits.set(a, b);
                        *len += 1;
                    }
                    None => {
                        succ.push(b);
                        if succ.len() > limit {
                            let mut bits = Bits::new(n);
                            for x in 0..=a as usize {
                                let end = offsets.get(x + 1).copied().unwrap_or(succ.len());
                                for &y in &succ[offsets[x]..end] {
                                    bits.set(x as u32, y);
                                }
                            }
                            dense = Some((bits, succ.len() as u64));
                            succ = Vec::new();
                        }
                    }
                }
            }
        }
        offsets.push(succ.len());
        match dense {
            Some((bits, len)) => PairSet::Dense { bits, len },
            None => PairSet::Sparse { offsets, succ },
        }
    }

    fn len(&self) -> u64 {
        match self {
            PairSet::Sparse { succ, .. } => succ.len() as u64,
            PairSet::Dense { len, .. } => *len,
        }
    }

    fn contains(&self, a: u32, b: u32) -> bool {
        match self {
            PairSet::Sparse { offsets, succ } => succ[offsets[a as usize]..offsets[a as usize + 1]]
                .binary_search(&b)
                .is_ok(),
            PairSet::Dense { bits, .. } => bits.get(a, b),
        }
    }

    /// The pairs as a bit set over `n` units.
    fn bits(&self, n: usize) -> Bits {
        match self {
            PairSet::Sparse { offsets, succ } => {
                let mut bits = Bits::new(n);
                for a in 0..n {
                    for &b in &succ[offsets[a]..offsets[a + 1]] {
                        bits.set(a as u32, b);
                    }
                }
                bits
            }
            PairSet::Dense { bits, .. } => bits.clone(),
        }
    }
}

/// Orders computed on demand for `k` classes of `m` tests each (`m >= 2`): for every row `R` of
/// a Tuscan square over the classes and every `(u, v)` in `Z_m²`, the order whose test at
/// position `p` is test `u + p·v mod m` of class `R[p]`. Consecutive positions hold
/// `(x, x + v)`, so over the `m²` choices of `(u, v)` every ordered pair of tests of two classes
/// consecutive in `R` is consecutive once: `rows · m²` orders of `k` tests cover every
/// inter-class pair.
///
/// The same over bins: a "class" of `tests` may be a bin of several classes, and an entry
/// [`HOLE`] (a bin with fewer than `m` tests) is left out of the orders, which joins its two
/// neighbours (tests of two other bins: the order stays class-compatible and every pair of the
/// full construction stays consecutive).
#[derive(Debug, Clone)]
struct Latin {
    k: usize,
    m: usize,
    /// The rows of the square, `k` entries each (indices into the classes of `tests`).
    rows: Vec<u32>,
    /// The units of each class, `m` per class (seeded order), or [`HOLE`].
    tests: Vec<u32>,
    /// Entries of `tests` that are not [`HOLE`].
    real: usize,
}

/// An empty place of a bin in [`Latin::tests`].
const HOLE: u32 = u32::MAX;

impl Latin {
    fn len(&self) -> usize {
        self.rows.len() / self.k * self.m * self.m
    }

    /// Each place of a bin holds each of its `m` entries in `m` orders of every row.
    fn executions(&self) -> u64 {
        (self.rows.len() / self.k * self.m * self.real) as u64
    }

    fn order(&self, j: usize, out: &mut Vec<u32>) {
        let (row, rest) = (j / (self.m * self.m), j % (self.m * self.m));
        let (mut x, v) = (rest / self.m, rest % self.m);
        for &class in &self.rows[row * self.k..(row + 1) * self.k] {
            let t = self.tests[class as usize * self.m + x];
            if t != HOLE {
                out.push(t);
            }
            x = (x + v) % self.m;
        }
    }
}

/// Explicit orders: first `rows` (kept as built, e.g. the rows of a Tuscan square, so they are
/// not copied), then `flat[starts[i]..starts[i + 1]]`; then the computed ones of `latin`.
#[derive(Debug, Clone, Default)]
struct Orders {
    rows: Vec<Vec<u32>>,
    flat: Vec<u32>,
    starts: Vec<usize>,
    latin: Option<Latin>,
}

impl Orders {
    fn new() -> Orders {
        Orders {
            rows: Vec::new(),
            flat: Vec::new(),
            starts: vec![0],
            latin: None,
        }
    }

    fn explicit(&self) -> usize {
        self.rows.len() + self.starts.len() - 1
    }

    /// Explicit order `i`.
    fn explicit_order(&self, i: usize) -> &[u32] {
        match i.checked_sub(self.rows.len()) {
            None => &self.rows[i],
            Some(j) => &self.flat[self.starts[j]..self.starts[j + 1]],
        }
    }

    fn len(&self) -> usize {
        self.explicit() + self.latin.as_ref().map_or(0, Latin::len)
    }

    fn executions(&self) -> u64 {
        self.rows.iter().map(|r| r.len() as u64).sum::<u64>()
            + self.flat.len() as u64
            + self.latin.as_ref().map_or(0, Latin::executions)
    }

    /// Order `i` (in construction order), appended to `out`.
    fn get(&self, i: usize, out: &mut Vec<u32>) {
        if i < self.explicit() {
            out.extend_from_slice(self.explicit_order(i));
        } else if let Some(latin) = &self.latin {
            latin.order(i - self.explicit(), out);
        }
    }

    /// Closes the order started at the end of the last one; an order of fewer than two tests
    /// covers nothing and is dropped.
    fn close(&mut self) {
        let start = *self.starts.last().unwrap_or(&0);
        if self.flat.len() - start < 2 {
            self.flat.truncate(start);
        } else {
            self.starts.push(self.flat.len());
        }
    }

    /// The sequence in which the orders run: construction order, or with `cost` by decreasing
    /// pairs per predicted millisecond (`(len - 1) / (cost0 + Σ ms)`), ties in construction order.
    fn sequence(&self, ids: &[String], cost: Option<&CostModel>) -> Vec<u32> {
        let mut sequence: Vec<u32> = (0..self.len() as u32).collect();
        if let Some(cost) = cost {
            let ms: Vec<u64> = ids.iter().map(|u| cost.ms(u)).collect();
            let mut order = Vec::new();
            let values: Vec<f64> = sequence
                .iter()
                .map(|&i| {
                    order.clear();
                    self.get(i as usize, &mut order);
                    let price = cost.cost0_ms + order.iter().map(|&u| ms[u as usize]).sum::<u64>();
                    (order.len().saturating_sub(1) as f64) / (price.max(1) as f64)
                })
                .collect();
            sequence.sort_by(|&a, &b| {
                values[b as usize]
                    .total_cmp(&values[a as usize])
                    .then(a.cmp(&b))
            });
        }
        sequence
    }
}

/// How a schedule stores or computes its orders.
#[derive(Debug, Clone)]
enum Layout {
    /// Orders kept or computed by [`Orders`]; order `r` is construction order `sequence[r]`.
    Explicit { orders: Orders, sequence: Vec<u32> },
    /// Every ordered pair of `rank` (cheapest tests first), by layers: the pairs among the first
    /// `m + 1` tests come before any pair with a later one.
    Pairs { rank: Vec<u32> },
    /// Every ordered `k`-tuple of distinct tests, lexicographically over `rank`.
    Tuples { rank: Vec<u32>, k: usize },
}

/// The orders of a systematic strategy for one suite.
#[derive(Debug, Clone)]
pub struct Schedule {
    strategy: Strategy,
    units: Units,
    /// For `dependence-aware`: the pairs it claims, when not every runnable pair.
    required: Option<PairSet>,
    layout: Layout,
}

impl Schedule {
    /// The schedule of `strategy` for `suite`, or `None` when `strategy` is not systematic or is
    /// `dependence-aware` (which needs the required pairs: [`covering`]).
    ///
    /// `k` is used by `k-bounded` only (clamped to 1..=3). With `cost`, the orders are arranged so
    /// that the ones covering the most pairs per predicted millisecond come first (`tuscan`), or
    /// the cheapest tests are paired first (`pairs-all`, `k-bounded`); without it the order of
    /// construction is kept. The same inputs always give the same schedule.
    pub fn new(
        strategy: Strategy,
        suite: &Suite,
        seed: u64,
        k: u32,
        cost: Option<&CostModel>,
    ) -> Option<Schedule> {
        if !strategy.is_systematic() || strategy == Strategy::DependenceAware {
            return None;
        }
        let units = Units::of(suite);
        let rank = || -> Vec<u32> {
            let mut rank: Vec<u32> = (0..units.len() as u32).collect();
            if let Some(cost) = cost {
                rank.sort_by_key(|&u| (cost.ms(&units.ids[u as usize]), u));
            }
            rank
        };
        let layout = match strategy {
            Strategy::PairsAll => Layout::Pairs { rank: rank() },
            Strategy::KBounded => Layout::Tuples {
                rank: rank(),
                k: k.clamp(1, 3) as usize,
            },
            _ => {
                let orders = tuscan_orders(&units, seed);
                let sequence = orders.sequence(&units.ids, cost);
                Layout::Explicit { orders, sequence }
            }
        };
        Some(Schedule {
            strategy,
            units,
            required: None,
            layout,
        })
    }

    /// The strategy that made it.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The tests it orders, in the suite's order.
    pub fn units(&self) -> &[String] {
        &self.units.ids
    }

    /// Tests per class record.
    pub fn class_sizes(&self) -> &[usize] {
        &self.units.sizes
    }

    /// Whether every order runs the tests of one class together: `tuscan` and `dependence-aware`
    /// (which also keep a fixed-order class in its order), `pairs-all`, and `k-bounded` with
    /// `k <= 2` (these two run every ordered pair, also the ones against a fixed order).
    pub fn class_compatible(&self) -> bool {
        !matches!(self.layout, Layout::Tuples { k: 3, .. })
    }

    /// Number of orders.
    pub fn len(&self) -> u64 {
        let n = self.units.len() as u64;
        match &self.layout {
            Layout::Explicit { sequence, .. } => sequence.len() as u64,
            Layout::Pairs { .. } => n * n.saturating_sub(1),
            Layout::Tuples { k, .. } => (0..*k as u64).map(|i| n.saturating_sub(i)).product(),
        }
    }

    /// Whether it has no order.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of test executions of all its orders together.
    pub fn executions(&self) -> u64 {
        match &self.layout {
            Layout::Explicit { orders, .. } => orders.executions(),
            Layout::Pairs { .. } => 2 * self.len(),
            Layout::Tuples { k, .. } => *k as u64 * self.len(),
        }
    }

    /// Order `r` (from 0) as unit indices into [`units`](Schedule::units).
    ///
    /// Panics when `r >= len()`.
    pub fn order_indices(&self, r: u64) -> Vec<u32> {
        assert!(r < self.len(), "order {r} of a schedule of {}", self.len());
        match &self.layout {
            Layout::Explicit { orders, sequence } => {
                let mut order = Vec::new();
                orders.get(sequence[r as usize] as usize, &mut order);
                order
            }
            Layout::Pairs { rank } => {
                // Layer m (from 1) holds the 2m pairs of rank[m] with rank[0..m]; it starts at m(m-1).
                let mut m = ((1.0 + (1.0 + 4.0 * r as f64).sqrt()) / 2.0) as u64;
                while m * (m - 1) > r {
                    m -= 1;
                }
                while (m + 1) * m <= r {
                    m += 1;
                }
                let offset = r - m * (m - 1);
                let (a, b) = (rank[m as usize], rank[(offset / 2) as usize]);
                if offset.is_multiple_of(2) {
                    vec![b, a]
                } else {
                    vec![a, b]
                }
            }
            Layout::Tuples { rank, k } => {
                let n = rank.len() as u64;
                let mut digits = vec![0u64; *k];
                let mut rest = r;
                for i in (0..*k).rev() {
                    let radix = n - i as u64;
                    digits[i] = rest % radix;
                    rest /= radix;
                }
                let mut used: Vec<u64> = Vec::with_capacity(*k);
                let mut order = Vec::with_capacity(*k);
                for d in digits {
                    // The d-th rank not used yet.
                    let mut pick = d;
                    let mut sorted = used.clone();
                    sorted.sort_unstable();
                    for u in sorted {
                        if u <= pick {
                            pick += 1;
                        }
                    }
                    used.push(pick);
                    order.push(rank[pick as usize]);
                }
                order
            }
        }
    }

    /// Order `r` (from 0) as test ids.
    pub fn order(&self, r: u64) -> Vec<String> {
        self.ids(&self.order_indices(r))
    }

    /// The ids of unit indices.
    pub fn ids(&self, order: &[u32]) -> Vec<String> {
        order
            .iter()
            .map(|&u| self.units.ids[u as usize].clone())
            .collect()
    }

    /// Whether the schedule promises to cover the ordered pair of units `(a, b)`: `pairs-all` and
    /// `k-bounded` (k >= 2) every pair; `tuscan` every pair the framework can run consecutively;
    /// `dependence-aware` the required pairs the framework can run consecutively.
    pub fn claims(&self, a: u32, b: u32) -> bool {
        if a == b {
            return false;
        }
        if let Some(required) = &self.required {
            return required.contains(a, b);
        }
        match self.layout {
            Layout::Explicit { .. } => self.units.runnable(a, b),
            Layout::Pairs { .. } => true,
            Layout::Tuples { k, .. } => k >= 2,
        }
    }

    /// Number of ordered pairs it claims to cover.
    pub fn pairs_total(&self) -> u64 {
        let n = self.units.len() as u64;
        let all = n * n.saturating_sub(1);
        if let Some(required) = &self.required {
            return required.len();
        }
        match self.layout {
            Layout::Explicit { .. } => self.units.runnable_total(),
            Layout::Pairs { .. } => all,
            Layout::Tuples { k, .. } => {
                if k >= 2 && self.units.len() >= k {
                    all
                } else {
                    0
                }
            }
        }
    }

    /// A tracker of the pairs covered by some of its orders.
    pub fn coverage(&self) -> PairCoverage<'_> {
        let n = self.units.len();
        PairCoverage {
            schedule: self,
            index: self
                .units
                .ids
                .iter()
                .enumerate()
                .map(|(i, u)| (u.as_str(), i as u32))
                .collect(),
            bits: vec![0u64; (n * n).div_ceil(64)],
            covered: 0,
        }
    }
}

/// The `dependence-aware` schedule: class-compatible orders in which every ordered pair of units
/// `(a, b)` with `required(a, b)` that the framework can run consecutively is consecutive
/// somewhere, and that run no other test.
///
/// `required` is asked at most once per ordered pair (never for pairs the framework cannot run
/// consecutively: same test, or not consecutive in a fixed-order class); unit indices are those of
/// [`unit_ids`]. The orders are paths over the required pairs, built greedily: start from a unit
/// with uncovered required successors (one without uncovered required predecessors first), extend
/// with an uncovered required pair `(last, x)` that keeps the order class-compatible, preferring
/// the `x` with the most uncovered successors left, close the order when there is none. When every
/// runnable pair is required, the orders are `tuscan`'s. [`Schedule::claims`] answers exactly the
/// required runnable pairs. With `cost`, orders run by decreasing pairs per predicted millisecond,
/// as for `tuscan`. The same inputs always give the same schedule.
pub fn covering(
    suite: &Suite,
    seed: u64,
    cost: Option<&CostModel>,
    required: &dyn Fn(u32, u32) -> bool,
) -> Schedule {
    let units = Units::of(suite);
    let set = PairSet::collect(&units, required);
    let (orders, required) = if set.len() == units.runnable_total() {
        (tuscan_orders(&units, seed), None)
    } else {
        (
            cover_required(&units, set.bits(units.len()), seed),
            Some(set),
        )
    };
    let sequence = orders.sequence(&units.ids, cost);
    Schedule {
        strategy: Strategy::DependenceAware,
        units,
        required,
        layout: Layout::Explicit { orders, sequence },
    }
}

/// The claimed pairs covered by the orders added so far (one bit per ordered pair).
#[derive(Debug)]
pub struct PairCoverage<'s> {
    schedule: &'s Schedule,
    index: HashMap<&'s str, u32>,
    bits: Vec<u64>,
    covered: u64,
}

impl PairCoverage<'_> {
    /// Adds the consecutive pairs of `order` (ids the schedule does not know are gaps).
    pub fn add<S: AsRef<str>>(&mut self, order: &[S]) {
        let units: Vec<Option<u32>> = order
            .iter()
            .map(|id| self.index.get(id.as_ref()).copied())
            .collect();
        self.add_indices_opt(&units);
    }

    /// Adds the consecutive pairs of an order of unit indices.
    pub fn add_indices(&mut self, order: &[u32]) {
        let units: Vec<Option<u32>> = order.iter().map(|&u| Some(u)).collect();
        self.add_indices_opt(&units);
    }

    fn add_indices_opt(&mut self, units: &[Option<u32>]) {
        let n = self.schedule.units.len();
        for w in units.windows(2) {
            if let (Some(a), Some(b)) = (w[0], w[1]) {
                if self.schedule.claims(a, b) {
                    let bit = a as usize * n + b as usize;
                    let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                    if self.bits[word] & mask == 0 {
                        self.bits[word] |= mask;
                        self.covered += 1;
                    }
                }
            }
        }
    }

    /// Claimed pairs covered so far.
    pub fn covered(&self) -> u64 {
        self.covered
    }

    /// Whether the ordered pair of units `(a, b)` is covered.
    pub fn is_covered(&self, a: u32, b: u32) -> bool {
        let bit = a as usize * self.schedule.units.len() + b as usize;
        self.bits[bit / 64] & (1u64 << (bit % 64)) != 0
    }
}

/// A seeded 64-bit mix (splitmix64's finaliser).
fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
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
fn tuscan_orders(units: &Units, seed: u64) -> Orders {
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
fn binned_orders(units: &Units, seed: u64, slack: f64) -> Option<Orders> {
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
const BINNED_SLACK: f64 = 0.02;

/// From how many tests `tuscan` tries [`binned_orders`] before the greedy [`cover_inter`] (closer
/// to the bound, about 90 ns per pair: 0.35 s at 2,000 tests).
const BINNED_MIN_TESTS: usize = 2000;

/// From how many tests [`binned_orders`] may be up to [`BINNED_LOOSE_SLACK`] above the bound: the
/// greedy would take more than half a second there (about 90 ns per pair: 0.5 s at 2,300 tests).
const BINNED_LOOSE_TESTS: usize = 2300;

/// How far above the lower bound `tuscan` takes [`binned_orders`] from [`BINNED_LOOSE_TESTS`].
const BINNED_LOOSE_SLACK: f64 = 0.05;

/// Classes per bin, and per bin its orders as a suite of its own with the map from its units to
/// the suite's.
type Bins = (Vec<Vec<u32>>, Vec<(Orders, Vec<u32>)>);

/// How [`pack`] chooses a bin for a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
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
fn pack(
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
fn inner_orders(units: &Units, bins: &[Vec<u32>], seed: u64) -> Vec<(Orders, Vec<u32>)> {
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
        inner.push((tuscan_orders(&sub, mix64(seed ^ b as u64)), map));
    }
    inner
}

/// The greedy cover of the inter-class pairs the explicit `orders` so far missed.
///
/// Every order covers at most one pair into and one out of each class, so the classes with the
/// most inter-class pairs bound the number of orders: each order visits the classes by decreasing
/// `s (n - s)` (`s` tests; classes of equal size form a tier, entered at a seeded offset that
/// changes with every order, so that they take turns), taking from the last test a pair into the
/// first unvisited class it has an uncovered pair into, and the test there with the most uncovered
/// successors (of a few looked at). An order starts where an earlier one ended if that test has
/// more uncovered successors than predecessors (as in an Euler path decomposition), otherwise in
/// the last class of that ranking with uncovered successors, at its test with the most; it closes
/// when the last test has no uncovered pair into an unvisited class. Every step covers a new pair,
/// so executions stay `pairs + orders`.
///
/// The columns of the pair bits follow the ranking (class by class), so the first class of a
/// step is the first set bit of the last test's row, masked by the unvisited classes: a few word
/// operations. State: one bit per ordered pair, counts per test and class.
fn cover_inter(units: &Units, orders: &mut Orders, seed: u64) {
    let n = units.len();
    let k = units.sizes.len();
    let class_of = &units.class_of;
    let sizes = &units.sizes;
    let weight = |c: u32| {
        let s = sizes[c as usize] as u64;
        s * (n as u64 - s)
    };
    let mut ranked: Vec<u32> = (0..k as u32).filter(|&c| sizes[c as usize] > 0).collect();
    ranked.sort_by_key(|&c| (Reverse(weight(c)), mix64(seed ^ u64::from(c)), c));
    // Column layout: `at[p]` is the unit at column `p`, `pos[u]` the column of unit `u`; the
    // classes in ranking order, each on `col[c]..col[c] + sizes[c]`.
    let mut at = Vec::with_capacity(n);
    let mut pos = vec![0u32; n];
    let mut col = vec![0u32; k];
    // Tiers: runs of classes of equal weight, `(first column, end column, classes)`.
    let mut tiers: Vec<(usize, usize, u32)> = Vec::new();
    let mut tier_of = vec![0u32; k];
    for (i, &c) in ranked.iter().enumerate() {
        if i == 0 || weight(ranked[i - 1]) != weight(c) {
            tiers.push((at.len(), at.len(), 0));
        }
        let tier = tiers.len() - 1;
        tier_of[c as usize] = tier as u32;
        col[c as usize] = at.len() as u32;
        let (lo, hi) = units.range(c);
        for (u, p) in pos.iter_mut().enumerate().take(hi).skip(lo) {
            *p = at.len() as u32;
            at.push(u as u32);
        }
        tiers[tier].1 = at.len();
        tiers[tier].2 += 1;
    }
    let cols = |c: u32| {
        let lo = col[c as usize] as usize;
        (lo, lo + sizes[c as usize])
    };
    let mut bits = Bits::new(n);
    let mut out_left = vec![0u32; n];
    let mut in_left = vec![0u32; n];
    for a in 0..n as u32 {
        let (lo, hi) = cols(class_of[a as usize]);
        bits.fill(a, 0, n, true);
        bits.fill(a, lo, hi, false);
        out_left[a as usize] = (n - (hi - lo)) as u32;
        in_left[a as usize] = out_left[a as usize];
    }
    for i in 0..orders.explicit() {
        for w in orders.explicit_order(i).windows(2) {
            if bits.clear(w[0], pos[w[1] as usize]) {
                out_left[w[0] as usize] -= 1;
                in_left[w[1] as usize] -= 1;
            }
        }
    }
    let mut out_c = vec![0u64; k];
    for u in 0..n {
        out_c[class_of[u] as usize] += u64::from(out_left[u]);
    }
    let mut remaining: u64 = out_c.iter().sum();
    // Per row, one bit per nonzero word of the row (the scans skip empty words without loading
    // them).
    let sw = bits.w.div_ceil(64);
    let mut nonzero = vec![0u64; n * sw];
    for a in 0..n as u32 {
        for (i, &word) in bits.row(a).iter().enumerate() {
            if word != 0 {
                nonzero[a as usize * sw + i / 64] |= 1u64 << (i % 64);
            }
        }
    }
    // Each executed step covers one pair; reserve for them and an order per biggest class pair.
    let bound = ranked.first().map_or(0, |&c| weight(c)) as usize;
    orders.flat.reserve(remaining as usize + bound + bound / 16);
    orders.starts.reserve(bound + bound / 16);
    // Per order: the unvisited columns (whole classes), unvisited classes per tier.
    let mut unvisited = vec![0u64; bits.w];
    let mut tier_left: Vec<u32> = vec![0; tiers.len()];
    let mut offset: Vec<usize> = vec![0; tiers.len()];
    // The last class in the ranking with uncovered successors (they only decrease).
    let mut tail = ranked.len();
    // Tests with more uncovered successors than predecessors (where orders ended): the next
    // orders start there, as in an Euler path decomposition.
    let mut surplus: Vec<u32> = Vec::new();
    let mut stamp = 0u64;
    // How many candidate tests of the chosen class are compared.
    const LOOK: usize = 8;
    while remaining > 0 {
        stamp += 1;
        let salt = mix64(seed ^ stamp);
        let mut x = loop {
            match surplus.pop() {
                Some(u) if out_left[u as usize] > in_left[u as usize] => break Some(u),
                Some(_) => continue,
                None => break None,
            }
        }
        .unwrap_or_else(|| {
            while out_c[ranked[tail - 1] as usize] == 0 {
                tail -= 1;
            }
            let (lo, hi) = units.range(ranked[tail - 1]);
            (lo..hi)
                .max_by_key(|&u| (out_left[u], Reverse(u)))
                .unwrap_or(lo) as u32
        });
        orders.flat.push(x);
        unvisited.fill(u64::MAX);
        for (left, tier) in tier_left.iter_mut().zip(&tiers) {
            *left = tier.2;
        }
        let mut first_tier = 0;
        for (o, &(lo, hi, _)) in offset.iter_mut().zip(&tiers) {
            *o = lo + (mix64(salt ^ lo as u64) % (hi - lo) as u64) as usize;
        }
        let visit = |c: u32, unvisited: &mut [u64], tier_left: &mut [u32]| {
            let (lo, hi) = cols(c);
            fill_words(unvisited, lo, hi, false);
            tier_left[tier_of[c as usize] as usize] -= 1;
        };
        visit(class_of[x as usize], &mut unvisited, &mut tier_left);
        loop {
            let row = bits.row(x);
            // The first unvisited class (in the ranking, a tier from its offset) with an
            // uncovered pair from `x`.
            let from = tiers.get(first_tier).map_or(n, |t| t.0);
            let summary = &nonzero[x as usize * sw..(x as usize + 1) * sw];
            let hit = first_and_sparse(row, summary, &unvisited, from, n).map(|p| {
                let t = tier_of[class_of[at[p] as usize] as usize] as usize;
                if offset[t] <= p {
                    p
                } else {
                    first_and(row, &unvisited, offset[t], tiers[t].1).unwrap_or(p)
                }
            });
            let Some(p) = hit else { break };
            let c = class_of[at[p] as usize];
            let (lo, hi) = cols(c);
            // A few candidates from a rotating offset; the one with the most successors left.
            let rot = lo + (mix64(salt ^ u64::from(x)) % (hi - lo) as u64) as usize;
            let mut best: Option<u32> = None;
            let mut looked = 0;
            let mut consider = |q: u32| {
                let y = at[q as usize];
                if best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                    best = Some(y);
                }
                looked += 1;
                looked < LOOK
            };
            if !bits.scan(x, rot, hi, &mut consider) {
                bits.scan(x, lo, rot, &mut consider);
            }
            let y = best.expect("a set bit in the class");
            let q = pos[y as usize] as usize;
            bits.clear(x, q as u32);
            if bits.row(x)[q / 64] == 0 {
                nonzero[x as usize * sw + q / 4096] &= !(1u64 << (q / 64 % 64));
            }
            out_left[x as usize] -= 1;
            in_left[y as usize] -= 1;
            out_c[class_of[x as usize] as usize] -= 1;
            remaining -= 1;
            orders.flat.push(y);
            visit(c, &mut unvisited, &mut tier_left);
            while first_tier < tiers.len() && tier_left[first_tier] == 0 {
                first_tier += 1;
            }
            x = y;
        }
        if out_left[x as usize] > in_left[x as usize] {
            surplus.push(x);
        }
        orders.close();
    }
}

/// Sets (`on`) or clears the bits `lo..hi` of `words`.
fn fill_words(words: &mut [u64], lo: usize, hi: usize, on: bool) {
    let mut i = lo;
    while i < hi {
        let end = ((i / 64 + 1) * 64).min(hi);
        let span = end - i;
        let mask = if span == 64 {
            u64::MAX
        } else {
            ((1u64 << span) - 1) << (i % 64)
        };
        if on {
            words[i / 64] |= mask;
        } else {
            words[i / 64] &= !mask;
        }
        i = end;
    }
}

/// The first bit in `lo..hi` set in both `a` and `b`, looking only at the words of `a` whose bit
/// is set in `summary` (one bit per word: whether it is nonzero).
fn first_and_sparse(a: &[u64], summary: &[u64], b: &[u64], lo: usize, hi: usize) -> Option<usize> {
    if lo >= hi {
        return None;
    }
    let (first, last) = (lo / 64, (hi - 1) / 64);
    let mut s = first / 64;
    let mut mask = summary[s] & (u64::MAX << (first % 64));
    loop {
        while mask != 0 {
            let w = s * 64 + mask.trailing_zeros() as usize;
            if w > last {
                return None;
            }
            let mut word = a[w] & b[w];
            if w == first {
                word &= u64::MAX << (lo % 64);
            }
            if w == last && !hi.is_multiple_of(64) {
                word &= (1u64 << (hi % 64)) - 1;
            }
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            mask &= mask - 1;
        }
        s += 1;
        if s * 64 > last {
            return None;
        }
        mask = summary[s];
    }
}

/// The first bit in `lo..hi` set in both `a` and `b`.
fn first_and(a: &[u64], b: &[u64], lo: usize, hi: usize) -> Option<usize> {
    let mut i = lo;
    while i < hi {
        let w = i / 64;
        let end = ((w + 1) * 64).min(hi);
        let mut word = (a[w] & b[w]) >> (i % 64);
        if end - i < 64 {
            word &= (1u64 << (end - i)) - 1;
        }
        if word != 0 {
            return Some(i + word.trailing_zeros() as usize);
        }
        i = end;
    }
    None
}

/// The greedy cover of the required pairs in `bits` (see [`covering`]).
fn cover_required(units: &Units, mut bits: Bits, seed: u64) -> Orders {
    let n = units.len();
    let class_of = &units.class_of;
    let mut orders = Orders::new();
    let mut out_left: Vec<u32> = (0..n as u32).map(|a| bits.count_row(a)).collect();
    let mut in_left = vec![0u32; n];
    for a in 0..n as u32 {
        bits.scan(a, 0, n, |b| {
            in_left[b as usize] += 1;
            true
        });
    }
    let mut remaining: u64 = out_left.iter().map(|&c| u64::from(c)).sum();
    // Units that must start an order: uncovered successors, no uncovered predecessor.
    let mut sources: Vec<u32> = (0..n as u32)
        .rev()
        .filter(|&u| out_left[u as usize] > 0 && in_left[u as usize] == 0)
        .collect();
    let mut cursor = 0usize;
    let mut test_seen = vec![0u32; n];
    let mut class_seen = vec![0u32; units.sizes.len()];
    let mut stamp = 0u32;
    // How many uncovered successors of the last unit are looked at for one that may follow it.
    const LOOK: usize = 256;
    // Bridges in a row at most, and how many candidates one bridge looks at.
    const BRIDGES: usize = 1;
    const BRIDGE_LOOK: usize = 256;
    // Units that may still have uncovered successors (pruned as they run out).
    let mut active: Vec<u32> = (0..n as u32)
        .filter(|&u| out_left[u as usize] > 0)
        .collect();
    // A unit that may follow `x` in the order of `stamp` without covering a required pair:
    // not in the order yet, class-compatible (in `x`'s class only where that class may run it
    // next), with the most uncovered successors among up to `BRIDGE_LOOK` candidates.
    let bridge = |x: u32,
                  stamp: u32,
                  test_seen: &[u32],
                  class_seen: &[u32],
                  out_left: &[u32],
                  active: &mut Vec<u32>|
     -> Option<u32> {
        active.retain(|&u| out_left[u as usize] > 0);
        if active.is_empty() {
            return None;
        }
        let cx = class_of[x as usize];
        let start = (mix64(u64::from(stamp) ^ u64::from(x)) % active.len() as u64) as usize;
        let mut best: Option<u32> = None;
        for i in 0..active.len().min(BRIDGE_LOOK) {
            let y = active[(start + i) % active.len()];
            let cy = class_of[y as usize];
            let allowed = test_seen[y as usize] != stamp
                && if cy == cx {
                    units.reorderable[cx as usize] || units.fixed_next[x as usize] == y
                } else {
                    class_seen[cy as usize] != stamp
                };
            if allowed && best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                best = Some(y);
            }
        }
        best
    };
    while remaining > 0 {
        let mut x = loop {
            match sources.pop() {
                Some(u) if out_left[u as usize] > 0 => break u,
                Some(_) => continue,
                None => {
                    while out_left[cursor] == 0 {
                        cursor = (cursor + 1) % n;
                    }
                    break cursor as u32;
                }
            }
        };
        stamp += 1;
        let salt = mix64(seed ^ u64::from(stamp));
        orders.flat.push(x);
        test_seen[x as usize] = stamp;
        class_seen[class_of[x as usize] as usize] = stamp;
        let mut bridges = 0usize;
        loop {
            let cx = class_of[x as usize];
            let mut best: Option<u32> = None;
            let mut looked = 0;
            let mut consider = |y: u32| {
                let cy = class_of[y as usize];
                let allowed = test_seen[y as usize] != stamp
                    && (cy == cx || class_seen[cy as usize] != stamp);
                if allowed && best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                    best = Some(y);
                }
                looked += 1;
                looked < LOOK
            };
            let rot = (mix64(salt ^ u64::from(x)) % n as u64) as usize;
            if !bits.scan(x, rot, n, &mut consider) {
                bits.scan(x, 0, rot, &mut consider);
            }
            let Some(y) = best else {
                // No uncovered required pair continues the order: rather than start a JVM for
                // the next one, run one more test that has uncovered pairs of its own (a bridge),
                // at most `BRIDGES` in a row; bridges left at the end are dropped.
                if bridges >= BRIDGES {
                    break;
                }
                let Some(y) = bridge(x, stamp, &test_seen, &class_seen, &out_left, &mut active)
                else {
                    break;
                };
                bridges += 1;
                orders.flat.push(y);
                test_seen[y as usize] = stamp;
                class_seen[class_of[y as usize] as usize] = stamp;
                x = y;
                continue;
            };
            bridges = 0;
            bits.clear(x, y);
            out_left[x as usize] -= 1;
            in_left[y as usize] -= 1;
            remaining -= 1;
            if in_left[y as usize] == 0 && out_left[y as usize] > 0 {
                sources.push(y);
            }
            orders.flat.push(y);
            test_seen[y as usize] = stamp;
            class_seen[class_of[y as usize] as usize] = stamp;
            x = y;
        }
        orders.flat.truncate(orders.flat.len() - bridges);
        orders.close();
    }
    orders
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::cell::Cell;

    use crate::suite::{ClassRecord, Framework};

    /// A suite of classes `(tests, reorderable)`.
    fn suite_of(classes: &[(usize, bool)]) -> Suite {
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes: classes
                .iter()
                .enumerate()
                .map(|(c, &(tests, reorderable))| ClassRecord {
                    class: format!("p.C{c}"),
                    framework: Framework::Junit4,
                    reorderable,
                    tests: (0..tests).map(|t| format!("p.C{c}#t{t}")).collect(),
                    dynamic: Vec::new(),
                })
                .collect(),
        }
    }

    /// Seeded uneven sizes (xorshift), `1..=max`.
    fn sizes(seed: u64, classes: usize, max: usize) -> Vec<usize> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..classes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                1 + (x % max as u64) as usize
            })
            .collect()
    }

    /// Panics unless every order is a class-compatible permutation of a subset of the units (a
    /// fixed-order class in its order), `claims` is exactly `expected`, and every claimed pair is
    /// consecutive somewhere. Returns the set of consecutive pairs.
    fn check(schedule: &Schedule, expected: &dyn Fn(u32, u32) -> bool, what: &str) -> Bits {
        let units = &schedule.units;
        let n = units.len();
        let mut seen = Bits::new(n);
        let mut coverage = schedule.coverage();
        let mut executions = 0;
        for r in 0..schedule.len() {
            let order = schedule.order_indices(r);
            executions += order.len() as u64;
            assert!(
                order.len() >= 2,
                "{what}: order {r} covers nothing: {order:?}"
            );
            let mut test_done = vec![false; n];
            let mut class_done = vec![false; units.sizes.len()];
            for (i, &u) in order.iter().enumerate() {
                assert!((u as usize) < n, "{what}: unit {u} out of range");
                assert!(!test_done[u as usize], "{what}: order {r} repeats {u}");
                test_done[u as usize] = true;
                let c = units.class_of[u as usize] as usize;
                let continues = i > 0 && units.class_of[order[i - 1] as usize] as usize == c;
                if continues {
                    if !units.reorderable[c] {
                        assert!(order[i - 1] < u, "{what}: fixed class reordered: {order:?}");
                    }
                } else {
                    assert!(
                        !class_done[c],
                        "{what}: order {r} splits class {c}: {order:?}"
                    );
                    class_done[c] = true;
                }
            }
            for w in order.windows(2) {
                seen.set(w[0], w[1]);
            }
            coverage.add_indices(&order);
        }
        assert_eq!(executions, schedule.executions(), "{what}: executions");
        let mut claimed = 0;
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                assert_eq!(
                    schedule.claims(a, b),
                    expected(a, b),
                    "{what}: claims({a}, {b})"
                );
                if expected(a, b) {
                    claimed += 1;
                    assert!(seen.get(a, b), "{what}: ({a}, {b}) never consecutive");
                }
            }
        }
        assert_eq!(schedule.pairs_total(), claimed, "{what}: pairs_total");
        assert_eq!(coverage.covered(), claimed, "{what}: coverage");
        seen
    }

    fn shapes() -> Vec<(String, Vec<(usize, bool)>)> {
        let mut shapes = Vec::new();
        for n in 1..=60 {
            shapes.push((format!("one class of {n}"), vec![(n, true)]));
        }
        for n in 1..=25 {
            shapes.push((format!("{n} classes of one"), vec![(1, true); n]));
        }
        for k in 2..=9 {
            for m in 2..=4 {
                shapes.push((format!("{k} classes of {m}"), vec![(m, true); k]));
            }
        }
        for seed in 0..16 {
            let s = sizes(seed, 2 + seed as usize % 11, 12);
            let fixed = seed % 3 == 0;
            shapes.push((
                format!("uneven {s:?}, fixed first: {fixed}"),
                s.iter()
                    .enumerate()
                    .map(|(i, &m)| (m, !(fixed && i == 0)))
                    .collect(),
            ));
        }
        let mut big = vec![(30, true)];
        big.extend([(3, true); 8]);
        shapes.push(("one big class".into(), big));
        shapes.push((
            "equal with a fixed class".into(),
            vec![(3, true), (3, false), (3, true), (3, true)],
        ));
        shapes.push((
            "fixed classes only".into(),
            vec![(4, false), (1, false), (5, false)],
        ));
        shapes.push((
            "empty classes".into(),
            vec![(0, true), (3, true), (0, false)],
        ));
        shapes.push(("nothing".into(), vec![]));
        shapes
    }

    #[test]
    fn tuscan_covers_every_runnable_pair_class_compatibly_over_many_shapes_and_seeds() {
        for (shape, classes) in shapes() {
            let suite = suite_of(&classes);
            for seed in [0u64, 1, 42] {
                let what = format!("{shape}, seed {seed}");
                let s = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
                check(&s, &|a, b| s.units.runnable(a, b), &what);
                let again = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
                assert!(
                    (0..s.len()).all(|r| s.order_indices(r) == again.order_indices(r)),
                    "{what}: not reproducible"
                );
                let sizes: Vec<usize> = classes.iter().map(|c| c.0).collect();
                if classes.iter().all(|c| c.1) {
                    assert!(s.len() >= lower_bound(&sizes).orders, "{what}");
                }
            }
        }
    }

    #[test]
    fn equal_classes_take_the_bound_plus_the_intra_class_rows() {
        for (k, m) in [(2usize, 3usize), (4, 2), (4, 5), (6, 3), (8, 4), (10, 6)] {
            let suite = suite_of(&vec![(m, true); k]);
            let s = Schedule::new(Strategy::Tuscan, &suite, 5, 2, None).unwrap();
            let bound = lower_bound(&vec![m; k]);
            let rows = tuscan::square(m).len() as u64;
            assert_eq!(s.len(), bound.orders + rows, "{k} x {m}");
            // Every inter-class pair once, plus the pairs between the classes of the rows.
            let n = (k * m) as u64;
            assert_eq!(s.executions(), n * n + rows * n, "{k} x {m}");
        }
    }

    #[test]
    fn uneven_classes_come_close_to_the_bound() {
        let mut big = vec![60];
        big.extend([3; 20]);
        for sizes in [big, sizes(3, 40, 20), sizes(9, 60, 8)] {
            let classes: Vec<(usize, bool)> = sizes.iter().map(|&m| (m, true)).collect();
            let s = Schedule::new(Strategy::Tuscan, &suite_of(&classes), 1, 2, None).unwrap();
            let bound = lower_bound(&sizes);
            assert!(
                s.len() as f64 <= 1.05 * bound.orders as f64,
                "{sizes:?}: {} orders, bound {}",
                s.len(),
                bound.orders
            );
            assert!(s.executions() as f64 <= 1.01 * bound.executions as f64);
        }
    }

    /// The tuscan schedule whose orders are `orders`.
    fn explicit(suite: &Suite, orders: Orders) -> Schedule {
        let units = Units::of(suite);
        let sequence = orders.sequence(&units.ids, None);
        Schedule {
            strategy: Strategy::Tuscan,
            units,
            required: None,
            layout: Layout::Explicit { orders, sequence },
        }
    }

    #[test]
    fn binned_orders_cover_every_runnable_pair_class_compatibly() {
        let mut built = 0;
        let mut all = shapes();
        for seed in 0..12u64 {
            let mut s = sizes(seed, 8 + seed as usize * 3, 2 + seed as usize % 5);
            s.push(1 + seed as usize % 3);
            all.push((
                format!("many uneven {s:?}"),
                s.iter()
                    .enumerate()
                    .map(|(i, &m)| (m, i % 7 != 3))
                    .collect(),
            ));
        }
        for (shape, classes) in all {
            let suite = suite_of(&classes);
            for seed in [0u64, 7] {
                let what = format!("binned {shape}, seed {seed}");
                let units = Units::of(&suite);
                let Some(orders) = binned_orders(&units, seed, f64::INFINITY) else {
                    continue;
                };
                built += 1;
                let s = explicit(&suite, orders);
                check(&s, &|a, b| s.units.runnable(a, b), &what);
                let again = explicit(&suite, binned_orders(&units, seed, f64::INFINITY).unwrap());
                assert!(
                    (0..s.len()).all(|r| s.order_indices(r) == again.order_indices(r)),
                    "{what}: not reproducible"
                );
            }
        }
        assert!(built >= 20, "{built}");
    }

    #[test]
    fn binned_orders_of_many_small_classes_are_within_two_percent() {
        let sizes = sizes(4, 220, 8);
        let classes: Vec<(usize, bool)> = sizes.iter().map(|&m| (m, true)).collect();
        let suite = suite_of(&classes);
        let orders = binned_orders(&Units::of(&suite), 3, BINNED_SLACK).expect("binned");
        assert!(orders.latin.is_some());
        let s = explicit(&suite, orders);
        check(&s, &|a, b| s.units.runnable(a, b), "binned 220 classes");
        let bound = lower_bound(&sizes);
        assert!(s.len() as f64 <= 1.02 * bound.orders as f64, "{}", s.len());
        assert!(s.executions() as f64 <= 1.02 * bound.executions as f64);
        // Too few bins for the slack: no binned orders.
        let few = suite_of(&[(6, true), (3, true), (2, true), (1, true)]);
        assert!(binned_orders(&Units::of(&few), 3, BINNED_SLACK).is_none());
    }

    /// Seeded sizes skewed like real modules (many small classes, a few big): `1 + u³·max`.
    fn skewed(seed: u64, classes: usize, max: usize) -> Vec<usize> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..classes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let u = (x % 1000) as f64 / 1000.0;
                1 + (u * u * u * max as f64) as usize
            })
            .collect()
    }

    #[test]
    fn tuscan_bins_big_uneven_suites() {
        let sizes = skewed(4, 350, 20);
        let n: usize = sizes.iter().sum();
        assert!(n >= BINNED_MIN_TESTS, "{n}");
        let classes: Vec<(usize, bool)> = sizes.iter().map(|&m| (m, true)).collect();
        let s = Schedule::new(Strategy::Tuscan, &suite_of(&classes), 1, 2, None).unwrap();
        assert!(matches!(
            &s.layout,
            Layout::Explicit { orders, .. } if orders.latin.is_some()
        ));
        check(&s, &|a, b| s.units.runnable(a, b), "tuscan 480 classes");
        let bound = lower_bound(&sizes);
        assert!(s.len() as f64 <= 1.02 * bound.orders as f64, "{}", s.len());
        assert!(s.executions() as f64 <= 1.02 * bound.executions as f64);
    }

    #[test]
    fn cost_reorders_latin_schedules_without_changing_them() {
        let suite = suite_of(&[(3, true); 4]);
        let mut cost = CostModel {
            cost0_ms: 10,
            ..CostModel::default()
        };
        for id in unit_ids(&suite) {
            cost.test_ms.insert(id, 1);
        }
        cost.test_ms.insert("p.C0#t0".into(), 1000);
        let plain = Schedule::new(Strategy::Tuscan, &suite, 2, 2, None).unwrap();
        let priced = Schedule::new(Strategy::Tuscan, &suite, 2, 2, Some(&cost)).unwrap();
        let set = |s: &Schedule| {
            let mut all: Vec<Vec<u32>> = (0..s.len()).map(|r| s.order_indices(r)).collect();
            all.sort();
            all
        };
        assert_eq!(set(&plain), set(&priced));
        let last = priced.order(priced.len() - 1);
        assert!(last.contains(&"p.C0#t0".to_string()), "{last:?}");
    }

    #[test]
    fn unit_ids_number_the_units_of_every_schedule() {
        let mut suite = suite_of(&[(2, true), (2, false)]);
        suite.classes[1].tests.push("p.C0#t1".into());
        let ids = unit_ids(&suite);
        assert_eq!(ids, ["p.C0#t0", "p.C0#t1", "p.C1#t0", "p.C1#t1"]);
        let s = Schedule::new(Strategy::Tuscan, &suite, 0, 2, None).unwrap();
        assert_eq!(s.units(), ids.as_slice());
        assert!(Schedule::new(Strategy::DependenceAware, &suite, 0, 2, None).is_none());
    }

    /// The covering schedule of `required`, checked; asserts `required` is asked at most once
    /// per pair and the orders hold only tests of required pairs.
    fn cover(
        classes: &[(usize, bool)],
        seed: u64,
        required: &dyn Fn(u32, u32) -> bool,
    ) -> Schedule {
        let suite = suite_of(classes);
        let n = unit_ids(&suite).len();
        let asked = Cell::new(0u64);
        let counted = |a: u32, b: u32| {
            asked.set(asked.get() + 1);
            required(a, b)
        };
        let s = covering(&suite, seed, None, &counted);
        assert!(asked.get() <= (n * n) as u64);
        assert_eq!(s.strategy(), Strategy::DependenceAware);
        let expected = |a, b| s.units.runnable(a, b) && required(a, b);
        check(&s, &expected, &format!("covering {classes:?}"));
        let mut involved = vec![false; n];
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                if expected(a, b) {
                    involved[a as usize] = true;
                    involved[b as usize] = true;
                }
            }
        }
        for r in 0..s.len() {
            for u in s.order_indices(r) {
                assert!(involved[u as usize], "{u} is in no required pair");
            }
        }
        let again = covering(&suite, seed, None, required);
        assert!((0..s.len()).all(|r| s.order_indices(r) == again.order_indices(r)));
        s
    }

    #[test]
    fn covering_sparse_pairs_runs_only_their_tests() {
        // Units: C0 = 0..4, C1 = 4..7, C2 = 7..12.
        let pairs = [(0u32, 5u32), (9, 1), (2, 3), (6, 4), (11, 0)];
        let s = cover(&[(4, true), (3, true), (5, true)], 3, &|a, b| {
            pairs.contains(&(a, b))
        });
        assert_eq!(s.pairs_total(), 5);
        // Each order covers at least one pair; a bridge (one test run instead of a JVM start)
        // may join two pairs in one order.
        assert!(s.len() <= 4, "{}", s.len());
        assert!(s.executions() <= 2 * s.len() + 5, "{}", s.executions());
        let covered: HashSet<(u32, u32)> = (0..s.len())
            .flat_map(|r| {
                let o = s.order_indices(r);
                o.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>()
            })
            .collect();
        assert!(pairs.iter().all(|p| covered.contains(p)));
    }

    #[test]
    fn covering_bridges_pairs_with_one_test_run_instead_of_a_jvm_start() {
        // (0, 1) and (2, 3), one test per class: [0, 1, 2, 3] covers both in one order, where
        // (1, 2) is a bridge; nothing to bridge to after the last pair, so no trailing test.
        let s = cover(&[(1, true); 5], 0, &|a, b| {
            [(0, 1), (2, 3)].contains(&(a, b))
        });
        assert_eq!(s.len(), 1);
        assert_eq!(s.executions(), 4);
        let order = s.order_indices(0);
        assert!(order.windows(2).any(|w| w == [0, 1]) && order.windows(2).any(|w| w == [2, 3]));
        assert!(!order.contains(&4), "4 is in no pair: {order:?}");
    }

    #[test]
    fn covering_chains_across_classes_in_one_order() {
        // 0 -> 3 -> 6 -> 9, one test of each of four classes: one order.
        let s = cover(&[(3, true); 4], 0, &|a, b| b == a + 3 && a % 3 == 0);
        assert_eq!(s.len(), 1);
        assert_eq!(s.order_indices(0), [0, 3, 6, 9]);
        // A chain that would go back to a class is cut there: 0 -> 3 | 3 -> 1 | 1 -> 4.
        let s = cover(&[(3, true); 2], 0, &|a, b| {
            [(0, 3), (3, 1), (1, 4)].contains(&(a, b))
        });
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn covering_respects_fixed_order_classes() {
        // C0 fixed: 0, 1, 2; only (0, 1) and (1, 2) can run consecutively there.
        let s = cover(&[(3, false), (2, true)], 1, &|a, b| a != b);
        assert_eq!(
            s.pairs_total(),
            Schedule::new(
                Strategy::Tuscan,
                &suite_of(&[(3, false), (2, true)]),
                1,
                2,
                None
            )
            .unwrap()
            .pairs_total()
        );
        let s = cover(&[(3, false), (2, true)], 1, &|a, b| {
            a < 3 && b < 3 || a == 2 && b == 4
        });
        assert_eq!(s.pairs_total(), 3);
        assert_eq!(s.len(), 1);
        assert_eq!(s.order_indices(0), [0, 1, 2, 4]);
    }

    #[test]
    fn covering_everything_is_tuscan() {
        for classes in [
            vec![(4, true), (2, true), (3, false)],
            vec![(3, true); 5],
            vec![(1, true); 6],
            vec![(7, true)],
        ] {
            let s = cover(&classes, 4, &|_, _| true);
            let tuscan = Schedule::new(Strategy::Tuscan, &suite_of(&classes), 4, 2, None).unwrap();
            assert_eq!(s.pairs_total(), tuscan.pairs_total());
            assert_eq!(s.len(), tuscan.len());
        }
    }

    #[test]
    fn covering_dense_and_sparse_sets_over_many_shapes() {
        for (_, classes) in shapes() {
            for seed in [0u64, 9] {
                // Dense: all but a seeded fraction; sparse: a few.
                let dense = |a: u32, b: u32| {
                    !mix64(seed ^ (u64::from(a) << 32 | u64::from(b))).is_multiple_of(8)
                };
                let sparse = |a: u32, b: u32| {
                    mix64(seed ^ (u64::from(a) << 32 | u64::from(b))).is_multiple_of(40)
                };
                cover(&classes, seed, &dense);
                cover(&classes, seed, &sparse);
            }
        }
    }

    #[test]
    fn covering_nothing_is_empty() {
        let s = cover(&[(3, true), (2, true)], 0, &|_, _| false);
        assert!(s.is_empty());
        assert_eq!((s.pairs_total(), s.executions()), (0, 0));
        let s = cover(&[], 0, &|_, _| true);
        assert!(s.is_empty());
    }

    #[test]
    fn covering_orders_by_cost_like_tuscan() {
        let suite = suite_of(&[(3, true), (3, true)]);
        let mut cost = CostModel {
            cost0_ms: 1,
            ..CostModel::default()
        };
        cost.test_ms.insert("p.C0#t0".into(), 500);
        let required = |a: u32, b: u32| a / 3 != b / 3;
        let plain = covering(&suite, 0, None, &required);
        let priced = covering(&suite, 0, Some(&cost), &required);
        assert_eq!(plain.len(), priced.len());
        let value = |order: &[String]| {
            let ms: u64 = order.iter().map(|t| cost.ms(t)).sum();
            (order.len() - 1) as f64 / (cost.cost0_ms + ms) as f64
        };
        let values: Vec<f64> = (0..priced.len()).map(|r| value(&priced.order(r))).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    }

    #[test]
    fn predicted_cost_counts_each_order_and_execution() {
        let orders = vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["b".to_string(), "c".to_string()],
        ];
        let ms: BTreeMap<String, u64> = [("a".to_string(), 10), ("b".to_string(), 30)].into();
        // c is unknown: it costs the mean, 20.
        assert_eq!(predicted_cost(&orders, 100, &ms), 200 + 10 + 30 + 30 + 20);
    }

    #[test]
    fn lower_bound_of_uneven_classes() {
        let b = lower_bound(&[3, 1, 1]);
        // n = 5, I = 3*2 + 4 + 4 = 14, k = 3: 7; max n_i(n - n_i) = 6.
        assert_eq!(b.orders, 7);
        assert_eq!(b.executions, 20 + 7);
        assert_eq!(lower_bound(&[4]).orders, 4);
        assert_eq!(lower_bound(&[]).orders, 0);
    }
}
