//! Running an exact order faithfully: checking that the order that ran is the order requested
//! (`docs/run-order.md`, DESIGN "Running an exact order faithfully").
//!
//! Uses [`crate::model`] only. Future engine-side decisions about *how* orders run (batches of
//! independent experiments for parallel forks, in-JVM isolation checks) belong here.
//!
//! - [`check`]: comparing the tests that ran, in the order they ran, with the order requested.

pub mod check;
