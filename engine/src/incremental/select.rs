//! The selection of `odrust:incremental` (op `incremental_select`; IncIDFlakies, ISSTA 2022,
//! section 3): which test classes a change can make order-dependent, with the reason for each.
//!
//! 1. **Changed classes**: the module's class directories are read and each class checksummed
//!    ([`super::checksum`]); against the saved [`State`], a class is changed when its checksum
//!    differs ("bytes changed"), it is new ("added") or it is gone ("removed"); the classes of the
//!    project's own jars count as the directories' do. Another jar of the test classpath is
//!    changed when its entries (or its presence) differ.
//! 2. **Affected tests** (class-level regression test selection): a test class is affected when
//!    it changed itself, or when the class graph ([`super::graph`]) takes it to a changed class:
//!    `reaches changed class X through T -> A -> X`, with one shortest path. A removed class is
//!    still a node when a class left on disk names it.
//! 3. **Shared state** (IncIDFlakies' "selectmore", field by field): every other test class that
//!    touches a static field an affected test touches, when at least one of the two may change
//!    it, is selected too:
//!    `reads static field com.acme.Reg.count (RegTest.size -> Reg.count), which selected test
//!    com.acme.FooTest writes (FooTest.adds -> Reg.add)`. Which fields a test reads, writes or
//!    uses (an object held by a static field, which it may change) comes from its methods' code
//!    closed over the module's call graph, and which fields can change at all from reading the
//!    types they hold ([`super::statics`]); two tests that only read a field, or that use
//!    different fields of one class, are not linked. Only the module's own classes (and own
//!    jars) are looked at (the paper skips third-party classes too).
//!
//! **Everything is selected**, with the reason said plainly, when there is no saved state, it
//! cannot be read or has another version, the build fingerprint differs (pom, Surefire settings
//! or classpath, as the Java side computes it), a class file cannot be parsed, or the user asks
//! for it (`select_all`).
//!
//! **Jars**: the project's own jars (`own_jars`: a sibling module of its reactor, an artifact of
//! its groupId) are read class by class, like a class directory: each class is checksummed and
//! in the graph, so a rebuilt jar with the same classes is no change and one with a changed class
//! selects the tests that reach it; the rest of such a jar (resources, other Java versions'
//! classes) is checksummed as a jar, and a change there selects every test class. Any other jar
//! is checksummed whole (by its entries), and a changed one selects every test class (the engine
//! does not read library classes). An own jar with a class that cannot be parsed counts as any
//! other jar.
//!
//! **What the analysis cannot see**: dependencies made at run time only (reflection,
//! `Class.forName`, service loading, dependency injection by name), resources and other files,
//! shared state outside static fields (files, system properties, databases, JNDI) and static
//! fields of the JDK and of libraries.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::checksum::{
    class_checksum_parsed, jar_checksum, jar_classes, jar_rest_checksum, sha256_hex,
};
use super::graph::{ClassGraph, Reach};
use super::state::{ClassKind, ClassState, JarState, State, STATE_VERSION};
use super::statics::{Statics, Uses};
use crate::error::EngineError;
use crate::jvm::classfile::{class_files_under, ClassFile};

/// How many reasons of one kind a selected test lists before "and N more".
const MAX_REASONS: usize = 5;

/// Request of `incremental_select`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectRequest {
    /// The module's main class directories (`target/classes`).
    pub main_dirs: Vec<PathBuf>,
    /// The module's test class directories (`target/test-classes`).
    pub test_dirs: Vec<PathBuf>,
    /// The jars of the test classpath.
    #[serde(default)]
    pub jars: Vec<PathBuf>,
    /// The project's own jars among them (a sibling module of its reactor, an artifact of its
    /// groupId): their classes are read, checksummed and graphed like a class directory's, so a
    /// rebuilt jar with one changed class selects only the tests that reach that class. A jar of
    /// them that cannot be read as a zip counts as a jar like any other.
    #[serde(default)]
    pub own_jars: Vec<PathBuf>,
    /// The module's test classes as discovered (dotted binary names).
    pub test_classes: Vec<String>,
    /// The state saved by the previous run (JSON), or none.
    #[serde(default)]
    pub state: Option<serde_json::Value>,
    /// The build fingerprint (pom, Surefire settings, classpath) the Java side computed.
    pub build_fingerprint: String,
    /// Select every test class (`-Dodrust.incremental.selectAll=true`).
    #[serde(default)]
    pub select_all: bool,
}

/// A changed class (or jar) and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Changed {
    /// The class (dotted binary name); for a jar, its path.
    pub class: String,
    /// `bytes changed`, `added`, `removed`, or `jar changed: PATH`.
    pub why: String,
}

/// A selected test class and the reasons it is selected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Selected {
    /// The test class.
    pub class: String,
    /// Why, one line each.
    pub reasons: Vec<String>,
}

/// Response of `incremental_select`.
#[derive(Debug, Clone, Serialize)]
pub struct Selection {
    /// Whether every test class is selected regardless of the change.
    pub full: bool,
    /// Why, when [`Selection::full`].
    pub why_full: Option<String>,
    /// The changed classes and jars, sorted (empty when there is no usable saved state).
    pub changed: Vec<Changed>,
    /// The selected test classes, sorted by name.
    pub selected: Vec<Selected>,
    /// The test classes added (`added`) or changed (`bytes changed`) since the saved state, sorted:
    /// detection runs their tests next to every test they share a static field with first
    /// (empty when there is no usable saved state).
    pub new_test_classes: Vec<Changed>,
    /// How many test classes the module has.
    pub test_classes_total: usize,
    /// The state to save for the next run.
    pub state: State,
}

/// One class read from the class directories.
#[derive(Debug)]
struct Scanned {
    kind: ClassKind,
    checksum: String,
    /// The classes it references (none when it could not be parsed).
    references: BTreeSet<String>,
    /// The class, when it could be parsed.
    class: Option<ClassFile>,
}

/// Runs the selection (see the module's documentation).
///
/// Errors: [`EngineError::Io`] for a class directory that does not exist or a file that cannot be
/// read (both name the path).
pub fn select(request: &SelectRequest) -> Result<Selection, EngineError> {
    let mut unparsable = None;
    let mut classes = scan(&request.main_dirs, &request.test_dirs, &mut unparsable)?;
    let mut read: BTreeSet<&PathBuf> = BTreeSet::new();
    for jar in &request.own_jars {
        // After the directories: on the test classpath they come first, so their copy wins. A
        // jar with a class that cannot be parsed counts as a jar like any other (not a full run).
        if let Some(entries) = jar_classes(jar)? {
            let mut bad = None;
            let mut own = Vec::with_capacity(entries.len());
            for (entry, bytes) in entries {
                let file = jar.join(&entry);
                let fallback = || entry.trim_end_matches(".class").replace('/', ".");
                own.push(scan_class(
                    &bytes,
                    &file,
                    ClassKind::Main,
                    fallback,
                    &mut bad,
                ));
            }
            if bad.is_none() {
                for (name, scanned) in own {
                    classes.entry(name).or_insert(scanned);
                }
                read.insert(jar);
            }
        }
    }
    let mut jars = Vec::with_capacity(request.jars.len());
    for jar in &request.jars {
        // An own jar read class by class still counts by the rest of its entries (resources).
        let checksum = if read.contains(jar) {
            jar_rest_checksum(jar)?
        } else {
            jar_checksum(jar)?
        };
        jars.push(JarState {
            path: jar.display().to_string(),
            checksum,
        });
    }
    jars.sort();
    jars.dedup();
    let state = State {
        version: STATE_VERSION,
        build_fingerprint: request.build_fingerprint.clone(),
        classes: classes
            .iter()
            .map(|(name, c)| {
                (
                    name.clone(),
                    ClassState {
                        checksum: c.checksum.clone(),
                        kind: c.kind,
                    },
                )
            })
            .collect(),
        jars,
    };
    let tests: BTreeSet<&str> = request.test_classes.iter().map(String::as_str).collect();
    let old = State::from_json(request.state.as_ref());
    let changed = match &old {
        Ok(old) => changes(old, &state),
        Err(_) => Vec::new(),
    };
    let why_full = if request.select_all {
        Some("odrust.incremental.selectAll is set".to_string())
    } else if let Err(unusable) = &old {
        Some(unusable.to_string())
    } else if old
        .as_ref()
        .is_ok_and(|o| o.build_fingerprint != request.build_fingerprint)
    {
        Some("the build changed since the saved state (Surefire settings, test JVM, classpath or resources)".into())
    } else {
        unparsable.map(|e: EngineError| format!("{e}; its dependencies are unknown"))
    };
    let selected = match &why_full {
        Some(why) => tests
            .iter()
            .map(|t| Selected {
                class: t.to_string(),
                reasons: vec![format!("every test class is selected: {why}")],
            })
            .collect(),
        None => affected_and_sharing(&classes, &changed, &tests),
    };
    let new_test_classes = changed
        .iter()
        .filter(|c| c.why != "removed" && tests.contains(c.class.as_str()))
        .cloned()
        .collect();
    Ok(Selection {
        new_test_classes,
        full: why_full.is_some(),
        why_full,
        changed,
        selected,
        test_classes_total: tests.len(),
        state,
    })
}

/// Reads every class of the directories (test directories first: on the test classpath
/// `target/test-classes` comes before `target/classes`, so its copy of a class wins). A class
/// that cannot be parsed is kept with the checksum of its bytes and no references, and the first
/// such error is put in `unparsable`.
fn scan(
    main_dirs: &[PathBuf],
    test_dirs: &[PathBuf],
    unparsable: &mut Option<EngineError>,
) -> Result<BTreeMap<String, Scanned>, EngineError> {
    let mut classes = BTreeMap::new();
    let dirs = test_dirs
        .iter()
        .map(|d| (ClassKind::Test, d))
        .chain(main_dirs.iter().map(|d| (ClassKind::Main, d)));
    for (kind, dir) in dirs {
        if !dir.is_dir() {
            return Err(EngineError::Io {
                path: dir.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such class directory (is the module compiled?)",
                ),
            });
        }
        for file in class_files_under(dir)? {
            let bytes = std::fs::read(&file).map_err(|source| EngineError::Io {
                path: file.clone(),
                source,
            })?;
            let fallback = || name_from_path(dir, &file);
            let (name, scanned) = scan_class(&bytes, &file, kind, fallback, unparsable);
            classes.entry(name).or_insert(scanned);
        }
    }
    Ok(classes)
}

/// One class file read: its name and what selection needs of it. A class that cannot be parsed
/// is kept under `fallback`'s name with the checksum of its bytes and no references, and the
/// first such error is put in `unparsable`.
fn scan_class(
    bytes: &[u8],
    file: &Path,
    kind: ClassKind,
    fallback: impl FnOnce() -> String,
    unparsable: &mut Option<EngineError>,
) -> (String, Scanned) {
    match ClassFile::parse(bytes, file)
        .and_then(|c| class_checksum_parsed(bytes, &c, file).map(|sum| (c, sum)))
    {
        Ok((class, checksum)) => (
            class.name.clone(),
            Scanned {
                kind,
                checksum,
                references: class.referenced_types(),
                class: Some(class),
            },
        ),
        Err(e) => {
            unparsable.get_or_insert(e);
            (
                fallback(),
                Scanned {
                    kind,
                    checksum: sha256_hex(bytes),
                    references: BTreeSet::new(),
                    class: None,
                },
            )
        }
    }
}

/// `dir/com/acme/Foo.class` → `com.acme.Foo`.
fn name_from_path(dir: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(dir).unwrap_or(file).with_extension("");
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join(".")
}

/// The changed classes and jars between two states, sorted.
fn changes(old: &State, new: &State) -> Vec<Changed> {
    let mut out = Vec::new();
    for (name, class) in &new.classes {
        match old.classes.get(name) {
            None => out.push(Changed {
                class: name.clone(),
                why: "added".into(),
            }),
            Some(before) if before.checksum != class.checksum => out.push(Changed {
                class: name.clone(),
                why: "bytes changed".into(),
            }),
            Some(_) => {}
        }
    }
    for name in old.classes.keys() {
        if !new.classes.contains_key(name) {
            out.push(Changed {
                class: name.clone(),
                why: "removed".into(),
            });
        }
    }
    let old_jars: BTreeMap<&str, &str> = old
        .jars
        .iter()
        .map(|j| (j.path.as_str(), j.checksum.as_str()))
        .collect();
    let new_jars: BTreeMap<&str, &str> = new
        .jars
        .iter()
        .map(|j| (j.path.as_str(), j.checksum.as_str()))
        .collect();
    let paths: BTreeSet<&str> = old_jars.keys().chain(new_jars.keys()).copied().collect();
    for path in paths {
        if old_jars.get(path) != new_jars.get(path) {
            out.push(Changed {
                class: path.to_string(),
                why: format!("jar changed: {path}"),
            });
        }
    }
    out.sort();
    out
}

/// Keeps the first [`MAX_REASONS`] of `reasons` and says how many more there were.
fn capped(mut reasons: Vec<String>, what: &str) -> Vec<String> {
    if reasons.len() > MAX_REASONS {
        let more = reasons.len() - MAX_REASONS;
        reasons.truncate(MAX_REASONS);
        reasons.push(format!("and {more} more {what}"));
    }
    reasons
}

/// Steps 2 and 3 of the module's documentation: the affected tests and the tests sharing
/// mutable static state with them.
fn affected_and_sharing(
    classes: &BTreeMap<String, Scanned>,
    changed: &[Changed],
    tests: &BTreeSet<&str>,
) -> Vec<Selected> {
    let jar_paths: Vec<&str> = changed
        .iter()
        .filter(|c| c.why.starts_with("jar changed: "))
        .map(|c| c.class.as_str())
        .collect();
    let changed_classes: BTreeMap<&str, &str> = changed
        .iter()
        .filter(|c| !c.why.starts_with("jar changed: "))
        .map(|c| (c.class.as_str(), c.why.as_str()))
        .collect();
    let edges: BTreeMap<String, BTreeSet<String>> = classes
        .iter()
        .map(|(name, c)| {
            let targets = c
                .references
                .iter()
                .filter(|r| {
                    classes.contains_key(r.as_str()) || changed_classes.contains_key(r.as_str())
                })
                .cloned()
                .collect();
            (name.clone(), targets)
        })
        .collect();
    let graph = ClassGraph::new(&edges);
    let reaches: BTreeMap<&str, Reach<'_>> = tests.iter().map(|t| (*t, graph.reach(t))).collect();

    let mut selected: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (&test, reach) in &reaches {
        let mut reasons = Vec::new();
        if !jar_paths.is_empty() {
            reasons.push(format!(
                "a jar of the test classpath changed ({}): every test class is selected when a jar changes",
                jar_paths.join(", ")
            ));
        }
        if !graph.contains(test) {
            reasons.push(
                "has no class file in the test directories, so what it depends on is unknown"
                    .to_string(),
            );
        }
        if let Some(why) = changed_classes.get(test) {
            reasons.push(format!("changed itself ({why})"));
        }
        let mut reached = Vec::new();
        for class in reach.classes() {
            if class != test && changed_classes.contains_key(class) {
                let path = reach.path(class).unwrap_or_default().join(" -> ");
                reached.push(format!("reaches changed class {class} through {path}"));
            }
        }
        reasons.extend(capped(reached, "changed classes reached"));
        if !reasons.is_empty() {
            selected.insert(test, reasons);
        }
    }

    // Shared state, field by field: each test's uses of static fields, then every unselected
    // test that touches a field an affected test touches, one of the two changing it.
    let parsed: BTreeMap<String, &ClassFile> = classes
        .iter()
        .filter_map(|(name, c)| c.class.as_ref().map(|class| (name.clone(), class)))
        .collect();
    let statics = Statics::new(&parsed);
    let uses: BTreeMap<&str, Uses> = tests.iter().map(|t| (*t, statics.of_class(t))).collect();
    let mut more: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (&test, own) in &uses {
        if selected.contains_key(test) {
            continue;
        }
        let mut reasons = Vec::new();
        for (field, (how, path)) in &own.fields {
            // The first affected test (by name) that touches the field with one side changing it.
            let with = selected.keys().find_map(|&other| {
                uses[other]
                    .fields
                    .get(field)
                    .filter(|(their, _)| how.changes() || their.changes())
                    .map(|(their, their_path)| (other, their, their_path))
            });
            if let Some((other, their, their_path)) = with {
                reasons.push(format!(
                    "{} static field {field} ({path}), which selected test {other} {} ({their_path})",
                    how.verb(),
                    their.verb()
                ));
            }
        }
        if !reasons.is_empty() {
            more.insert(test, capped(reasons, "shared static fields"));
        }
    }
    selected.extend(more);
    selected
        .into_iter()
        .map(|(class, reasons)| Selected {
            class: class.to_string(),
            reasons,
        })
        .collect()
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
