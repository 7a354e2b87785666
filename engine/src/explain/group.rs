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
//! # Where a set is cut
//!
//! With [`Cut::Halves`] a set is cut in the middle. With [`Cut::Cost`] (the members' run times
//! known) it is cut where the search below it is expected to cost least ([`cheapest_cut`]),
//! between a quarter and three quarters of it: a few slow tests among many fast ones then leave
//! the path to a member after a few cuts, instead of being run again at every level on the way
//! down (a module's time is often most in a few of its tests). And the first set on a path
//! that is asked both ways first asks alone each member slower than a run's fixed cost (at most
//! `⌈log2 n⌉` of them, the slowest): with the others it would run at least twice. Only the runs asked
//! change: every member found is still verified by its own run, and every member cleared was in
//! a set cleared in every way it was asked (a member asked alone cannot be hidden); the paths
//! can be longer (below). A polluter group with a member asked alone is not seen where it was
//! taken apart (that set is not asked whole): when the whole input is known to show the effect
//! (the prefix), the whole input is returned in [`Groups::joint`], a larger set for delta
//! debugging; elsewhere the group is missed.
//!
//! # Cost
//!
//! For `p` members among `m` (and no hiding), binary splitting asks at most two halves per set
//! on the path from the whole set to each member: at most `2·p·⌈log2 m⌉` sets, plus one more for
//! every half cleared with `both_ways` (its reverse): at most `3·p·⌈log2 m⌉` runs, and 1 (or 2)
//! when there is no member at all. Linear search asks `m`. The tests check these bounds. Cut by
//! cost, a path is at most `⌈log_{4/3} m⌉` cuts long (about 2.4 times `log2 m`), so the bound
//! is `3·p·⌈log_{4/3} m⌉ + 2`, plus one run for each member asked alone (at most
//! `2·⌈log2 m⌉`: the whole set's, or its two parts' when it is known to show the effect): more
//! runs in the worst case, each expected to cost less.

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

/// Where a set that shows the effect is cut in two.
pub enum Cut<'a, T> {
    /// In the middle (by count).
    Halves,
    /// Where the search below is expected to cost least ([`cheapest_cut`]): `ms` is a member's
    /// run time, `run_ms` what a run costs beyond its tests' times.
    Cost {
        /// A member's time in one run, in milliseconds.
        ms: &'a dyn Fn(&T) -> u64,
        /// What one run costs beyond its tests' times, in milliseconds.
        run_ms: u64,
    },
}

impl<T> Clone for Cut<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Cut<'_, T> {}

impl<T> std::fmt::Debug for Cut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cut::Halves => f.write_str("Halves"),
            Cut::Cost { run_ms, .. } => write!(f, "Cost {{ run_ms: {run_ms} }}"),
        }
    }
}

impl<T> Cut<'_, T> {
    /// The members of `set` (two or more, about to be asked both ways) that cost less asked
    /// alone, by their positions in it: by cost, those whose time is more than a run's fixed
    /// cost, the slowest first, at most `⌈log2 n⌉` of them (ties: the earlier); by halves none.
    ///
    /// Asked with the others both ways, a member runs at least twice (the set forward, then
    /// reversed when it does not show the effect, or the part it goes down to when it does);
    /// alone it runs once, one run's fixed cost more, and no other member can hide it.
    fn apart(&self, set: &[T]) -> Vec<usize> {
        let Cut::Cost { ms, run_ms } = self else {
            return Vec::new();
        };
        let mut slow: Vec<(usize, u64)> = set
            .iter()
            .map(ms)
            .enumerate()
            .filter(|&(_, t)| t > *run_ms)
            .collect();
        slow.sort_by_key(|&(i, t)| (std::cmp::Reverse(t), i));
        let most = (usize::BITS - (set.len() - 1).leading_zeros()) as usize;
        slow.truncate(most);
        let mut apart: Vec<usize> = slow.into_iter().map(|(i, _)| i).collect();
        apart.sort_unstable();
        apart
    }

    /// Where to cut `set` (two or more members): the length of its first part, in `1..len`.
    fn at(&self, set: &[T]) -> usize {
        match self {
            Cut::Halves => set.len() / 2,
            Cut::Cost { ms, run_ms } => {
                let costs: Vec<u64> = set.iter().map(ms).collect();
                cheapest_cut(&costs, *run_ms)
            }
        }
    }
}

/// The cut of a set of members with run times `ms` (in its order) that leaves the least
/// expected cost below it: the length of the first part, between a quarter and three quarters
/// of the set (at least 1 and at most `len - 1`; the middle for a set of fewer than two
/// members, or when no member has a time). The bound keeps the path from a set down to a
/// member at most `⌈log_{4/3} m⌉` cuts long.
///
/// A member sought is taken to be any one of the set with equal chance, so each part is
/// searched next with the chance of its share of the members; searching a part of `k > 1`
/// members whose tests take `t` costs about `2·t` (the part, then parts of it half as long on
/// the way down) plus `2·log2(k)` runs of `run_ms` (two parts asked per level); a part of one
/// member costs nothing more. Of equally cheap cuts the one nearest the middle is taken, so
/// equal times cut in the middle as [`Cut::Halves`] does.
pub fn cheapest_cut(ms: &[u64], run_ms: u64) -> usize {
    let n = ms.len();
    let total: u64 = ms.iter().fold(0, |a, &b| a.saturating_add(b));
    if n < 2 || total == 0 {
        return n / 2;
    }
    let below = |k: usize, t: u64| -> f64 {
        if k <= 1 {
            0.0
        } else {
            2.0 * t as f64 + 2.0 * run_ms as f64 * (k as f64).log2()
        }
    };
    // Each part at most three quarters of the set: `⌈n/4⌉ ..= ⌊3n/4⌋`.
    let lowest = n.div_ceil(4);
    let highest = (3 * n / 4).clamp(lowest, n - 1);
    let mut before: u64 = ms[..lowest - 1].iter().fold(0, |a, &b| a.saturating_add(b));
    let expected: Vec<(usize, f64)> = (lowest..=highest)
        .map(|i| {
            before = before.saturating_add(ms[i - 1]);
            let cost = i as f64 * below(i, before)
                + (n - i) as f64 * below(n - i, total.saturating_sub(before));
            (i, cost)
        })
        .collect();
    let least = expected
        .iter()
        .map(|&(_, c)| c)
        .fold(f64::INFINITY, f64::min);
    expected
        .into_iter()
        .filter(|&(_, c)| c <= least * (1.0 + 1e-9))
        .map(|(i, _)| i)
        .min_by_key(|&i| ((2 * i).abs_diff(n), i))
        .unwrap_or(n / 2)
}

/// Every member of `items` that shows the effect on its own, driven by the answers `known` has
/// (`None`: not asked yet): the first ordered subset whose answer is unknown, or the result.
/// A set that shows the effect is cut as `cut` says.
pub fn find_all_step<T, F>(items: &[T], search: Search, cut: Cut<'_, T>, known: F) -> GroupStep<T>
where
    T: Clone + PartialEq,
    F: Fn(&[T]) -> Option<bool>,
{
    let mut found = Groups::default();
    let result = visit(
        items,
        search.known_positive,
        true,
        search,
        cut,
        &mut found,
        &mut |subset: &[T]| known(subset).ok_or_else(|| subset.to_vec()),
    );
    in_input_order(items, &mut found.singles);
    match result {
        Ok(_) => GroupStep::Done(found),
        Err(query) => GroupStep::Query(query, found),
    }
}

/// Members asked alone first ([`Cut::Cost`]) are found before the others: back in `items`' order.
fn in_input_order<T: PartialEq>(items: &[T], singles: &mut [T]) {
    singles.sort_by_key(|s| items.iter().position(|i| i == s));
}

/// [`find_all_step`] with an oracle that is always answered.
pub fn find_all<T, F>(items: &[T], search: Search, cut: Cut<'_, T>, mut oracle: F) -> Groups<T>
where
    T: Clone + PartialEq,
    F: FnMut(&[T]) -> bool,
{
    let mut found = Groups::default();
    let result: Result<_, Infallible> = visit(
        items,
        search.known_positive,
        true,
        search,
        cut,
        &mut found,
        &mut |s: &[T]| Ok(oracle(s)),
    );
    in_input_order(items, &mut found.singles);
    match result {
        Ok(_) => found,
        Err(never) => match never {},
    }
}

/// Searches `set`; whether (and in which order) it showed the effect.
fn visit<T, E, F>(
    set: &[T],
    known_positive: bool,
    apart_ok: bool,
    search: Search,
    cut: Cut<'_, T>,
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
    // Cut by cost, a set about to be asked both ways first asks its slowest members alone
    // (once on a path: what is left of it, and every part of that, asks none).
    if apart_ok && !known_positive && search.both_ways && set.len() > 1 {
        let apart = cut.apart(set);
        if !apart.is_empty() {
            let mut shows = false;
            for &i in &apart {
                shows |= visit(&set[i..=i], false, false, search, cut, found, test)?;
            }
            let rest: Vec<T> = set
                .iter()
                .enumerate()
                .filter(|(i, _)| !apart.contains(i))
                .map(|(_, t)| t.clone())
                .collect();
            shows |= visit(&rest, false, false, search, cut, found, test)?;
            return Ok(shows);
        }
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
    let mid = cut.at(set);
    let left = visit(&set[..mid], false, apart_ok, search, cut, found, test)?;
    let right = visit(&set[mid..], false, apart_ok, search, cut, found, test)?;
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
            let found = find_all(&items, BOTH, Cut::Halves, |s| {
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
        let found = find_all(&items, BOTH, Cut::Halves, |s| {
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
        find_all(&items, FORWARD, Cut::Halves, |_| {
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
        assert_eq!(find_all(&items, BOTH, Cut::Halves, &oracle).singles, [3]);
        // Without the reverse run it is missed: the documented limit.
        assert!(find_all(&items, FORWARD, Cut::Halves, &oracle)
            .singles
            .is_empty());
        // A second polluter after the cleaner is found too, and so is the hidden one.
        let oracle = victim(&[3, 8], &[(3, 7)]);
        assert_eq!(find_all(&items, BOTH, Cut::Halves, &oracle).singles, [3, 8]);
    }

    #[test]
    fn a_polluter_hidden_from_both_sides_is_missed_as_documented() {
        let items: Vec<u32> = (0..8).collect();
        let oracle = victim(&[3], &[(3, 1), (3, 6)]);
        let found = find_all(&items, BOTH, Cut::Halves, &oracle);
        assert!(found.singles.is_empty());
    }

    #[test]
    fn a_group_that_only_fails_together_is_returned_as_joint() {
        // The victim fails only when 2 and 9 both ran before it.
        let items: Vec<u32> = (0..16).collect();
        let oracle = |s: &[u32]| s.contains(&2) && s.contains(&9);
        let found = find_all(&items, BOTH, Cut::Halves, oracle);
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
            match find_all_step(&items, search, Cut::Halves, known) {
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
        assert_eq!(result, find_all(&items, search, Cut::Halves, &oracle));
    }

    #[test]
    fn equal_or_unknown_times_cut_in_the_middle() {
        for n in 0..40usize {
            assert_eq!(cheapest_cut(&vec![7; n], 500), n / 2, "n={n}");
            assert_eq!(cheapest_cut(&vec![0; n], 500), n / 2, "n={n}");
            assert_eq!(cheapest_cut(&vec![3; n], 0), n / 2, "n={n}");
        }
    }

    #[test]
    fn a_slow_member_is_cut_off_from_many_fast_ones() {
        let mut ms = vec![5u64; 200];
        ms[120] = 20_000;
        let at = cheapest_cut(&ms, 500);
        assert!(at == 120 || at == 121, "cut at {at}");
        let mut ms = vec![5u64; 4];
        ms[0] = 20_000;
        assert_eq!(cheapest_cut(&ms, 500), 1);
        // No part over three quarters, however small the set: of 7, at least 2.
        let mut ms = vec![5u64; 7];
        ms[0] = 20_000;
        assert_eq!(cheapest_cut(&ms, 500), 2);
        // Never less than a quarter: a slow member last of 200 is not cut off alone.
        let mut ms = vec![5u64; 200];
        ms[199] = 20_000;
        assert_eq!(cheapest_cut(&ms, 500), 150);
        // Where runs cost far more than the tests, the count decides: the middle.
        let mut ms = vec![1u64; 64];
        ms[3] = 40;
        assert_eq!(cheapest_cut(&ms, 1_000_000), 32);
    }

    /// The time `find_all` spends: each run costs `run_ms` plus its members' times.
    fn spent(
        items: &[u32],
        ms: &[u64],
        run_ms: u64,
        cut: Cut<'_, u32>,
        oracle: &dyn Fn(&[u32]) -> bool,
    ) -> (Groups<u32>, u64) {
        let total = RefCell::new(0u64);
        let found = find_all(items, BOTH, cut, |s| {
            *total.borrow_mut() += run_ms + s.iter().map(|&t| ms[t as usize]).sum::<u64>();
            oracle(s)
        });
        (found, total.into_inner())
    }

    #[test]
    fn a_slow_class_beside_the_polluter_is_run_once_or_twice_not_at_every_level() {
        // 200 fast tests; a class of four slow ones (5 s each) right before the polluter: cut
        // in halves, the path down to the polluter runs them at every level.
        let items: Vec<u32> = (0..200).collect();
        let mut ms = vec![5u64; 200];
        for slow in &mut ms[95..99] {
            *slow = 5_000;
        }
        let oracle = victim(&[99], &[]);
        let weight = |t: &u32| ms[*t as usize];
        let by_cost = Cut::Cost {
            ms: &weight,
            run_ms: 500,
        };
        let (a, halves) = spent(&items, &ms, 500, Cut::Halves, &oracle);
        let (b, cost) = spent(&items, &ms, 500, by_cost, &oracle);
        assert_eq!(a.singles, [99]);
        assert_eq!(b.singles, [99]);
        assert!(
            cost * 2 < halves,
            "cut by cost {cost} ms, in halves {halves} ms"
        );
    }

    #[test]
    fn cuts_by_cost_find_the_members_and_clear_the_rest() {
        let run_ms = 500;
        let (mut halves_total, mut cost_total) = (0u64, 0u64);
        for seed in 1..=20u64 {
            let mut x = Xorshift::new(seed);
            let m = 800usize;
            let items: Vec<u32> = (0..m as u32).collect();
            // Most tests take a few milliseconds; three classes of four take seconds each. (A
            // cleaner can hide a polluter differently on other paths: these instances find the
            // same members either way.)
            let mut ms: Vec<u64> = (0..m).map(|_| 1 + x.next_u64() % 10).collect();
            for _ in 0..3 {
                let at = (x.next_u64() % (m as u64 - 4)) as usize;
                for slow in &mut ms[at..at + 4] {
                    *slow = 1_000 + x.next_u64() % 5_000;
                }
            }
            let polluters: Vec<u32> = (0..1 + seed % 3)
                .map(|_| (x.next_u64() % m as u64) as u32)
                .collect();
            let cleaners: Vec<(u32, u32)> = polluters
                .iter()
                .map(|&p| (p, (x.next_u64() % m as u64) as u32))
                .filter(|&(p, c)| p != c && !polluters.contains(&c))
                .collect();
            let oracle = victim(&polluters, &cleaners);
            let weight = |t: &u32| ms[*t as usize];
            let by_cost = Cut::Cost {
                ms: &weight,
                run_ms,
            };
            let (a, halves) = spent(&items, &ms, run_ms, Cut::Halves, &oracle);
            let (b, cost) = spent(&items, &ms, run_ms, by_cost, &oracle);
            assert_eq!(a.singles, b.singles, "seed {seed}");
            let mut cleared = b.cleared.clone();
            cleared.extend(&b.singles);
            cleared.sort();
            assert_eq!(cleared, items, "seed {seed}: every member found or cleared");
            halves_total += halves;
            cost_total += cost;
        }
        assert!(
            cost_total < halves_total,
            "cut by cost {cost_total} ms, in halves {halves_total} ms"
        );
    }

    #[test]
    fn cuts_by_cost_keep_their_bound_however_skewed_the_times() {
        // Times growing tenfold per member: every cut would cut off the slowest alone.
        for (m, p) in [(40usize, 1usize), (300, 2), (1000, 3)] {
            let items: Vec<u32> = (0..m as u32).collect();
            let ms: Vec<u64> = (0..m).map(|i| 10u64.pow(i as u32 % 13)).collect();
            let polluters: Vec<u32> = (0..p as u32).map(|k| k * 7 % m as u32).collect();
            let oracle = victim(&polluters, &[]);
            let weight = |t: &u32| ms[*t as usize];
            let by_cost = Cut::Cost {
                ms: &weight,
                run_ms: 1,
            };
            let asked = RefCell::new(0usize);
            let found = find_all(&items, BOTH, by_cost, |s| {
                *asked.borrow_mut() += 1;
                oracle(s)
            });
            let mut want = polluters.clone();
            want.sort();
            assert_eq!(found.singles, want);
            let depth = ((m as f64).ln() / (4.0f64 / 3.0).ln()).ceil() as usize;
            // Members asked alone (nearly all are slower than a run here): two sets' worth.
            let bound = 3 * p * depth + 2 + 2 * log2_ceil(m);
            assert!(
                *asked.borrow() <= bound,
                "m={m}: {} > {bound}",
                asked.borrow()
            );
        }
    }

    #[test]
    fn slow_members_are_asked_alone_once_and_cannot_be_hidden() {
        // 300 fast tests and three slow ones; a run costs 500 ms beyond its tests. The polluter
        // 151 is slow and hidden from both sides of the whole set (cleaners 100 and 200).
        let items: Vec<u32> = (0..300).collect();
        let mut ms = vec![5u64; 300];
        for slow in [40, 150, 151] {
            ms[slow] = 4_000;
        }
        let weight = |t: &u32| ms[*t as usize];
        let by_cost = Cut::Cost {
            ms: &weight,
            run_ms: 500,
        };
        let hidden = victim(&[151], &[(151, 100), (151, 200)]);
        assert!(find_all(&items, BOTH, Cut::Halves, &hidden)
            .singles
            .is_empty());
        let runs = RefCell::new(Vec::new());
        let found = find_all(&items, BOTH, by_cost, |s| {
            runs.borrow_mut().push(s.to_vec());
            hidden(s)
        });
        assert_eq!(found.singles, [151]);
        for slow in [40, 150, 151] {
            let with: Vec<Vec<u32>> = runs
                .borrow()
                .iter()
                .filter(|r| r.contains(&slow))
                .cloned()
                .collect();
            assert_eq!(with, [vec![slow]], "{slow} runs once, alone");
        }
        assert_eq!(runs.borrow().len(), 5, "three alone, the rest both ways");
        // Found alone first, reported in the input's order.
        let two = victim(&[7, 151], &[]);
        assert_eq!(find_all(&items, BOTH, by_cost, &two).singles, [7, 151]);
        // Asked one way (a cleaner search) the whole set runs once: none is taken apart.
        let asked = RefCell::new(Vec::new());
        find_all(&items, FORWARD, by_cost, |s| {
            asked.borrow_mut().push(s.len());
            false
        });
        assert_eq!(asked.into_inner(), [300]);
        // Known to show, its two parts take theirs apart: the slow ones still run once each.
        let runs = RefCell::new(Vec::new());
        let known = Search {
            known_positive: true,
            both_ways: true,
        };
        let found = find_all(&items, known, by_cost, |s| {
            runs.borrow_mut().push(s.to_vec());
            two(s)
        });
        assert_eq!(found.singles, [7, 151]);
        for slow in [40, 150, 151] {
            let n = runs.borrow().iter().filter(|r| r.contains(&slow)).count();
            assert_eq!(n, 1, "{slow}");
        }
    }

    #[test]
    fn a_group_with_a_slow_member_is_joint_of_the_whole_known_input() {
        // The victim fails only after 151 (slow) and 7 together: each part takes 151 apart, so
        // no part shows it; the input, known to show it, is the group delta debugging gets.
        let items: Vec<u32> = (0..300).collect();
        let mut ms = vec![5u64; 300];
        ms[151] = 4_000;
        let weight = |t: &u32| ms[*t as usize];
        let by_cost = Cut::Cost {
            ms: &weight,
            run_ms: 500,
        };
        let oracle = |s: &[u32]| s.contains(&7) && s.contains(&151);
        let known = Search {
            known_positive: true,
            both_ways: true,
        };
        let found = find_all(&items, known, by_cost, oracle);
        assert!(found.singles.is_empty());
        assert_eq!(found.joint, std::slice::from_ref(&items));
    }
}
