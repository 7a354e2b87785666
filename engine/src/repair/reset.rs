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
//!   assigns it) when it is not final, and `F.clear()` when it is a `java.util` collection or map.
//!
//! "Calls a mutator on the value read" is a straight-line heuristic, not a data-flow analysis:
//! after the read, the first virtual or interface call whose owner fits the value's type (the
//! same type, a sub- or supertype, or both `java.util` collections) is taken to be the call on
//! it, looking at most [`MUTATOR_WINDOW`] interesting instructions ahead and stopping at the next
//! access to the same field. So `RATES.remove(key.trim())` counts (`trim` is a `String` call),
//! `RATES.get(a).clear()` does not (`get` decides, and is no mutator).
//!
//! **Receivers of instance methods.** A static no-arg method (of the method's class, of `F`'s
//! class, or of `T`) returning the method's class or a subtype (`getInstance()`), then `F`
//! itself when the test can reach it and its type fits.
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
//! **Visibility.** The statement goes into the victim's class, so a method (or field) must be
//! public in a public class (and public enclosing classes), or not private in the victim's
//! package, or be declared inside the victim's own top-level class. Constructors, `<clinit>`,
//! synthetic and bridge methods, methods with a `$` in their name (`lambda$...`, `access$000`),
//! methods annotated with a JUnit annotation (`org.junit.*`), and the methods of local,
//! anonymous and synthetic classes are never candidates.
//!
//! **Ranking**, best first: (1) static no-arg methods named `reset*`, `clear*`, `clean*`,
//! `restore*`, `init*`; (2) other static no-arg methods; (3) instance no-arg methods through a
//! receiver; (4) direct field statements (assignment, then `clear()`); (5) methods with mined
//! arguments, static first. Within a tier: methods of `F`'s class or of types related to `T`
//! first, then `void` methods, writes (`PUT*`) before mutator calls, then by statement text.
//! Candidates with the same statement are kept once.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::jvm::classfile::{class_files_under, ClassFile};

pub use super::finder::{
    find_resets, FieldId, ResetCandidate, ResetKind, ResetQuery, MAX_ARGUMENT_LISTS,
};
pub use super::mutator::{is_collection_type, is_mutator, MUTATOR_WINDOW};

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
    /// The test class the statement will be compiled into (binary name).
    pub test_class: String,
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
    let query = ResetQuery {
        field: &request.field,
        inner_fields: &request.inner_fields,
        test_class: &request.test_class,
        limit: request.limit.unwrap_or(DEFAULT_RESET_LIMIT),
    };
    let (candidates, field_found) = find_resets(&classes, &query);
    Ok(ResetResponse {
        candidates,
        classes_read: classes.len(),
        field_found,
        unreadable,
    })
}

#[cfg(test)]
#[path = "reset_tests.rs"]
mod tests;
