//! Adaptive group testing: every member of a set that shows an effect on its own, by binary
//! splitting, instead of one run per member.
//!
//! The oracle runs a subset (in a given order) and says whether it shows the effect: for
//! polluters, "these tests, then the victim" fails the victim; for state-setters, "these tests,
//! then the brittle" passes it; for cleaners of polluter `p`, "`p`, these tests, then the victim"
//! passes it. A set that shows the effect is cut into two halves (keeping the order) and each half
//! is asked; a member is found when the one-member set shows the effect, so every member found is
//! verified by its own run (`[t, v]`, `[s, b]`, `[p, c, v]`). [`find_all_step`] is driven by the
//! answers already known, like [`crate::explain::ddmin::ddmin_step`], so the planner replays it
//! from its history.
//!
//! # Hidden members
//!
//! Another member can hide one: a cleaner after a polluter in the same set makes the victim pass.
//! With `both_ways`, a set that does not show the effect is asked again in reverse order before
//! it is cleared, so a member hidden only by members on one side of it is still found. A member
//! hidden from both sides (a polluter with cleaners before *and* after it in every set on its
//! path) is missed; so is a member that shows the effect only together with others (a polluter
//! group): a set that shows it while neither half does, in either order, is returned in
//! [`Groups::joint`] for delta debugging.
//!
//! # Cost
//!
//! For `p` members among `m` (and no hiding), binary splitting asks at most two halves per set
//! on the path from the whole set to each member: at most `2·p·⌈log2 m⌉` sets, plus one more for
//! every half cleared with `both_ways` (its reverse): at most `3·p·⌈log2 m⌉` runs, and 1 (or 2)
//! when there is no member at all. Linear search asks `m`. The tests check these bounds.

use std::convert::Infallible;

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Groups<T> {
    /// Members that show the effect on their own, in the order of the input.
    pub singles: Vec<T>,
    /// Sets that showed the effect (in the order given) while no part of them did: the effect
    /// needs several of their members together.
    pub joint: Vec<Vec<T>>,
    /// Members shown not to have the effect (each in a set cleared in every way it was asked).
    pub cleared: Vec<T>,
}

impl<T> Default for Groups<T> {
    fn default() -> Self {
        Groups {
            singles: Vec::new(),
            joint: Vec::new(),
            cleared: Vec::new(),
        }
    }
}

/// One step of [`find_all_step`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupStep<T> {
    /// The oracle's answer for this ordered subset is needed next; what was found so far.
    Query(Vec<T>, Groups<T>),
    /// Every answer needed was known: the result.
    Done(Groups<T>),
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    /// The whole input is known to show the effect (it is not asked).
    pub known_positive: bool,
    /// A set that does not show the effect is asked again in reverse order before it is cleared.
    pub both_ways: bool,
}

/// Every member of `items` that shows the effect on its own, driven by the answers `known` has
/// (`None`: not asked yet): the first ordered subset whose answer is unknown, or the result.
pub fn find_all_step<T, F>(items: &[T], search: Search, known: F) -> GroupStep<T>
where
    T: Clone,
    F: Fn(&[T]) -> Option<bool>,
{
    let mut found = Groups::default();
    match visit(
        items,
        search.known_positive,
        search,
        &mut found,
        &mut |subset: &[T]| known(subset).ok_or_else(|| subset.to_vec()),
    ) {
        Ok(_) => GroupStep::Done(found),
        Err(query) => GroupStep::Query(query, found),
    }
}

/// [`find_all_step`] with an oracle that is always answered.
pub fn find_all<T, F>(items: &[T], search: Search, mut oracle: F) -> Groups<T>
where
    T: Clone,
    F: FnMut(&[T]) -> bool,
{
    let mut found = Groups::default();
    let result: Result<_, Infallible> = visit(
        items,
        search.known_positive,
        search,
        &mut found,
        &mut |s: &[T]| Ok(oracle(s)),
    );
    match result {
        Ok(_) => found,
        Err(never) => match never {},
    }
}

/// Searches `set`; whether (and in which order) it showed the effect.
fn visit<T, E, F>(
    set: &[T],
    known_positive: bool,
    search: Search,
    found: &mut Groups<T>,
    test: &mut F,
) -> Result<bool, E>
where
    T: Clone,
    F: FnMut(&[T]) -> Result<bool, E>,
{
    if set.is_empty() {
        return Ok(false);
    }
    let showing: Option<Vec<T>> = if known_positive || test(set)? {
        Some(set.to_vec())
    } else if search.both_ways && set.len() > 1 {
        let reversed: Vec<T> = set.iter().rev().cloned().collect();
        if test(&reversed)? {
            Some(reversed)
        } else {
            None
        }
    } else {
        None
    };
    let Some(showing) = showing else {
        found.cleared.extend(set.iter().cloned());
        return Ok(false);
    };
    if set.len() == 1 {
        found.singles.push(set[0].clone());
        return Ok(true);
    }
    let mid = set.len() / 2;
    let left = visit(&set[..mid], false, search, found, test)?;
    let right = visit(&set[mid..], false, search, found, test)?;
    if !left && !right {
        found.joint.push(showing);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashSet;

    use super::*;
    use crate::model::seed::Xorshift;

    const BOTH: Search = Search {
        known_positive: false,
        both_ways: true,
    };
    const FORWARD: Search = Search {
        known_positive: false,
        both_ways: false,
    };

    /// `[S..., v]` fails `v` when some polluter in `S` has none of its cleaners after it.
    fn victim<'a>(
        polluters: &'a [u32],
        cleaners: &'a [(u32, u32)],
    ) -> impl Fn(&[u32]) -> bool + 'a {
        move |set: &[u32]| {
            let mut polluted: Option<u32> = None;
            for &t in set {
                if polluters.contains(&t) {
                    polluted = Some(t);
                } else if let Some(p) = polluted {
                    if cleaners.contains(&(p, t)) {
                        polluted = None;
                    }
                }
            }
            polluted.is_some()
        }
    }

    fn log2_ceil(m: usize) -> usize {
        (usize::BITS - (m.max(1) - 1).leading_zeros()) as usize
    }

    #[test]
    fn finds_every_single_among_thousands_within_the_bound() {
        for (m, p) in [(1000usize, 1usize), (2000, 3), (500, 5), (64, 2), (3, 1)] {
            let mut x = Xorshift::new(m as u64 * 31 + p as u64);
            let items: Vec<u32> = (0..m as u32).collect();
            let mut polluters: Vec<u32> = Vec::new();
            while polluters.len() < p {
                let t = (x.next_u64() % m as u64) as u32;
                if !polluters.contains(&t) {
                    polluters.push(t);
                }
            }
            let asked = RefCell::new(0usize);
            let oracle = victim(&polluters, &[]);
            let found = find_all(&items, BOTH, |s| {
                *asked.borrow_mut() += 1;
                oracle(s)
            });
            let mut want = polluters.clone();
            want.sort();
            assert_eq!(found.singles, want, "m={m} p={p}");
            assert!(found.joint.is_empty());
            let bound = 3 * p * log2_ceil(m) + 2;
            assert!(
                *asked.borrow() <= bound,
                "m={m} p={p}: {} runs > {bound}",
                asked.borrow()
            );
            assert!(*asked.borrow() < m || m < 8, "no better than linear");
            // Everything not found was cleared.
            assert_eq!(found.cleared.len() + found.singles.len(), m);
        }
    }

    #[test]
    fn no_member_costs_one_run_or_two_both_ways() {
        let items: Vec<u32> = (0..100).collect();
        let asked = RefCell::new(Vec::new());
        let found = find_all(&items, BOTH, |s| {
            asked.borrow_mut().push(s.to_vec());
            false
        });
        assert!(found.singles.is_empty() && found.joint.is_empty());
        assert_eq!(asked.borrow().len(), 2);
        assert_eq!(
            asked.borrow()[1],
            items.iter().rev().cloned().collect::<Vec<_>>()
        );
        let once = RefCell::new(0);
        find_all(&items, FORWARD, |_| {
            *once.borrow_mut() += 1;
            false
        });
        assert_eq!(*once.borrow(), 1);
    }

    #[test]
    fn a_polluter_hidden_by_a_later_cleaner_is_found_by_the_reverse_run() {
        // Polluter 3 is cleaned by 7 (after it): forward, the whole set passes.
        let items: Vec<u32> = (0..10).collect();
        let oracle = victim(&[3], &[(3, 7)]);
        assert!(!oracle(&items));
        assert_eq!(find_all(&items, BOTH, &oracle).singles, [3]);
        // Without the reverse run it is missed: the documented limit.
        assert!(find_all(&items, FORWARD, &oracle).singles.is_empty());
        // A second polluter after the cleaner is found too, and so is the hidden one.
        let oracle = victim(&[3, 8], &[(3, 7)]);
        assert_eq!(find_all(&items, BOTH, &oracle).singles, [3, 8]);
    }

    #[test]
    fn a_polluter_hidden_from_both_sides_is_missed_as_documented() {
        let items: Vec<u32> = (0..8).collect();
        let oracle = victim(&[3], &[(3, 1), (3, 6)]);
        let found = find_all(&items, BOTH, &oracle);
        assert!(found.singles.is_empty());
    }

    #[test]
    fn a_group_that_only_fails_together_is_returned_as_joint() {
        // The victim fails only when 2 and 9 both ran before it.
        let items: Vec<u32> = (0..16).collect();
        let oracle = |s: &[u32]| s.contains(&2) && s.contains(&9);
        let found = find_all(&items, BOTH, oracle);
        assert!(found.singles.is_empty());
        assert_eq!(found.joint, std::slice::from_ref(&items));
    }

    #[test]
    fn a_known_positive_input_is_not_asked_and_steps_replay_the_search() {
        let items: Vec<u32> = (0..40).collect();
        let oracle = victim(&[5, 33], &[]);
        let search = Search {
            known_positive: true,
            both_ways: true,
        };
        let mut answers: Vec<(Vec<u32>, bool)> = Vec::new();
        let mut distinct: HashSet<Vec<u32>> = HashSet::new();
        let result = loop {
            let known = |s: &[u32]| answers.iter().find(|(q, _)| q == s).map(|(_, a)| *a);
            match find_all_step(&items, search, known) {
                GroupStep::Query(q, _) => {
                    assert_ne!(q, items, "the known input is never asked");
                    assert!(distinct.insert(q.clone()), "asked twice: {q:?}");
                    let a = oracle(&q);
                    answers.push((q, a));
                }
                GroupStep::Done(found) => break found,
            }
        };
        assert_eq!(result.singles, [5, 33]);
        assert_eq!(result, find_all(&items, search, &oracle));
    }
}
