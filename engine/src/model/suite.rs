//! The suite: every test of one Maven module, as discovered by the agent.
//!
//! A suite is a list of class records in the order the module's tests run under `mvn test`
//! (`docs/protocol.md`, "Discovery records"). [`SuiteIndex`] answers "which record holds this id,
//! and where" for order resolution and segmentation.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

/// The suite schema version this engine reads.
pub const SCHEMA_VERSION: u32 = 1;

/// The tests of one Maven module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// Must be [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// The class records, in the order `mvn test` runs them.
    pub classes: Vec<ClassRecord>,
}

/// The test framework that runs a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Framework {
    /// JUnit 3 and 4, run through the JUnit 4 API.
    Junit4,
    /// JUnit Jupiter, run through the JUnit Platform Launcher.
    Junit5,
}

/// One discovered class: the unit the agent runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassRecord {
    /// The class that is run (binary name).
    pub class: String,
    /// The framework that runs it.
    pub framework: Framework,
    /// False when the framework runs the class's tests only in their fixed order.
    pub reorderable: bool,
    /// The class's tests in the framework's own order.
    pub tests: Vec<String>,
    /// The ids of `tests` that are JUnit 5 dynamic containers.
    #[serde(default)]
    pub dynamic: Vec<String>,
}

impl Suite {
    /// The order `mvn test` runs: the records' tests, concatenated.
    pub fn original_order(&self) -> Vec<String> {
        self.classes
            .iter()
            .flat_map(|record| record.tests.iter().cloned())
            .collect()
    }

    /// Every test id of the suite, in the original order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.classes
            .iter()
            .flat_map(|record| record.tests.iter().map(String::as_str))
    }
}

/// Where a test sits in a suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestRef {
    /// Index of the class record in [`Suite::classes`].
    pub record: usize,
    /// Index of the test in that record's `tests`.
    pub position: usize,
}

/// A lookup table over a [`Suite`].
#[derive(Debug)]
pub struct SuiteIndex<'s> {
    suite: &'s Suite,
    by_id: HashMap<&'s str, TestRef>,
    dynamic: HashSet<&'s str>,
}

impl<'s> SuiteIndex<'s> {
    /// Indexes `suite`. When an id is listed twice, the first occurrence wins.
    pub fn new(suite: &'s Suite) -> Self {
        let mut by_id = HashMap::new();
        let mut dynamic = HashSet::new();
        for (record, class) in suite.classes.iter().enumerate() {
            for (position, id) in class.tests.iter().enumerate() {
                by_id
                    .entry(id.as_str())
                    .or_insert(TestRef { record, position });
            }
            dynamic.extend(class.dynamic.iter().map(String::as_str));
        }
        SuiteIndex {
            suite,
            by_id,
            dynamic,
        }
    }

    /// The suite this index was built from.
    pub fn suite(&self) -> &'s Suite {
        self.suite
    }

    /// Where `id` is listed, if it is.
    pub fn get(&self, id: &str) -> Option<TestRef> {
        self.by_id.get(id).copied()
    }

    /// Whether `id` is listed in its record's `dynamic` (a JUnit 5 dynamic container).
    pub fn is_dynamic(&self, id: &str) -> bool {
        self.dynamic.contains(id) && self.by_id.contains_key(id)
    }

    /// The class record at `index`.
    pub fn record(&self, index: usize) -> &'s ClassRecord {
        &self.suite.classes[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Suite {
        serde_json::from_str(
            r#"{"schema_version":1,"module":"g:a","classes":[
                {"class":"a.A","framework":"junit4","reorderable":true,"tests":["a.A#x","a.A#y"]},
                {"class":"a.B","framework":"junit5","reorderable":false,"tests":["a.B#p","a.B#q"],"dynamic":["a.B#q"]}
            ]}"#,
        )
        .unwrap()
    }

    #[test]
    fn dynamic_defaults_to_empty_and_framework_is_lowercase() {
        let suite = sample();
        assert!(suite.classes[0].dynamic.is_empty());
        assert_eq!(suite.classes[1].framework, Framework::Junit5);
        let json = serde_json::to_string(&suite.classes[0]).unwrap();
        assert!(json.contains(r#""framework":"junit4""#), "{json}");
    }

    #[test]
    fn original_order_concatenates_records() {
        assert_eq!(
            sample().original_order(),
            ["a.A#x", "a.A#y", "a.B#p", "a.B#q"]
        );
    }

    #[test]
    fn index_finds_record_and_position() {
        let suite = sample();
        let index = SuiteIndex::new(&suite);
        assert_eq!(
            index.get("a.B#q"),
            Some(TestRef {
                record: 1,
                position: 1
            })
        );
        assert_eq!(index.get("a.B#zz"), None);
        assert!(index.is_dynamic("a.B#q"));
        assert!(!index.is_dynamic("a.B#p"));
        assert_eq!(index.record(1).class, "a.B");
    }

    #[test]
    fn unknown_framework_is_rejected() {
        let err = serde_json::from_str::<Framework>(r#""testng""#).unwrap_err();
        assert!(err.to_string().contains("testng"), "{err}");
    }
}
