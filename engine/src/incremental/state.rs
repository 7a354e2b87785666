//! The state incremental selection keeps between runs: what the module's classes and jars were
//! (their checksums) and the build fingerprint, as versioned JSON. The Java side saves it
//! (atomically) and hands it back on the next run; the engine only reads and produces it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The version of the state's JSON this engine writes and reads: 3 since the classes of the
/// project's own jars are in `classes` (2: jars checksummed by their entries; 1: by their bytes).
pub const STATE_VERSION: u32 = 4;

/// Whether a class comes from the main or the test class directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassKind {
    /// `target/classes` (a main directory).
    Main,
    /// `target/test-classes` (a test directory).
    Test,
}

/// What the state records of one class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassState {
    /// Its checksum ([`super::checksum::class_checksum`]).
    pub checksum: String,
    /// Main or test.
    pub kind: ClassKind,
}

/// What the state records of one jar.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JarState {
    /// Its path, as the request gave it.
    pub path: String,
    /// The SHA-256 of its bytes.
    pub checksum: String,
}

/// The saved state: `{"version": 4, "build_fingerprint": "...", "classes": {"com.acme.Foo":
/// {"checksum": "...", "kind": "main"}}, "jars": [{"path": "...", "checksum": "..."}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// [`STATE_VERSION`].
    pub version: u32,
    /// The build fingerprint the Java side computed (pom, Surefire settings, classpath).
    pub build_fingerprint: String,
    /// Every class of the module's class directories and of the project's own jars, by dotted
    /// binary name.
    pub classes: BTreeMap<String, ClassState>,
    /// Every other jar of the test classpath, sorted by path.
    pub jars: Vec<JarState>,
}

/// Why a saved state cannot be used: the reason for a full run, said plainly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unusable {
    /// No state was given (a first run, or the state file is gone).
    Missing,
    /// The state is not JSON of the state's shape.
    Unreadable(String),
    /// The state has another version.
    OtherVersion(String),
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Missing => write!(f, "no saved incremental state (first run)"),
            Unusable::Unreadable(why) => write!(f, "the saved incremental state cannot be read: {why}"),
            Unusable::OtherVersion(v) => write!(
                f,
                "the saved incremental state has version {v}, this odrust reads version {STATE_VERSION}"
            ),
        }
    }
}

impl State {
    /// Reads a saved state given as JSON (`None` or `null` when there is none).
    pub fn from_json(value: Option<&serde_json::Value>) -> Result<State, Unusable> {
        let value = match value {
            None | Some(serde_json::Value::Null) => return Err(Unusable::Missing),
            Some(v) => v,
        };
        let Some(object) = value.as_object() else {
            return Err(Unusable::Unreadable("it is not a JSON object".into()));
        };
        match object.get("version") {
            Some(v) if v.as_u64() == Some(u64::from(STATE_VERSION)) => {}
            Some(v) => return Err(Unusable::OtherVersion(v.to_string())),
            None => return Err(Unusable::Unreadable("it has no `version`".into())),
        }
        State::deserialize(value).map_err(|e| Unusable::Unreadable(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip() {
        let state = State {
            version: STATE_VERSION,
            build_fingerprint: "fp".into(),
            classes: BTreeMap::from([(
                "com.acme.Foo".to_string(),
                ClassState {
                    checksum: "ab".into(),
                    kind: ClassKind::Test,
                },
            )]),
            jars: vec![JarState {
                path: "/m2/x.jar".into(),
                checksum: "cd".into(),
            }],
        };
        let value = serde_json::to_value(&state).unwrap();
        assert_eq!(
            value,
            json!({"version": 4, "build_fingerprint": "fp",
                   "classes": {"com.acme.Foo": {"checksum": "ab", "kind": "test"}},
                   "jars": [{"path": "/m2/x.jar", "checksum": "cd"}]})
        );
        assert_eq!(State::from_json(Some(&value)).unwrap(), state);
    }

    #[test]
    fn unusable_states_say_why() {
        assert_eq!(State::from_json(None), Err(Unusable::Missing));
        assert_eq!(
            State::from_json(Some(&serde_json::Value::Null)),
            Err(Unusable::Missing)
        );
        // version 2 had no classes of the project's own jars: they would all look added
        let other = State::from_json(Some(&json!({"version": 2}))).unwrap_err();
        assert_eq!(
            other.to_string(),
            "the saved incremental state has version 2, this odrust reads version 4"
        );
        let bad = State::from_json(Some(&json!({"version": 4, "classes": 3}))).unwrap_err();
        assert!(matches!(bad, Unusable::Unreadable(_)), "{bad:?}");
        assert!(bad
            .to_string()
            .starts_with("the saved incremental state cannot be read: "));
        let not_object = State::from_json(Some(&json!([1]))).unwrap_err();
        assert!(not_object.to_string().contains("not a JSON object"));
        let no_version = State::from_json(Some(&json!({}))).unwrap_err();
        assert!(no_version.to_string().contains("no `version`"));
    }
}
