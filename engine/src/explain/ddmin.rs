//! Delta debugging: the minimal failure-inducing subset of a list (Zeller and Hildebrandt,
//! "Simplifying and Isolating Failure-Inducing Input", 2002), as iFixFlakies uses it to find the
//! polluters of a victim in the prefix of a failing order.
//!
//! [`ddmin`] asks an oracle directly. [`ddmin_step`] is the same algorithm driven by the answers
//! already known: it returns the first subset whose answer is unknown, or the result once every
//! answer it needed was known. The detection planner ([`crate::explain::minimize`]) replays its whole
//! history on every call, so it uses [`ddmin_step`]: each call runs ddmin against the outcomes
//! observed so far and asks for one more experiment.
//!
//! # The algorithm and its cost
//!
//! The input (whose answer is assumed to be "interesting", i.e. failing) is cut into `n`
//! contiguous chunks, `n = 2` at first. If a chunk is interesting it becomes the input (`n = 2`);
//! else if a complement (the input without one chunk) is interesting it becomes the input
//! (`n = max(n - 1, 2)`); else `n` doubles, up to the input's length. It stops when the input has
//! one element or `n` reached the length with nothing interesting: the result is then
//! **1-minimal** (removing any one element makes it uninteresting). The empty list is assumed
//! uninteresting and never asked. Subsets keep the input's relative order. With `n = 2` the
//! complements are the chunks, so they are not asked again; no subset is ever asked twice.
//!
//! Oracle calls, for an input of `m` elements:
//! - one culprit (the oracle is true exactly for the subsets that hold one element): at most
//!   `2 * ceil(log2 m)` calls (two halves per level);
//! - worst case `O(m^2)`: at most `(m^2 + 7m) / 2` calls (Zeller and Hildebrandt's bound; the
//!   tests check it on monotone and non-monotone oracles).

use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::Hash;

/// One step of [`ddmin_step`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DdminStep<T> {
    /// The oracle's answer for this subset is needed next.
    Query(Vec<T>),
    /// The 1-minimal interesting subset.
    Done(Vec<T>),
}

/// The 1-minimal subset of `items` for which `interesting` is true, asking `interesting` at most
/// once per distinct subset. `items` itself is assumed interesting and is not asked.
pub fn ddmin<T, F>(items: &[T], mut interesting: F) -> Vec<T>
where
    T: Clone + Eq + Hash,
    F: FnMut(&[T]) -> bool,
{
    let mut asked: HashMap<Vec<T>, bool> = HashMap::new();
    let result: Result<Vec<T>, Infallible> = run(items, |subset| {
        if let Some(answer) = asked.get(subset) {
            return Ok(*answer);
        }
        let answer = interesting(subset);
        asked.insert(subset.to_vec(), answer);
        Ok(answer)
    });
    match result {
        Ok(minimal) => minimal,
        Err(never) => match never {},
    }
}

/// Runs [`ddmin`] against the answers `known` has (`None` for a subset not asked yet) and
/// returns the first subset whose answer is unknown, or the result when none was missing.
///
/// Driving it to completion (run the query, record its answer, call again) asks exactly the
/// subsets [`ddmin`] asks, in the same order, and gives the same result.
pub fn ddmin_step<T, F>(items: &[T], known: F) -> DdminStep<T>
where
    T: Clone,
    F: Fn(&[T]) -> Option<bool>,
{
    match run(items, |subset| known(subset).ok_or_else(|| subset.to_vec())) {
        Ok(minimal) => DdminStep::Done(minimal),
        Err(query) => DdminStep::Query(query),
    }
}

/// ddmin with an oracle that may stop the search (`Err`).
fn run<T, E, F>(items: &[T], mut test: F) -> Result<Vec<T>, E>
where
    T: Clone,
    F: FnMut(&[T]) -> Result<bool, E>,
{
    let mut current: Vec<T> = items.to_vec();
    let mut n = 2;
    while current.len() >= 2 {
        let chunks = split(&current, n);
        if let Some(chunk) = first_interesting(chunks.iter().cloned(), &mut test)? {
            current = chunk;
            n = 2;
            continue;
        }
        if n > 2 {
            let complements = (0..chunks.len()).map(|skip| {
                chunks
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != skip)
                    .flat_map(|(_, c)| c.iter().cloned())
                    .collect::<Vec<T>>()
            });
            if let Some(complement) = first_interesting(complements, &mut test)? {
                current = complement;
                n = (n - 1).max(2);
                continue;
            }
        }
        if n >= current.len() {
            break;
        }
        n = (2 * n).min(current.len());
    }
    Ok(current)
}

fn first_interesting<T, E, F>(
    candidates: impl Iterator<Item = Vec<T>>,
    test: &mut F,
) -> Result<Option<Vec<T>>, E>
where
    F: FnMut(&[T]) -> Result<bool, E>,
{
    for candidate in candidates {
        if test(&candidate)? {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

/// `items` cut into `n` contiguous chunks whose lengths differ by at most one.
fn split<T: Clone>(items: &[T], n: usize) -> Vec<Vec<T>> {
    let len = items.len();
    (0..n)
        .map(|i| items[i * len / n..(i + 1) * len / n].to_vec())
        .filter(|c| !c.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::cell::Cell;
    use std::collections::HashSet;

    fn worst_case_bound(m: usize) -> usize {
        (m * m + 7 * m) / 2
    }

    fn log2_ceil(m: usize) -> usize {
        (usize::BITS - (m.max(1) - 1).leading_zeros()) as usize
    }

    /// ddmin with a counted oracle.
    fn counted(items: &[u32], oracle: &dyn Fn(&[u32]) -> bool) -> (Vec<u32>, usize) {
        let calls = Cell::new(0);
        let result = ddmin(items, |s| {
            calls.set(calls.get() + 1);
            oracle(s)
        });
        (result, calls.get())
    }

    fn is_one_minimal(result: &[u32], oracle: &dyn Fn(&[u32]) -> bool) -> bool {
        oracle(result)
            && (result.len() == 1
                || (0..result.len()).all(|i| {
                    let mut without = result.to_vec();
                    without.remove(i);
                    !oracle(&without)
                }))
    }

    #[test]
    fn single_culprit_takes_at_most_two_queries_per_halving() {
        for m in 1..=70u32 {
            let items: Vec<u32> = (0..m).collect();
            for culprit in 0..m {
                let oracle = |s: &[u32]| s.contains(&culprit);
                let (result, calls) = counted(&items, &oracle);
                assert_eq!(result, [culprit], "m {m}");
                assert!(
                    calls <= 2 * log2_ceil(m as usize),
                    "m {m} culprit {culprit}: {calls} calls"
                );
            }
        }
    }

    #[test]
    fn a_group_is_found_whole() {
        let items: Vec<u32> = (0..20).collect();
        for group in [vec![3, 17], vec![0, 1], vec![2, 9, 15], vec![19, 4, 11, 12]] {
            let oracle = |s: &[u32]| group.iter().all(|g| s.contains(g));
            let (mut result, calls) = counted(&items, &oracle);
            result.sort();
            let mut expected = group.clone();
            expected.sort();
            assert_eq!(result, expected);
            assert!(calls <= worst_case_bound(20), "{calls}");
        }
    }

    #[test]
    fn either_of_two_culprits_is_found_alone() {
        let items: Vec<u32> = (0..16).collect();
        let oracle = |s: &[u32]| s.contains(&5) || s.contains(&12);
        let (result, calls) = counted(&items, &oracle);
        assert!(result == [5] || result == [12], "{result:?}");
        assert!(calls <= 2 * log2_ceil(16) + 2, "{calls}");
    }

    #[test]
    fn non_monotone_polluter_with_cleaner_gives_the_polluter() {
        // Fails when 7 (polluter) is in and 9 (cleaner, which runs after it) is out.
        let items: Vec<u32> = (0..8).chain(10..14).collect();
        let oracle = |s: &[u32]| s.contains(&7) && !s.contains(&9);
        let (result, _) = counted(&items, &oracle);
        assert_eq!(result, [7]);
        // An input holding the cleaner is not failing; with a failing input that holds both
        // a second polluter and the cleaner, ddmin finds the polluter the cleaner does not clean.
        let items: Vec<u32> = (0..14).collect();
        let oracle = |s: &[u32]| s.contains(&11) || (s.contains(&7) && !s.contains(&9));
        let (result, _) = counted(&items, &oracle);
        assert!(result == [11] || result == [7], "{result:?}");
        assert!(is_one_minimal(&result, &oracle));
    }

    #[test]
    fn random_oracles_give_one_minimal_results_within_the_bound() {
        let mut rng = StdRng::seed_from_u64(7);
        for case in 0..3000u32 {
            let m = rng.gen_range(1..=14usize);
            let items: Vec<u32> = (0..m as u32).collect();
            // A random non-monotone oracle: interesting iff it holds one of a few groups and
            // none of that group's "cleaners"; the whole input is made interesting.
            let groups: Vec<(Vec<u32>, Vec<u32>)> = (0..rng.gen_range(1..4))
                .map(|_| {
                    let g = (0..rng.gen_range(1..4))
                        .map(|_| rng.gen_range(0..m as u32))
                        .collect();
                    let c = (0..rng.gen_range(0..3))
                        .map(|_| rng.gen_range(0..m as u32))
                        .collect();
                    (g, c)
                })
                .collect();
            let salt: u64 = rng.gen();
            let noise = case.is_multiple_of(3);
            let oracle = |s: &[u32]| {
                if s.len() == m {
                    return true;
                }
                if noise {
                    // Arbitrary (hash-like) answers: the hardest non-monotone case.
                    let mut h = salt;
                    for x in s {
                        h = crate::model::seed::mix(h, u64::from(*x));
                    }
                    return h.is_multiple_of(3);
                }
                groups.iter().any(|(g, c)| {
                    g.iter().all(|x| s.contains(x)) && !c.iter().any(|x| s.contains(x))
                })
            };
            let (result, calls) = counted(&items, &oracle);
            assert!(!result.is_empty());
            assert!(is_one_minimal(&result, &oracle), "case {case}: {result:?}");
            assert!(
                calls <= worst_case_bound(m),
                "case {case}: m {m}, {calls} calls"
            );
            // Order is kept.
            assert!(result.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn no_subset_is_asked_twice() {
        let items: Vec<u32> = (0..12).collect();
        let asked = std::cell::RefCell::new(HashSet::new());
        let result = ddmin(&items, |s| {
            assert!(asked.borrow_mut().insert(s.to_vec()), "asked twice: {s:?}");
            s.contains(&3) && s.contains(&4) && !s.contains(&0)
        });
        assert_eq!(result, [3, 4]);
    }

    #[test]
    fn driving_ddmin_step_to_completion_equals_ddmin() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..500 {
            let m = rng.gen_range(0..=16usize);
            let items: Vec<u32> = (0..m as u32).collect();
            let polluter = rng.gen_range(0..m.max(1) as u32);
            let partner = rng.gen_range(0..m.max(1) as u32);
            let cleaner = rng.gen_range(0..m.max(1) as u32 + 3);
            let group = rng.gen_bool(0.3);
            let oracle = |s: &[u32]| {
                s.len() == m
                    || (s.contains(&polluter)
                        && (!group || s.contains(&partner))
                        && !s.contains(&cleaner))
            };
            let mut direct_asked = Vec::new();
            let direct = ddmin(&items, |s| {
                direct_asked.push(s.to_vec());
                oracle(s)
            });
            let mut answers: Vec<(Vec<u32>, bool)> = Vec::new();
            let stepped = loop {
                let known = |s: &[u32]| answers.iter().find(|(k, _)| k == s).map(|(_, a)| *a);
                match ddmin_step(&items, known) {
                    DdminStep::Query(q) => {
                        assert!(!answers.iter().any(|(k, _)| *k == q), "asked twice");
                        let a = oracle(&q);
                        answers.push((q, a));
                    }
                    DdminStep::Done(result) => break result,
                }
            };
            assert_eq!(stepped, direct);
            let stepped_asked: Vec<Vec<u32>> = answers.into_iter().map(|(k, _)| k).collect();
            assert_eq!(stepped_asked, direct_asked);
        }
    }

    #[test]
    fn trivial_inputs_ask_nothing() {
        assert_eq!(ddmin(&[] as &[u32], |_| panic!("asked")), Vec::<u32>::new());
        assert_eq!(ddmin(&[4u32], |_| panic!("asked")), [4]);
        assert_eq!(ddmin_step(&[4u32], |_| None), DdminStep::Done(vec![4]));
        assert_eq!(
            ddmin_step(&[1u32, 2, 3, 4], |_| None),
            DdminStep::Query(vec![1, 2])
        );
    }
}
