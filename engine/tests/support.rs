//! What the integration tests share: the protocol and CLI helpers, small suites, and the
//! detection planner driven to the end against simulated executors.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use odrust_engine::detect::{self, DetectConfig, Summary};
use odrust_engine::model::experiment::{Experiment, ExperimentRecord, TestResult};
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};
use odrust_engine::protocol::call;
use serde_json::Value;

pub const SUITE: &str = r#"{"schema_version":1,"module":"com.acme:cart","classes":[
  {"class":"com.acme.CartTest","framework":"junit4","reorderable":true,
   "tests":["com.acme.CartTest#a","com.acme.CartTest#b","com.acme.CartTest#c"]},
  {"class":"com.acme.MathTest","framework":"junit5","reorderable":true,
   "tests":["com.acme.MathTest#adds","com.acme.MathTest$WhenEmpty#isEmpty"],"dynamic":["com.acme.MathTest#adds"]},
  {"class":"com.acme.FixedTest","framework":"junit4","reorderable":false,
   "tests":["com.acme.FixedTest#one","com.acme.FixedTest#two"]}
]}"#;

pub fn suite() -> Value {
    serde_json::from_str(SUITE).unwrap()
}

pub fn ok(op: &str, request: Value) -> Value {
    let response = call(op, &request.to_string()).unwrap_or_else(|e| panic!("{op}: {e}"));
    serde_json::from_str(&response).unwrap()
}

pub fn err(op: &str, request: Value) -> (String, String) {
    let e = call(op, &request.to_string()).unwrap_err();
    (e.code().to_string(), e.to_string())
}

/// A fresh directory under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "odrust-engine-it-{tag}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn cli(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_odrust-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            pipe.write_all(text.as_bytes()).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn class(name: &str, tests: usize, dynamic: usize, reorderable: bool) -> ClassRecord {
    let ids: Vec<String> = (0..tests).map(|i| format!("{name}#t{i}")).collect();
    ClassRecord {
        class: name.to_string(),
        framework: if dynamic > 0 {
            Framework::Junit5
        } else {
            Framework::Junit4
        },
        reorderable,
        dynamic: ids[..dynamic.min(tests)].to_vec(),
        tests: ids,
    }
}

pub fn suite_of(classes: Vec<ClassRecord>) -> Suite {
    Suite {
        schema_version: 1,
        module: "g:a".into(),
        classes,
    }
}

/// The record of `e` having run with `results`; a failure gets a message naming the test.
pub fn record(e: &Experiment, results: Vec<(String, RunOutcome)>) -> ExperimentRecord {
    let results = results
        .into_iter()
        .map(|(test, outcome)| TestResult {
            message: (outcome.passed() == Some(false)).then(|| format!("{test} failed")),
            ..TestResult::new(test, outcome)
        })
        .collect();
    ExperimentRecord {
        millis: 1,
        ..ExperimentRecord::of(e, results)
    }
}

// ---- detection: the planner against simulated executors ----

/// Runs detection to the end (or `max` experiments) with `execute` computing each
/// experiment's outcomes from its order; `adjust` may change the configuration after each
/// experiment (to stop rounds).
pub fn detect_with(
    config: &mut DetectConfig,
    suite: &Suite,
    mut history: Vec<ExperimentRecord>,
    max: usize,
    execute: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
    adjust: &dyn Fn(&mut DetectConfig, &[ExperimentRecord]),
) -> Vec<ExperimentRecord> {
    while history.len() < max {
        let step = detect::next(config, suite, &history).unwrap();
        let Some(experiment) = step.experiment else {
            break;
        };
        assert_eq!(experiment.id, history.len() + 1);
        history.push(record(&experiment, execute(&experiment)));
        adjust(config, &history);
    }
    history
}

pub fn detect_all(
    config: &DetectConfig,
    suite: &Suite,
    execute: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
) -> (Vec<ExperimentRecord>, Summary) {
    let mut config = config.clone();
    let history = detect_with(&mut config, suite, Vec::new(), 10_000, execute, &|_, _| {});
    assert!(detect::next(&config, suite, &history)
        .unwrap()
        .experiment
        .is_none());
    let summary = detect::summary(&config, suite, &history).unwrap();
    (history, summary)
}

pub fn config(strategy: Strategy, seed: u64) -> DetectConfig {
    DetectConfig {
        alone_runs: 10,
        // These tests check detection alone; minimization has its own tests.
        minimize: false,
        ..DetectConfig::new(strategy, 20, seed)
    }
}

pub fn named(classes: &[(&str, &[&str])]) -> Suite {
    suite_of(
        classes
            .iter()
            .map(|(c, tests)| ClassRecord {
                class: c.to_string(),
                framework: Framework::Junit5,
                reorderable: true,
                tests: tests.iter().map(|t| format!("{c}#{t}")).collect(),
                dynamic: vec![],
            })
            .collect(),
    )
}

/// Victim `p.V#v` fails iff `p.P#polluter` ran before it with no `p.C#cleaner` in between.
pub fn victim_suite() -> Suite {
    named(&[
        ("p.X", &["x1", "x2", "x3"]),
        ("p.V", &["v", "v2"]),
        ("p.P", &["polluter", "p2"]),
        ("p.C", &["cleaner"]),
        ("p.Y", &["y1", "y2"]),
    ])
}

/// Brittle `p.T#brittle` errors unless `p.S#setter` ran before it.
pub fn brittle_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
    let mut set = false;
    e.order
        .iter()
        .map(|t| {
            set |= t == "p.S#setter";
            let outcome = if t == "p.T#brittle" && !set {
                RunOutcome::Error
            } else {
                RunOutcome::Pass
            };
            (t.clone(), outcome)
        })
        .collect()
}

pub fn victim_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
    victim_executor_with(e, &["p.P#polluter"])
}

/// As [`victim_executor`], with `polluters` each a polluter of `p.V#v` (cleaned by every test of
/// class `p.C`: `p.C#cleaner` in [`victim_suite`]).
pub fn victim_executor_with(e: &Experiment, polluters: &[&str]) -> Vec<(String, RunOutcome)> {
    let mut polluted = false;
    e.order
        .iter()
        .map(|t| {
            let outcome = match t.as_str() {
                p if polluters.contains(&p) => {
                    polluted = true;
                    RunOutcome::Pass
                }
                c if c.starts_with("p.C#") => {
                    polluted = false;
                    RunOutcome::Pass
                }
                "p.V#v" if polluted => RunOutcome::Fail,
                _ => RunOutcome::Pass,
            };
            (t.clone(), outcome)
        })
        .collect()
}

pub fn by_id(history: &[ExperimentRecord], id: usize) -> &ExperimentRecord {
    &history[id - 1]
}

/// The round a confirmation reran (rounds run in batches, before their confirmations).
pub fn round_of<'a>(
    history: &'a [ExperimentRecord],
    confirmation: &ExperimentRecord,
) -> &'a ExperimentRecord {
    history
        .iter()
        .find(|r| {
            r.kind == odrust_engine::model::experiment::ExperimentKind::Round
                && r.round == confirmation.round
        })
        .expect("the round of a confirmation")
}

pub fn minimizing(strategy: Strategy, seed: u64) -> DetectConfig {
    DetectConfig {
        minimize: true,
        ..config(strategy, seed)
    }
}

pub fn minimize_records<'h>(
    history: &'h [ExperimentRecord],
    test: &str,
) -> Vec<&'h ExperimentRecord> {
    history
        .iter()
        .filter(|r| r.kind.is_minimize() && r.targets[0] == test)
        .collect()
}

/// No minimization experiment runs an order that any earlier experiment ran.
pub fn assert_no_order_run_twice(history: &[ExperimentRecord]) {
    for (i, r) in history.iter().enumerate() {
        if r.kind.is_minimize() {
            assert!(
                !history[..i].iter().any(|e| e.order == r.order),
                "experiment {} reruns an order: {:?}",
                r.id,
                r.order
            );
        }
    }
}

/// A polluter and its cleaners.
pub type Polluter = (String, Vec<String>);

/// A simulated module with order-dependent tests wired by hand: each victim is polluted by any of
/// its polluters and cleaned by that polluter's cleaners; each brittle passes once one of its
/// state-setters ran (and a later "breaker" undoes it).
#[derive(Debug, Clone, Default)]
pub struct Wiring {
    /// Victim -> its polluters, each with its cleaners.
    pub victims: Vec<(String, Vec<Polluter>)>,
    /// Brittle -> its state-setters and its breakers.
    pub brittles: Vec<(String, Vec<String>, Vec<String>)>,
}

impl Wiring {
    /// Every victim polluted by every one of `polluters`, each pollution cleaned by all of
    /// `cleaners` (one shared state, like a global filter several tests set and others reset).
    pub fn shared(victims: &[String], polluters: &[String], cleaners: &[String]) -> Wiring {
        Wiring {
            victims: victims
                .iter()
                .map(|v| {
                    let each = polluters.iter().map(|p| (p.clone(), cleaners.to_vec()));
                    (v.clone(), each.collect())
                })
                .collect(),
            brittles: vec![],
        }
    }

    /// `record` (a baseline run) with what the jvm-agent would record for this wiring: victim
    /// `i` reads `p.S#V<i>`, which its polluters and cleaners write; brittle `i` reads
    /// `p.S#B<i>`, which its state-setters and breakers write; each `(test, field)` of `noise`
    /// writes that field too (writing it without polluting or cleaning anything).
    pub fn recorded(
        &self,
        mut record: ExperimentRecord,
        noise: &[(&str, &str)],
    ) -> ExperimentRecord {
        for r in &mut record.results {
            let t = r.test.as_str();
            let mut reads: Vec<String> = Vec::new();
            let mut writes: Vec<String> = noise
                .iter()
                .filter(|(n, _)| *n == t)
                .map(|(_, f)| f.to_string())
                .collect();
            for (i, (victim, polluters)) in self.victims.iter().enumerate() {
                if victim == t {
                    reads.push(format!("p.S#V{i}"));
                }
                if polluters
                    .iter()
                    .any(|(p, cl)| p == t || cl.iter().any(|c| c == t))
                {
                    writes.push(format!("p.S#V{i}"));
                }
            }
            for (i, (brittle, setters, breakers)) in self.brittles.iter().enumerate() {
                if brittle == t {
                    reads.push(format!("p.S#B{i}"));
                }
                if setters.iter().chain(breakers).any(|s| s == t) {
                    writes.push(format!("p.S#B{i}"));
                }
            }
            r.reads = Some(reads);
            r.writes = Some(writes);
        }
        record
    }

    /// The outcomes of running `e` in one JVM.
    pub fn run(&self, e: &Experiment) -> Vec<(String, RunOutcome)> {
        let mut dirty: Vec<Option<&str>> = vec![None; self.victims.len()];
        let mut set: Vec<bool> = vec![false; self.brittles.len()];
        let mut out = Vec::new();
        for t in &e.order {
            let mut outcome = RunOutcome::Pass;
            for (i, (victim, polluters)) in self.victims.iter().enumerate() {
                if t == victim && dirty[i].is_some() {
                    outcome = RunOutcome::Fail;
                }
                if let Some((p, _)) = polluters.iter().find(|(p, _)| p == t) {
                    dirty[i] = Some(p.as_str());
                } else if let Some(p) = dirty[i] {
                    let cleans = polluters
                        .iter()
                        .any(|(q, cleaners)| q == p && cleaners.contains(t));
                    if cleans {
                        dirty[i] = None;
                    }
                }
            }
            for (i, (brittle, setters, breakers)) in self.brittles.iter().enumerate() {
                if t == brittle && !set[i] {
                    outcome = RunOutcome::Error;
                }
                if setters.contains(t) {
                    set[i] = true;
                } else if breakers.contains(t) {
                    set[i] = false;
                }
            }
            out.push((t.clone(), outcome));
        }
        out
    }
}
