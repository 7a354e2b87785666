//! Rendering a detection report for people and dashboards: HTML and Surefire-style XML
//! (`docs/detect.md`, "Reports").
//!
//! Uses [`crate::detect`]'s findings, [`crate::audit`], [`crate::history`], [`crate::explain::flakerate`], [`crate::idtests`] and
//! [`crate::model`]. Every capability that reports findings (repair, diagnose, incremental, ID
//! tests) renders here.
//!
//! - [`file`]: `report.json` itself ([`ReportFile`], its schema version) and the `report` op:
//!   built from a summary, or written again, with its HTML and XML in the same answer.
//! - [`causes`]: the OD tests grouped by root cause, with what repair made of each.
//! - [`document`]: the renderer's view of a report and the sentences made of it.
//! - `text`: percentages, counted nouns, HTML and XML escaping, Surefire `<testcase>`s.
//! - `html`: the HTML page of a detection report; `html_causes`: its cause cards.
//! - [`render`](mod@render): a detection report's HTML and XML forms.
//! - [`audit`]: the report of `odrust:audit` (`audit_report`): HTML and console text of an
//!   [`crate::audit::AuditOutcome`].
//! - [`history`]: the history of `odrust:history` (`history_report`): what a module's run
//!   records say over time ([`crate::history`]), as HTML and console text.
//! - [`id`]: the report of `odrust:detect-id` (`id_report`): HTML, XML and console text of an
//!   [`crate::idtests::IdOutcome`].

pub mod audit;
pub mod causes;
pub mod document;
pub mod file;
pub mod history;
mod html;
mod html_causes;
pub mod id;
pub mod render;
mod text;

pub use audit::{render_audit, AuditRendered, AuditReportRequest};
pub use document::{Report, ReportEntry};
pub use file::{ReportFile, ReportRequest, ReportTexts, REPORT_SCHEMA_VERSION};
pub use history::{render_history, HistoryRendered};
pub use id::{render_id, IdRendered, IdReportRequest};
pub use render::{render, Rendered};
