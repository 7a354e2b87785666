//! Rendering a detection report for people and dashboards: HTML and Surefire-style XML
//! (`docs/detect.md`, "Reports").
//!
//! Uses [`crate::detect`]'s findings, [`crate::explain::flakerate`], [`crate::idtests`] and
//! [`crate::model`]. Every capability that reports findings (repair, diagnose, incremental, ID
//! tests) renders here.
//!
//! - [`render`]: the report document and its HTML and XML forms.
//! - [`id`]: the report of `odrust:detect-id` (`id_report`): HTML, XML and console text of an
//!   [`crate::idtests::IdOutcome`].

mod html;
pub mod id;
pub mod render;

pub use id::{render_id, IdRendered, IdReportRequest};
pub use render::{render, Rendered, Report, ReportEntry};
