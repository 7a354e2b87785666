//! The bisection of a candidate's failing run over its counted calls ([`super`], step 3): halves
//! of the calls a run failed with are shuffled alone until one call is left.
//!
//! When the left half of a failing range passes, the right half is taken to fail without
//! running it (a failure a shuffle causes is most often one call's doing), and only the last
//! call is run to verify it. When that call alone passes, a range the search inferred needed
//! more than its half: the search goes back to the last range a run failed with and runs both
//! halves of each range from there, as a plain bisection does, reusing every run it has.

use super::{as_ranges, Candidate, IdKind, IdRecord, IdVerdict, Planner, Range, Stop, Why};

/// The calls a bisection searches: invocations `1..=n`, or some of them (the calls at a site).
#[derive(Clone, Copy)]
pub(super) enum Calls<'k> {
    All(u64),
    Some(&'k [u64]),
}

impl Calls<'_> {
    fn len(&self) -> usize {
        match self {
            Calls::All(n) => *n as usize,
            Calls::Some(ks) => ks.len(),
        }
    }

    /// The invocation at place `i`.
    pub(super) fn at(&self, i: usize) -> u64 {
        match self {
            Calls::All(_) => i as u64 + 1,
            Calls::Some(ks) => ks[i],
        }
    }

    /// The invocations at places `lo..=hi`, as ranges.
    fn ranges(&self, lo: usize, hi: usize) -> Vec<Range> {
        match self {
            Calls::All(_) => vec![[lo as u64 + 1, hi as u64 + 1]],
            Calls::Some(ks) => as_ranges(&ks[lo..=hi]),
        }
    }
}

/// Where a bisection ended, as places in its [`Calls`], with the run that failed with exactly
/// those calls shuffled.
pub(super) enum Bisected<'a> {
    One(usize, &'a IdRecord),
    Range(usize, usize, &'a IdRecord, Why),
}

impl<'a> Planner<'a> {
    /// The bisection of all `alone.count` invocations of the run `alone` (failed under `seed`),
    /// and its verdict: pinned to one, classified; a range, confirmed as the others are.
    pub(super) fn bisect_all(
        &mut self,
        c: &mut Candidate,
        seed: u64,
        alone: &'a IdRecord,
    ) -> Result<IdVerdict, Stop> {
        let n = alone.count;
        let calls = Calls::All(n);
        match self.bisect(c, seed, calls, alone)? {
            Bisected::One(i, last) => {
                let k = calls.at(i);
                let v = self.pinned(c, seed, k, k, n, last, None);
                self.classify(c, v, last)
            }
            Bisected::Range(lo, hi, last, why) => {
                let v = self.pinned(c, seed, calls.at(lo), calls.at(hi), n, last, Some(why));
                let mut v = self.confirm_fresh(c, v)?;
                if let Why::BothHalves = why {
                    self.confirm_halves(c, seed, calls, lo, hi)?;
                    v.experiments = c.ids.clone();
                }
                Ok(v)
            }
        }
    }

    /// A range `lo..=hi` of `calls` pinned in shared JVMs because neither half failed alone
    /// there: once its whole ran fresh ([`Planner::confirm_fresh`]), each half runs alone in a
    /// fresh JVM too, since "not when only either half is" is a claim as well. A half that fails
    /// there refutes the range (`c.refuted`: the search runs again in fresh JVMs). Nothing for a
    /// search in fresh JVMs, or one already refuted.
    pub(super) fn confirm_halves(
        &mut self,
        c: &mut Candidate,
        seed: u64,
        calls: Calls,
        lo: usize,
        hi: usize,
    ) -> Result<(), Stop> {
        if c.fresh || c.refuted.is_some() || lo >= hi {
            return Ok(());
        }
        let mid = lo + (hi - lo) / 2;
        for (a, b) in [(lo, mid), (mid + 1, hi)] {
            let only = calls.ranges(a, b);
            let e = self.experiment(
                IdKind::ConfirmPin,
                Some(&c.test),
                vec![c.test.clone()],
                Some(seed),
                only.clone(),
            );
            let Some(r) = self.take(&e) else {
                return Err(Box::new(e));
            };
            c.ids.push(r.experiment.id);
            if self.failed(r, &c.test) {
                c.refuted = Some(format!(
                    "pinned first in shared JVMs to invocations {} together, but in a fresh JVM invocations {} alone fail it (experiment {})",
                    super::ranges_text(&calls.ranges(lo, hi)),
                    super::ranges_text(&only),
                    r.experiment.id
                ));
                return Ok(());
            }
        }
        Ok(())
    }

    /// Bisects `calls` under `seed`, `whole` being the run that failed with all of them shuffled.
    pub(super) fn bisect(
        &mut self,
        c: &mut Candidate,
        seed: u64,
        calls: Calls,
        whole: &'a IdRecord,
    ) -> Result<Bisected<'a>, Stop> {
        debug_assert!(calls.len() > 0, "a bisection of no calls");
        // the last range a run failed with, and that run
        let (mut plo, mut phi, mut proven) = (0usize, calls.len().saturating_sub(1), whole);
        // the range searched, within it (inferred when its left sibling passed and it did not run)
        let (mut lo, mut hi) = (plo, phi);
        let mut infer = true;
        let mut passed: Vec<(usize, usize)> = Vec::new();
        loop {
            if lo == hi {
                if (lo, hi) == (plo, phi) {
                    return Ok(Bisected::One(lo, proven));
                }
                let Some(r) = self.ask(c, IdKind::Bisect, Some(seed), calls.ranges(lo, lo))? else {
                    return Ok(Bisected::Range(plo, phi, proven, Why::Budget));
                };
                if self.failed(r, &c.test) {
                    return Ok(Bisected::One(lo, r));
                }
                // a range inferred to fail did not: plain halving from the last that did
                passed.push((lo, lo));
                infer = false;
                (lo, hi) = (plo, phi);
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            if !passed.contains(&(lo, mid)) {
                let Some(left) = self.ask(c, IdKind::Bisect, Some(seed), calls.ranges(lo, mid))?
                else {
                    return Ok(Bisected::Range(plo, phi, proven, Why::Budget));
                };
                if self.failed(left, &c.test) {
                    (plo, phi, proven) = (lo, mid, left);
                    hi = mid;
                    continue;
                }
                passed.push((lo, mid));
            }
            if infer {
                lo = mid + 1;
                continue;
            }
            if !passed.contains(&(mid + 1, hi)) {
                let Some(right) =
                    self.ask(c, IdKind::Bisect, Some(seed), calls.ranges(mid + 1, hi))?
                else {
                    return Ok(Bisected::Range(plo, phi, proven, Why::Budget));
                };
                if self.failed(right, &c.test) {
                    (plo, phi, proven) = (mid + 1, hi, right);
                    lo = mid + 1;
                    continue;
                }
            }
            // neither half fails alone (here lo..=hi is the last range a run failed with)
            return Ok(Bisected::Range(plo, phi, proven, Why::BothHalves));
        }
    }
}
