//! Which classes of the module a test class can reach (`reachable_classes`): the closure of the
//! class-dependency graph ([`super::graph`]) from the test's class, over the class files of the
//! given directories. `odrust:diagnose` lists the fields of reachable classes first (issue 27).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::jvm::classfile::{class_files_under, ClassFile};

use super::graph::ClassGraph;

/// Request of `reachable_classes`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReachRequest {
    /// Class directories whose classes make the graph (`target/classes`, `target/test-classes`).
    pub class_dirs: Vec<PathBuf>,
    /// The classes to start from (dotted binary names): a test's class.
    pub from: Vec<String>,
}

/// Response of `reachable_classes`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReachResponse {
    /// Classes of the graph reached from a start class (the starts included), sorted.
    pub reachable: Vec<String>,
    /// Classes of the graph no start class reaches, sorted. A class in neither list is not in
    /// the graph (a library's, a jar's): nothing is known about it.
    pub unreachable: Vec<String>,
}

/// The classes of `class_dirs` that `from` reaches, and those it does not. Unreadable class
/// files are left out of the graph (so their classes count as unknown).
pub fn reachable(request: &ReachRequest) -> Result<ReachResponse, EngineError> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for dir in &request.class_dirs {
        if !dir.is_dir() {
            continue;
        }
        for file in class_files_under(dir)? {
            if file.file_name().is_some_and(|n| n == "module-info.class") {
                continue;
            }
            if let Ok(class) = ClassFile::read(&file) {
                let refs = class.referenced_types();
                edges.entry(class.name.clone()).or_default().extend(refs);
            }
        }
    }
    let known: BTreeSet<String> = edges.keys().cloned().collect();
    for targets in edges.values_mut() {
        targets.retain(|t| known.contains(t));
    }
    let graph = ClassGraph::new(&edges);
    let mut reached: BTreeSet<String> = BTreeSet::new();
    for start in &request.from {
        reached.extend(graph.reach(start).classes().into_iter().map(str::to_string));
    }
    Ok(ReachResponse {
        unreachable: known.difference(&reached).cloned().collect(),
        reachable: reached.into_iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(path: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/incremental")
            .join(path)
    }

    #[test]
    fn a_test_reaches_what_its_class_names_and_no_more() {
        let dirs = vec![
            fixture("module/main"),
            fixture("module/test"),
            fixture("module/missing"),
        ];
        let r = reachable(&ReachRequest {
            class_dirs: dirs.clone(),
            from: vec!["com.acme.CalcTest".into()],
        })
        .unwrap();
        assert!(
            r.reachable.contains(&"com.acme.CalcTest".to_string()),
            "{r:?}"
        );
        assert!(r.reachable.contains(&"com.acme.Calc".to_string()), "{r:?}");
        for other in [
            "com.acme.LonelyTest",
            "com.acme.StoreTest",
            "com.acme.NamesTest",
        ] {
            assert!(r.unreachable.contains(&other.to_string()), "{other}: {r:?}");
        }
        let all: BTreeSet<&String> = r.reachable.iter().chain(&r.unreachable).collect();
        assert_eq!(
            all.len(),
            r.reachable.len() + r.unreachable.len(),
            "disjoint"
        );
        // a start that is not in the graph reaches nothing, and every class is unreachable
        let none = reachable(&ReachRequest {
            class_dirs: dirs,
            from: vec!["q.Unknown".into()],
        })
        .unwrap();
        assert!(none.reachable.is_empty());
        assert_eq!(none.unreachable.len(), all.len());
    }
}
