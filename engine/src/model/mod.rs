//! The shared vocabulary at the bottom of the engine: test ids, the suite of a module, orders,
//! outcomes, the record of one experiment, and seeds.
//!
//! Everything above speaks these types; this folder uses only [`crate::error`] and imports no
//! capability. Implements `docs/protocol.md` ("Test ids", "Suite", "Order file", "Events").
//!
//! - [`testid`]: parsing and validating test ids (`Class#method`, invocations `m[2]`, the dotted
//!   IDoFT form).
//! - [`suite`]: the suite of a module (discovered class records) and an index over it.
//! - [`order`]: reading an order, resolving it against a suite, cutting it into segments (one
//!   JUnit request each).
//! - [`outcome`]: test outcomes and their severity order.
//! - [`experiment`]: an experiment the planners ask for and the record of one that ran, the
//!   history every planner replays.
//! - [`kind`]: victim, brittle, NOD: the kinds of flaky test.
//! - [`seed`]: mixing a user's seed with where it is used.
//! - [`strategy`]: the detection strategies users choose (how each is run is [`crate::schedule`]'s).
//!
//! Not here, on purpose: one type for an explanation's `polluters` / `cleaners` /
//! `state_setters`. The triple is declared by [`crate::detect::FlakyTest`],
//! [`crate::repair::RepairTarget`], [`crate::explain::flakerate::FlakeRateRequest`] and (without
//! `cleaners`) [`crate::diagnose::DiagnoseTarget`]. Sharing a type needs `#[serde(flatten)]`,
//! which keeps the JSON's fields but not its reading: serde_json then reports a malformed field
//! at another column, an object sent as an array is refused, and serde does not support
//! `deny_unknown_fields` together with `flatten` (the requests are where that belongs). The
//! detect, report and repair tests also read and write the fields where they are (issue 32).

pub mod experiment;
pub mod kind;
pub mod order;
pub mod outcome;
pub mod seed;
pub mod strategy;
pub mod suite;
pub mod testid;
