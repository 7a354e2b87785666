//! The diff of two captures taken before the same victim: one in a failing order (after its
//! polluter), one in a passing order. Each static field (and each piece of pseudo state) whose
//! value differs becomes one [`FieldDiff`], with the smallest paths where the two values differ
//! and whether the agent can set the field back to its passing value (a restore experiment).
//!
//! How values are compared, path by path (paths as in the capture format: `F[3]`, `F[key]`,
//! `F{elem}`, `F.name`):
//! - lists and arrays by index, a missing tail as `(absent)`;
//! - maps by key, sets by element: keys and elements are matched by value (their canonical
//!   form, which ignores entry order), so the same map written in two entry orders has no
//!   difference, and the path names them by their short rendering;
//! - objects of the same class field by field;
//! - a different element kind or class at a path is one difference at that path, not descended
//!   into; refs compare by their `to` path, opaque and unreadable nodes by class and reason.
//!
//! The walk keeps its own stack (captures may nest [`MAX_DEPTH`](super::capture::MAX_DEPTH)
//! levels deep) and its order is fixed by the values alone, so the same captures always give the
//! same diff.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::capture::{canonical, render, Capture, ClassState, Node, ObjField, StaticField};

/// The most [`PathDiff`]s a [`FieldDiff`] lists; the rest are counted in [`FieldDiff::more`].
pub const MAX_DIFFERENCES: usize = 10;

/// Shown for a side that has no value at a path.
pub const ABSENT: &str = "(absent)";

/// Shown for a field whose class is loaded but not initialized.
pub const NOT_INITIALIZED: &str = "(not initialized)";

/// Shown for a field whose class is not loaded at all.
pub const NOT_LOADED: &str = "(not loaded)";

/// Why a field only the failing capture has cannot be restored.
const ONLY_FAILING: &str =
    "the class was initialized only after the polluter ran; a class cannot be un-initialized";

/// Why a field only the passing capture has cannot be restored.
const ONLY_PASSING: &str =
    "the class is not initialized in the failing order; odrust does not run \
                            a static initializer to restore a field";

/// How a field differs between the two captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffKind {
    /// Both captures have the field, with different values.
    Changed,
    /// Only the failing capture has the field (its class is initialized only there).
    OnlyFailing,
    /// Only the passing capture has the field.
    OnlyPassing,
}

/// One static field (or piece of pseudo state) whose value differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldDiff {
    /// Its display name: `com.acme.Prices.RATES`, or a pseudo-state name
    /// (`java.lang.System.properties`).
    pub field: String,
    /// Whether it is JDK pseudo state rather than a static field.
    pub pseudo: bool,
    /// Whether the field is `final`.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// How it differs.
    pub kind: DiffKind,
    /// The short rendering of the failing value, or [`NOT_INITIALIZED`], [`NOT_LOADED`],
    /// [`ABSENT`].
    pub failing: String,
    /// The short rendering of the passing value, or [`NOT_INITIALIZED`], [`NOT_LOADED`],
    /// [`ABSENT`].
    pub passing: String,
    /// The smallest paths where the values differ, in walk order, at most [`MAX_DIFFERENCES`].
    pub differences: Vec<PathDiff>,
    /// How many more differing paths there are beyond those listed.
    pub more: usize,
    /// Whether the agent can set the field back to its passing value.
    pub restorable: bool,
    /// Why not, when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
}

/// One path where two values differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathDiff {
    /// The path: the field's display name, then `[3]`, `[key]`, `{elem}`, `.name` steps.
    pub path: String,
    /// The short rendering of the failing value there, or [`ABSENT`].
    pub failing: String,
    /// The short rendering of the passing value there, or [`ABSENT`].
    pub passing: String,
}

/// The fields whose values differ between a capture before the victim in a failing order and one
/// in a passing order: pseudo state first (by name), then static fields by display name. Identical
/// fields are left out; a class initialized in one capture only gives an
/// [`OnlyFailing`](DiffKind::OnlyFailing) or [`OnlyPassing`](DiffKind::OnlyPassing) diff per
/// static field, which cannot be restored.
pub fn diff(failing: &Capture, passing: &Capture) -> Vec<FieldDiff> {
    let mut diffs = Vec::new();
    let names: BTreeSet<&String> = failing.pseudo.keys().chain(passing.pseudo.keys()).collect();
    for name in names {
        let sides = (failing.pseudo.get(name), passing.pseudo.get(name));
        let diff = match sides {
            (Some(f), Some(p)) => compare_field(name, true, false, f, p),
            (Some(f), None) => Some(one_sided(
                name,
                true,
                false,
                DiffKind::OnlyFailing,
                (render(f), ABSENT.to_string()),
                "the pseudo state is captured only in the failing order",
            )),
            (None, Some(p)) => Some(one_sided(
                name,
                true,
                false,
                DiffKind::OnlyPassing,
                (ABSENT.to_string(), render(p)),
                "the pseudo state is captured only in the passing order",
            )),
            (None, None) => None,
        };
        diffs.extend(diff);
    }

    let mut statics = Vec::new();
    let classes: BTreeSet<&String> = failing
        .classes
        .keys()
        .chain(passing.classes.keys())
        .collect();
    for class in classes {
        let f = failing.classes.get(class);
        let p = passing.classes.get(class);
        match (initialized(f), initialized(p)) {
            (Some(fs), Some(ps)) => {
                let fields: BTreeSet<&String> = fs.keys().chain(ps.keys()).collect();
                for field in fields {
                    let name = format!("{class}.{field}");
                    let diff = match (fs.get(field), ps.get(field)) {
                        (Some(f), Some(p)) => {
                            compare_field(&name, false, f.is_final, &f.value, &p.value)
                        }
                        (Some(f), None) => Some(one_sided(
                            &name,
                            false,
                            f.is_final,
                            DiffKind::OnlyFailing,
                            (render(&f.value), ABSENT.to_string()),
                            "the field exists only in the failing order's class",
                        )),
                        (None, Some(p)) => Some(one_sided(
                            &name,
                            false,
                            p.is_final,
                            DiffKind::OnlyPassing,
                            (ABSENT.to_string(), render(&p.value)),
                            "the field exists only in the passing order's class",
                        )),
                        (None, None) => None,
                    };
                    statics.extend(diff);
                }
            }
            (Some(fs), None) => {
                for (field, f) in fs {
                    statics.push(one_sided(
                        &format!("{class}.{field}"),
                        false,
                        f.is_final,
                        DiffKind::OnlyFailing,
                        (render(&f.value), missing(p).to_string()),
                        ONLY_FAILING,
                    ));
                }
            }
            (None, Some(ps)) => {
                for (field, p) in ps {
                    statics.push(one_sided(
                        &format!("{class}.{field}"),
                        false,
                        p.is_final,
                        DiffKind::OnlyPassing,
                        (missing(f).to_string(), render(&p.value)),
                        ONLY_PASSING,
                    ));
                }
            }
            (None, None) => {}
        }
    }
    // Display names sort differently from (class, field) pairs (`a.B$C.x` < `a.B.y`).
    statics.sort_by(|a, b| a.field.cmp(&b.field));
    diffs.extend(statics);
    diffs
}

fn initialized(state: Option<&ClassState>) -> Option<&BTreeMap<String, StaticField>> {
    match state {
        Some(ClassState::Initialized(statics)) => Some(statics),
        _ => None,
    }
}

/// What a side without the class shows.
fn missing(state: Option<&ClassState>) -> &'static str {
    match state {
        None => NOT_LOADED,
        Some(_) => NOT_INITIALIZED,
    }
}

/// A field only one capture has: one difference at its root, not restorable.
fn one_sided(
    field: &str,
    pseudo: bool,
    is_final: bool,
    kind: DiffKind,
    (failing, passing): (String, String),
    why_not: &str,
) -> FieldDiff {
    FieldDiff {
        field: field.to_string(),
        pseudo,
        is_final,
        kind,
        differences: vec![PathDiff {
            path: field.to_string(),
            failing: failing.clone(),
            passing: passing.clone(),
        }],
        failing,
        passing,
        more: 0,
        restorable: false,
        why_not: Some(why_not.to_string()),
    }
}

/// The diff of one field both captures have, `None` when the values are the same.
fn compare_field(
    field: &str,
    pseudo: bool,
    is_final: bool,
    failing: &Node,
    passing: &Node,
) -> Option<FieldDiff> {
    let mut walk = Walk {
        path: String::new(),
        shown: Vec::new(),
        total: 0,
        why_not: None,
        work: vec![Work::Compare {
            step: field.to_string(),
            failing: Some(failing),
            passing: Some(passing),
        }],
    };
    walk.run();
    if walk.total == 0 {
        return None;
    }
    if walk.why_not.is_none() && truncated(passing) {
        // Cut by the node cap on the passing side: the passing value is not fully known, even
        // where the differences found do not touch the cut (a cut failing side does not matter:
        // a restore sets the passing value).
        walk.why_not = Some(TRUNCATED_FIELD.to_string());
    }
    Some(FieldDiff {
        field: field.to_string(),
        pseudo,
        is_final,
        kind: DiffKind::Changed,
        failing: render(failing),
        passing: render(passing),
        more: walk.total - walk.shown.len(),
        differences: walk.shown,
        restorable: walk.why_not.is_none(),
        why_not: walk.why_not,
    })
}

/// What is left to compare, last first.
enum Work<'a> {
    /// Compare two values (either may be absent) at the current path plus `step`.
    Compare {
        step: String,
        failing: Option<&'a Node>,
        passing: Option<&'a Node>,
    },
    /// Compare two sequences from `next` on, by index.
    Seq {
        failing: &'a [Node],
        passing: &'a [Node],
        next: usize,
    },
    /// Cut the path back to this length (the children of a container are done).
    Pop(usize),
}

/// The walk over one field's two values.
struct Walk<'a> {
    /// The path of the values being compared.
    path: String,
    shown: Vec<PathDiff>,
    total: usize,
    /// The first reason found, in walk order, why the field cannot be restored.
    why_not: Option<String>,
    work: Vec<Work<'a>>,
}

impl<'a> Walk<'a> {
    fn run(&mut self) {
        while let Some(item) = self.work.pop() {
            match item {
                Work::Pop(len) => self.path.truncate(len),
                Work::Seq {
                    failing,
                    passing,
                    next,
                } => {
                    if next < failing.len().max(passing.len()) {
                        self.work.push(Work::Seq {
                            failing,
                            passing,
                            next: next + 1,
                        });
                        self.work.push(Work::Compare {
                            step: format!("[{next}]"),
                            failing: failing.get(next),
                            passing: passing.get(next),
                        });
                    }
                }
                Work::Compare {
                    step,
                    failing,
                    passing,
                } => {
                    let len = self.path.len();
                    self.path.push_str(&step);
                    let mark = self.work.len();
                    // Cuts the path back once the children `compare` pushes above it are done.
                    self.work.push(Work::Pop(len));
                    self.compare(failing, passing);
                    if self.work.len() == mark + 1 {
                        self.work.pop();
                        self.path.truncate(len);
                    }
                }
            }
        }
    }

    /// Compares two values at the current path: reports a difference, or pushes the comparisons
    /// of their children.
    fn compare(&mut self, failing: Option<&'a Node>, passing: Option<&'a Node>) {
        let (Some(f), Some(p)) = (failing, passing) else {
            self.report(failing, passing);
            return;
        };
        match (f, p) {
            (Node::Array { class: a, items: x }, Node::Array { class: b, items: y })
            | (Node::List { class: a, items: x }, Node::List { class: b, items: y })
                if a == b =>
            {
                self.work.push(Work::Seq {
                    failing: x,
                    passing: y,
                    next: 0,
                })
            }
            (Node::Set { class: a, items: x }, Node::Set { class: b, items: y }) if a == b => {
                self.sets(x, y)
            }
            (
                Node::Map {
                    class: a,
                    entries: x,
                },
                Node::Map {
                    class: b,
                    entries: y,
                },
            ) if a == b => self.maps(x, y),
            (
                Node::Object {
                    class: a,
                    fields: x,
                },
                Node::Object {
                    class: b,
                    fields: y,
                },
            ) if a == b => self.objects(x, y),
            _ if same_leaf(f, p) => {}
            _ => self.report(Some(f), Some(p)),
        }
    }

    /// Set elements matched by value; an element of one side only is a difference at `{elem}`.
    fn sets(&mut self, failing: &'a [Node], passing: &'a [Node]) {
        let (f, p) = unmatched(failing.iter().collect(), passing.iter().collect());
        let mut rest: Vec<(String, String, Option<&'a Node>, Option<&'a Node>)> = f
            .into_iter()
            .map(|(form, node)| (render(node), form, Some(node), None))
            .chain(
                p.into_iter()
                    .map(|(form, node)| (render(node), form, None, Some(node))),
            )
            .collect();
        // By rendering, then by value; the failing side first for the same value (cannot
        // happen: equal values were matched).
        rest.sort_by(|a, b| (&a.0, &a.1, a.3.is_some()).cmp(&(&b.0, &b.1, b.3.is_some())));
        let steps: Vec<Work<'a>> = rest
            .into_iter()
            .map(|(shown, _, failing, passing)| Work::Compare {
                step: format!("{{{shown}}}"),
                failing,
                passing,
            })
            .collect();
        self.work.extend(steps.into_iter().rev());
    }

    /// Map entries matched by key value; the values compared at `[key]`.
    fn maps(&mut self, failing: &'a [(Node, Node)], passing: &'a [(Node, Node)]) {
        /// A key's rendering (the failing side's when both have it) and each side's values.
        type Values<'v> = (String, Vec<&'v Node>, Vec<&'v Node>);
        let mut keys: BTreeMap<String, Values<'a>> = BTreeMap::new();
        for (key, value) in failing {
            let values = keys
                .entry(canonical(key))
                .or_insert_with(|| (render(key), Vec::new(), Vec::new()));
            values.1.push(value);
        }
        for (key, value) in passing {
            let values = keys
                .entry(canonical(key))
                .or_insert_with(|| (render(key), Vec::new(), Vec::new()));
            values.2.push(value);
        }
        let mut keys: Vec<(String, Values<'a>)> = keys.into_iter().collect();
        keys.sort_by(|(a_form, a), (b_form, b)| (&a.0, a_form).cmp(&(&b.0, b_form)));
        let mut steps = Vec::new();
        for (_, (shown, f, p)) in keys {
            let step = format!("[{shown}]");
            let (f, p): (Vec<&Node>, Vec<&Node>) = if f.len() <= 1 && p.len() <= 1 {
                (f, p)
            } else {
                // Keys equal by value more than once (objects compared by identity in Java):
                // match the values equal by value, pair the rest in order.
                let (f, p) = unmatched(f, p);
                (
                    f.into_iter().map(|(_, node)| node).collect(),
                    p.into_iter().map(|(_, node)| node).collect(),
                )
            };
            for i in 0..f.len().max(p.len()) {
                steps.push(Work::Compare {
                    step: step.clone(),
                    failing: f.get(i).copied(),
                    passing: p.get(i).copied(),
                });
            }
        }
        self.work.extend(steps.into_iter().rev());
    }

    /// Object fields matched by name (and declaring class), compared at `.name`.
    fn objects(&mut self, failing: &'a [ObjField], passing: &'a [ObjField]) {
        type Sides<'v> = (Option<&'v Node>, Option<&'v Node>);
        let mut fields: BTreeMap<(&'a str, Option<&'a str>), Sides<'a>> = BTreeMap::new();
        for field in failing {
            let key = (field.name.as_str(), field.declaring.as_deref());
            fields.entry(key).or_default().0 = Some(&field.value);
        }
        for field in passing {
            let key = (field.name.as_str(), field.declaring.as_deref());
            fields.entry(key).or_default().1 = Some(&field.value);
        }
        let steps: Vec<Work<'a>> = fields
            .into_iter()
            .map(|((name, _), (failing, passing))| Work::Compare {
                step: format!(".{name}"),
                failing,
                passing,
            })
            .collect();
        self.work.extend(steps.into_iter().rev());
    }

    /// Records a difference at the current path.
    fn report(&mut self, failing: Option<&Node>, passing: Option<&Node>) {
        self.total += 1;
        if self.why_not.is_none() {
            // Only the passing side matters: the restore sets the passing value, whatever the
            // failing one holds. A static final field whose value itself differs is not ruled
            // out: the agent sets static finals through jdk.internal.misc.Unsafe, and says so
            // when it cannot.
            self.why_not = blocker(passing);
        }
        if self.shown.len() < MAX_DIFFERENCES {
            let (failing, passing) = shown_pair(failing, passing);
            self.shown.push(PathDiff {
                path: self.path.clone(),
                failing,
                passing,
            });
        }
    }
}

/// Nodes with their canonical forms, sorted by them.
type Unmatched<'v> = Vec<(String, &'v Node)>;

/// The nodes of each side that the other side has no equal of (multiplicities count).
fn unmatched<'v>(failing: Vec<&'v Node>, passing: Vec<&'v Node>) -> (Unmatched<'v>, Unmatched<'v>) {
    let sorted = |nodes: Vec<&'v Node>| {
        let mut nodes: Unmatched<'v> = nodes
            .into_iter()
            .map(|node| (canonical(node), node))
            .collect();
        nodes.sort_by(|a, b| a.0.cmp(&b.0));
        nodes
    };
    let (f, p) = (sorted(failing), sorted(passing));
    let (mut f, mut p) = (f.into_iter().peekable(), p.into_iter().peekable());
    let (mut only_f, mut only_p) = (Vec::new(), Vec::new());
    loop {
        let order = match (f.peek(), p.peek()) {
            (Some(a), Some(b)) => a.0.cmp(&b.0),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => break,
        };
        match order {
            Ordering::Equal => {
                f.next();
                p.next();
            }
            Ordering::Less => only_f.extend(f.next()),
            Ordering::Greater => only_p.extend(p.next()),
        }
    }
    (only_f, only_p)
}

/// Whether two nodes that are not containers of the same kind and class are equal.
fn same_leaf(failing: &Node, passing: &Node) -> bool {
    match (failing, passing) {
        (Node::Null, Node::Null) | (Node::Truncated, Node::Truncated) => true,
        (Node::Prim { class: a, text: x }, Node::Prim { class: b, text: y })
        | (Node::Text { class: a, text: x }, Node::Text { class: b, text: y })
        | (Node::Enum { class: a, name: x }, Node::Enum { class: b, name: y })
        | (
            Node::Opaque {
                class: a,
                reason: x,
            },
            Node::Opaque {
                class: b,
                reason: y,
            },
        )
        | (
            Node::Unreadable {
                class: a,
                reason: x,
            },
            Node::Unreadable {
                class: b,
                reason: y,
            },
        ) => a == b && x == y,
        (Node::Str(x), Node::Str(y)) | (Node::Ref { to: x }, Node::Ref { to: y }) => x == y,
        _ => false,
    }
}

/// Why a differing value cannot be set back, if it holds a truncation, an opaque or an
/// unreadable node (a truncation first).
fn blocker(node: Option<&Node>) -> Option<String> {
    let mut stack = vec![node?];
    let mut first = None;
    while let Some(node) = stack.pop() {
        match node {
            Node::Truncated => return Some(TRUNCATED.to_string()),
            Node::Opaque { class, .. } => {
                first.get_or_insert_with(|| format!("the differing value is opaque ({class})"));
            }
            Node::Unreadable { class, reason } => {
                first.get_or_insert_with(|| {
                    if reason.is_empty() {
                        format!("the differing value could not be read ({class})")
                    } else {
                        format!("the differing value could not be read ({class}: {reason})")
                    }
                });
            }
            Node::Array { items, .. } | Node::List { items, .. } | Node::Set { items, .. } => {
                stack.extend(items.iter().rev())
            }
            Node::Map { entries, .. } => {
                for (key, value) in entries.iter().rev() {
                    stack.push(value);
                    stack.push(key);
                }
            }
            Node::Object { fields, .. } => stack.extend(fields.iter().rev().map(|f| &f.value)),
            _ => {}
        }
    }
    first
}

/// Whether a value holds a truncation anywhere.
fn truncated(node: &Node) -> bool {
    blocker(Some(node)).is_some_and(|why| why == TRUNCATED)
}

/// Why a differing value cut by the node cap cannot be set back.
const TRUNCATED: &str = "the capture was truncated here";

/// Why a field cut by the node cap elsewhere than at its differences cannot be set back.
const TRUNCATED_FIELD: &str =
    "the capture was truncated in this field; its passing value is not fully known";

/// The renderings of a difference; when both read the same (`1` the int and `1` the string, two
/// list classes with the same elements) each is followed by its class.
fn shown_pair(failing: Option<&Node>, passing: Option<&Node>) -> (String, String) {
    let shown = |node: Option<&Node>| node.map_or(ABSENT.to_string(), render);
    let (f, p) = (shown(failing), shown(passing));
    match (failing, passing) {
        (Some(a), Some(b)) if f == p && label(a) != label(b) => {
            (format!("{f} ({})", label(a)), format!("{p} ({})", label(b)))
        }
        _ => (f, p),
    }
}

fn label(node: &Node) -> &str {
    match node {
        Node::Str(_) => "java.lang.String",
        _ => node.class().unwrap_or(node.element()),
    }
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
