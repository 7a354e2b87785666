//! The planner of `odrust:detect`: which experiment to run next, and what the experiments found.
//!
//! [`next`] and [`summary`] are pure functions of the configuration, the suite and the history of
//! finished experiments (`docs/protocol.md`, "Detection"): they replay the history from the
//! start, checking that each record is what the plan asked for ([`EngineError::BadHistory`]
//! otherwise), and derive everything from it. The same inputs always give the same answer, so a killed run resumes from its history file. A
//! [`session`] keeps that replay state between calls of one run and feeds it only the records
//! added since, with the same code: the same answers, at a cost per call that does not grow with
//! the history.
//!
//! The phases (`docs/detect-algorithm.md`):
//!
//! 1. **baseline**: the original order, until every test passes or `baseline_tries` runs were made.
//!    A test that failed in every baseline run is *failing*; one that failed in some and passed
//!    in others is NOD.
//! 2. **rounds**: one order per round from the [`Strategy`]. A test that passed in the baseline
//!    and does not pass in a round is a *candidate*; so is a failing test that passes in a round
//!    (a candidate the other way round: its original order is the failing one).
//! 3. **confirm**: right after a round with candidates, the round's order is rerun cut right
//!    after its last candidate, then the original order cut right after the last candidate. A
//!    candidate that failed in the round must fail again in the first (`confirm-fail`) and pass in
//!    the second (`confirm-pass`); a failing test that passed in the round must pass again in the
//!    first (`confirm-pass`) and fail again in the second (`confirm-fail`). Then it is
//!    order-dependent (OD); otherwise it is NOD. A round with candidates of both kinds gets both
//!    pairs of confirmations, the ones of the failed tests first.
//! 4. **alone**: `alone_runs` runs of each OD test by itself, in order of discovery: passing
//!    every time makes it a victim, failing every time a brittle, anything else NOD.
//! 5. **minimize** (when `minimize` is on): each victim's polluters and their cleaners, each
//!    brittle's state-setters ([`crate::explain::minimize`]), at most `minimize_budget` experiments per OD
//!
//! Implements iDFlakies' detection loop with Wei et al.'s (TACAS 2021) reverse of a passing order and its
//! systematic schedules, and DTDetector's (ISSTA 2014) classification (`docs/detect-algorithm.md`). Uses
//! [`crate::model`], [`crate::schedule`], [`crate::explain`] and [`crate::error`].
//!
//! One file per phase, all of them methods of one replay state ([`replay`]):
//!
//! - [`config`]: the validated configuration and its defaults.
//! - [`findings`]: what detection answers (the next step, progress, flaky tests, the summary).
//! - `replay`: [`next`] and [`summary`]; replaying a history and planning the next experiment.
//! - `baseline`: sorting the baseline's tests into passing, failing and NOD.
//! - `rounds`: building a systematic schedule, taking in a round, finding candidates.
//! - `confirm`: deciding candidates from their two confirmation runs.
//! - `classify`: victim / brittle / NOD from alone runs; the summary.
//! - `minimize`: the hand-off to [`crate::explain`]: the next explanation experiment, and notes.
//! - `cache`: the last systematic schedule and targeted plan built, kept between calls.
//! - [`coverage`]: what the rounds covered, and the chance that a victim escaped them.
//! - [`session`]: the replay state of a run kept between calls, fed only the new records.
//! - `shared`: explanation experiments in shared JVMs, and the fresh-JVM checks of their claims.
//! - `units`: the unit of an order that runs a test, an order cut after some tests.
//! - [`phases`]: the phases, and the shapes of estimates.
//! - [`estimate`]: what is left of the run phase by phase, and each phase's prediction against
//!   its cost.

mod baseline;
mod cache;
mod classify;
pub mod config;
mod confirm;
pub mod coverage;
pub mod estimate;
pub mod findings;
pub mod merge;
mod minimize;
pub mod phases;
mod replay;
mod rounds;
pub mod session;
mod shared;
mod units;

#[cfg(test)]
mod estimate_tests;
#[cfg(test)]
mod tests;

pub use config::{
    default_rounds, DetectConfig, RawConfig, RawCost, DEFAULT_ALONE_RUNS, DEFAULT_BASELINE_TRIES,
    DEFAULT_K, DEFAULT_MINIMIZE_BUDGET, DEFAULT_ROUNDS,
};
pub use findings::{
    AloneRuns, FailingTest, FlakyTest, NextStep, PairsCovered, Phase, PlannedExperiment, Progress,
    Summary,
};
pub use replay::{next, summary};
