//! The victims of one polluter, explained together ([`Cause`]): the runs of the whole module
//! that show for each of them at once what a victim's own group runs show one victim at a time
//! (`docs/minimize-algorithm.md`, "Victims of one cause").

/// The victims of one polluter, explained together (with every other victim: a test is a
/// candidate of each victim whichever part of the order it is in): one run of every other test
/// of the suite, then all of them, shows for each one at once what a victim's own group runs
/// show one victim at a time.
///
/// A test's outcome depends only on the tests before it, so in the order
/// `[others..., v1, ..., vk]` victim `vi`'s verdict is that of the group run
/// `[others..., v1, ..., v(i-1), vi]`: a set of its own candidates, then it. The order is run a
/// second time reversed (`[reversed others..., vk, ..., v1]`), so every candidate of each victim
/// is in one of the two sets, and those of the suite's other tests are in both, in opposite
/// orders, as a victim's own search asks them (`both_ways`). The other victims ran only one way
/// there (those before `vi` forward, those after it reversed), so a victim also runs them the
/// other way by its own short runs ([`Cause::crosswise`]). Three questions are asked this way:
/// nothing else pollutes it (`[others..., victims...]`); with the polluter first and the
/// cleaners the victim verified left out (`without`), nothing else cleans (it still fails);
/// without the polluter and those cleaners, they hid no polluter (it passes). Victims that
/// verified the same cleaners share the runs. A victim whose verdict is anything else (it fails
/// where nothing may pollute it, passes where nothing may clean, or is not reported) is not
/// concluded by them and searched on its own, as before.
#[derive(Debug, Clone)]
pub(super) struct Cause<'a> {
    /// The polluter.
    polluter: &'a str,
    /// Its victims' units (and every other victim's), in the suite's order.
    victims: Vec<String>,
    /// Every other unit of the suite, in the suite's order.
    others: Vec<String>,
}

impl<'a> Cause<'a> {
    /// The cause of `unit`'s single polluter when `victims` (the units of every victim of the
    /// suite, `Hints::victims`) explains it with others;
    /// `None` when it is the only victim, or no other test is left to clear.
    /// `without`: tests left out of the runs (the cleaners of the polluter the subject
    /// verified): victims that verified the same ones share them.
    pub(super) fn of(
        polluter: &'a str,
        unit: &str,
        units: &[String],
        victims: &[String],
        without: &[String],
    ) -> Option<Self> {
        let victims: Vec<String> = victims
            .iter()
            .filter(|v| v.as_str() != polluter)
            .cloned()
            .collect();
        if victims.len() < 2
            || !victims.iter().any(|v| v == unit)
            || without.iter().any(|w| victims.contains(w))
        {
            return None;
        }
        let others: Vec<String> = units
            .iter()
            .filter(|u| u.as_str() != polluter && !victims.contains(u) && !without.contains(u))
            .cloned()
            .collect();
        (!others.is_empty()).then_some(Cause {
            polluter,
            victims,
            others,
        })
    }

    /// The whole order: (with the polluter first) the others, then the victims; reversed or
    /// not.
    fn order(&self, polluter_first: bool, reversed: bool) -> Vec<String> {
        let mut order: Vec<String> = Vec::new();
        if polluter_first {
            order.push(self.polluter.to_string());
        }
        if reversed {
            order.extend(self.others.iter().rev().cloned());
            order.extend(self.victims.iter().rev().cloned());
        } else {
            order.extend(self.others.iter().cloned());
            order.extend(self.victims.iter().cloned());
        }
        order
    }

    /// The part of [`Cause::order`] up to `unit`: the group run that serves it.
    fn up_to(&self, unit: &str, polluter_first: bool, reversed: bool) -> Vec<String> {
        let mut order = self.order(polluter_first, reversed);
        if let Some(at) = order.iter().rposition(|u| u == unit) {
            order.truncate(at + 1);
        }
        order
    }

    /// The other victims in runs of their own before `unit`, where [`Cause::order`] and its
    /// reverse ran them one way only: those before it in the suite reversed, those after it in
    /// the suite's order (each only when two or more: one alone cannot hide another).
    fn crosswise(&self, unit: &str) -> Vec<Vec<String>> {
        let at = self.victims.iter().position(|v| v == unit).unwrap_or(0);
        let before: Vec<String> = self.victims[..at].iter().rev().cloned().collect();
        let after: Vec<String> = self.victims[at + 1..].to_vec();
        [before, after]
            .into_iter()
            .filter(|set| set.len() >= 2)
            .collect()
    }

    /// The subject's verdict in [`Cause::order`]: in the run of the part of it up to `unit`
    /// (as the planner keeps a run for each subject in it), or of the whole order (one that ran
    /// for another reason, such as a baseline run).
    fn verdict(
        &self,
        observed: &dyn Fn(&[String]) -> Option<Option<bool>>,
        unit: &str,
        polluter_first: bool,
        reversed: bool,
    ) -> Option<Option<bool>> {
        observed(&self.up_to(unit, polluter_first, reversed))
            .or_else(|| observed(&self.order(polluter_first, reversed)))
    }

    /// The tests under examination in [`Cause::order`]: the polluter (when first), then the
    /// others, as they run (the victims after them are the subjects).
    fn examined(&self, polluter_first: bool, reversed: bool) -> Vec<String> {
        let mut order = self.order(polluter_first, reversed);
        order.truncate(order.len() - self.victims.len());
        order
    }

    /// Asks the runs of [`Cause::order`] (forward, then reversed), then with `crosswise` the
    /// other victims' [`Cause::crosswise`] runs, whether `unit` gave `expect` (passed: `true`)
    /// in each.
    pub(super) fn ask(
        &self,
        observed: &dyn Fn(&[String]) -> Option<Option<bool>>,
        unit: &str,
        polluter_first: bool,
        expect: bool,
        crosswise: bool,
    ) -> Asked {
        for reversed in [false, true] {
            match self.verdict(observed, unit, polluter_first, reversed) {
                Some(Some(v)) if v == expect => {}
                Some(_) => return Asked::Not,
                None => {
                    return Asked::Run(
                        self.order(polluter_first, reversed),
                        self.examined(polluter_first, reversed),
                    )
                }
            }
        }
        let sets = if crosswise {
            self.crosswise(unit)
        } else {
            Vec::new()
        };
        for set in sets {
            let mut order = set.clone();
            order.push(unit.to_string());
            match observed(&order) {
                Some(Some(v)) if v == expect => {}
                Some(_) => return Asked::Not,
                None => return Asked::Run(order, set),
            }
        }
        Asked::Holds
    }
}

/// What [`Cause::ask`] found.
pub(super) enum Asked {
    /// Every run gave the expected outcome.
    Holds,
    /// One did not (or was not reported): the victim is searched on its own.
    Not,
    /// The next run to ask: its order and the tests under examination in it.
    Run(Vec<String>, Vec<String>),
}
