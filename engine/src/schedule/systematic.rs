//! Systematic schedules: sets of orders that cover every consecutive ordered test pair.
//!
//! A victim with a single polluter fails in any order where the polluter runs right before it, so
//! a set of orders in which every ordered pair `(t, t')` of the module's tests is consecutive
//! somewhere finds every such victim (Wei et al., "Probabilistic and Systematic Coverage of
//! Consecutive Test-Method Pairs", section 5). Four strategies build such schedules
//! (`docs/schedules.md`):
//!
//! - `tuscan`: class-compatible orders from Tuscan squares ([`crate::schedule::tuscan`]): per class the rows
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

use std::collections::HashMap;

use super::cost::CostModel;
use super::covering::cover_required;
use super::orders::Orders;
use super::tuscan_orders::tuscan_orders;
use super::units::{PairSet, Units};
use crate::model::strategy::Strategy;
use crate::model::suite::Suite;

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
                let orders = tuscan_orders(&units, seed, true);
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
        (tuscan_orders(&units, seed, true), None)
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

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
