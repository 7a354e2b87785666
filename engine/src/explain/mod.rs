//! Explaining an order-dependent test: its polluters and their cleaners (victims), its
//! state-setters (brittles), and how often it fails.
//!
//! Implements Li et al. (ICSE 2022) section 2 (iFixFlakies' polluters, cleaners and state-setters by delta
//! debugging) and Wei et al., TACAS 2021 (flake rates of victims and brittles: Special Cases 1 and 2, sampling);
//! `docs/minimize-algorithm.md`, `docs/flake-rate.md`.
//!
//! Uses [`crate::model`] and [`crate::error`]; the detection planner ([`crate::detect`]) drives
//! it from its history.
//!
//! - [`ddmin`]: delta debugging (Zeller's ddmin), direct and resumable from known answers.
//! - [`group`]: adaptive group testing: every member of a set with an effect, by binary splitting.
//! - [`minimize`]: the next query of an explanation, from the outcomes observed so far.
//! - `cause`: the victims of one polluter, explained together by runs of the whole module.
//! - [`flakerate`]: flake rates (closed forms, exact counting, seeded sampling).

mod cause;
pub mod ddmin;
pub mod flakerate;
pub mod group;
pub mod minimize;
