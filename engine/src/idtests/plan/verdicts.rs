//! The verdicts of a candidate's search ([`super`]): pinned to one invocation or a range by the
//! bisection, or to a site earlier candidates were pinned to ([`Planner::site_first`]).

use super::bisect::{Bisected, Calls};
use super::{
    as_ranges, dexfix, failure_message, ranges_text, site_key, Candidate, IdCall, IdKind, IdRecord,
    IdStatus, IdVerdict, Pin, Planner, Reproduce, Stop, Why, SITES_TRIED,
};

impl<'a> Planner<'a> {
    /// Tests of one module often fail through the same few calls: when the run `alone` (which
    /// failed `c` under `seed`) made calls at a site an earlier candidate was pinned to, only
    /// those are shuffled first, and bisected among themselves if several: a few runs instead of a
    /// bisection of every counted invocation. `None` when no such site fails it (the full
    /// bisection follows); a verdict when one does, pinned to one invocation, or to the site's
    /// invocations together when neither half of them fails it alone.
    pub(super) fn site_first(
        &mut self,
        c: &mut Candidate,
        seed: u64,
        alone: &'a IdRecord,
    ) -> Result<Option<IdVerdict>, Stop> {
        let n = alone.count;
        let mut tried = 0;
        for (site, _) in self.sites.clone() {
            let ks: Vec<u64> = alone
                .calls
                .iter()
                .filter(|k| (1..=n).contains(&k.index) && site_key(k).as_deref() == Some(&site))
                .map(|k| k.index)
                .collect();
            if ks.is_empty() || ks.len() as u64 == n {
                continue; // none there, or every call is there: the full bisection is the same
            }
            if tried == SITES_TRIED {
                break;
            }
            tried += 1;
            let Some(r) = self.ask(c, IdKind::Bisect, Some(seed), as_ranges(&ks))? else {
                {
                    let v = self.pinned(c, seed, 1, n, n, alone, Some(Why::Budget));
                    return self.confirm_fresh(c, v).map(Some);
                }
            };
            if !self.failed(r, &c.test) {
                continue;
            }
            let calls = Calls::Some(&ks);
            return match self.bisect(c, seed, calls, r)? {
                Bisected::One(i, last) => {
                    let k = calls.at(i);
                    let v = self.pinned(c, seed, k, k, n, last, None);
                    self.classify(c, v, last).map(Some)
                }
                Bisected::Range(lo, hi, last, why) => {
                    let v = self.at_site(c, seed, &ks[lo..=hi], n, last, why);
                    let mut v = self.confirm_fresh(c, v)?;
                    if let Why::BothHalves = why {
                        self.confirm_halves(c, seed, calls, lo, hi)?;
                        v.experiments = c.ids.clone();
                    }
                    Ok(Some(v))
                }
            };
        }
        Ok(None)
    }

    /// The verdict of a candidate that fails when the invocations `ks` at one site are shuffled
    /// (`last`: the last run that failed, which shuffled exactly them), but not when only either
    /// half of them is (or the budget ran out): the repair is at that site all the same.
    pub(super) fn at_site(
        &self,
        c: &Candidate,
        seed: u64,
        ks: &[u64],
        n: u64,
        last: &IdRecord,
        why: Why,
    ) -> IdVerdict {
        let calls: Vec<IdCall> = last
            .calls
            .iter()
            .filter(|k| ks.contains(&k.index))
            .cloned()
            .collect();
        let only = as_ranges(ks);
        let mut v = self.verdict(c, IdStatus::Id, String::new());
        v.reproduce = Some(Reproduce {
            test: c.test.clone(),
            seed,
            only: only.clone(),
        });
        let call = calls.first().cloned();
        let site = call.as_ref().map(IdCall::site).unwrap_or_default();
        v.reason = format!(
            "fails alone under seed {seed} when only invocations {} (of {n}) are shuffled, all at {site}; {}",
            ranges_text(&only),
            match why {
                Why::BothHalves => "not when only either half of them is: it needs two calls there to return different orders".to_string(),
                Why::Budget => format!("the budget of {} experiments for this test ran out before one invocation was found (raise -Dodrust.id.budget)", self.budget),
            }
        );
        match &call {
            Some(k) => with_repairs(&mut v, k, last),
            None => {
                v.no_repair = Some("the failing run did not report the calls, so odrust does not know the site to repair".into())
            }
        }
        v.pin = Some(Pin {
            seed,
            invocation: None,
            range: None,
            call,
            calls,
        });
        v
    }

    /// The verdict of a candidate bisected to `[lo, hi]` under `seed` (`last`: the last run that
    /// failed, which shuffled exactly that range); `why` is set when the range is not one
    /// invocation.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pinned(
        &self,
        c: &Candidate,
        seed: u64,
        lo: u64,
        hi: u64,
        n: u64,
        last: &IdRecord,
        why: Option<Why>,
    ) -> IdVerdict {
        let test = &c.test;
        let calls: Vec<IdCall> = last
            .calls
            .iter()
            .filter(|k| (lo..=hi).contains(&k.index))
            .cloned()
            .collect();
        // One invocation: exactly it; the whole range: what the alone run shuffled.
        let only = if lo != hi && lo == 1 && hi == n {
            Vec::new()
        } else {
            vec![[lo, hi]]
        };
        let shuffled = if lo == hi {
            format!("only invocation {lo} is shuffled")
        } else if only.is_empty() {
            format!("all {n} counted invocations are shuffled")
        } else {
            format!("only invocations {lo}-{hi} (of {n}) are shuffled")
        };
        let mut v = self.verdict(c, IdStatus::Id, String::new());
        v.reproduce = Some(Reproduce {
            test: test.clone(),
            seed,
            only,
        });
        match why {
            None => {
                let call = calls.iter().find(|k| k.index == lo).cloned();
                let what = match &call {
                    Some(k) => format!(
                        ": {}{}",
                        k.api,
                        k.at.as_ref()
                            .map(|f| format!(" at {}", f.text()))
                            .unwrap_or_default()
                    ),
                    None => String::new(),
                };
                v.reason = format!("fails alone under seed {seed} when {shuffled}{what}");
                match &call {
                    None => v.no_repair = Some(format!("the failing run did not report invocation {lo}, so odrust does not know the call to repair")),
                    Some(k) if k.at.is_none() => v.no_repair = Some(format!("invocation {lo} ({}) has no frame in the module's own code to repair", k.api)),
                    Some(k) => with_repairs(&mut v, k, last),
                }
                v.pin = Some(Pin {
                    seed,
                    invocation: Some(lo),
                    range: None,
                    call,
                    calls,
                });
            }
            Some(w) => {
                v.reason = match w {
                    Why::BothHalves => format!("fails alone under seed {seed} when {shuffled}, but not when only either half is: it needs shuffled invocations in both halves"),
                    Why::Budget => format!("fails alone under seed {seed} when {shuffled}; the budget of {} experiments for this test ran out before one invocation was found (raise -Dodrust.id.budget)", self.budget),
                };
                v.no_repair = Some(format!(
                    "not pinned to one call: invocations {lo}-{hi} together fail it"
                ));
                v.pin = Some(Pin {
                    seed,
                    invocation: None,
                    range: Some([lo, hi]),
                    call: None,
                    calls,
                });
            }
        }
        v
    }
}

/// The DexFix repairs of the call `k` a verdict is pinned to (`last`: the run that failed it),
/// with why one is not offered in the reason.
fn with_repairs(v: &mut IdVerdict, k: &IdCall, last: &IdRecord) {
    let (repairs, why_not) = dexfix::choices(k, &v.test, failure_message(last, &v.test));
    if let Some(w) = why_not {
        v.reason.push_str(&format!("; {w}"));
    }
    v.repairs = repairs;
    v.no_repair = None;
}
