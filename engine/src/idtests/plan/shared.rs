//! Shared JVMs for a candidate's runs alone ([`super`], step 5; docs/id-tests.md): the search
//! runs there and only proposes; its pin runs once more in a fresh JVM before it is reported, by
//! its site's call when the agent numbered it there ([`Planner::confirm_fresh`]), and a pin a
//! fresh JVM does not bear out is searched again in fresh JVMs ([`Planner::searched`]).

use super::{
    site_key, Candidate, IdCall, IdKind, IdRecord, IdStatus, IdVerdict, OnlyCall, Planner, Stop,
    ALONE_EXTRA_SEEDS, SHARED_GIVE_UP, SITE_SEEDS,
};

impl Planner<'_> {
    /// A candidate's verdict: searched in shared JVMs when the request allows, its pin then run
    /// once in a fresh JVM; when that run does not fail, the whole search again in fresh JVMs (a
    /// claim is never reported from a shared JVM alone).
    pub(super) fn searched(&mut self, c: &mut Candidate) -> Result<IdVerdict, Stop> {
        if !c.fresh
            && self.shared_refuted >= SHARED_GIVE_UP
            && 2 * self.shared_refuted >= self.shared_searches
        {
            c.fresh = true;
            self.note(format!(
                "runs alone in shared JVMs were not borne out by fresh JVMs for {} of the first {} tests searched there (state a shared JVM cannot reset, or calls numbered otherwise), so the other tests were searched in fresh JVMs only; -Dodrust.id.isolation=fresh skips the shared JVMs",
                self.shared_refuted, self.shared_searches
            ));
        }
        if !c.fresh {
            self.shared_searches += 1;
        }
        let v = self.candidate(c)?;
        let Some(refuted) = c.refuted.take() else {
            return Ok(v);
        };
        self.shared_refuted += 1;
        c.fresh = true;
        c.spent = 0;
        let mut v = self.candidate(c)?;
        v.reason.push_str(&format!(
            "; {refuted}, so it was searched again in fresh JVMs"
        ));
        v.experiments = c.ids.clone();
        Ok(v)
    }

    /// A search in shared JVMs that ended without a pin (it failed alone without shuffling, or no
    /// seed failed it alone with calls counted): not reported; the search runs again fresh.
    pub(super) fn no_pin_in_shared(&self, c: &mut Candidate, last: usize) -> IdVerdict {
        c.refuted = Some(format!(
            "its runs alone in shared JVMs found no pin (last: experiment {last})"
        ));
        self.verdict(c, IdStatus::Unconfirmed, String::new())
    }

    /// A pin found with runs in shared JVMs, run in a fresh JVM; sets `c.refuted` when it does not
    /// fail there. Pins found in fresh JVMs pass through.
    ///
    /// A pin of one call whose site the agent numbered (`nth`) runs with only that site's nth call
    /// shuffled (`only-call`), whatever number the fresh JVM gives it: a shared JVM may count fewer
    /// calls before it (a JDK cache an earlier order filled, which a fresh JVM fills during the
    /// test). When that call is invocation k' there, the verdict is pinned to k' — the fresh run
    /// shuffled only it, so it is the run `-Dodrust.id.only=k'` makes — and says so; when it passes
    /// there under the pin's seed, [`Self::other_seeds`] tries k' under the test's other seeds. A
    /// range, or a call without `nth`, runs as its reproduction says.
    pub(super) fn confirm_fresh(
        &mut self,
        c: &mut Candidate,
        mut v: IdVerdict,
    ) -> Result<IdVerdict, Stop> {
        let Some(r) = v.reproduce.clone().filter(|_| !c.fresh) else {
            return Ok(v);
        };
        let shared_k = v.pin.as_ref().and_then(|p| p.invocation);
        let one = v
            .pin
            .as_ref()
            .filter(|p| p.invocation.is_some())
            .and_then(|p| p.call.as_ref())
            .and_then(|k| {
                Some(OnlyCall {
                    nth: k.nth?,
                    site: k.only_call_site()?,
                })
            });
        let mut e = self.experiment(
            IdKind::ConfirmPin,
            Some(&c.test),
            vec![c.test.clone()],
            Some(r.seed),
            if one.is_some() {
                Vec::new()
            } else {
                r.only.clone()
            },
        );
        e.only_call = one.clone();
        let Some(rec) = self.take(&e) else {
            return Err(Box::new(e));
        };
        c.ids.push(rec.experiment.id);
        v.experiments = c.ids.clone();
        let id = rec.experiment.id;
        let failed = self.failed(rec, &c.test);
        let Some(one) = one else {
            if !failed {
                c.refuted = Some(not_fresh(id, ""));
            } else if let Some(pin) = v.pin.as_ref().filter(|p| !p.calls.is_empty()) {
                // failing is not enough: the fresh run's numbers must name the same calls (a
                // shared JVM may number them otherwise)
                let sites = |calls: &[IdCall]| -> Vec<(u64, Option<String>)> {
                    calls.iter().map(|k| (k.index, site_key(k))).collect()
                };
                let fresh: Vec<IdCall> = rec
                    .calls
                    .iter()
                    .filter(|k| pin.calls.iter().any(|p| p.index == k.index))
                    .cloned()
                    .collect();
                if sites(&fresh) != sites(&pin.calls) {
                    c.refuted = Some(format!(
                        "pinned first in shared JVMs, but in a fresh JVM (experiment {id}) those invocations are other calls"
                    ));
                }
            }
            return Ok(v);
        };
        let fresh_k = Self::site_call(rec, &one);
        match (failed, fresh_k) {
            (true, Some(k)) if Some(k) == shared_k => {}
            (true, Some(k)) => {
                v = self.pinned(c, r.seed, k, k, rec.count, rec, None);
                v.reason.push_str(&format!(
                    "; found in a shared JVM as invocation {}, which counted other calls before it (call {} of that site in both)",
                    shared_k.unwrap_or_default(),
                    one.nth
                ));
            }
            (true, None) => {
                c.refuted = Some(format!(
                    "pinned first in shared JVMs, but in a fresh JVM (experiment {id}) it failed without call {} of that site shuffled",
                    one.nth
                ));
            }
            // numbered otherwise, the call gets another permutation under the seed (it depends
            // on the seed and the number): that call alone under the other seeds
            (false, Some(k)) if Some(k) != shared_k => {
                match self.other_seeds(c, r.seed, &one, k, id)? {
                    Some(fresh) => v = fresh,
                    None => {
                        c.refuted = Some(not_fresh(
                            id,
                            &format!(", where that call is invocation {k}; nor with only it shuffled under up to {SITE_SEEDS} other seeds"),
                        ));
                    }
                }
            }
            (false, _) => c.refuted = Some(not_fresh(id, "")),
        }
        Ok(v)
    }

    /// The seeds a candidate runs alone under, in order: its failing seeds, the request's others,
    /// then [`ALONE_EXTRA_SEEDS`] derived ones.
    pub(super) fn alone_seeds(&self, c: &Candidate) -> Vec<u64> {
        let mut seeds = c.failing_seeds.clone();
        for s in self
            .request
            .seeds
            .iter()
            .chain(self.extra_seeds.iter().take(ALONE_EXTRA_SEEDS))
        {
            if !seeds.contains(s) {
                seeds.push(*s);
            }
        }
        seeds
    }

    /// The number `rec` gave the call `one` names, when that call is the one it shuffled.
    fn site_call(rec: &IdRecord, one: &OnlyCall) -> Option<u64> {
        match rec.calls.as_slice() {
            [k] if k.nth == Some(one.nth) && k.only_call_site().as_ref() == Some(&one.site) => {
                Some(k.index)
            }
            _ => None,
        }
    }

    /// A shared pin whose call is invocation `k` in a fresh JVM and did not fail it there under
    /// `seed` (experiment `first`): invocation `k` alone under up to [`SITE_SEEDS`] of the
    /// candidate's other seeds, in fresh JVMs; the verdict of the first that fails it there.
    fn other_seeds(
        &mut self,
        c: &mut Candidate,
        seed: u64,
        one: &OnlyCall,
        k: u64,
        first: usize,
    ) -> Result<Option<IdVerdict>, Stop> {
        for s in self
            .alone_seeds(c)
            .into_iter()
            .filter(|s| *s != seed)
            .take(SITE_SEEDS)
        {
            let e = self.experiment(
                IdKind::ConfirmPin,
                Some(&c.test),
                vec![c.test.clone()],
                Some(s),
                vec![[k, k]],
            );
            let Some(rec) = self.take(&e) else {
                return Err(Box::new(e));
            };
            c.ids.push(rec.experiment.id);
            if Self::site_call(rec, one) == Some(k) && self.failed(rec, &c.test) {
                let mut v = self.pinned(c, s, k, k, rec.count, rec, None);
                v.reason.push_str(&format!(
                    "; found in a shared JVM under seed {seed} as call {} of that site, which is invocation {k} in a fresh JVM, where its permutation under seed {seed} passed (experiment {first})",
                    one.nth
                ));
                return Ok(Some(v));
            }
        }
        Ok(None)
    }
}

/// Why a pin found in shared JVMs is not reported: it did not fail in fresh experiment `id`
/// (`more` says what else was tried, or is empty).
fn not_fresh(id: usize, more: &str) -> String {
    format!("pinned first in shared JVMs, but the pin did not fail in a fresh JVM (experiment {id}{more})")
}
