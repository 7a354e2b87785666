//! What the rounds covered and what may have escaped them: the coverage line under every
//! summary, so that a run with no finding never reads like a clean bill.

use std::collections::{HashMap, HashSet};

pub use super::findings::{Coverage, Escape, StatePairs};
use super::replay::Replay;
use crate::model::strategy::Strategy;
use crate::schedule::targeted::escape_chance;
use crate::schedule::{runnable_pairs, unit_ids};

/// The rates of failing random orders the escape chances are given for.
pub const ESCAPE_RATES: [f64; 2] = [0.03, 0.10];

impl Replay {
    /// The coverage of the baseline and the rounds so far (`None` before the baseline ran).
    pub(super) fn coverage(&self) -> Option<Coverage> {
        let rounds: Vec<(Strategy, &[String])> = self
            .rounds
            .iter()
            .map(|r| (r.made_by, r.order.as_slice()))
            .collect();
        self.coverage_of(&rounds)
    }

    /// The coverage of the baseline and `rounds` (how each order was made, and the order): this
    /// run's, or every shard's for a merge.
    pub(super) fn coverage_of(&self, rounds: &[(Strategy, &[String])]) -> Option<Coverage> {
        if !self.baseline_done || self.original.is_empty() {
            return None;
        }
        let units = unit_ids(&self.suite);
        let index: HashMap<&str, u32> = units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.as_str(), i as u32))
            .collect();
        let mut ran: HashSet<(u32, u32)> = HashSet::new();
        let orders =
            std::iter::once(self.original.as_slice()).chain(rounds.iter().map(|(_, o)| *o));
        for order in orders {
            for w in order.windows(2) {
                if let (Some(&a), Some(&b)) = (index.get(w[0].as_str()), index.get(w[1].as_str())) {
                    ran.insert((a, b));
                }
            }
        }
        let pairs_possible = runnable_pairs(&self.suite);
        let pairs_run = (ran.len() as u64).min(pairs_possible);
        let state_pairs = self.targeted.as_ref().map(|plan| StatePairs {
            covered: plan.pairs.iter().filter(|p| ran.contains(p)).count() as u64,
            total: plan.pairs_total as u64,
        });
        let random_rounds = rounds
            .iter()
            .filter(|(made_by, _)| {
                matches!(
                    made_by,
                    Strategy::RandomClass
                        | Strategy::RandomClassMethod
                        | Strategy::ReversePassing
                        | Strategy::Targeted
                )
            })
            .count() as u32;
        let escape: Vec<Escape> = if random_rounds == 0 {
            Vec::new()
        } else {
            ESCAPE_RATES
                .iter()
                .map(|&rate| Escape {
                    rate,
                    chance: escape_chance(rate, random_rounds),
                })
                .collect()
        };
        let text = text(
            rounds.len() as u32,
            pairs_run,
            pairs_possible,
            state_pairs,
            random_rounds,
            &escape,
            self.config.strategy,
        );
        Some(Coverage {
            pairs_run,
            pairs_possible,
            state_pairs,
            random_rounds,
            escape,
            text,
        })
    }
}

/// `part` of `whole` as a share a person reads: "all", "less than 0.1%" or "8.6%".
pub fn share(part: u64, whole: u64) -> String {
    if whole == 0 || part >= whole {
        return "all".into();
    }
    let p = 100.0 * part as f64 / whole as f64;
    if p < 0.1 {
        "less than 0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// "The baseline and 20 rounds ran 1,234 of the 14,280 ordered test pairs (8.6%) ...".
fn text(
    rounds: u32,
    run: u64,
    possible: u64,
    state: Option<StatePairs>,
    random: u32,
    escape: &[Escape],
    strategy: Strategy,
) -> String {
    let mut text = format!(
        "the baseline and {rounds} round{} ran {run} of the {possible} ordered test pairs that can run consecutively ({})",
        if rounds == 1 { "" } else { "s" },
        share(run, possible)
    );
    if let Some(s) = state {
        if s.total == 0 {
            text.push_str("; no test read a static field another test wrote");
        } else {
            text.push_str(&format!(
                "; {} of the {} pairs where a test read a static field an earlier one wrote ran consecutively{}",
                s.covered,
                s.total,
                if s.covered == s.total {
                    ""
                } else {
                    " (the others: -Dodrust.rounds=N for more targeted rounds)"
                }
            ));
        }
    }
    if let [low, high, ..] = escape {
        let through = if state.is_some() {
            " through state the recording does not show (files, system properties, state inside libraries)"
        } else {
            ""
        };
        text.push_str(&format!(
            ". A victim that fails in {:.0}% of random orders{through} had a {:.0}% chance to pass all {random} random round{} (one failing in {:.0}%: {:.0}%)",
            low.rate * 100.0,
            low.chance * 100.0,
            if random == 1 { "" } else { "s" },
            high.rate * 100.0,
            high.chance * 100.0
        ));
    } else if !strategy.is_systematic() {
        text.push_str(". No round drew a random order");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_says_what_ran_and_what_may_have_escaped() {
        let escape = [
            Escape {
                rate: 0.03,
                chance: escape_chance(0.03, 20),
            },
            Escape {
                rate: 0.10,
                chance: escape_chance(0.10, 20),
            },
        ];
        let t = text(
            20,
            1234,
            14280,
            Some(StatePairs {
                covered: 80,
                total: 84,
            }),
            20,
            &escape,
            Strategy::Targeted,
        );
        assert!(
            t.contains("ran 1234 of the 14280 ordered test pairs"),
            "{t}"
        );
        assert!(t.contains("(8.6%)"), "{t}");
        assert!(t.contains("80 of the 84 pairs"), "{t}");
        assert!(t.contains("-Dodrust.rounds=N"), "{t}");
        assert!(
            t.contains("fails in 3% of random orders through state the recording does not show"),
            "{t}"
        );
        assert!(
            t.contains("a 54% chance to pass all 20 random rounds"),
            "{t}"
        );
        assert!(t.contains("one failing in 10%: 12%"), "{t}");
        let plain = text(1, 10, 10, None, 0, &[], Strategy::Original);
        assert!(plain.contains("1 round ran 10 of the 10"), "{plain}");
        assert!(plain.contains("(all)"), "{plain}");
        assert!(plain.ends_with("No round drew a random order"), "{plain}");
    }
}
