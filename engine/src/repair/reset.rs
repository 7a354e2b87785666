//! The reset-method finder (Li et al., ICSE 2022, section 3.2.1, ODRepair's Reset-Method Finder, and its
//! literal mining): when no test of the suite cleans a polluted static field, the statements
//! built from the module's own code that may reset it, ranked, for Java to compile into the
//! victim's setup and verify (`reset_methods` op).
//!
//! **What counts as resetting.** With `F` the polluted static field and `T` the type of its
//! value (its descriptor's class):
//!
//! - a method that writes `F` (`PUTSTATIC`), or reads it (`GETSTATIC`) and then calls a mutator
//!   on the value read ([`is_mutator`]: `clear`, `remove*`, `reset*`, `set*`, `put*`, `add*`,
//!   `init*`, `restore*`, `clean*`, and for `java.util` collections and maps also `retain*`,
//!   `replace*`, `merge`, `compute*`, `poll*`, `offer*`, `push`, `pop`);
//! - a method of a type related to `T` (`T`, its supertypes and subtypes in the module) that
//!   writes (`PUTFIELD`) one of the `inner_fields`, or reads one (`GETFIELD`) and calls a mutator
//!   on it; the object is taken to be the one under `F`. With no `inner_fields` given, every
//!   instance field of those types counts (the debugger did not say which one differs);
//! - `F` itself, when the test can reach it: assigned its initializer (`<clinit>`'s
//!   `new X()` or constant, a `ConstantValue`, or the type's default value when `<clinit>` never
//!   assigns it) when it is not final, and `F.clear()` when it is a `java.util` collection or map;
//! - `F` set back to its **passing value** (issue 27), when the request gives the diagnosis's
//!   passing capture and that value is simple: `F = "default";`, `F = 3;`, `F = null;`,
//!   `F = com.acme.Level.LOW;`, `F.set(0);` for an atomic, `F.clear(); F.add("a");` for a
//!   collection refilled in place, `F = new java.util.HashMap<>();` ... (the rules, and what
//!   counts as simple, are `restore`'s). Unlike the initializer, this value is the one
//!   the diagnosis confirmed: restoring it right before the test made it pass. The response says
//!   why, when there is none (`direct_restore_refused`);
//! - `A().clear()` for a `java.util` collection or map `F` and each static no-arg accessor `A`
//!   whose whole body is `return F;` (`GETSTATIC F; ARETURN`), wherever it is declared.
//!
//! "Calls a mutator on the value read" is a straight-line heuristic, not a data-flow analysis:
//! after the read, the first virtual or interface call whose owner fits the value's type (the
//! same type, a sub- or supertype, or both `java.util` collections) is taken to be the call on
//! it, looking at most [`MUTATOR_WINDOW`] interesting instructions ahead and stopping at the next
//! access to the same field. So `RATES.remove(key.trim())` counts (`trim` is a `String` call),
//! `RATES.get(a).clear()` does not (`get` decides, and is no mutator).
//!
//! **Receivers of instance methods** (following calls to the object under `F`). A static no-arg
//! method returning the method's class or a subtype (`getInstance()`), declared in the method's
//! class, `F`'s class, `T`, the classes enclosing `F`'s class, or a superclass of `F`'s class or
//! of those (`Outer.registry()` for `Outer.Inner.REGISTRY`); an accessor that returns `F`
//! itself, wherever it is declared; then `F` itself when the test can reach it and its type
//! fits.
//!
//! **Arguments.** No-arg methods are taken as they are. A method whose parameters are all
//! primitives, `String` or enums of the module gets argument lists mined from the module's code
//! (at most [`MAX_ARGUMENT_LISTS`] per method): first `F`'s initializer constant, for a
//! one-parameter method whose parameter has `F`'s type; then the constants passed at the
//! method's existing call sites, read as the instructions right before the invoke (the `n`
//! instructions before it must be `n` constant loads, or enum constants read by `GETSTATIC`, that
//! fit the parameters; a call whose arguments are computed is passed over). Other methods are
//! skipped.
//!
//! **Visibility and placements.** A statement goes into the victim's class (`setup`, `test`)
//! or, given `polluter_class`, into the polluter's (`polluter-teardown`): the search runs from
//! each, and a statement is offered with the placements from which everything it names can be
//! named: a method (or field) must be public in a public class (and public enclosing classes),
//! or not private in that class's package, or be declared inside its own top-level class. The
//! placements are in the order to try: `setup`, `polluter-teardown`, `test`, except for a
//! passing-value restore, which tries `polluter-teardown` first (it undoes what the polluter
//! left, right where it leaves it, as issue 27 asks). Constructors, `<clinit>`,
//! synthetic and bridge methods, methods with a `$` in their name (`lambda$...`, `access$000`),
//! methods annotated with a JUnit annotation (`org.junit.*`), and the methods of local,
//! anonymous and synthetic classes are never candidates.
//!
//! **Ranking**, best first: (1) static no-arg methods named `reset*`, `clear*`, `clean*`,
//! `restore*`, `init*`; (2) other static no-arg methods; (3) instance no-arg methods through a
//! receiver; (4) direct field statements: the passing value, the initializer, `F.clear()`, then
//! `A().clear()` through an accessor; (5) methods with mined arguments, static first. The
//! module's own reset methods come first because they are what its maintainers wrote to reset
//! it; the passing value leads the direct statements because the diagnosis proved it. Within a
//! tier: methods of `F`'s class or of types related to `T` first, then `void` methods, writes
//! (`PUT*`) before mutator calls, then by statement text. Candidates with the same statement are
//! kept once (with the best rank, and the placements of every search that found it).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diagnose::capture::{read, ClassState, StaticField};
use crate::error::EngineError;
use crate::jvm::classfile::{class_files_under, ClassFile};

pub use super::finder::{
    find_resets, FieldId, Found, ResetCandidate, ResetKind, ResetQuery, MAX_ARGUMENT_LISTS,
};
pub use super::mutator::{is_collection_type, is_mutator, MUTATOR_WINDOW};
pub use super::restore::MAX_LITERAL_ELEMENTS;

/// How many candidates `reset_methods` returns when the request gives no limit.
pub const DEFAULT_RESET_LIMIT: usize = 20;

/// Request of `reset_methods`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    /// The module's class directories (`target/classes`, `target/test-classes`); every
    /// `.class` file under them is read, `module-info.class` aside.
    pub class_dirs: Vec<PathBuf>,
    /// The polluted static field.
    pub field: FieldId,
    /// Instance fields of the object under the static field that differ (`jobs` for
    /// `JobRegistry.INSTANCE.jobs`); empty when unknown.
    #[serde(default)]
    pub inner_fields: Vec<String>,
    /// The test class the statement will be compiled into (binary name): `setup` and `test`
    /// placements.
    pub test_class: String,
    /// The polluter's class (binary name), where a `polluter-teardown` statement goes; none for
    /// no such placement.
    #[serde(default)]
    pub polluter_class: Option<String>,
    /// The diagnosis's passing capture: the field's value there is what a direct restore sets
    /// it back to. None: no direct restore.
    #[serde(default)]
    pub passing_capture: Option<PathBuf>,
    /// The diagnosis's failing capture: whether the field already holds an object of the
    /// passing value's class (then a collection is refilled in place).
    #[serde(default)]
    pub failing_capture: Option<PathBuf>,
    /// How many candidates at most; [`DEFAULT_RESET_LIMIT`] when absent.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Response of `reset_methods`.
#[derive(Debug, Clone, Serialize)]
pub struct ResetResponse {
    /// The candidates, best first.
    pub candidates: Vec<ResetCandidate>,
    /// How many class files were read.
    pub classes_read: usize,
    /// Whether the field's class is among them and declares the field.
    pub field_found: bool,
    /// The class files that could not be read or parsed.
    pub unreadable: Vec<Unreadable>,
    /// Why the field's passing value gave no `passing-value` candidate (it is not simple, the
    /// field is final or cannot be named, the capture does not hold it); none when one was made
    /// or no passing capture was given.
    pub direct_restore_refused: Option<String>,
}

/// A class file that could not be read.
#[derive(Debug, Clone, Serialize)]
pub struct Unreadable {
    /// Its path.
    pub path: PathBuf,
    /// Why.
    pub error: String,
}

/// Reads every class file under the request's directories and finds the reset candidates.
///
/// Errors: [`EngineError::Io`] for a class directory that does not exist or cannot be listed
/// (the user's to fix: the module is not compiled, or a path is wrong). Class files that cannot
/// be read or parsed are listed in `unreadable`, not errors.
pub fn reset_methods(request: &ResetRequest) -> Result<ResetResponse, EngineError> {
    let mut classes = Vec::new();
    let mut unreadable = Vec::new();
    for dir in &request.class_dirs {
        if !dir.is_dir() {
            return Err(EngineError::Io {
                path: dir.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "not a class directory (is the module compiled?)",
                ),
            });
        }
        for path in class_files_under(dir)? {
            if path.file_name().is_some_and(|n| n == "module-info.class") {
                continue;
            }
            match ClassFile::read(&path) {
                Ok(class) => classes.push(class),
                Err(e) => unreadable.push(Unreadable {
                    path,
                    error: e.to_string(),
                }),
            }
        }
    }
    let passing = captured(
        request.passing_capture.as_deref(),
        "passing",
        &request.field,
    )?;
    let failing = captured(
        request.failing_capture.as_deref(),
        "failing",
        &request.field,
    )?;
    let query = ResetQuery {
        field: &request.field,
        inner_fields: &request.inner_fields,
        test_class: &request.test_class,
        polluter_class: request.polluter_class.as_deref(),
        passing: passing.as_ref().and_then(|p| p.as_ref().ok()),
        failing: failing.as_ref().and_then(|f| f.as_ref().ok()),
        limit: request.limit.unwrap_or(DEFAULT_RESET_LIMIT),
    };
    let found = find_resets(&classes, &query);
    let missing = match &passing {
        Some(Err(why)) => Some(why.clone()),
        _ => None,
    };
    Ok(ResetResponse {
        candidates: found.candidates,
        classes_read: classes.len(),
        field_found: found.field_found,
        unreadable,
        direct_restore_refused: missing.or(found.direct_restore_refused),
    })
}

/// The field as the capture at `path` holds it: none without a path, an error text when the
/// capture does not have it initialized.
///
/// Errors: the capture cannot be read (see [`crate::diagnose::capture::read`]).
fn captured(
    path: Option<&Path>,
    which: &str,
    field: &FieldId,
) -> Result<Option<Result<StaticField, String>>, EngineError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let mut capture = read(path)?;
    let name = format!("{}.{}", field.class, field.name);
    Ok(Some(match capture.classes.remove(&field.class) {
        Some(ClassState::Initialized(mut statics)) => statics
            .remove(&field.name)
            .ok_or_else(|| format!("the {which} capture does not hold {name}")),
        _ => Err(format!(
            "the class of {name} is not initialized in the {which} capture"
        )),
    }))
}

#[cfg(test)]
#[path = "reset_tests.rs"]
mod tests;
