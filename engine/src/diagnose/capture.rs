//! Reading one heap-state capture: the XML the agent writes right before a test starts
//! (`/tmp/spec/capture-format.md`, version 1), into a [`Capture`] of [`Node`] trees, and the short
//! rendering of a node ([`render`]) that the diff shows.
//!
//! Captures can nest deeply (linked structures walked field by field), and this code may run on a
//! JNI thread with a small stack, so nothing here recurses once per level: the parser keeps its
//! open elements on a heap stack and refuses nesting deeper than [`MAX_DEPTH`] nodes, rendering
//! stops at [`RENDER_LIMIT`] characters, `canonical` keeps its own stack, and dropping a [`Node`]
//! is iterative. (The derived `Clone`, `PartialEq` and `Debug` do recurse; the engine does not use
//! them on whole captures.)
//!
//! This file reads and parses; the shapes are [`super::node`]'s, the XML reader
//! `super::xml`'s, the renderings [`super::short`]'s (all re-exported here).

use std::fs;
use std::io;
use std::path::Path;

use crate::error::EngineError;

pub use super::node::{Capture, ClassState, Node, ObjField, StaticField};
pub(crate) use super::short::canonical;
pub use super::short::{render, RENDER_LIMIT};
use super::xml::parse_text;
pub use super::xml::{MAX_DEPTH, VERSION};

/// Reads the capture file at `path`.
///
/// Errors: [`EngineError::Io`] naming the path when the file cannot be read or is not a valid
/// version-1 capture (malformed XML, an unknown element or attribute, another version, nesting
/// deeper than [`MAX_DEPTH`]); the message gives the line and column and what is wrong.
pub fn read(path: &Path) -> Result<Capture, EngineError> {
    let bytes = fs::read(path).map_err(|source| EngineError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|e| capture_error(path, format!("the file is not UTF-8: {e}")))?;
    parse_text(&text).map_err(|reason| capture_error(path, reason))
}

/// Parses the text of a capture; errors as [`read`], naming `the capture text` instead of a file.
pub fn parse(xml: &str) -> Result<Capture, EngineError> {
    parse_text(xml).map_err(|reason| capture_error(Path::new("the capture text"), reason))
}

/// The error for a capture that is not valid. The one place that chooses the variant: `Io` with
/// `InvalidData` ("cannot read FILE: not a valid heap-state capture: ..."), until the error type
/// has a variant of its own for captures.
fn capture_error(file: &Path, reason: String) -> EngineError {
    EngineError::Io {
        path: file.to_path_buf(),
        source: io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not a valid heap-state capture: {reason}"),
        ),
    }
}

#[cfg(test)]
#[path = "capture_tests.rs"]
mod tests;
