//! What `mvn test` itself says: reading Surefire's `TEST-*.xml` reports, and comparing their
//! outcomes with odrust's run of the original order (`odrust:fidelity`, `docs/run-order.md`).
//!
//! Uses [`crate::model`] and [`crate::error`].
//!
//! - [`reports`]: reading Surefire's XML reports into outcomes per test.
//! - [`compare`]: comparing two sets of outcomes (the fidelity check).

pub mod compare;
pub mod reports;
