//! A run record of `-Dodrust.history` (docs/history.md, "Run records"): what one run of one goal
//! on one module found and offered, compact enough to keep hundreds of them in a CI cache.

use serde::{Deserialize, Serialize};

/// The version of the run record's layout; a record of another is refused, naming its file.
pub const RECORD_VERSION: u32 = 1;

/// One run of one goal on one module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    /// [`RECORD_VERSION`].
    pub schema_version: u32,
    /// Unique per run: its end time and a random part (`20261202T010500Z-3f9a1c`).
    pub run_id: String,
    /// `detect`, `incremental`, `merge`, `repair` or `audit`.
    pub goal: String,
    /// `groupId:artifactId`.
    pub module: String,
    /// When it ended, ISO-8601 in UTC (`2026-12-02T01:05:00.123Z`).
    pub date: String,
    /// The commit it ran on (`git rev-parse HEAD`, or `-Dodrust.history.commit`), when known.
    #[serde(default)]
    pub commit: Option<String>,
    /// Whether the work tree had uncommitted changes (a patch applied and not yet committed).
    #[serde(default)]
    pub dirty: bool,
    /// The settings that shape what it finds (seed, strategy, rounds, ...), as the goal names them.
    #[serde(default)]
    pub settings: serde_json::Map<String, serde_json::Value>,
    /// The tests it ran (detection goals and audit); absent for a goal that finds none (repair).
    #[serde(default)]
    pub ran: Option<Vec<String>>,
    /// Whether it ran to its end (a run cut by its budget may have missed tests).
    #[serde(default)]
    pub complete: bool,
    /// The flaky tests it found.
    #[serde(default)]
    pub tests: Vec<FoundTest>,
    /// Its causes (tests that fail for one reason).
    #[serde(default)]
    pub causes: Vec<RunCause>,
    /// The patches it offered (repair, audit).
    #[serde(default)]
    pub patches: Vec<OfferedPatch>,
}

/// A flaky test one run found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoundTest {
    /// Its id.
    pub test: String,
    /// `victim`, `brittle`, `non-order`, `non-idempotent`, `latent-polluter`, ...
    pub kind: String,
    /// Its cause's id in this run.
    #[serde(default)]
    pub cause: Option<u32>,
    /// Its flake rate over all orders, when computed.
    #[serde(default)]
    pub flake_rate: Option<f64>,
}

/// A cause of one run: tests that fail for one reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCause {
    /// Its id in this run (ids of two runs are unrelated).
    pub id: u32,
    /// `victim` or `brittle`.
    pub role: String,
    /// Its title.
    pub title: String,
    /// Its tests.
    pub tests: Vec<String>,
    /// Its polluters (victims) or state-setters (brittles), each group's tests: what makes the
    /// same cause in two runs.
    #[serde(default)]
    pub origins: Vec<Vec<String>>,
}

/// A patch one run offered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferedPatch {
    /// The tests it is for.
    pub tests: Vec<String>,
    /// `patched` (verified and offered) or another status.
    pub status: String,
    /// The patch file, relative to the module.
    #[serde(default)]
    pub patch: Option<String>,
    /// Whether the run wrote it into the sources.
    #[serde(default)]
    pub applied: bool,
}

impl RunRecord {
    /// Whether the run looks for flaky tests (its tests and `ran` say what it found and did not).
    pub fn detects(&self) -> bool {
        self.ran.is_some()
    }

    /// `audit` (non-idempotent tests, latent polluters) or `detect` (order-dependent and other
    /// flaky tests: detect, incremental, merge): what kind of finding its `tests` are.
    pub fn family(&self) -> &'static str {
        if self.goal == "audit" {
            "audit"
        } else {
            "detect"
        }
    }
}
