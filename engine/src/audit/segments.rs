//! What each segment (a class's block) of a captured run left behind: the fields that differ
//! across it, the threads and files, and which interval (class setup, a test) left each.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::model::testid::class_of;

use crate::diagnose::Capture;

use super::changes::{self, SegmentPoints};
use super::shapes::{AuditRecord, ChangedField, LeftBehind, Point};

/// The class of a segment: the class of the test its class point names.
pub fn segment_class(record: &AuditRecord, segment: usize) -> Option<String> {
    changes::by_segment(record)
        .get(&segment)?
        .start?
        .test
        .as_deref()
        .map(|t| class_of(t).to_string())
}

/// The fields each segment of `record` leaves changed: those of classes initialized before it,
/// from the capture before it to the one after it; and with `initial` (the same order with each
/// class initialized right before the segment that initialized it in `record`), those of the
/// classes the segment initialized, from their state right after initialization.
pub fn segment_changes(
    record: &AuditRecord,
    initial: Option<&AuditRecord>,
    notes: &mut Vec<String>,
) -> BTreeMap<usize, Vec<ChangedField>> {
    let mut out = BTreeMap::new();
    let initial_points = initial.map(changes::by_segment);
    let mut cache: Option<(u32, Capture)> = None;
    for (segment, points) in changes::by_segment(record) {
        let (Some(start), Some(end)) = (points.start, points.end) else {
            continue;
        };
        let before = match cache.take() {
            Some((n, c)) if n == start.point => Ok(c),
            _ => changes::load(record, start),
        };
        let after = changes::load(record, end);
        match (before, after) {
            (Ok(b), Ok(a)) => {
                let mut changed = changes::changed(&b, &a);
                let fresh: BTreeSet<String> = end.new.iter().cloned().collect();
                let initial_start = initial_points
                    .as_ref()
                    .and_then(|p| p.get(&segment))
                    .and_then(|p| p.start);
                if let (Some(h), Some(h_start)) = (initial, initial_start) {
                    if !fresh.is_empty() {
                        match changes::load(h, h_start) {
                            Ok(init) => changed.extend(changes::changed_since_initialized(
                                &init,
                                &a,
                                &BTreeSet::new(),
                                &fresh,
                            )),
                            Err(why) => notes.push(why),
                        }
                    }
                }
                if !changed.is_empty() {
                    out.insert(segment, changed);
                }
                cache = Some((end.point, a));
            }
            (Err(why), _) | (_, Err(why)) => notes.push(why),
        }
    }
    out
}

/// What each segment of `record` left behind (threads, files), over all its points. A file
/// written during more than half of the segments (of at least three) is something else's, a log
/// being appended to, and is left out (with a note).
pub fn segment_leftovers(
    record: &AuditRecord,
    notes: &mut Vec<String>,
) -> BTreeMap<usize, Vec<changes::Leftover>> {
    let segments = changes::by_segment(record);
    let mut out: BTreeMap<usize, Vec<changes::Leftover>> = BTreeMap::new();
    let mut files_in: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (segment, points) in &segments {
        let mut items: Vec<changes::Leftover> = points
            .tests
            .iter()
            .chain(points.end.iter())
            .flat_map(|p| changes::leftovers_at(p))
            .collect();
        items.sort();
        items.dedup();
        for (kind, name, detail) in &items {
            if kind == "file" {
                *files_in.entry((detail.clone(), name.clone())).or_default() += 1;
            }
        }
        if !items.is_empty() {
            out.insert(*segment, items);
        }
    }
    let busy: BTreeSet<(String, String)> = files_in
        .into_iter()
        .filter(|(_, n)| segments.len() >= 3 && *n * 2 > segments.len())
        .map(|(f, _)| f)
        .collect();
    for (dir, name) in &busy {
        notes.push(format!(
            "{name} ({dir}) was written during most classes: not counted as left behind by any (a log?)"
        ));
    }
    for items in out.values_mut() {
        items.retain(|(kind, name, detail)| {
            kind != "file" || !busy.contains(&(detail.clone(), name.clone()))
        });
    }
    out.retain(|_, items| !items.is_empty());
    out
}

/// The things left behind that both runs show for the same segment (names compared with their
/// digits ignored), each attributed to the interval of `by_test` whose end first lists it.
pub fn left_behind(
    by_class: &AuditRecord,
    by_test: &AuditRecord,
    leftovers: &BTreeMap<usize, Vec<changes::Leftover>>,
    notes: &mut Vec<String>,
) -> Vec<LeftBehind> {
    let segments = changes::by_segment(by_test);
    // a file counts only when it is still there when each run ends (another process's
    // transient files in the temporary directory come and go)
    let still_there = |record: &AuditRecord| -> BTreeSet<(String, String)> {
        changes::first_jvm(record)
            .iter()
            .filter(|p| p.at == "end")
            .flat_map(|p| p.files_left.iter())
            .map(|f| (f.dir.clone(), changes::shape(&f.name)))
            .collect()
    };
    let (left_a, left_b) = (still_there(by_class), still_there(by_test));
    let mut out = Vec::new();
    for (segment, items) in leftovers {
        let class = segment_class(by_class, *segment).unwrap_or_default();
        let Some(points) = segments.get(segment) else {
            continue;
        };
        let mut labels = vec![format!("{class} (class setup)")];
        labels.extend(
            points
                .tests
                .iter()
                .map(|p| p.test.clone().unwrap_or_else(|| class.clone())),
        );
        let ends: Vec<&Point> = points
            .tests
            .iter()
            .chain(points.end.iter())
            .copied()
            .collect();
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        let mut unstable: Vec<String> = Vec::new();
        for (kind, name, detail) in items {
            let key = (kind.clone(), changes::shape(name));
            if kind == "file" {
                let at = (detail.clone(), key.1.clone());
                if !left_a.contains(&at) || !left_b.contains(&at) {
                    continue;
                }
            }
            if !seen.insert(key.clone()) {
                continue;
            }
            let found = ends.iter().enumerate().find_map(|(i, p)| {
                changes::leftovers_at(p)
                    .into_iter()
                    .find(|(k, n, _)| *k == key.0 && changes::shape(n) == key.1)
                    .map(|l| (i, l))
            });
            match found {
                Some((i, (kind, name, detail))) => out.push(LeftBehind {
                    test: labels[i.min(labels.len() - 1)].clone(),
                    class: class.clone(),
                    kind,
                    name,
                    detail,
                    experiments: vec![by_class.experiment.id, by_test.experiment.id],
                }),
                None => unstable.push(format!("{kind} {name}")),
            }
        }
        if !unstable.is_empty() {
            notes.push(format!(
                "{class} left {} in experiment {} but not in experiment {}: left out as unstable",
                unstable.join(", "),
                by_class.experiment.id,
                by_test.experiment.id
            ));
        }
    }
    out
}

/// The captures of a segment's points in order, and the name of each interval between them.
pub fn load_segment(
    record: &AuditRecord,
    points: &SegmentPoints<'_>,
    class: &str,
) -> Result<(Vec<Capture>, Vec<String>), String> {
    let (Some(start), Some(end)) = (points.start, points.end) else {
        return Err(format!(
            "experiment {}: the segment of {class} has no start or end capture",
            record.experiment.id
        ));
    };
    let mut all: Vec<&Point> = vec![start];
    all.extend(points.tests.iter().copied());
    all.push(end);
    let mut labels = vec![format!("{class} (class setup)")];
    for p in &points.tests {
        labels.push(p.test.clone().unwrap_or_else(|| class.to_string()));
    }
    let captures = all
        .iter()
        .map(|p| changes::load(record, p))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((captures, labels))
}

/// The capture files right before and right after interval `k` of a segment of `record` (the
/// points as [`load_segment`] takes them: its start, its test points, its end), and which start of
/// its test the first is.
pub type Bracket = (Option<PathBuf>, Option<PathBuf>, Option<u32>);

pub fn bracket(record: &AuditRecord, points: &SegmentPoints<'_>, k: usize) -> Bracket {
    let mut all: Vec<&Point> = points.start.into_iter().collect();
    all.extend(points.tests.iter().copied());
    all.extend(points.end);
    let file = |p: Option<&&Point>| capture_file(record, p?);
    (
        file(all.get(k)),
        file(all.get(k + 1)),
        all.get(k).and_then(|p| p.occurrence),
    )
}

/// The capture file of `point` of `record`.
pub fn capture_file(record: &AuditRecord, point: &Point) -> Option<PathBuf> {
    Some(record.captures_dir.as_ref()?.join(point.capture.as_ref()?))
}
