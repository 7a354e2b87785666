//! Rendering a detection report for people and dashboards: HTML and Surefire-style XML
//! (`docs/detect.md`, "Reports").
//!
//! Uses [`crate::detect`]'s findings, [`crate::explain::flakerate`] and [`crate::model`]. Every
//! capability that reports findings (repair, diagnose, incremental, ID tests) renders here.
//!
//! - [`render`]: the report document and its HTML and XML forms.

mod html;
pub mod render;

pub use render::{render, Rendered, Report, ReportEntry};
