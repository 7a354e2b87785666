//! Systematic schedules: sets of orders that cover every consecutive ordered test pair.
//!
//! A victim with a single polluter fails in any order where the polluter runs right before it, so
//! a set of orders in which every ordered pair `(t, t')` of the module's tests is consecutive
//! somewhere finds every such victim (Wei et al., "Probabilistic and Systematic Coverage of
//! Consecutive Test-Method Pairs", section 5). Three strategies build such schedules
//! (`docs/schedules.md`):
//!
//! - `tuscan`: class-compatible orders from Tuscan squares ([`crate::tuscan`]): per class the rows
//!   of a square over its tests, concatenated across classes (one order per row), then a greedy
//!   cover of the inter-class pairs those orders missed (Algorithm 1 of the paper). With one test
//!   per class, the rows of one square over all tests.
//! - `pairs-all`: every ordered pair `[t, t']` as an order of its own (the baseline).
//! - `k-bounded`: every ordered `k`-tuple of distinct tests as an order of its own (DTDetector's
//!   k-bounded exploration), `k` from 1 to 3.
//!
//! A [`Schedule`] is a pure function of (suite, strategy, seed, `k`, cost model). `tuscan` keeps
//! its orders (test indices, one `u32` per execution, plus one bit per ordered pair while it is
//! built); `pairs-all` and `k-bounded` compute their `r`-th order on demand, so their size costs
//! no memory.
//!
//! Pairs the framework can never run consecutively are not claimed: in a class that is not
//! reorderable only the pairs consecutive in its fixed order count as intra-class pairs.

use std::collections::BTreeMap;

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
    fn default_ms(&self) -> u64 {
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

/// How a schedule stores or computes its orders.
#[derive(Debug, Clone)]
enum Layout {
    /// Orders kept: order `sequence[r]` is `flat[starts[i]..starts[i + 1]]`.
    Explicit {
        flat: Vec<u32>,
        starts: Vec<usize>,
        sequence: Vec<u32>,
    },
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
    /// Test ids (units), in the suite's original order.
    units: Vec<String>,
    /// The class record of each unit.
    class_of: Vec<u32>,
    /// For a unit of a fixed-order class, the unit after it there (`u32::MAX` otherwise).
    fixed_next: Vec<u32>,
    /// Units per class record.
    sizes: Vec<usize>,
    reorderable: Vec<bool>,
    layout: Layout,
}

impl Schedule {
    /// The schedule of `strategy` for `suite`, or `None` when `strategy` is not systematic.
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
        if !strategy.is_systematic() {
            return None;
        }
        let mut units = Vec::new();
        let mut class_of = Vec::new();
        let mut fixed_next = Vec::new();
        let mut sizes = Vec::new();
        let mut reorderable = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (c, record) in suite.classes.iter().enumerate() {
            let start = units.len();
            for id in &record.tests {
                if seen.insert(id.as_str()) {
                    units.push(id.clone());
                    class_of.push(c as u32);
                    fixed_next.push(u32::MAX);
                }
            }
            if !record.reorderable {
                let end = units.len();
                for (u, next) in fixed_next.iter_mut().enumerate().take(end).skip(start) {
                    if u + 1 < end {
                        *next = u as u32 + 1;
                    }
                }
            }
            sizes.push(units.len() - start);
            reorderable.push(record.reorderable);
        }
        let rank = || -> Vec<u32> {
            let mut rank: Vec<u32> = (0..units.len() as u32).collect();
            if let Some(cost) = cost {
                rank.sort_by_key(|&u| (cost.ms(&units[u as usize]), u));
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
                let (flat, starts) = tuscan_orders(&class_of, &sizes, &reorderable, seed);
                let count = starts.len() - 1;
                let mut sequence: Vec<u32> = (0..count as u32).collect();
                if let Some(cost) = cost {
                    let ms: Vec<u64> = units.iter().map(|u| cost.ms(u)).collect();
                    let value = |i: u32| {
                        let order = &flat[starts[i as usize]..starts[i as usize + 1]];
                        let price =
                            cost.cost0_ms + order.iter().map(|&u| ms[u as usize]).sum::<u64>();
                        (order.len().saturating_sub(1) as f64) / (price.max(1) as f64)
                    };
                    let values: Vec<f64> = sequence.iter().map(|&i| value(i)).collect();
                    sequence.sort_by(|&a, &b| {
                        values[b as usize]
                            .total_cmp(&values[a as usize])
                            .then(a.cmp(&b))
                    });
                }
                Layout::Explicit {
                    flat,
                    starts,
                    sequence,
                }
            }
        };
        Some(Schedule {
            strategy,
            units,
            class_of,
            fixed_next,
            sizes,
            reorderable,
            layout,
        })
    }

    /// The strategy that made it.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The tests it orders, in the suite's order.
    pub fn units(&self) -> &[String] {
        &self.units
    }

    /// Tests per class record.
    pub fn class_sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Whether every order runs the tests of one class together: `tuscan` (which also keeps a
    /// fixed-order class in its order), `pairs-all`, and `k-bounded` with `k <= 2` (these two run
    /// every ordered pair, also the ones against a fixed order).
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
            Layout::Explicit { flat, .. } => flat.len() as u64,
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
            Layout::Explicit {
                flat,
                starts,
                sequence,
            } => {
                let i = sequence[r as usize] as usize;
                flat[starts[i]..starts[i + 1]].to_vec()
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
            .map(|&u| self.units[u as usize].clone())
            .collect()
    }

    /// Whether the schedule promises to cover the ordered pair of units `(a, b)`: `pairs-all` and
    /// `k-bounded` (k >= 2) every pair; `tuscan` every pair the framework can run consecutively.
    pub fn claims(&self, a: u32, b: u32) -> bool {
        if a == b {
            return false;
        }
        match self.layout {
            Layout::Explicit { .. } => {
                let (ca, cb) = (self.class_of[a as usize], self.class_of[b as usize]);
                ca != cb || self.reorderable[ca as usize] || self.fixed_next[a as usize] == b
            }
            Layout::Pairs { .. } => true,
            Layout::Tuples { k, .. } => k >= 2,
        }
    }

    /// Number of ordered pairs it claims to cover.
    pub fn pairs_total(&self) -> u64 {
        let n = self.units.len() as u64;
        let all = n * n.saturating_sub(1);
        match self.layout {
            Layout::Explicit { .. } => {
                let mut total = all;
                for (size, reorderable) in self.sizes.iter().zip(&self.reorderable) {
                    let s = *size as u64;
                    if !reorderable && s > 1 {
                        total -= s * (s - 1) - (s - 1);
                    }
                }
                total
            }
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
                .iter()
                .enumerate()
                .map(|(i, u)| (u.as_str(), i as u32))
                .collect(),
            bits: vec![0u64; (n * n).div_ceil(64)],
            covered: 0,
        }
    }
}

/// The claimed pairs covered by the orders added so far (one bit per ordered pair).
#[derive(Debug)]
pub struct PairCoverage<'s> {
    schedule: &'s Schedule,
    index: std::collections::HashMap<&'s str, u32>,
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

/// Algorithm 1: the intra-class squares concatenated across classes, then a greedy cover of the
/// inter-class pairs left. Returns the orders as one flat list of unit indices and the start of
/// each order in it (plus the end).
fn tuscan_orders(
    class_of: &[u32],
    sizes: &[usize],
    reorderable: &[bool],
    seed: u64,
) -> (Vec<u32>, Vec<usize>) {
    let n = class_of.len();
    let mut flat: Vec<u32> = Vec::new();
    let mut starts: Vec<usize> = vec![0];
    if n == 0 {
        return (flat, starts);
    }
    let mut first = Vec::with_capacity(sizes.len());
    let mut at = 0u32;
    for &s in sizes {
        first.push(at);
        at += s as u32;
    }
    let nonempty: Vec<usize> = (0..sizes.len()).filter(|&c| sizes[c] > 0).collect();
    let mut rng = round_rng(seed, 0);
    // One test per class: every pair is inter-class and one square over all tests is optimal.
    if nonempty.len() > 1 && nonempty.iter().all(|&c| sizes[c] == 1) {
        for row in tuscan::square(n) {
            flat.extend(row.iter().map(|&v| first[nonempty[v as usize]]));
            starts.push(flat.len());
        }
        return (flat, starts);
    }
    // Phase 1: row r of every class's square, classes in a seeded random order.
    let squares: Vec<Vec<Vec<u32>>> = sizes
        .iter()
        .enumerate()
        .map(|(c, &s)| {
            if reorderable[c] {
                tuscan::square(s)
            } else if s > 0 {
                vec![(0..s as u32).collect()]
            } else {
                Vec::new()
            }
        })
        .collect();
    let rows = squares.iter().map(Vec::len).max().unwrap_or(0);
    let mut covered = vec![0u64; (n * n).div_ceil(64)];
    let mark = |covered: &mut Vec<u64>, a: u32, b: u32| {
        let bit = a as usize * n + b as usize;
        covered[bit / 64] |= 1u64 << (bit % 64);
    };
    for r in 0..rows {
        let mut classes: Vec<usize> = (0..sizes.len()).filter(|&c| r < squares[c].len()).collect();
        classes.shuffle(&mut rng);
        let start = flat.len();
        for c in classes {
            flat.extend(squares[c][r].iter().map(|&v| first[c] + v));
        }
        for w in flat[start..].windows(2) {
            mark(&mut covered, w[0], w[1]);
        }
        starts.push(flat.len());
    }
    drop(squares);
    // Phase 2: uncovered inter-class successors of each test, shuffled, in one flat list.
    let mut offset = Vec::with_capacity(n + 1);
    let mut left = vec![0u32; n];
    let mut succ: Vec<u32> = Vec::new();
    for a in 0..n {
        offset.push(succ.len());
        let ca = class_of[a];
        for (b, &cb) in class_of.iter().enumerate() {
            let bit = a * n + b;
            if cb != ca && covered[bit / 64] & (1u64 << (bit % 64)) == 0 {
                succ.push(b as u32);
            }
        }
        let segment = &mut succ[offset[a]..];
        segment.shuffle(&mut rng);
        left[a] = segment.len() as u32;
    }
    offset.push(succ.len());
    drop(covered);
    let mut remaining: u64 = left.iter().map(|&l| u64::from(l)).sum();
    let mut visited = vec![0u32; sizes.len()];
    let mut stamp = 0u32;
    let mut cursor = 0usize;
    // How many successors of the last test are examined for one whose class the order has not
    // visited yet, before the order is closed.
    const PROBES: usize = 64;
    while remaining > 0 {
        while left[cursor] == 0 {
            cursor = (cursor + 1) % n;
        }
        stamp += 1;
        let start = flat.len();
        let mut x = cursor;
        flat.push(x as u32);
        visited[class_of[x] as usize] = stamp;
        loop {
            let base = offset[x];
            let len = left[x] as usize;
            let mut found = None;
            for probe in 0..len.min(PROBES) {
                let i = base + len - 1 - probe;
                if visited[class_of[succ[i] as usize] as usize] != stamp {
                    found = Some(i);
                    break;
                }
            }
            let Some(i) = found else { break };
            let y = succ[i];
            succ[i] = succ[base + len - 1];
            left[x] -= 1;
            remaining -= 1;
            flat.push(y);
            visited[class_of[y as usize] as usize] = stamp;
            x = y as usize;
        }
        if flat.len() - start == 1 {
            // Cannot happen (the start has an uncovered successor in another class), but never
            // emit an order that covers nothing.
            flat.pop();
        } else {
            starts.push(flat.len());
        }
        cursor = (cursor + 1) % n;
    }
    (flat, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

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
