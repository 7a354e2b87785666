//! Whole-suite order generators and the seeded generator of a round.
//!
//! Each generator is a pure function from a suite (and, for the random ones, a seeded generator)
//! to an order: a list of test ids that holds every test of the suite once. Orders are
//! *class-compatible* by construction: the tests of one class record are contiguous, because JUnit
//! never interleaves the tests of two classes in one run. A JUnit 5 dynamic container is one unit
//! (its container id), as the suite lists it. A class record that is not `reorderable` keeps its
//! tests in their fixed order in every generator.
//!
//! Randomness comes from `rand`'s [`StdRng`] seeded with [`mix`]`(seed, round)`, so the order of
//! round `r` depends only on the seed, `r` and the suite. `StdRng` and `shuffle` are not promised to
//! be stable across `rand` versions: orders are reproducible for a given odrust version.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::model::seed::mix;
use crate::model::suite::{ClassRecord, Suite, SuiteIndex};
use crate::model::testid::container_of;

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
