//! Confirmation: a round's candidates rerun in the failing and the passing order, each cut
//! after the last candidate; OD or NOD from the two.

use std::collections::BTreeMap;

use super::findings::FlakyTest;
use super::replay::{Found, OdTest, Pending, Replay, Turn};
use super::rounds::round_text;
use super::units::{unit_in, Results};
use crate::model::kind::FlakyKind;

impl Replay {
    /// Takes in the second confirmation of `pending` (the original order cut after its last
    /// candidate) and decides each candidate.
    pub(super) fn absorb_confirmations(
        &mut self,
        pending: Pending,
        original_id: usize,
        original_results: &Results,
        original_order: &[String],
    ) {
        let Some((rerun_id, rerun_results, rerun_order)) = pending.round_rerun else {
            return;
        };
        let round = &self.rounds[pending.round];
        let seen_in = round_text(round);
        for c in pending.candidates {
            let in_rerun = rerun_results.passed(&c.test);
            let in_original = original_results.passed(&c.test);
            let nod = |failing_experiment, passing_experiment, message, evidence: String| {
                Box::new(FlakyTest {
                    test: c.test.clone(),
                    kind: FlakyKind::Nod,
                    failing_experiment,
                    passing_experiment,
                    message,
                    alone: None,
                    evidence,
                    polluters: Vec::new(),
                    cleaners: BTreeMap::new(),
                    state_setters: Vec::new(),
                    flake_rate: None,
                    minimize_experiments: 0,
                    minimize_complete: false,
                    cleaners_unfinished: Vec::new(),
                    shard: None,
                })
            };
            let od =
                |message, confirm_fail, confirm_pass, fail_order: &[String], pass_order| OdTest {
                    unit: unit_in(&round.order, &c.test),
                    test: c.test.clone(),
                    round: pending.round,
                    turn: pending.turn,
                    message,
                    confirm_fail,
                    confirm_pass,
                    fail_order: fail_order.to_vec(),
                    pass_order,
                    alone: Vec::new(),
                    alone_shared: 0,
                    alone_set_aside: 0,
                };
            // The verdict that repeats the round: fails (failed in round) or passes (passed in it).
            let repeats = pending.turn == Turn::PassedInRound;
            let found = match (pending.turn, in_rerun, in_original) {
                // A round in a shared JVM that a fresh JVM does not repeat: the isolation may
                // have left something behind, so it says nothing about the test (never NOD).
                (_, Some(r), _) if round.in_jvm && r != repeats => Found::Nothing(format!(
                    "`{}` {} in {seen_in}, but not when that order was rerun in a fresh JVM (experiment {rerun_id}): not reported, as the shared JVM may have kept state a fresh one does not",
                    c.test,
                    if repeats { "passed" } else { "failed" }
                )),
                (_, Some(r), Some(o)) if r == repeats && o != repeats => {
                    Found::Od(match pending.turn {
                        Turn::FailedInRound => od(
                            c.message.clone().or_else(|| rerun_results.message(&c.test)),
                            rerun_id,
                            original_id,
                            &rerun_order,
                            original_order.to_vec(),
                        ),
                        Turn::PassedInRound => od(
                            original_results
                                .message(&c.test)
                                .or_else(|| self.failing_message(&c.test)),
                            original_id,
                            rerun_id,
                            original_order,
                            rerun_order.clone(),
                        ),
                    })
                }
                (Turn::FailedInRound, Some(true), _) => Found::Nod(nod(
                    round.experiment,
                    rerun_id,
                    c.message.clone(),
                    format!(
                        "failed in {seen_in} but passed when that order was rerun up to it (experiment {rerun_id})"
                    ),
                )),
                (Turn::FailedInRound, Some(false), Some(false)) => {
                    let passed_in = self
                        .baseline
                        .iter()
                        .find(|(_, r)| r.passed(&c.test) == Some(true))
                        .map_or(0, |(e, _)| *e);
                    Found::Nod(nod(
                        round.experiment,
                        passed_in,
                        c.message.clone(),
                        format!(
                            "failed in {seen_in} and when that order was rerun up to it (experiment {rerun_id}), but also in the original order up to it (experiment {original_id}), which it passed in the baseline (experiment {passed_in})"
                        ),
                    ))
                }
                (Turn::PassedInRound, Some(false), _) => Found::Nod(nod(
                    rerun_id,
                    round.experiment,
                    rerun_results.message(&c.test),
                    format!(
                        "failed in every baseline run ({}) and passed in {seen_in}, but failed when that order was rerun up to it (experiment {rerun_id})",
                        self.baseline_text()
                    ),
                )),
                (Turn::PassedInRound, Some(true), Some(true)) => {
                    let failed_in = self
                        .baseline
                        .iter()
                        .find(|(_, r)| r.passed(&c.test) == Some(false))
                        .map_or(0, |(e, _)| *e);
                    Found::Nod(nod(
                        failed_in,
                        original_id,
                        self.failing_message(&c.test),
                        format!(
                            "failed in every baseline run ({}) and passed in {seen_in} and when that order was rerun up to it (experiment {rerun_id}), but also in the original order up to it (experiment {original_id})",
                            self.baseline_text()
                        ),
                    ))
                }
                _ => Found::Nothing(match pending.turn {
                    Turn::FailedInRound => format!(
                        "`{}` failed in {seen_in}, but a confirmation run (experiment {rerun_id} or {original_id}) did not report it: it is not reported and may be found again",
                        c.test
                    ),
                    Turn::PassedInRound => format!(
                        "`{}` failed in every baseline run and passed in {seen_in}, but a confirmation run (experiment {rerun_id} or {original_id}) did not report it: it stays failing and may be found again",
                        c.test
                    ),
                }),
            };
            match found {
                Found::Od(od) => {
                    self.classified.insert(c.test.clone());
                    self.od.push(od);
                }
                Found::Nod(nod) => {
                    self.classified.insert(c.test.clone());
                    self.nod.push(*nod);
                }
                Found::Nothing(note) => self.inconclusive.push(note),
            }
        }
    }

    /// The message of the last baseline failure of a failing test.
    pub(super) fn failing_message(&self, test: &str) -> Option<String> {
        self.failing
            .iter()
            .find(|f| f.test == test)
            .and_then(|f| f.message.clone())
    }
}
