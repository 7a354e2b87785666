//! The order of each detection round, for every strategy (`docs/detect-algorithm.md`,
//! "Strategies"), and the plan of rounds when every round passes (`odrust-engine detect-plan`).

use serde::Serialize;

use super::random::{
    original, random_class, random_class_method, reverse, reverse_class, reverse_order, round_rng,
};
use super::systematic::Schedule;
use crate::model::strategy::Strategy;
use crate::model::suite::{Suite, SuiteIndex};

/// Rounds are planned in batches of at most this many: the orders of a batch do not depend on each
/// other's outcomes, so they can run at the same time (`odrust.forks`), and the plan (hence the
/// report) is the same however many run at once.
pub const ROUNDS_PER_BATCH: u32 = 16;

/// The order of round `round` (from 1) of a detection with `strategy` and `seed`, and how it was
/// made, for every strategy but the reverses of `reverse-passing` (see [`reverse_passing_batch`]).
///
/// `original`, `reverse` and `reverse-class` give the same order every round. `random-class` and
/// `random-class-method` shuffle with [`round_rng`]`(seed, round)`, and so do the random rounds of
/// `reverse-passing`.
pub fn round_order(
    strategy: Strategy,
    suite: &Suite,
    seed: u64,
    round: u32,
) -> (Strategy, Vec<String>) {
    match strategy {
        Strategy::Original => (strategy, original(suite)),
        Strategy::Reverse => (strategy, reverse(suite)),
        Strategy::ReverseClass => (strategy, reverse_class(suite)),
        Strategy::RandomClass => (strategy, random_class(suite, &mut round_rng(seed, round))),
        Strategy::RandomClassMethod | Strategy::ReversePassing | Strategy::Targeted => (
            Strategy::RandomClassMethod,
            random_class_method(suite, &mut round_rng(seed, round)),
        ),
        Strategy::Tuscan | Strategy::PairsAll | Strategy::KBounded | Strategy::DependenceAware => {
            let order = Schedule::new(strategy, suite, seed, 2, None)
                .filter(|s| u64::from(round) >= 1 && u64::from(round) <= s.len())
                .map(|s| s.order(u64::from(round) - 1))
                .unwrap_or_default();
            (strategy, order)
        }
    }
}

/// The shape of the next batch of `reverse-passing` rounds: how many reverses and how many new
/// random rounds, in that order.
///
/// `remaining` rounds are left and `unreversed` random rounds passed without their reverse having
/// run. The batch first reverses those (each reverse is a round: [`reverse_order`] of the passing
/// order), then adds random rounds, at most half of the rounds left after the reverses (rounded
/// up), so that the random rounds of this batch that pass can be reversed by the next one; at most
/// `width` rounds in all. When every round passes, a run of `2n` rounds is `n` random orders and
/// their `n` reverses; a round that fails is not reversed and leaves room for another random one.
pub fn reverse_passing_batch(remaining: u32, unreversed: u32, width: u32) -> (u32, u32) {
    let reverses = unreversed.min(remaining).min(width);
    let random = (remaining - reverses).div_ceil(2).min(width - reverses);
    (reverses, random)
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
/// prints). A failing round changes the plan only for `reverse-passing`: it is not reversed, and
/// a later batch has room for one more random round instead ([`reverse_passing_batch`]).
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
    // `targeted` plans its first rounds from the baseline's recording ([`targeted_if_passing`]);
    // without one it has no pair to target and its rounds are `reverse-passing`'s.
    if !matches!(strategy, Strategy::ReversePassing | Strategy::Targeted) {
        return (1..=rounds)
            .map(|round| {
                let (strategy, order) = round_order(strategy, suite, seed, round);
                PlannedRound {
                    round,
                    strategy,
                    order,
                }
            })
            .collect();
    }
    reverse_passing_after(Vec::new(), suite, seed, rounds)
}

/// The orders of a `targeted` detection when every round passes: its targeted orders (planned
/// from a recording, [`crate::schedule::targeted::plan`]) as rounds 1 to T, then
/// `reverse-passing` rounds up to `rounds`.
pub fn targeted_if_passing(
    targeted: &[Vec<String>],
    suite: &Suite,
    seed: u64,
    rounds: u32,
) -> Vec<PlannedRound> {
    let first: Vec<PlannedRound> = targeted
        .iter()
        .take(rounds as usize)
        .enumerate()
        .map(|(i, order)| PlannedRound {
            round: i as u32 + 1,
            strategy: Strategy::Targeted,
            order: order.clone(),
        })
        .collect();
    reverse_passing_after(first, suite, seed, rounds)
}

/// `planned` followed by `reverse-passing` rounds (in batches, [`reverse_passing_batch`]) up to
/// `rounds` in all; only the random rounds among them are reversed.
fn reverse_passing_after(
    mut planned: Vec<PlannedRound>,
    suite: &Suite,
    seed: u64,
    rounds: u32,
) -> Vec<PlannedRound> {
    let index = SuiteIndex::new(suite);
    let mut unreversed: Vec<usize> = Vec::new();
    while (planned.len() as u32) < rounds {
        let (reverses, random) = reverse_passing_batch(
            rounds - planned.len() as u32,
            unreversed.len() as u32,
            ROUNDS_PER_BATCH,
        );
        for at in unreversed.drain(..reverses as usize).collect::<Vec<_>>() {
            let order = reverse_order(&planned[at].order, &index);
            planned.push(PlannedRound {
                round: planned.len() as u32 + 1,
                strategy: Strategy::ReversePassing,
                order,
            });
        }
        for _ in 0..random {
            let round = planned.len() as u32 + 1;
            let (strategy, order) = round_order(Strategy::ReversePassing, suite, seed, round);
            unreversed.push(planned.len());
            planned.push(PlannedRound {
                round,
                strategy,
                order,
            });
        }
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
    fn reverse_passing_batches_reverse_the_passing_random_rounds_of_the_batch_before() {
        let suite = suite();
        let rounds = rounds_if_passing(Strategy::ReversePassing, &suite, 7, 6);
        let made_by: Vec<Strategy> = rounds.iter().map(|r| r.strategy).collect();
        assert_eq!(
            made_by,
            [
                Strategy::RandomClassMethod,
                Strategy::RandomClassMethod,
                Strategy::RandomClassMethod,
                Strategy::ReversePassing,
                Strategy::ReversePassing,
                Strategy::ReversePassing
            ]
        );
        let index = SuiteIndex::new(&suite);
        for i in 0..3 {
            assert_eq!(
                rounds[i].order,
                random_class_method(&suite, &mut round_rng(7, i as u32 + 1))
            );
            assert_eq!(rounds[i + 3].order, reverse_order(&rounds[i].order, &index));
        }
    }

    #[test]
    fn reverse_passing_batch_shapes() {
        // Nothing to reverse: half the rounds left (rounded up) are random.
        assert_eq!(reverse_passing_batch(20, 0, 16), (0, 10));
        assert_eq!(reverse_passing_batch(1, 0, 16), (0, 1));
        // Reverses first, then random rounds for half of what is left.
        assert_eq!(reverse_passing_batch(10, 10, 16), (10, 0));
        assert_eq!(reverse_passing_batch(10, 4, 16), (4, 3));
        // Never more than the width, never more than the rounds left.
        assert_eq!(reverse_passing_batch(100, 0, 16), (0, 16));
        assert_eq!(reverse_passing_batch(100, 16, 16), (16, 0));
        assert_eq!(reverse_passing_batch(3, 5, 16), (3, 0));
    }
}
