//! Detection strategies and the order generators behind them.
//!
//! A [`Strategy`] (`-Dodrust.strategy`) says which orders the rounds of `odrust:detect` run
//! (`docs/detect-algorithm.md`). Each generator here is a pure function from a suite (and, for the
//! random ones, a seeded generator) to an order: a list of test ids that holds every test of the
//! suite once. Orders are *class-compatible* by construction: the tests of one class record are
//! contiguous, because JUnit never interleaves the tests of two classes in one run. A JUnit 5
//! dynamic container is one unit (its container id), as the suite lists it. A class record that is
//! not `reorderable` keeps its tests in their fixed order in every generator.
//!
//! Randomness comes from `rand`'s [`StdRng`] seeded with [`mix`]`(seed, round)`, so the order of
//! round `r` depends only on the seed, `r` and the suite. `StdRng` and `shuffle` are not promised to
//! be stable across `rand` versions: orders are reproducible for a given odrust version.

use std::fmt;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::schedule::Schedule;
use crate::suite::{ClassRecord, Suite, SuiteIndex};
use crate::testid::container_of;

/// How the rounds of a detection choose their orders.
///
/// As the `strategy` of one experiment, the same names say how *that* order was made; there
/// `reverse-passing` means "the reverse of the previous round's passing order".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Every round reruns the original order.
    Original,
    /// Classes in reverse order, and the tests of each class reversed.
    Reverse,
    /// Classes in reverse order, the tests of each class in their original order.
    ReverseClass,
    /// Classes shuffled, the tests of each class in their original order.
    RandomClass,
    /// Classes shuffled, then the tests of each class shuffled.
    RandomClassMethod,
    /// Random class-method orders; a round whose order passed is followed by its reverse.
    ReversePassing,
    /// Class-compatible orders covering every consecutive ordered pair of tests (Tuscan squares,
    /// Algorithm 1 of Wei et al.); see [`crate::schedule`].
    Tuscan,
    /// Every ordered pair of tests `[t, t']` as an order of its own.
    PairsAll,
    /// Every ordered `k`-tuple of distinct tests as an order of its own (DTDetector).
    KBounded,
    /// Like `tuscan`, but only the ordered pairs `(t, t')` where `t'` reads a static field `t`
    /// wrote (recorded by the jvm-agent in the baseline run); see [`crate::dependence`].
    DependenceAware,
}

impl Strategy {
    /// Every strategy, in the order the documentation lists them.
    pub const ALL: [Strategy; 10] = [
        Strategy::Original,
        Strategy::Reverse,
        Strategy::ReverseClass,
        Strategy::RandomClass,
        Strategy::RandomClassMethod,
        Strategy::ReversePassing,
        Strategy::Tuscan,
        Strategy::PairsAll,
        Strategy::KBounded,
        Strategy::DependenceAware,
    ];

    /// The strategies whose every order runs the whole suite.
    pub const WHOLE_SUITE: [Strategy; 6] = [
        Strategy::Original,
        Strategy::Reverse,
        Strategy::ReverseClass,
        Strategy::RandomClass,
        Strategy::RandomClassMethod,
        Strategy::ReversePassing,
    ];

    /// The systematic strategies: a fixed schedule of orders that covers consecutive pairs
    /// ([`crate::schedule::Schedule`]); a round is one order of it.
    pub const SYSTEMATIC: [Strategy; 4] = [
        Strategy::Tuscan,
        Strategy::PairsAll,
        Strategy::KBounded,
        Strategy::DependenceAware,
    ];

    /// Whether it is one of [`SYSTEMATIC`](Strategy::SYSTEMATIC).
    pub fn is_systematic(self) -> bool {
        Strategy::SYSTEMATIC.contains(&self)
    }

    /// The default strategy of `odrust:detect`.
    pub const DEFAULT: Strategy = Strategy::ReversePassing;

    /// The name users write (`reverse-class`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Original => "original",
            Strategy::Reverse => "reverse",
            Strategy::ReverseClass => "reverse-class",
            Strategy::RandomClass => "random-class",
            Strategy::RandomClassMethod => "random-class-method",
            Strategy::ReversePassing => "reverse-passing",
            Strategy::Tuscan => "tuscan",
            Strategy::PairsAll => "pairs-all",
            Strategy::KBounded => "k-bounded",
            Strategy::DependenceAware => "dependence-aware",
        }
    }

    /// The strategy named `name` (exactly as [`name`](Strategy::name) spells it, surrounding
    /// whitespace ignored).
    ///
    /// Errors: [`EngineError::BadConfig`] naming every valid strategy.
    pub fn parse(name: &str) -> Result<Strategy, EngineError> {
        let wanted = name.trim();
        Strategy::ALL
            .into_iter()
            .find(|s| s.name() == wanted)
            .ok_or_else(|| EngineError::BadConfig {
                setting: "strategy".into(),
                value: name.to_string(),
                reason: format!(
                    "valid strategies: {}",
                    Strategy::ALL.map(Strategy::name).join(", ")
                ),
            })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seed of the generator of round `round`: `seed` and `round` mixed with SplitMix64, so that
/// neighbouring seeds and rounds give unrelated generators.
pub fn mix(seed: u64, round: u64) -> u64 {
    let mut z = seed ^ round.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of round `round` of a detection seeded with `seed`.
pub fn round_rng(seed: u64, round: u32) -> StdRng {
    StdRng::seed_from_u64(mix(seed, u64::from(round)))
}

/// The original order: the records' tests, concatenated (what `mvn test` runs).
pub fn original(suite: &Suite) -> Vec<String> {
    suite.original_order()
}

/// Classes in reverse order; the tests of each reorderable class reversed too.
pub fn reverse(suite: &Suite) -> Vec<String> {
    concat(suite.classes.iter().rev(), |record, tests| {
        if record.reorderable {
            tests.reverse();
        }
    })
}

/// Classes in reverse order; the tests of each class in their original order.
pub fn reverse_class(suite: &Suite) -> Vec<String> {
    concat(suite.classes.iter().rev(), |_, _| {})
}

/// Classes shuffled; the tests of each class in their original order.
pub fn random_class<R: Rng>(suite: &Suite, rng: &mut R) -> Vec<String> {
    let mut classes: Vec<&ClassRecord> = suite.classes.iter().collect();
    classes.shuffle(rng);
    concat(classes.into_iter(), |_, _| {})
}

/// Classes shuffled, then (in the new class order, from the same generator) the tests of each
/// reorderable class shuffled.
pub fn random_class_method<R: Rng>(suite: &Suite, rng: &mut R) -> Vec<String> {
    let mut classes: Vec<&ClassRecord> = suite.classes.iter().collect();
    classes.shuffle(rng);
    concat(classes.into_iter(), |record, tests| {
        if record.reorderable {
            tests.shuffle(rng);
        }
    })
}

/// The reverse of a class-compatible `order`: its class blocks (maximal runs of tests of one
/// record) in reverse order, the tests of each block reversed unless its class is not
/// reorderable. An id the suite does not know is a block of its own.
pub fn reverse_order(order: &[String], index: &SuiteIndex<'_>) -> Vec<String> {
    let record_of = |id: &str| {
        index
            .get(id)
            .or_else(|| index.get(container_of(id)))
            .map(|at| at.record)
    };
    let mut blocks: Vec<(Option<usize>, Vec<String>)> = Vec::new();
    for id in order {
        let record = record_of(id);
        match blocks.last_mut() {
            Some((last, tests)) if record.is_some() && *last == record => tests.push(id.clone()),
            _ => blocks.push((record, vec![id.clone()])),
        }
    }
    blocks
        .into_iter()
        .rev()
        .flat_map(|(record, mut tests)| {
            if record.is_none_or(|r| index.record(r).reorderable) {
                tests.reverse();
            }
            tests
        })
        .collect()
}

/// What the planner knows about the round before the one being planned.
#[derive(Debug, Clone, Copy)]
pub struct PreviousRound<'a> {
    /// Its order.
    pub order: &'a [String],
    /// How that order was made.
    pub made_by: Strategy,
    /// Whether every test that passed in the baseline passed in it.
    pub passed: bool,
}

/// The order of round `round` (from 1) of a detection with `strategy` and `seed`, and how it was
/// made.
///
/// `original`, `reverse` and `reverse-class` give the same order every round. `random-class` and
/// `random-class-method` shuffle with [`round_rng`]`(seed, round)`. `reverse-passing` gives the
/// reverse ([`reverse_order`]) of the previous round's order when that round was a random one
/// (not itself a reverse) and passed; otherwise a random class-method order from
/// [`round_rng`]`(seed, round)`. When every round passes, odd rounds are random and even rounds
/// reverse the round before.
pub fn round_order(
    strategy: Strategy,
    suite: &Suite,
    seed: u64,
    round: u32,
    previous: Option<PreviousRound<'_>>,
) -> (Strategy, Vec<String>) {
    match strategy {
        Strategy::Original => (strategy, original(suite)),
        Strategy::Reverse => (strategy, reverse(suite)),
        Strategy::ReverseClass => (strategy, reverse_class(suite)),
        Strategy::RandomClass => (strategy, random_class(suite, &mut round_rng(seed, round))),
        Strategy::RandomClassMethod => (
            strategy,
            random_class_method(suite, &mut round_rng(seed, round)),
        ),
        Strategy::Tuscan | Strategy::PairsAll | Strategy::KBounded | Strategy::DependenceAware => {
            let order = Schedule::new(strategy, suite, seed, 2, None)
                .filter(|s| u64::from(round) >= 1 && u64::from(round) <= s.len())
                .map(|s| s.order(u64::from(round) - 1))
                .unwrap_or_default();
            (strategy, order)
        }
        Strategy::ReversePassing => match previous {
            Some(p) if p.passed && p.made_by == Strategy::RandomClassMethod => (
                Strategy::ReversePassing,
                reverse_order(p.order, &SuiteIndex::new(suite)),
            ),
            _ => (
                Strategy::RandomClassMethod,
                random_class_method(suite, &mut round_rng(seed, round)),
            ),
        },
    }
}

/// One round of [`rounds_if_passing`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedRound {
    /// The round, from 1.
    pub round: u32,
    /// How its order was made.
    pub strategy: Strategy,
    /// The order.
    pub order: Vec<String>,
}

/// The orders rounds 1 to `rounds` run when every round passes (what `odrust-engine detect-plan`
/// prints). A failing round changes the plan only for `reverse-passing`: the round after it is a
/// new random order instead of its reverse.
///
/// For a systematic strategy: the first `rounds` orders of its schedule (`k` = 2, no cost model),
/// fewer when the schedule is shorter.
pub fn rounds_if_passing(
    strategy: Strategy,
    suite: &Suite,
    seed: u64,
    rounds: u32,
) -> Vec<PlannedRound> {
    if let Some(schedule) = Schedule::new(strategy, suite, seed, 2, None) {
        let count = schedule.len().min(u64::from(rounds));
        return (0..count)
            .map(|r| PlannedRound {
                round: r as u32 + 1,
                strategy,
                order: schedule.order(r),
            })
            .collect();
    }
    let mut planned: Vec<PlannedRound> = Vec::new();
    for round in 1..=rounds {
        let previous = planned.last().map(|p| PreviousRound {
            order: &p.order,
            made_by: p.strategy,
            passed: true,
        });
        let (strategy, order) = round_order(strategy, suite, seed, round, previous);
        planned.push(PlannedRound {
            round,
            strategy,
            order,
        });
    }
    planned
}

/// The tests of `classes`, each record's list passed through `arrange` first.
fn concat<'s>(
    classes: impl Iterator<Item = &'s ClassRecord>,
    mut arrange: impl FnMut(&ClassRecord, &mut Vec<String>),
) -> Vec<String> {
    let mut order = Vec::new();
    for record in classes {
        let mut tests = record.tests.clone();
        arrange(record, &mut tests);
        order.append(&mut tests);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Framework;

    fn record(class: &str, tests: &[&str], reorderable: bool) -> ClassRecord {
        ClassRecord {
            class: class.into(),
            framework: Framework::Junit4,
            reorderable,
            tests: tests.iter().map(|t| format!("{class}#{t}")).collect(),
            dynamic: vec![],
        }
    }

    fn suite() -> Suite {
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes: vec![
                record("p.A", &["a1", "a2", "a3"], true),
                record("p.B", &["b1", "b2"], false),
                record("p.C", &["c1", "c2"], true),
            ],
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_list_the_valid_ones() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::parse(s.name()).unwrap(), s);
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()));
        }
        assert_eq!(Strategy::parse(" reverse ").unwrap(), Strategy::Reverse);
        let err = Strategy::parse("random").unwrap_err();
        assert_eq!(err.code(), "bad-config");
        let msg = err.to_string();
        assert!(msg.contains("`random`"), "{msg}");
        for s in Strategy::ALL {
            assert!(msg.contains(s.name()), "{msg}");
        }
    }

    #[test]
    fn reverse_keeps_fixed_order_classes() {
        assert_eq!(
            reverse(&suite()),
            ["p.C#c2", "p.C#c1", "p.B#b1", "p.B#b2", "p.A#a3", "p.A#a2", "p.A#a1"]
        );
        assert_eq!(
            reverse_class(&suite()),
            ["p.C#c1", "p.C#c2", "p.B#b1", "p.B#b2", "p.A#a1", "p.A#a2", "p.A#a3"]
        );
    }

    #[test]
    fn reverse_order_of_the_original_is_reverse() {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        assert_eq!(reverse_order(&original(&suite), &index), reverse(&suite));
        let order: Vec<String> = ["p.C#c2", "p.A#a2", "p.A#a1", "x.Y#z"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            reverse_order(&order, &index),
            ["x.Y#z", "p.A#a1", "p.A#a2", "p.C#c2"]
        );
    }

    #[test]
    fn fixed_order_classes_are_never_shuffled() {
        for seed in 0..50 {
            let order = random_class_method(&suite(), &mut round_rng(seed, 1));
            let b = order.iter().position(|t| t == "p.B#b1").unwrap();
            assert_eq!(order[b + 1], "p.B#b2", "seed {seed}: {order:?}");
        }
    }

    #[test]
    fn reverse_passing_reverses_only_a_passing_random_round() {
        let suite = suite();
        let (made_by, first) = round_order(Strategy::ReversePassing, &suite, 7, 1, None);
        assert_eq!(made_by, Strategy::RandomClassMethod);
        let passing = PreviousRound {
            order: &first,
            made_by,
            passed: true,
        };
        let (made_by, second) = round_order(Strategy::ReversePassing, &suite, 7, 2, Some(passing));
        assert_eq!(made_by, Strategy::ReversePassing);
        assert_eq!(second, reverse_order(&first, &SuiteIndex::new(&suite)));
        // The reverse of a reverse is never run: a new random order follows.
        let after_reverse = PreviousRound {
            order: &second,
            made_by,
            passed: true,
        };
        let (made_by, third) =
            round_order(Strategy::ReversePassing, &suite, 7, 3, Some(after_reverse));
        assert_eq!(made_by, Strategy::RandomClassMethod);
        assert_eq!(third, random_class_method(&suite, &mut round_rng(7, 3)));
        let failing = PreviousRound {
            order: &first,
            made_by: Strategy::RandomClassMethod,
            passed: false,
        };
        let (made_by, _) = round_order(Strategy::ReversePassing, &suite, 7, 2, Some(failing));
        assert_eq!(made_by, Strategy::RandomClassMethod);
    }

    #[test]
    fn mix_separates_neighbouring_seeds_and_rounds() {
        assert_ne!(mix(0, 1), mix(1, 0));
        assert_ne!(mix(0, 0), mix(0, 1));
        assert_eq!(mix(42, 3), mix(42, 3));
    }
}
