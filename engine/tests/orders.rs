//! The order generators of every strategy over many suite shapes: class-compatible
//! permutations, reproducible for a seed.

use std::collections::HashSet;

use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{Suite, SuiteIndex};
use odrust_engine::schedule::random::{self, round_rng};
use odrust_engine::schedule::rounds::rounds_if_passing;

use crate::support::*;

/// Every suite shape the tester runs.
fn shapes() -> Vec<(String, Suite)> {
    let mut shapes = Vec::new();
    for n in 1..=20 {
        shapes.push((
            format!("one class of {n}"),
            suite_of(vec![class("p.One", n, 0, true)]),
        ));
    }
    let uneven = [1, 7, 3, 12, 2, 5, 1, 9];
    shapes.push((
        "uneven classes".into(),
        suite_of(
            uneven
                .iter()
                .enumerate()
                .map(|(i, n)| class(&format!("p.U{i}"), *n, 0, true))
                .collect(),
        ),
    ));
    shapes.push((
        "one test per class".into(),
        suite_of(
            (0..15)
                .map(|i| class(&format!("p.S{i}"), 1, 0, true))
                .collect(),
        ),
    ));
    shapes.push((
        "dynamic containers and a fixed-order class".into(),
        suite_of(vec![
            class("p.D0", 4, 2, true),
            class("p.Fixed", 5, 0, false),
            class("p.D1", 3, 3, true),
            class("p.Plain", 6, 0, true),
            class("p.D2", 1, 1, true),
        ]),
    ));
    shapes
}

/// How many different orders a random strategy can give for `suite` (saturating).
fn possible_orders(strategy: Strategy, suite: &Suite) -> f64 {
    let factorial = |n: usize| (1..=n).map(|k| k as f64).product::<f64>();
    let classes = factorial(suite.classes.len());
    match strategy {
        Strategy::RandomClass => classes,
        Strategy::RandomClassMethod | Strategy::ReversePassing => {
            classes
                * suite
                    .classes
                    .iter()
                    .filter(|c| c.reorderable)
                    .map(|c| factorial(c.tests.len()))
                    .product::<f64>()
        }
        _ => 1.0,
    }
}

fn check_order(order: &[String], suite: &Suite, what: &str) {
    let mut sorted = order.to_vec();
    sorted.sort();
    let mut expected: Vec<String> = suite.ids().map(String::from).collect();
    expected.sort();
    assert_eq!(sorted, expected, "{what}: not a permutation: {order:?}");
    let index = SuiteIndex::new(suite);
    let mut finished: HashSet<usize> = HashSet::new();
    let mut current: Option<usize> = None;
    for id in order {
        let record = index.get(id).unwrap().record;
        if current != Some(record) {
            assert!(
                finished.insert(record),
                "{what}: class {} is not contiguous: {order:?}",
                suite.classes[record].class
            );
            current = Some(record);
        }
    }
    for record in suite.classes.iter().filter(|c| !c.reorderable) {
        let kept: Vec<&String> = order.iter().filter(|t| record.tests.contains(t)).collect();
        assert!(
            kept.into_iter().eq(record.tests.iter()),
            "{what}: fixed-order class {} reordered: {order:?}",
            record.class
        );
    }
}

#[test]
fn every_strategy_gives_class_compatible_permutations_reproducibly() {
    let mut checked = 0;
    for (shape, suite) in shapes() {
        for strategy in Strategy::WHOLE_SUITE {
            let mut first_rounds = Vec::new();
            for seed in 0..32u64 {
                let rounds = rounds_if_passing(strategy, &suite, seed, 4);
                assert_eq!(rounds.len(), 4);
                for planned in &rounds {
                    let what = format!("{shape}, {strategy}, seed {seed}, round {}", planned.round);
                    check_order(&planned.order, &suite, &what);
                    checked += 1;
                }
                assert_eq!(
                    rounds,
                    rounds_if_passing(strategy, &suite, seed, 4),
                    "{shape}, {strategy}, seed {seed}: not reproducible"
                );
                first_rounds.push(rounds[0].order.clone());
            }
            let distinct: HashSet<&Vec<String>> = first_rounds.iter().collect();
            if possible_orders(strategy, &suite) >= 10_000.0 {
                assert!(
                    distinct.len() >= 30,
                    "{shape}, {strategy}: only {} different orders over 32 seeds",
                    distinct.len()
                );
            }
            if matches!(
                strategy,
                Strategy::Original | Strategy::Reverse | Strategy::ReverseClass
            ) {
                assert_eq!(
                    distinct.len(),
                    1,
                    "{shape}, {strategy} must not depend on the seed"
                );
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn fixed_orders_are_what_their_names_say() {
    let suite = suite_of(vec![class("p.A", 2, 0, true), class("p.B", 2, 0, true)]);
    let first = |s| rounds_if_passing(s, &suite, 0, 1).remove(0).order;
    assert_eq!(
        first(Strategy::Original),
        ["p.A#t0", "p.A#t1", "p.B#t0", "p.B#t1"]
    );
    assert_eq!(
        first(Strategy::Reverse),
        ["p.B#t1", "p.B#t0", "p.A#t1", "p.A#t0"]
    );
    assert_eq!(
        first(Strategy::ReverseClass),
        ["p.B#t0", "p.B#t1", "p.A#t0", "p.A#t1"]
    );
}

#[test]
fn reverse_passing_reverses_each_passing_random_round_in_the_next_batch() {
    let (_, suite) = shapes().pop().unwrap();
    let index = SuiteIndex::new(&suite);
    let rounds = rounds_if_passing(Strategy::ReversePassing, &suite, 11, 40);
    assert_eq!(rounds.len(), 40);
    let random: Vec<&_> = rounds
        .iter()
        .filter(|r| r.strategy == Strategy::RandomClassMethod)
        .collect();
    // Every round passes: half the rounds are random, and each one is reversed by a later round.
    assert_eq!(random.len(), 20);
    for r in &random {
        assert_eq!(
            r.order,
            random::random_class_method(&suite, &mut round_rng(11, r.round))
        );
        let reversed = random::reverse_order(&r.order, &index);
        let by = rounds
            .iter()
            .find(|x| x.strategy == Strategy::ReversePassing && x.order == reversed)
            .unwrap_or_else(|| panic!("round {} is never reversed", r.round));
        assert!(by.round > r.round);
    }
}
