//! What a test or a class leaves changed: the static fields (and JDK state) whose values differ
//! between two capture points of one audit run, and which test of a class left each.
//!
//! A field counts as changed only when both points have it in an initialized class: a class
//! initialized between the two points (its state right after initialization is not known there)
//! is the planner's business, which initializes it right before the segment in a later run.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnose::{self, Capture, DiffKind};
use crate::error::EngineError;

use super::shapes::{AuditRecord, ChangedField, Point};

/// One thing left behind, as the points list it: `(kind, name, detail)`.
pub type Leftover = (String, String, String);

/// What `point` lists as started or added since the point before it.
pub fn leftovers_at(point: &Point) -> Vec<Leftover> {
    let threads = point.threads_started.iter().map(|t| {
        (
            "thread".to_string(),
            t.name.clone(),
            if t.daemon { "daemon" } else { "non-daemon" }.to_string(),
        )
    });
    let files = point
        .files_added
        .iter()
        .map(|f| ("file".to_string(), f.name.clone(), f.dir.clone()));
    threads.chain(files).collect()
}

/// A name with its digit runs as `#`: `pool-3-thread-1` and `pool-4-thread-1` are the same
/// thread of two runs, `junit12345.tmp` and `junit67890.tmp` the same file.
pub fn shape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The capture of `point` of `record`.
pub fn load(record: &AuditRecord, point: &Point) -> Result<Capture, String> {
    let (Some(dir), Some(file)) = (&record.captures_dir, &point.capture) else {
        return Err(format!(
            "experiment {} has no capture at point {}{}",
            record.experiment.id,
            point.point,
            point
                .error
                .as_deref()
                .map(|e| format!(" (the agent: {e})"))
                .unwrap_or_default()
        ));
    };
    diagnose::read(&dir.join(file)).map_err(|e: EngineError| e.to_string())
}

/// The fields whose values differ from `before` to `after`, in both initialized.
///
/// A `final` field whose only difference is the field itself written as a reference (`@path`) on
/// one side is left out: the field cannot have been set to another object, so the same object
/// was only reached first by another path in one of the captures (a change inside it shows at
/// that path).
pub fn changed(before: &Capture, after: &Capture) -> Vec<ChangedField> {
    diagnose::diff(after, before)
        .into_iter()
        .filter(|d| d.kind == DiffKind::Changed)
        .filter(|d| {
            !(d.is_final
                && !d.differences.is_empty()
                && d.differences.iter().all(|p| {
                    p.path == d.field && (p.failing.starts_with('@') || p.passing.starts_with('@'))
                }))
        })
        .map(|d| {
            let cache_only = !d.differences.is_empty()
                && d.differences.iter().all(|p| {
                    p.path
                        .get(d.field.len()..)
                        .is_some_and(|rest| rest.to_ascii_lowercase().contains("cache"))
                });
            ChangedField {
                field: d.field,
                pseudo: d.pseudo,
                before: d.passing,
                after: d.failing,
                paths: d.differences.into_iter().map(|p| p.path).collect(),
                since_initialized: false,
                cache_only,
            }
        })
        .collect()
}

/// The class of a field's display name (`com.acme.Config$Impl.DEFAULT` gives
/// `com.acme.Config$Impl`).
pub fn class_of_field(field: &str) -> &str {
    field.rsplit_once('.').map_or(field, |(c, _)| c)
}

/// Whether `capture` has `class` initialized.
pub fn is_initialized(capture: &Capture, class: &str) -> bool {
    matches!(
        capture.classes.get(class),
        Some(diagnose::ClassState::Initialized(_))
    )
}

/// The paths where two captures of the same point in two JVMs differ: noise (identity hash
/// codes, times, ports).
pub fn noise(a: &Capture, b: &Capture) -> BTreeSet<String> {
    diagnose::diff(a, b)
        .into_iter()
        .flat_map(|d| d.differences.into_iter().map(|p| p.path))
        .collect()
}

/// The fields of `classes` whose values differ from `initial` (their state right after
/// initialization, taken in another JVM) to `after`, each with a differing path that is not
/// `noise`.
pub fn changed_since_initialized(
    initial: &Capture,
    after: &Capture,
    noise: &BTreeSet<String>,
    classes: &BTreeSet<String>,
) -> Vec<ChangedField> {
    changed(initial, after)
        .into_iter()
        .filter(|c| !c.pseudo && classes.contains(class_of_field(&c.field)))
        .filter(|c| c.paths.iter().any(|p| !noise.contains(p)))
        .map(|c| ChangedField {
            since_initialized: true,
            ..c
        })
        .collect()
}

/// The points of one segment of a run: its class point, the test points inside it, and the
/// point that ends it (the next segment's class point, or the end).
#[derive(Debug, Clone, Default)]
pub struct SegmentPoints<'r> {
    /// Before the segment (its class not yet prepared).
    pub start: Option<&'r Point>,
    /// Before each test captured inside it, in order.
    pub tests: Vec<&'r Point>,
    /// After it.
    pub end: Option<&'r Point>,
}

/// The points of the first JVM of a run: a run that went on in another JVM (a test ended the
/// first with `System.exit`, a crash or a timeout) numbers its points and segments anew there.
pub fn first_jvm(record: &AuditRecord) -> Vec<&Point> {
    let jvm = record.points.first().and_then(|p| p.jvm.clone());
    record.points.iter().filter(|p| p.jvm == jvm).collect()
}

/// The points of `record` (its first JVM's) by segment index.
pub fn by_segment(record: &AuditRecord) -> BTreeMap<usize, SegmentPoints<'_>> {
    let mut out: BTreeMap<usize, SegmentPoints<'_>> = BTreeMap::new();
    for p in first_jvm(record) {
        let Ok(segment) = usize::try_from(p.segment) else {
            continue;
        };
        match p.at.as_str() {
            "class" => {
                out.entry(segment).or_default().start = Some(p);
                if segment > 0 {
                    out.entry(segment - 1).or_default().end = Some(p);
                }
            }
            "test" => out.entry(segment).or_default().tests.push(p),
            _ => {
                out.entry(segment).or_default().end = Some(p);
            }
        }
    }
    out
}

/// Classes initialized during each segment (listed by the point that ends it).
pub fn initialized_during(record: &AuditRecord) -> BTreeMap<usize, Vec<String>> {
    let mut out = BTreeMap::new();
    for (segment, points) in by_segment(record) {
        let mut classes: Vec<String> = points
            .tests
            .iter()
            .chain(points.end.iter())
            .flat_map(|p| p.new.iter().cloned())
            .collect();
        classes.sort();
        classes.dedup();
        if !classes.is_empty() {
            out.insert(segment, classes);
        }
    }
    out
}

/// Who, inside one segment, left `field` with the value it has at the segment's end: the
/// interval (class setup, a test, or the last test with class teardown) whose end has that value
/// and whose start does not, the last such; and the other intervals that changed it before.
#[derive(Debug)]
pub struct Attribution {
    /// The test (or class setup/teardown) that left it.
    pub by: String,
    /// Earlier intervals that changed it.
    pub also: Vec<String>,
    /// The index of the interval that left it (from capture `at` to capture `at + 1`).
    pub at: usize,
}

/// Attributes each of `fields` (changed over the segment) to the interval that left it, from the
/// captures of the segment's points in order (`labels[i]` names the interval from capture `i` to
/// capture `i + 1`).
pub fn attribute(
    captures: &[Capture],
    labels: &[String],
    fields: &[String],
) -> BTreeMap<String, Attribution> {
    let mut changed_in: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for i in 0..captures.len().saturating_sub(1) {
        for c in changed(&captures[i], &captures[i + 1]) {
            if fields.contains(&c.field) {
                changed_in.entry(c.field).or_default().push(i);
            }
        }
    }
    let mut out = BTreeMap::new();
    for (field, intervals) in changed_in {
        let Some(&last) = intervals.last() else {
            continue;
        };
        let also = intervals[..intervals.len() - 1]
            .iter()
            .map(|&i| labels[i].clone())
            .collect();
        out.insert(
            field,
            Attribution {
                by: labels[last].clone(),
                also,
                at: last,
            },
        );
    }
    out
}
