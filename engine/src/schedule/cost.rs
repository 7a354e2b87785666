//! The cost model of an order (Wei et al., TACAS 2021: Cost(order) = Cost0 + the sum of its tests' costs),
//! predicted costs of schedules, and lower bounds of a class-compatible pair cover.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::program::{solve, MAX_CLASSES};
use crate::model::testid::is_invocation_of;

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

    /// The time of one run of the unit of an order `unit`: its test's, or (a dynamic container,
    /// `Class#method`) its invocations' together (`Class#method[...]`); the mean when the model
    /// has neither.
    pub fn unit_ms(&self, unit: &str) -> u64 {
        self.measured_unit_ms(unit)
            .unwrap_or_else(|| self.default_ms())
    }

    /// [`Self::unit_ms`] with the mean given: the caller computes [`Self::default_ms`] (a sum
    /// over every test) once for many units.
    pub fn unit_ms_or(&self, unit: &str, mean: u64) -> u64 {
        self.measured_unit_ms(unit).unwrap_or(mean)
    }

    fn measured_unit_ms(&self, unit: &str) -> Option<u64> {
        if let Some(ms) = self.test_ms.get(unit) {
            return Some(*ms);
        }
        let mut found = false;
        let total: u64 = self
            .test_ms
            .range(format!("{unit}[")..)
            .take_while(|(t, _)| is_invocation_of(t, unit))
            .map(|(_, ms)| {
                found = true;
                *ms
            })
            .sum();
        found.then_some(total)
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
    /// `max(n, I / (k - 1), max_i n_i (n - n_i), max_{i != j} 2 n_i n_j)`, `I = Σ n_i (n - n_i)`
    /// the inter-class pairs (`I / (k - 1)` rounded up, only when `k > 1`). The last: an order
    /// visits classes `i` and `j` once each, so they are adjacent at most once in it, and the
    /// `2 n_i n_j` ordered pairs between them need an order each. With 2 to 8 nonempty classes,
    /// also the optimum of the class-path program (docs/schedules.md, "Lower bound"): the most
    /// `Σ n_i n_j w_ij` over weights `w >= 0` on the ordered pairs of classes under which no
    /// sequence of distinct classes weighs more than 1 (40+20+20+2: 2,000, not 1,680).
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
    let mut biggest: Vec<u64> = sizes.iter().map(|&s| s as u64).collect();
    biggest.sort_unstable_by(|a, b| b.cmp(a));
    if let [first, second, ..] = biggest[..] {
        orders = orders.max(2 * first * second);
    }
    // Up to 8 classes: the class-path program (its dual weights; every term above is one choice
    // of them).
    let classes: Vec<u64> = biggest.into_iter().filter(|&s| s > 0).collect();
    if (2..=MAX_CLASSES).contains(&classes.len()) {
        let k = classes.len();
        let demand: Vec<u64> = (0..k * k)
            .map(|a| {
                if a / k == a % k {
                    0
                } else {
                    classes[a / k] * classes[a % k]
                }
            })
            .collect();
        orders = orders.max(solve(k, &demand).bound(&demand));
    }
    LowerBound {
        orders,
        executions: n * n.saturating_sub(1) + orders,
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn a_units_time_is_its_tests_or_its_invocations_together_or_the_mean() {
        let model = CostModel {
            cost0_ms: 900,
            test_ms: [
                ("A#a", 10u64),
                ("A#p[1]", 300),
                ("A#p[2]", 500),
                ("A#pq", 7),
            ]
            .iter()
            .map(|(t, ms)| (t.to_string(), *ms))
            .collect(),
        };
        assert_eq!(model.unit_ms("A#a"), 10);
        assert_eq!(model.unit_ms("A#p"), 800, "not A#pq");
        assert_eq!(model.unit_ms("B#b"), (10 + 300 + 500 + 7) / 4);
        assert_eq!(model.unit_ms_or("B#b", 42), 42);
        assert_eq!(model.unit_ms_or("A#p", 42), 800);
    }
}
