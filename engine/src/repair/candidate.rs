//! The reset-method finder's vocabulary, shared by its search (`finder`) and the direct
//! restores (`restore`): the field asked about, the query, the candidates and what was found.

use serde::{Deserialize, Serialize};

use super::shapes::Placement;
use crate::diagnose::capture::StaticField;

/// A static field, by its declaring class (dotted binary name) and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldId {
    /// The declaring class (`com.acme.Prices`, `com.acme.Outer$Inner`).
    pub class: String,
    /// The field's name.
    pub name: String,
}

/// What a candidate statement does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResetKind {
    /// Calls a static method.
    StaticMethod,
    /// Calls an instance method on a receiver the code reaches statically.
    InstanceMethod,
    /// Assigns the field its initial value.
    FieldAssignment,
    /// Calls `clear()` on the field.
    FieldClear,
    /// Sets the field back to its value when the test passed (the diagnosis's passing capture).
    PassingValue,
}

/// One candidate reset statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResetCandidate {
    /// Java source, with fully qualified canonical names (`com.acme.Prices.reset();`): the
    /// [`statements`](Self::statements) joined by spaces.
    pub statement: String,
    /// Its statements, one Java statement each (several only for a
    /// [`PassingValue`](ResetKind::PassingValue) refill: `F.clear();`, `F.add("a");`).
    pub statements: Vec<String>,
    /// The method it calls (`com.acme.Prices.reset()V`, binary name, name, descriptor); none
    /// for field statements.
    pub method: Option<String>,
    /// What it does.
    pub kind: ResetKind,
    /// Why it may reset the field.
    pub why: String,
    /// Where it compiles, in the order to try: `setup` and `test` when the test's class can
    /// name what it names, `polluter-teardown` when the polluter's class can; a
    /// [`PassingValue`](ResetKind::PassingValue) restore tries the polluter's teardown first.
    pub placements: Vec<Placement>,
}

impl ResetCandidate {
    /// A candidate of one statement; placements are set once every viewpoint has been searched.
    pub(super) fn one(
        statement: String,
        method: Option<String>,
        kind: ResetKind,
        why: String,
    ) -> Self {
        ResetCandidate {
            statements: vec![statement.clone()],
            statement,
            method,
            kind,
            why,
            placements: Vec::new(),
        }
    }
}

/// What the finder looks for, without the I/O.
#[derive(Debug, Clone)]
pub struct ResetQuery<'a> {
    /// The polluted static field.
    pub field: &'a FieldId,
    /// Differing instance fields under it (may be empty).
    pub inner_fields: &'a [String],
    /// The test class the statement goes into (`setup`, `test`).
    pub test_class: &'a str,
    /// The polluter's class, where a `polluter-teardown` statement goes, if any.
    pub polluter_class: Option<&'a str>,
    /// The field in the passing capture (its value when the test passed), if known.
    pub passing: Option<&'a StaticField>,
    /// The field in the failing capture, if known.
    pub failing: Option<&'a StaticField>,
    /// How many candidates at most.
    pub limit: usize,
}

/// What [`find_resets`](super::finder::find_resets) found.
#[derive(Debug, Clone)]
pub struct Found {
    /// The candidates, best first.
    pub candidates: Vec<ResetCandidate>,
    /// Whether the field's class is among the classes and declares the field.
    pub field_found: bool,
    /// Why the passing value gave no [`PassingValue`](ResetKind::PassingValue) candidate, when
    /// one was given and none was made.
    pub direct_restore_refused: Option<String>,
}

/// Sort key: tier, sub-rank, affinity, non-void, writes first, argument list, receiver, text.
pub(super) type Rank = (u8, u8, u8, u8, u8, usize, usize, String);
