//! Which orders to run: detection strategies, seeded random orders, and the systematic
//! schedules that cover every consecutive ordered pair of tests.
//!
//! Implements the TACAS 2021 paper (Wei et al., "Probabilistic and Systematic Coverage of Consecutive
//! Test-Method Pairs": section 5, Tuscan squares and Algorithm 1), Zhang et al., ISSTA 2014 (DTDetector's
//! k-bounded and dependence-aware exploration) and iDFlakies' random class / class-method orders;
//! `docs/detect-algorithm.md`, `docs/schedules.md`, `docs/dependence.md`.
//!
//! Uses [`crate::model`] and [`crate::error`]. Inside, from the bottom up:
//!
//! - [`random`]: the whole-suite generators (original, reverse, random class / class-method,
//!   reverse of an order) and the seeded generator of a round.
//! - [`tuscan`]: Tuscan squares (orders of `0..n` covering every consecutive ordered pair).
//! - `program`: the class-path linear program of a few classes (a lower bound, and the class
//!   paths orders should take).
//! - [`cost`]: the cost model of an order and lower bounds of a pair cover.
//! - `units`, `orders`: the schedulers' working sets (tests as indices, pair bit sets, stored
//!   and computed orders).
//! - `bins`: classes packed into bins the size of the biggest class.
//! - `cover`, `paths`, `covering`, `tuscan_orders`: the constructions: Algorithm 1's
//!   inter-class cover, orders along the program's class paths, the cover of a set of required
//!   pairs, per-class squares with the binned construction (which takes per-class squares of
//!   each bin, hence one file).
//! - [`systematic`]: [`Schedule`], one systematic strategy's orders, and pair coverage.
//! - [`dependence`]: the dependence-aware plan from the static fields a recorded baseline saw.
//! - [`targeted`]: whole-suite orders that put each writer of a static field right before its
//!   readers (the first rounds of the default strategy).
//! - [`rounds`]: the order of each detection round, for every strategy.

mod bins;
pub mod cost;
mod cover;
mod covering;
pub mod dependence;
mod orders;
mod paths;
mod program;
pub mod random;
pub mod rounds;
pub mod systematic;
pub mod targeted;
pub mod tuscan;
mod tuscan_orders;
mod units;

pub use crate::model::strategy::Strategy;
pub use cost::{lower_bound, predicted_cost, CostModel, LowerBound};
pub use systematic::{covering, PairCoverage, Schedule};
pub use units::{runnable_pairs, unit_ids};
