//! A module's odrust runs over time (`odrust:history`, issue 35; docs/history.md): each detect,
//! incremental, merge, repair and audit run with `-Dodrust.history=DIR` leaves one compact run
//! record in `DIR`; this folder reads them and says what happened to each flaky test and each
//! cause across the runs: a test x run grid (found, not found, not run), each cause's first and
//! last sighting, and the run (and commit) from which a test stopped being found, after which
//! patch if one was offered for it before.
//!
//! May use [`crate::model`] only.
//!
//! - [`shapes`]: a run record as the plugin writes it ([`shapes::RunRecord`], versioned).
//! - [`view`]: the records read, checked and put in order, and what they say
//!   ([`view::history`]): the view `report::history` renders.
//! - [`quarantine`]: the quarantine file (tests and causes accepted until a date, with an owner):
//!   what it says about a run's findings (`quarantine_check`), and entries for a run's unfixed
//!   causes (`quarantine_add`).

pub mod quarantine;
pub mod shapes;
pub mod view;

pub use shapes::{RunRecord, RECORD_VERSION};
pub use view::{history, HistoryRequest, HistoryView};

#[cfg(test)]
mod quarantine_tests;
#[cfg(test)]
mod tests;
