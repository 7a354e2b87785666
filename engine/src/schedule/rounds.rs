//! The order of each detection round, for every strategy (`docs/detect-algorithm.md`,
//! "Strategies"), and the plan of rounds when every round passes (`odrust-engine detect-plan`).

use serde::Serialize;

use super::random::{
    original, random_class, random_class_method, reverse, reverse_class, reverse_order, round_rng,
};
use super::systematic::Schedule;
use crate::model::strategy::Strategy;
use crate::model::suite::{Suite, SuiteIndex};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suite::{ClassRecord, Framework};

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
}
