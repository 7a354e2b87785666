//! The audit planner's shapes (`audit_next`): its request, the experiments it asks for and their
//! records (with the agent's capture points), the step, and what it found.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::model::experiment::TestResult;
use crate::model::outcome::RunOutcome;

/// Candidates of non-idempotence confirmed by default; the others are listed as not confirmed.
pub const DEFAULT_MAX_CONFIRM: usize = 40;

/// Request of `audit_next`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditRequest {
    /// The tests to audit, in their original order.
    pub original: Vec<String>,
    /// The audit's records of this fingerprint (others are ignored).
    #[serde(default)]
    pub history: Vec<AuditRecord>,
    /// The id of the next experiment (the audit history's length + 1).
    pub next_id: usize,
    /// A digest of the module's code and the capture settings; records of another are ignored.
    pub fingerprint: String,
    /// Class directories read to rank latent polluters by the test classes that read their field.
    #[serde(default)]
    pub class_dirs: Vec<PathBuf>,
    /// Every test class of the module (readers count among them, audited or not); the classes of
    /// `original` when empty.
    #[serde(default)]
    pub test_classes: Vec<String>,
    /// Candidates of non-idempotence to confirm at most; [`DEFAULT_MAX_CONFIRM`] when absent.
    #[serde(default)]
    pub max_confirm: Option<usize>,
    /// Whether to make and verify a teardown patch for each latent polluter that can have one
    /// (`-Dodrust.audit.repair=true`).
    #[serde(default)]
    pub repair: bool,
    /// Latent polluters to try to patch at most; [`DEFAULT_MAX_REPAIR`] when absent.
    #[serde(default)]
    pub max_repair: Option<usize>,
    /// The candidate patches Java made for the polluters of a [`AuditStep::Fixes`] step; absent
    /// until then.
    #[serde(default)]
    pub fixes: Option<Vec<FixCandidates>>,
}

/// Latent polluters patched at most by default (each candidate costs a captured run of the
/// original order).
pub const DEFAULT_MAX_REPAIR: usize = 10;

/// A latent polluter the planner wants candidate patches for: statements, in its class's
/// teardown, that set `field` back to its value before the test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixWanted {
    /// The test that leaves the field changed.
    pub test: String,
    /// Its class, the one the patch edits.
    pub class: String,
    /// The field (`com.acme.Config.mode`).
    pub field: String,
    /// Where its value differs (`F[key]`, `F.name`).
    pub paths: Vec<String>,
    /// The capture right before the test: the value to set back.
    pub before_capture: PathBuf,
    /// The capture right after it: the value it leaves.
    pub after_capture: PathBuf,
}

/// The candidate patches Java made for one [`FixWanted`], best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixCandidates {
    /// The test.
    pub test: String,
    /// The field.
    pub field: String,
    /// The candidates, in the order to try.
    #[serde(default)]
    pub candidates: Vec<FixCandidate>,
    /// Why there is none (no reset method, the value cannot be written, the source cannot be
    /// edited).
    #[serde(default)]
    pub note: Option<String>,
}

/// One candidate patch: statements in the test's class's teardown, compiled by Java.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixCandidate {
    /// Its key (a digest of the patched source and the module's code).
    pub id: String,
    /// The statements the teardown gets.
    pub statements: Vec<String>,
    /// Why it does not compile, if so (never run).
    #[serde(default)]
    pub compile_error: Option<String>,
}

/// The candidate a fix experiment runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixRef {
    /// The latent polluter.
    pub test: String,
    /// The field.
    pub field: String,
    /// The candidate's id.
    pub candidate: String,
}

/// What repair came to for one latent polluter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatentFix {
    /// `patched` (verified), or `no-patch` (with `reason`).
    pub status: String,
    /// The verified candidate's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate: Option<String>,
    /// Its statements.
    #[serde(default)]
    pub statements: Vec<String>,
    /// Why there is no patch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Each candidate tried and why it was rejected.
    #[serde(default)]
    pub tried: Vec<String>,
    /// Tests that failed in the original order without it and pass with it (victims it fixes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub makes_pass: Vec<String>,
    /// The experiment that verified it (the original order with the patch).
    #[serde(default)]
    pub experiments: Vec<usize>,
    /// The source file the patch edits, relative to the module (Java fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The patch file, relative to the module (Java fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// The command that applies it from the directory Maven ran in (Java fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<String>,
}

/// What one audit experiment does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuditKind {
    /// The suite with every class's block run twice in a row, in one JVM, without the agent.
    Twice,
    /// A candidate run twice in a fresh JVM (`[t, t]`, or its class's block twice), captured
    /// before each of its tests.
    Confirm,
    /// The original order captured before every segment and at the end.
    CaptureClasses,
    /// The original order captured before every segment, each class initialized right before
    /// the segment that initialized it in the `capture-classes` run: its state right after
    /// initialization, to compare with its state after that segment there.
    InitialStates,
    /// The original order captured before every segment, before every test of the classes that
    /// changed state, and at the end.
    CaptureTests,
    /// The original order with a candidate patch for a latent polluter, captured before each
    /// test of its class: the field must be the same right after the test as right before it,
    /// and no test that passed without the patch may fail with it.
    Fix,
    /// For a latent polluter that initializes its field's class: the original order without a
    /// patch, that class initialized right before the test's class, captured before each test of
    /// its class: the field must differ across the test there, or a patch run proves nothing.
    FixControl,
}

/// A class the agent initializes right before a segment is captured.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitializeAt {
    /// The segment's index in the run, from 0.
    pub segment: usize,
    /// The class (dotted binary name).
    pub class: String,
}

/// One experiment the planner asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditExperiment {
    /// 1-based position in the audit history.
    pub id: usize,
    /// What it does.
    pub kind: AuditKind,
    /// The order to run.
    pub order: Vec<String>,
    /// The candidate a confirmation is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Confirmations: whether the whole class block runs twice (else the test alone).
    #[serde(default)]
    pub class_level: bool,
    /// With the agent: classes whose tests are each captured before they start.
    #[serde(default)]
    pub capture_tests: Vec<String>,
    /// With the agent: classes initialized right before a segment is captured.
    #[serde(default)]
    pub initialize_at: Vec<InitializeAt>,
    /// Fix experiments: the candidate patch whose compiled class goes first on the classpath.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixRef>,
}

impl AuditExperiment {
    /// Whether the test JVM runs with the agent in audit mode.
    pub fn uses_agent(&self) -> bool {
        self.kind != AuditKind::Twice
    }
}

/// One capture point of a run, as the agent wrote it to `points.jsonl`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// Its number in the run, from 1.
    pub point: u32,
    /// The test JVM's process id: a run that went on in another JVM numbers its points anew.
    #[serde(default)]
    pub jvm: Option<String>,
    /// `class` (before a segment), `test` (before a test's start) or `end`.
    pub at: String,
    /// The segment it is in (or starts), from 0.
    pub segment: i64,
    /// The test that runs next.
    #[serde(default)]
    pub test: Option<String>,
    /// Which start of that test.
    #[serde(default)]
    pub occurrence: Option<u32>,
    /// Classes initialized since the previous point.
    #[serde(default)]
    pub new: Vec<String>,
    /// The capture's file name, in the record's `captures_dir`.
    #[serde(default)]
    pub capture: Option<String>,
    /// Classes initialized at this point on request, and those that failed.
    #[serde(default)]
    pub initialized: Vec<String>,
    /// Classes whose initialization failed, with the reason.
    #[serde(default)]
    pub initialize_failed: Vec<String>,
    /// A problem of the agent at this point.
    #[serde(default)]
    pub error: Option<String>,
    /// A caveat of the agent at this point.
    #[serde(default)]
    pub warning: Option<String>,
    /// What the point cost, in milliseconds.
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Threads alive here that were not at the previous point (the JDK's own left out).
    #[serde(default)]
    pub threads_started: Vec<StartedThread>,
    /// Entries of the working or temporary directory added or written since the previous point.
    #[serde(default)]
    pub files_added: Vec<AddedFile>,
    /// At the end of the run: entries added or written since its first point and still there.
    #[serde(default)]
    pub files_left: Vec<AddedFile>,
}

/// A thread the agent saw start between two points and still alive at the second.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartedThread {
    /// Its name.
    pub name: String,
    /// Whether it is a daemon thread (it does not keep the JVM alive).
    pub daemon: bool,
}

/// A directory entry the agent saw appear or be written between two points.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddedFile {
    /// `user.dir` (the working directory) or `java.io.tmpdir`.
    pub dir: String,
    /// The entry's name.
    pub name: String,
    /// `added` (it was not there) or `modified` (its time or size changed).
    #[serde(default)]
    pub change: String,
}

/// An audit experiment that ran.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AuditRecord {
    /// What was asked.
    #[serde(flatten)]
    pub experiment: AuditExperiment,
    /// The request's fingerprint when it ran.
    pub fingerprint: String,
    /// Each test's result, in the order they ran.
    #[serde(default)]
    pub results: Vec<TestResult>,
    /// Whether the order ran exactly as asked.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// The agent's capture points, in order (experiments with the agent).
    #[serde(default)]
    pub points: Vec<Point>,
    /// Where the captures are, absolute.
    #[serde(default)]
    pub captures_dir: Option<PathBuf>,
    /// How long the experiment took, in milliseconds.
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// How many test JVMs the run took (more than one when a test ended one).
    #[serde(default = "one")]
    pub jvms: usize,
}

fn one() -> usize {
    1
}

fn yes() -> bool {
    true
}

/// The next step.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum AuditStep {
    /// Run this experiment, record it, ask again.
    Run {
        /// The experiment.
        experiment: AuditExperiment,
        /// What it is, in words, for the console.
        what: String,
        /// What is left after it, in words, with the time the suite took when known.
        left: String,
    },
    /// Make candidate patches for these latent polluters (`fixes` of the next request), then ask
    /// again.
    Fixes {
        /// The polluters, best-ranked first.
        wanted: Vec<FixWanted>,
    },
    /// Nothing more to run.
    Done {
        /// What the audit found.
        outcome: AuditOutcome,
    },
}

/// A static field (or piece of JDK state) whose value differs between two points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedField {
    /// `com.acme.Config.mode`, or `java.lang.System.properties`.
    pub field: String,
    /// Whether it is JDK state (system properties, default Locale or TimeZone) and not a field.
    pub pseudo: bool,
    /// Its value before, short.
    pub before: String,
    /// Its value after, short.
    pub after: String,
    /// The smallest paths where the values differ (`F[key]`, `F.name`), at most ten.
    pub paths: Vec<String>,
    /// Whether its class was initialized by the test (or class) that changed it, so `before` is
    /// its state right after initialization, taken in another JVM.
    #[serde(default)]
    pub since_initialized: bool,
    /// Whether every differing path listed (at most ten) goes through a field named like a cache
    /// (`_cachedFCA`, `typeCache`, `configCache`): often a cache filled, sometimes a cached value
    /// later tests get; shown, not judged.
    #[serde(default)]
    pub cache_only: bool,
}

/// A test that passes once and fails when run again in the same JVM.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NonIdempotent {
    /// The test.
    pub test: String,
    /// `test` (`[t, t]` fails) or `class` (only its class run twice makes it fail).
    pub level: String,
    /// Its first run's outcome.
    pub first: RunOutcome,
    /// Its second run's outcome.
    pub second: RunOutcome,
    /// The second run's failure message.
    #[serde(default)]
    pub message: Option<String>,
    /// The order that shows it, to reproduce.
    pub order: Vec<String>,
    /// What the first run left changed (before its first start against before its second).
    pub fields: Vec<ChangedField>,
    /// The experiments where it failed the second time (the suite run and the fresh JVMs).
    pub experiments: Vec<usize>,
    /// The other tests of its class that fail in their class's second run too (one cause: the
    /// class was confirmed once, run twice).
    #[serde(default)]
    pub others: Vec<String>,
}

/// A test (or a class's setup or teardown) after which a static field stays changed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LatentPolluter {
    /// The test, or `Class (class setup)` / `Class (class teardown or last test)`.
    pub test: String,
    /// Its class.
    pub class: String,
    /// The field it leaves changed.
    pub field: ChangedField,
    /// Other tests of the class that also changed the field before it (overwritten later).
    #[serde(default)]
    pub also_changed_by: Vec<String>,
    /// Test classes (other than its own) that read the field, from their class files.
    pub readers: Vec<String>,
    /// `high` (another test class reads it), `low` (none does), `unknown` (JDK state, or a
    /// class whose class file was not read).
    pub rank: String,
    /// The experiments that showed it (two JVMs).
    pub experiments: Vec<usize>,
    /// The segment of the run it is in (its class's block), from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<usize>,
    /// Which start of the test changed it (its test points count starts), when captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrence: Option<u32>,
    /// Whether the field's class was not yet initialized right before the test (the test
    /// initialized it): then `before_capture` is its state right after initialization.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub initialized_by_test: bool,
    /// The capture right before the test in the last of them (absolute); for a field whose class
    /// the test initialized, its state right after initialization.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_capture: Option<PathBuf>,
    /// The capture right after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_capture: Option<PathBuf>,
    /// The teardown patch, with `-Dodrust.audit.repair=true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<LatentFix>,
}

/// A thread left running or a file left behind by a test (or its class's setup).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftBehind {
    /// The test, or `Class (class setup)`.
    pub test: String,
    /// Its class.
    pub class: String,
    /// `thread` or `file`.
    pub kind: String,
    /// The thread's or the entry's name.
    pub name: String,
    /// `daemon` or `non-daemon` (threads); the directory's property, `user.dir` or
    /// `java.io.tmpdir` (files).
    pub detail: String,
    /// The experiments that showed it (two JVMs).
    pub experiments: Vec<usize>,
}

/// What `audit_next` says when it is done.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AuditOutcome {
    /// Tests that fail when run again in the same JVM.
    pub non_idempotent: Vec<NonIdempotent>,
    /// Tests after which a static field stays changed, ranked (`high` first).
    pub latent_polluters: Vec<LatentPolluter>,
    /// Threads left running and files left in the working or temporary directory.
    #[serde(default)]
    pub left_behind: Vec<LeftBehind>,
    /// Candidates that failed on their second run in the suite run but not in a fresh JVM, or
    /// that were not confirmed (over the limit), with why.
    pub not_confirmed: Vec<String>,
    /// Tests that failed in the original order (their second run says nothing).
    pub failing: Vec<String>,
    /// Test JVMs run.
    pub jvms: usize,
    /// Things the user should know (a capture that failed, fields left out as unstable).
    pub notes: Vec<String>,
}
