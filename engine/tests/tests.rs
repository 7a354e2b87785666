//! End-to-end tests: the engine's ops through `protocol::call` with JSON, and the
//! `odrust-engine` CLI binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use odrust_engine::protocol::{call, ENGINE_VERSION};
use serde_json::{json, Value};

const SUITE: &str = r#"{"schema_version":1,"module":"com.acme:cart","classes":[
  {"class":"com.acme.CartTest","framework":"junit4","reorderable":true,
   "tests":["com.acme.CartTest#a","com.acme.CartTest#b","com.acme.CartTest#c"]},
  {"class":"com.acme.MathTest","framework":"junit5","reorderable":true,
   "tests":["com.acme.MathTest#adds","com.acme.MathTest$WhenEmpty#isEmpty"],"dynamic":["com.acme.MathTest#adds"]},
  {"class":"com.acme.FixedTest","framework":"junit4","reorderable":false,
   "tests":["com.acme.FixedTest#one","com.acme.FixedTest#two"]}
]}"#;

fn suite() -> Value {
    serde_json::from_str(SUITE).unwrap()
}

fn ok(op: &str, request: Value) -> Value {
    let response = call(op, &request.to_string()).unwrap_or_else(|e| panic!("{op}: {e}"));
    serde_json::from_str(&response).unwrap()
}

fn err(op: &str, request: Value) -> (String, String) {
    let e = call(op, &request.to_string()).unwrap_err();
    (e.code().to_string(), e.to_string())
}

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
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

    fn file(&self, name: &str, text: &str) -> PathBuf {
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

#[test]
fn version_op() {
    assert_eq!(
        ok("version", json!({})),
        json!({"engine_version": ENGINE_VERSION, "abi": 1})
    );
}

#[test]
fn plan_order_resolves_and_segments() {
    let order_text = "# victim after polluter\n\
                      com.acme.CartTest#c\n\
                      com.acme.MathTest#adds[2]\n\
                      com.acme.CartTest.a\n\
                      com.acme.CartTest#a\n\
                      com.acme.FixedTest#two, com.acme.FixedTest#one\n";
    let plan = ok(
        "plan_order",
        json!({"suite": suite(), "order_text": order_text, "source": "orders/x.txt"}),
    );
    assert_eq!(
        plan,
        json!({
            "order": ["com.acme.CartTest#c", "com.acme.MathTest#adds[2]", "com.acme.CartTest#a",
                      "com.acme.CartTest#a", "com.acme.FixedTest#two", "com.acme.FixedTest#one"],
            "segments": [
                {"class": "com.acme.CartTest", "framework": "junit4", "tests": ["com.acme.CartTest#c"]},
                {"class": "com.acme.MathTest", "framework": "junit5", "tests": ["com.acme.MathTest#adds[2]"]},
                {"class": "com.acme.CartTest", "framework": "junit4", "tests": ["com.acme.CartTest#a"]},
                {"class": "com.acme.CartTest", "framework": "junit4", "tests": ["com.acme.CartTest#a"],
                 "reason": "repeat of `com.acme.CartTest#a`"},
                {"class": "com.acme.FixedTest", "framework": "junit4", "tests": ["com.acme.FixedTest#two"]},
                {"class": "com.acme.FixedTest", "framework": "junit4", "tests": ["com.acme.FixedTest#one"],
                 "reason": "class is not reorderable: `com.acme.FixedTest#one` comes before `com.acme.FixedTest#two` in its fixed order"},
            ],
            "warnings": ["resolved `com.acme.CartTest.a` to `com.acme.CartTest#a`"],
        })
    );
}

#[test]
fn plan_order_errors_carry_protocol_codes() {
    let plan = |text: &str| {
        err(
            "plan_order",
            json!({"suite": suite(), "order_text": text, "source": "orders/x.txt"}),
        )
    };
    let (code, message) = plan("com.acme.CartTest#d\n");
    assert_eq!(code, "unknown-test");
    assert!(
        message.contains("unknown test id `com.acme.CartTest#d`"),
        "{message}"
    );
    assert!(message.contains("`com.acme.CartTest#a`"), "{message}");
    assert!(message.contains("mvn odrust:discover"), "{message}");

    let (code, message) = plan("com.acme.CartTest#a\n\ncom.acme.CartTest#\n");
    assert_eq!(code, "malformed-order");
    assert!(
        message.starts_with("malformed order in orders/x.txt, line 3:"),
        "{message}"
    );

    let (code, message) = plan("# only a comment\n");
    assert_eq!(code, "empty-order");
    assert!(message.contains("orders/x.txt"), "{message}");

    let (code, message) = err("plan_order", json!({"suite": suite(), "order_text": "x"}));
    assert_eq!(code, "bad-request");
    assert!(message.contains("missing field `source`"), "{message}");
}

#[test]
fn check_run_op() {
    let response = ok(
        "check_run",
        json!({"requested": ["a.A#x", "a.A#m"], "ran": ["a.A#x", "a.A#m[1]", "a.A#m[2]"]}),
    );
    assert_eq!(
        response,
        json!({"honoured": true, "first_difference": null, "missing": [], "unexpected": []})
    );
    let response = ok(
        "check_run",
        json!({"requested": ["a.A#x", "a.A#y"], "ran": ["a.A#y", "a.A#z"]}),
    );
    assert_eq!(
        response,
        json!({"honoured": false,
               "first_difference": {"index": 0, "ran_index": 0, "requested": "a.A#x", "ran": "a.A#y"},
               "missing": ["a.A#x"], "unexpected": ["a.A#z"]})
    );
}

#[test]
fn read_surefire_reports_op() {
    let dir = TempDir::new("reports");
    dir.file(
        "TEST-com.acme.CartTest.xml",
        r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.CartTest" tests="2">
  <testcase name="a" classname="com.acme.CartTest" time="0"/>
  <testcase name="adds(int)[1]" classname="com.acme.MathTest" time="0">
    <failure message="boom" type="java.lang.AssertionError">trace</failure>
  </testcase>
</testsuite>"#,
    );
    let response = ok("read_surefire_reports", json!({"dir": dir.0}));
    assert_eq!(
        response,
        json!({"tests": [
            {"test": "com.acme.CartTest#a", "outcome": "pass", "message": null},
            {"test": "com.acme.MathTest#adds[1]", "outcome": "fail", "message": "boom"},
        ], "files": 1})
    );

    let (code, message) = err(
        "read_surefire_reports",
        json!({"dir": dir.0.join("missing")}),
    );
    assert_eq!(code, "io");
    assert!(message.contains("missing"), "{message}");

    dir.file("TEST-broken.xml", "<testsuite><testcase name='x'");
    let (code, message) = err("read_surefire_reports", json!({"dir": dir.0}));
    assert_eq!(code, "bad-report");
    assert!(message.contains("TEST-broken.xml"), "{message}");
}

#[test]
fn compare_outcomes_op() {
    let response = ok(
        "compare_outcomes",
        json!({
            "expected": [{"test": "a#m", "outcome": "pass"}, {"test": "a#x", "outcome": "pass"},
                         {"test": "a#gone", "outcome": "skipped"}],
            "actual": [{"test": "a#m[1]", "outcome": "pass"}, {"test": "a#m[2]", "outcome": "error"},
                       {"test": "a#x", "outcome": "pass"}, {"test": "a#new", "outcome": "fail"}],
        }),
    );
    assert_eq!(
        response,
        json!({"same": false,
               "differences": [{"test": "a#m", "expected": "pass", "actual": "error"}],
               "only_expected": ["a#gone"], "only_actual": ["a#new"]})
    );
    let (code, _) = err(
        "compare_outcomes",
        json!({"expected": [{"test": "a#m", "outcome": "passed"}], "actual": []}),
    );
    assert_eq!(code, "bad-request");
}

#[test]
fn unknown_op_is_an_error() {
    let (code, message) = err("plan", json!({}));
    assert_eq!(code, "unknown-op");
    assert!(message.contains("plan_order"), "{message}");
}

#[test]
fn selftest_panic_panics_with_its_message() {
    let payload = std::panic::catch_unwind(|| call("selftest_panic", "{}")).unwrap_err();
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap();
    assert!(message.contains("on purpose"), "{message}");
}

// ---- the CLI ----

fn cli(args: &[&str], stdin: Option<&str>) -> Output {
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

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn cli_orders_dependence_aware_covers_only_interacting_pairs() {
    let dir = TempDir::new("dependence");
    let suite = dir.file(
        "suite.json",
        r#"{"classes": {"p.A": ["p.A#a1", "p.A#a2"], "p.B": ["p.B#b1", "p.B#b2"], "p.C": ["p.C#c1"]}}"#,
    );
    let accesses = dir.file(
        "accesses.json",
        r#"{"p.A#a1": {"writes": ["p.S#X", "p.Log#L"]}, "p.B#b2": {"reads": ["p.S#X", "p.Log#L"]},
            "p.A#a2": {}, "p.B#b1": {"reads": ["p.Log#L"]}, "p.C#c1": {}}"#,
    );
    let (suite, accesses) = (suite.to_str().unwrap(), accesses.to_str().unwrap());
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["orders", "--suite", suite, "--strategy", "dependence-aware"];
        args.extend_from_slice(extra);
        let out = cli(&args, None);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let plan = run(&["--accesses", accesses]);
    // a1 -> b2 (X and L) and a1 -> b1 (L): two pairs, both covered.
    assert_eq!(plan["pairs"], serde_json::json!({"covered": 2, "total": 2}));
    let orders: Vec<Vec<String>> = serde_json::from_value(plan["orders"].clone()).unwrap();
    let consecutive = |a: &str, b: &str| {
        orders
            .iter()
            .any(|o| o.windows(2).any(|w| w[0] == a && w[1] == b))
    };
    assert!(consecutive("p.A#a1", "p.B#b2") && consecutive("p.A#a1", "p.B#b1"));
    assert!(orders
        .iter()
        .flatten()
        .all(|t| t != "p.C#c1" && t != "p.A#a2"));
    // b1 and b2 only ever follow a1 there: a clean run lets each run without it.
    for reader in ["p.B#b1", "p.B#b2"] {
        assert!(
            orders
                .iter()
                .any(|o| o.contains(&reader.to_string()) && !o.contains(&"p.A#a1".to_string())),
            "{reader} never runs without a1: {orders:?}"
        );
    }
    assert_eq!(plan["unrecorded"], 0);
    let free = run(&["--accesses", accesses, "--dependence-free", "p.Log#*"]);
    assert_eq!(free["pairs"]["total"], 1);
    let missing = cli(
        &["orders", "--suite", suite, "--strategy", "dependence-aware"],
        None,
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("--accesses"),
        "{}",
        stderr(&missing)
    );
    let plan = cli(
        &[
            "detect-plan",
            "--suite",
            suite,
            "--strategy",
            "dependence-aware",
        ],
        None,
    );
    assert_eq!(plan.status.code(), Some(2));
    assert!(
        stderr(&plan).contains("what the baseline recorded"),
        "{}",
        stderr(&plan)
    );
}

#[test]
fn cli_version_and_help() {
    let out = cli(&["version"], None);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).trim(),
        format!("odrust-engine {ENGINE_VERSION} (abi 1)")
    );
    let out = cli(&["--help"], None);
    assert!(out.status.success());
    assert!(stdout(&out).contains("plan-order"));
}

#[test]
fn cli_call_reads_file_stdin_or_defaults_to_empty_request() {
    let out = cli(&["call", "version"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["abi"], 1);

    let out = cli(
        &["call", "check_run", "-"],
        Some(r#"{"requested":["a#x"],"ran":["a#x"]}"#),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["honoured"], true);

    let dir = TempDir::new("cli-call");
    let request = dir.file("req.json", r#"{"requested":["a#x"],"ran":[]}"#);
    let out = cli(&["call", "check_run", request.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["missing"], json!(["a#x"]));
}

#[test]
fn cli_engine_errors_exit_2_with_code() {
    let out = cli(&["call", "nope"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error[unknown-op]: "),
        "{}",
        stderr(&out)
    );

    let out = cli(&["call", "check_run", "/definitely/not/here.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error[io]: "), "{}", stderr(&out));
    assert!(stderr(&out).contains("/definitely/not/here.json"));
}

#[test]
fn cli_bad_usage_exits_2() {
    for args in [
        &[][..],
        &["frobnicate"][..],
        &["call"][..],
        &["call", "version", "a", "b"][..],
        &["plan-order", "--suite"][..],
        &["plan-order", "--order", "x.txt"][..],
        &["plan-order", "--bogus", "x"][..],
    ] {
        let out = cli(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("USAGE"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn cli_plan_order() {
    let dir = TempDir::new("cli-plan");
    let suite = dir.file("suite.json", SUITE);
    let order = dir.file("order.txt", "com.acme.CartTest#b\ncom.acme.CartTest#a\n");
    let out = cli(
        &[
            "plan-order",
            "--suite",
            suite.to_str().unwrap(),
            "--order",
            order.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        plan["segments"],
        json!([{"class": "com.acme.CartTest", "framework": "junit4",
                "tests": ["com.acme.CartTest#b", "com.acme.CartTest#a"]}])
    );

    let bad = dir.file("bad.txt", "com.acme.CartTest#zzz\n");
    let out = cli(
        &[
            "plan-order",
            "--suite",
            suite.to_str().unwrap(),
            "--order",
            bad.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error[unknown-test]: "), "{err}");
    assert!(err.contains("bad.txt"), "{err}");
}

/// A panic in an op unwinds like any Rust panic; the CLI does not catch it, so it dies with
/// Rust's panic exit code 101 and the panic message on stderr.
#[test]
fn cli_selftest_panic_exits_101_with_its_message() {
    let out = cli(&["call", "selftest_panic"], None);
    assert_eq!(out.status.code(), Some(101), "{}", stderr(&out));
    assert!(stderr(&out).contains("on purpose"));
}

/// Regression guard: the JNI layer turns panics into Java exceptions with `catch_unwind`, which
/// does nothing under `panic = "abort"` (the JVM would die instead). The release profile, which
/// the Maven build uses, must keep `panic = "unwind"`.
#[test]
fn release_profile_keeps_panic_unwind() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"))
        .expect("workspace Cargo.toml");
    let release = manifest
        .split("[profile.release]")
        .nth(1)
        .expect("a [profile.release] section");
    let section = release.split("\n[").next().unwrap();
    assert!(
        section
            .lines()
            .any(|line| line.split('#').next().unwrap().replace(' ', "") == "panic=\"unwind\""),
        "[profile.release] must set panic = \"unwind\":\n{section}"
    );
}

// ---- detection: order generators ----

mod detection {
    use std::collections::HashSet;

    use odrust_engine::detect::{
        self, DetectConfig, Experiment, ExperimentKind, ExperimentRecord, FlakyKind, Summary,
        TestResult,
    };
    use odrust_engine::outcome::RunOutcome;
    use odrust_engine::strategy::{self, round_rng, rounds_if_passing, Strategy};
    use odrust_engine::suite::{ClassRecord, Framework, Suite, SuiteIndex};

    /// A class record `p.C<n>` with `tests` tests, the first `dynamic` of them dynamic containers.
    fn class(name: &str, tests: usize, dynamic: usize, reorderable: bool) -> ClassRecord {
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

    fn suite_of(classes: Vec<ClassRecord>) -> Suite {
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes,
        }
    }

    /// Every suite shape the tester runs.
    fn shapes() -> Vec<(String, Suite)> {
        let mut shapes = Vec::new();
        for n in 1..=20 {
            shapes.push((
                format!("one class of {n}"),
                suite_of(vec![class("p.One", n, 0, true)]),
            ));
        }
        let uneven = [1, 7, 3, 12, 2, 5, 1, 9];
        shapes.push((
            "uneven classes".into(),
            suite_of(
                uneven
                    .iter()
                    .enumerate()
                    .map(|(i, n)| class(&format!("p.U{i}"), *n, 0, true))
                    .collect(),
            ),
        ));
        shapes.push((
            "one test per class".into(),
            suite_of(
                (0..15)
                    .map(|i| class(&format!("p.S{i}"), 1, 0, true))
                    .collect(),
            ),
        ));
        shapes.push((
            "dynamic containers and a fixed-order class".into(),
            suite_of(vec![
                class("p.D0", 4, 2, true),
                class("p.Fixed", 5, 0, false),
                class("p.D1", 3, 3, true),
                class("p.Plain", 6, 0, true),
                class("p.D2", 1, 1, true),
            ]),
        ));
        shapes
    }

    /// How many different orders a random strategy can give for `suite` (saturating).
    fn possible_orders(strategy: Strategy, suite: &Suite) -> f64 {
        let factorial = |n: usize| (1..=n).map(|k| k as f64).product::<f64>();
        let classes = factorial(suite.classes.len());
        match strategy {
            Strategy::RandomClass => classes,
            Strategy::RandomClassMethod | Strategy::ReversePassing => {
                classes
                    * suite
                        .classes
                        .iter()
                        .filter(|c| c.reorderable)
                        .map(|c| factorial(c.tests.len()))
                        .product::<f64>()
            }
            _ => 1.0,
        }
    }

    fn check_order(order: &[String], suite: &Suite, what: &str) {
        let mut sorted = order.to_vec();
        sorted.sort();
        let mut expected: Vec<String> = suite.ids().map(String::from).collect();
        expected.sort();
        assert_eq!(sorted, expected, "{what}: not a permutation: {order:?}");
        let index = SuiteIndex::new(suite);
        let mut finished: HashSet<usize> = HashSet::new();
        let mut current: Option<usize> = None;
        for id in order {
            let record = index.get(id).unwrap().record;
            if current != Some(record) {
                assert!(
                    finished.insert(record),
                    "{what}: class {} is not contiguous: {order:?}",
                    suite.classes[record].class
                );
                current = Some(record);
            }
        }
        for record in suite.classes.iter().filter(|c| !c.reorderable) {
            let kept: Vec<&String> = order.iter().filter(|t| record.tests.contains(t)).collect();
            assert!(
                kept.into_iter().eq(record.tests.iter()),
                "{what}: fixed-order class {} reordered: {order:?}",
                record.class
            );
        }
    }

    #[test]
    fn every_strategy_gives_class_compatible_permutations_reproducibly() {
        let mut checked = 0;
        for (shape, suite) in shapes() {
            for strategy in Strategy::WHOLE_SUITE {
                let mut first_rounds = Vec::new();
                for seed in 0..32u64 {
                    let rounds = rounds_if_passing(strategy, &suite, seed, 4);
                    assert_eq!(rounds.len(), 4);
                    for planned in &rounds {
                        let what =
                            format!("{shape}, {strategy}, seed {seed}, round {}", planned.round);
                        check_order(&planned.order, &suite, &what);
                        checked += 1;
                    }
                    assert_eq!(
                        rounds,
                        rounds_if_passing(strategy, &suite, seed, 4),
                        "{shape}, {strategy}, seed {seed}: not reproducible"
                    );
                    first_rounds.push(rounds[0].order.clone());
                }
                let distinct: HashSet<&Vec<String>> = first_rounds.iter().collect();
                if possible_orders(strategy, &suite) >= 10_000.0 {
                    assert!(
                        distinct.len() >= 30,
                        "{shape}, {strategy}: only {} different orders over 32 seeds",
                        distinct.len()
                    );
                }
                if matches!(
                    strategy,
                    Strategy::Original | Strategy::Reverse | Strategy::ReverseClass
                ) {
                    assert_eq!(
                        distinct.len(),
                        1,
                        "{shape}, {strategy} must not depend on the seed"
                    );
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn fixed_orders_are_what_their_names_say() {
        let suite = suite_of(vec![class("p.A", 2, 0, true), class("p.B", 2, 0, true)]);
        let first = |s| rounds_if_passing(s, &suite, 0, 1).remove(0).order;
        assert_eq!(
            first(Strategy::Original),
            ["p.A#t0", "p.A#t1", "p.B#t0", "p.B#t1"]
        );
        assert_eq!(
            first(Strategy::Reverse),
            ["p.B#t1", "p.B#t0", "p.A#t1", "p.A#t0"]
        );
        assert_eq!(
            first(Strategy::ReverseClass),
            ["p.B#t0", "p.B#t1", "p.A#t0", "p.A#t1"]
        );
    }

    #[test]
    fn reverse_passing_alternates_random_and_reverse_when_rounds_pass() {
        let (_, suite) = shapes().pop().unwrap();
        let index = SuiteIndex::new(&suite);
        let rounds = rounds_if_passing(Strategy::ReversePassing, &suite, 11, 6);
        for pair in rounds.chunks(2) {
            assert_eq!(pair[0].strategy, Strategy::RandomClassMethod);
            assert_eq!(pair[1].strategy, Strategy::ReversePassing);
            assert_eq!(
                pair[1].order,
                strategy::reverse_order(&pair[0].order, &index)
            );
            assert_eq!(
                pair[0].order,
                strategy::random_class_method(&suite, &mut round_rng(11, pair[0].round))
            );
        }
    }

    // ---- detection: the planner against simulated executors ----

    /// Runs detection to the end (or `max` experiments) with `execute` computing each
    /// experiment's outcomes from its order; `adjust` may change the configuration after each
    /// experiment (to stop rounds).
    fn detect_with(
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
            let results = execute(&experiment)
                .into_iter()
                .map(|(test, outcome)| TestResult {
                    message: (outcome.passed() == Some(false)).then(|| format!("{test} failed")),
                    test,
                    outcome,
                    time_ms: None,
                    reads: None,
                    writes: None,
                })
                .collect();
            history.push(ExperimentRecord {
                id: experiment.id,
                kind: experiment.kind,
                round: experiment.round,
                strategy: experiment.strategy,
                order: experiment.order,
                targets: experiment.targets,
                results,
                honoured: true,
                millis: 1,
                class_state: Vec::new(),
            });
            adjust(config, &history);
        }
        history
    }

    fn detect_all(
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

    fn config(strategy: Strategy, seed: u64) -> DetectConfig {
        DetectConfig {
            strategy,
            rounds: 20,
            seed,
            baseline_tries: 3,
            alone_runs: 10,
            stop_rounds: false,
            // These tests check detection alone; minimization has its own tests below.
            minimize: false,
            minimize_budget: 60,
            minimize_only: None,
            k: 2,
            cost: None,
            cost_aware: false,
            dependence_free: Vec::new(),
        }
    }

    fn named(classes: &[(&str, &[&str])]) -> Suite {
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
    fn victim_suite() -> Suite {
        named(&[
            ("p.X", &["x1", "x2", "x3"]),
            ("p.V", &["v", "v2"]),
            ("p.P", &["polluter", "p2"]),
            ("p.C", &["cleaner"]),
            ("p.Y", &["y1", "y2"]),
        ])
    }

    /// Brittle `p.T#brittle` errors unless `p.S#setter` ran before it.
    fn brittle_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
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

    fn victim_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
        let mut polluted = false;
        e.order
            .iter()
            .map(|t| {
                let outcome = match t.as_str() {
                    "p.P#polluter" => {
                        polluted = true;
                        RunOutcome::Pass
                    }
                    "p.C#cleaner" => {
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

    fn by_id(history: &[ExperimentRecord], id: usize) -> &ExperimentRecord {
        &history[id - 1]
    }

    #[test]
    fn victim_with_polluter_and_cleaner_is_classified_victim() {
        let suite = victim_suite();
        for strategy in [
            Strategy::ReversePassing,
            Strategy::RandomClassMethod,
            Strategy::RandomClass,
        ] {
            for seed in 0..8 {
                let (history, summary) =
                    detect_all(&config(strategy, seed), &suite, &victim_executor);
                assert!(summary.failing.is_empty());
                assert_eq!(
                    summary.flaky.len(),
                    1,
                    "{strategy} seed {seed}: {summary:?}"
                );
                let v = &summary.flaky[0];
                assert_eq!(v.test, "p.V#v");
                assert_eq!(v.kind, FlakyKind::Victim);
                assert_eq!(v.alone.unwrap().runs, 10);
                assert_eq!(v.alone.unwrap().passed, 10);
                assert_eq!(v.message.as_deref(), Some("p.V#v failed"));
                let fail = by_id(&history, v.failing_experiment);
                assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
                assert_eq!(
                    fail.order.last().unwrap(),
                    "p.V#v",
                    "cut right after the victim"
                );
                let pass = by_id(&history, v.passing_experiment);
                assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
                assert_eq!(pass.order, ["p.X#x1", "p.X#x2", "p.X#x3", "p.V#v"]);
                // The round before the confirmation ran the same order, uncut.
                let round = by_id(&history, v.failing_experiment - 1);
                assert_eq!(round.kind, ExperimentKind::Round);
                assert!(round.order.starts_with(&fail.order));
                let alone: Vec<_> = history
                    .iter()
                    .filter(|r| r.kind == ExperimentKind::Alone)
                    .collect();
                assert_eq!(alone.len(), 10);
                assert!(alone
                    .iter()
                    .all(|r| r.order == ["p.V#v"] && r.targets == ["p.V#v"]));
                assert_eq!(summary.rounds_run, 20);
                assert!(summary.notes.is_empty(), "{:?}", summary.notes);
                assert!(v.evidence.contains("passed alone 10/10"), "{}", v.evidence);
            }
        }
    }

    #[test]
    fn brittle_without_its_state_setter_is_classified_brittle() {
        let suite = named(&[
            ("p.S", &["setter", "s2"]),
            ("p.T", &["brittle"]),
            ("p.Z", &["z"]),
        ]);
        let execute = brittle_executor;
        for seed in 0..6 {
            let (_, summary) =
                detect_all(&config(Strategy::ReversePassing, seed), &suite, &execute);
            assert_eq!(summary.flaky.len(), 1, "seed {seed}: {summary:?}");
            assert_eq!(summary.flaky[0].test, "p.T#brittle");
            assert_eq!(summary.flaky[0].kind, FlakyKind::Brittle);
            assert_eq!(summary.flaky[0].alone.unwrap().passed, 0);
        }
    }

    #[test]
    fn coin_flip_test_is_nod_and_never_victim_or_brittle() {
        let suite = victim_suite();
        let mut nod_seeds = 0;
        for seed in 0..12u64 {
            let execute = move |e: &Experiment| {
                e.order
                    .iter()
                    .map(|t| {
                        let coin = strategy::mix(seed ^ 0xC01, e.id as u64) & 1 == 0;
                        let outcome = if t == "p.Y#y1" && coin {
                            RunOutcome::Fail
                        } else {
                            RunOutcome::Pass
                        };
                        (t.clone(), outcome)
                    })
                    .collect()
            };
            let (history, summary) =
                detect_all(&config(Strategy::ReversePassing, seed), &suite, &execute);
            for f in &summary.flaky {
                assert_eq!(f.test, "p.Y#y1");
                assert!(
                    !matches!(f.kind, FlakyKind::Victim | FlakyKind::Brittle),
                    "seed {seed}: {f:?}"
                );
                assert_eq!(f.kind, FlakyKind::Nod);
                let failed = by_id(&history, f.failing_experiment);
                let passed = by_id(&history, f.passing_experiment);
                let outcome = |r: &ExperimentRecord| {
                    r.results
                        .iter()
                        .find(|x| x.test == "p.Y#y1")
                        .unwrap()
                        .outcome
                };
                if f.alone.is_none() {
                    assert_eq!(outcome(failed), RunOutcome::Fail, "seed {seed}: {f:?}");
                    assert_eq!(outcome(passed), RunOutcome::Pass, "seed {seed}: {f:?}");
                }
                nod_seeds += 1;
            }
            if summary.flaky.is_empty() {
                // Failed in all three baseline runs.
                assert_eq!(summary.failing.len(), 1, "seed {seed}: {summary:?}");
            }
        }
        assert!(nod_seeds >= 9, "{nod_seeds}");
    }

    #[test]
    fn non_idempotent_test_without_polluter_is_not_flaky() {
        let suite = victim_suite();
        // p.X#x2 fails when it already ran in the same JVM: an order never runs a test twice.
        let execute = |e: &Experiment| {
            let mut ran = HashSet::new();
            e.order
                .iter()
                .map(|t| {
                    let again = !ran.insert(t.clone());
                    let outcome = if t == "p.X#x2" && again {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let (history, summary) = detect_all(&config(Strategy::ReversePassing, 3), &suite, &execute);
        assert!(
            summary.flaky.is_empty() && summary.failing.is_empty(),
            "{summary:?}"
        );
        assert_eq!(history.len(), 21, "one baseline run and 20 rounds");
    }

    #[test]
    fn always_failing_test_is_failing_and_excluded() {
        let suite = victim_suite();
        let execute = |e: &Experiment| {
            e.order
                .iter()
                .map(|t| {
                    let outcome = if t == "p.Y#y2" {
                        RunOutcome::Crash
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let (history, summary) = detect_all(&config(Strategy::ReversePassing, 5), &suite, &execute);
        assert_eq!(summary.failing.len(), 1);
        assert_eq!(summary.failing[0].test, "p.Y#y2");
        assert_eq!(summary.failing[0].message.as_deref(), Some("p.Y#y2 failed"));
        assert!(summary.flaky.is_empty());
        assert_eq!(
            history.len(),
            3 + 20,
            "three baseline runs, 20 rounds, no confirmation"
        );
        assert!(
            history
                .iter()
                .all(|r| r.order.contains(&"p.Y#y2".to_string())),
            "it stays in orders"
        );
        assert!(
            summary.notes[0].contains("1 test failed in every baseline run"),
            "{:?}",
            summary.notes
        );
    }

    #[test]
    fn same_seed_gives_the_same_experiments_byte_for_byte() {
        let suite = victim_suite();
        let run = |seed| {
            let (history, summary) = detect_all(
                &config(Strategy::ReversePassing, seed),
                &suite,
                &victim_executor,
            );
            (
                serde_json::to_string(&history).unwrap(),
                serde_json::to_string(&summary).unwrap(),
            )
        };
        assert_eq!(run(42), run(42));
        assert_ne!(run(42).0, run(43).0);
    }

    #[test]
    fn resuming_from_a_history_gives_the_uninterrupted_run() {
        let suite = victim_suite();
        let mut config = config(Strategy::ReversePassing, 9);
        let (full, _) = detect_all(&config, &suite, &victim_executor);
        for k in (0..full.len()).step_by(3) {
            let mut partial = detect_with(
                &mut config,
                &suite,
                Vec::new(),
                k,
                &victim_executor,
                &|_, _| {},
            );
            // Reload the history the way the plugin does: from JSON lines.
            let lines: Vec<String> = partial
                .iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect();
            partial = lines
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let resumed = detect_with(
                &mut config,
                &suite,
                partial,
                10_000,
                &victim_executor,
                &|_, _| {},
            );
            assert_eq!(resumed, full, "resumed after {k} experiments");
        }
    }

    #[test]
    fn stop_rounds_still_finishes_confirmations_and_alone_runs() {
        let suite = victim_suite();
        let mut config = config(Strategy::ReversePassing, 1);
        // Stop the rounds as soon as a round produced candidates.
        let stop = |config: &mut DetectConfig, history: &[ExperimentRecord]| {
            let last = history.last().unwrap();
            if last.kind == ExperimentKind::Round
                && detect::next(config, &suite, history)
                    .unwrap()
                    .progress
                    .candidates
                    > 0
            {
                config.stop_rounds = true;
            }
        };
        let history = detect_with(
            &mut config,
            &suite,
            Vec::new(),
            10_000,
            &victim_executor,
            &stop,
        );
        assert!(config.stop_rounds);
        let last_round = history
            .iter()
            .rposition(|r| r.kind == ExperimentKind::Round)
            .unwrap();
        let kinds: Vec<ExperimentKind> = history[last_round + 1..].iter().map(|r| r.kind).collect();
        let mut expected = vec![ExperimentKind::ConfirmFail, ExperimentKind::ConfirmPass];
        expected.extend([ExperimentKind::Alone; 10]);
        assert_eq!(kinds, expected);
        let summary = detect::summary(&config, &suite, &history).unwrap();
        let rounds = summary.rounds_run;
        assert!(rounds < 20);
        assert_eq!(summary.flaky[0].kind, FlakyKind::Victim);
        assert!(
            summary.notes.contains(&format!(
                "stopped after {rounds} of 20 rounds (time budget)"
            )),
            "{:?}",
            summary.notes
        );
        // A later call without stop_rounds accepts the history and does not start rounds again.
        config.stop_rounds = false;
        assert!(detect::next(&config, &suite, &history)
            .unwrap()
            .experiment
            .is_none());
        // Stopping while a confirmation is pending still runs it.
        let mut config2 = self::config(Strategy::ReversePassing, 1);
        let upto_round = detect_with(
            &mut config2,
            &suite,
            Vec::new(),
            last_round + 1,
            &victim_executor,
            &|_, _| {},
        );
        config2.stop_rounds = true;
        let step = detect::next(&config2, &suite, &upto_round).unwrap();
        assert_eq!(step.experiment.unwrap().kind, ExperimentKind::ConfirmFail);
        assert_eq!(step.progress.phase, detect::Phase::Confirm);
    }

    #[test]
    fn reverse_passing_reverses_passing_orders_and_confirms_the_victim_it_reveals() {
        // Two classes: the victim passes whenever it runs before the polluter.
        let suite = named(&[("p.V", &["v", "w"]), ("p.P", &["polluter"])]);
        let index = SuiteIndex::new(&suite);
        let mut revealed_by_reverse = 0;
        for seed in 0..16 {
            let (history, summary) = detect_all(
                &config(Strategy::ReversePassing, seed),
                &suite,
                &victim_executor,
            );
            let rounds: Vec<&ExperimentRecord> = history
                .iter()
                .filter(|r| r.kind == ExperimentKind::Round)
                .collect();
            for pair in rounds.windows(2) {
                let passed = pair[0]
                    .results
                    .iter()
                    .all(|r| r.outcome == RunOutcome::Pass);
                if passed && pair[0].strategy == Some(Strategy::RandomClassMethod) {
                    assert_eq!(pair[1].strategy, Some(Strategy::ReversePassing));
                    assert_eq!(
                        pair[1].order,
                        strategy::reverse_order(&pair[0].order, &index)
                    );
                } else {
                    assert_eq!(pair[1].strategy, Some(Strategy::RandomClassMethod));
                }
            }
            assert_eq!(summary.flaky.len(), 1, "seed {seed}");
            let v = &summary.flaky[0];
            assert_eq!(v.kind, FlakyKind::Victim);
            let round = by_id(&history, v.failing_experiment - 1);
            if round.strategy == Some(Strategy::ReversePassing) {
                revealed_by_reverse += 1;
                assert_eq!(
                    round.round,
                    Some(2),
                    "seed {seed}: the first passing round is round 1"
                );
                assert!(
                    v.evidence.contains("the reverse of round 1"),
                    "{}",
                    v.evidence
                );
                let confirm = &by_id(&history, v.failing_experiment).order;
                assert_eq!(confirm.first().unwrap(), "p.P#polluter");
                assert_eq!(
                    confirm.last().unwrap(),
                    "p.V#v",
                    "cut right after the victim"
                );
            }
        }
        assert!(revealed_by_reverse >= 3, "{revealed_by_reverse}");
    }

    #[test]
    fn dynamic_invocation_victim_runs_alone_through_its_container() {
        let mut suite = named(&[("p.D", &["param", "plain"]), ("p.P", &["polluter"])]);
        suite.classes[0].dynamic = vec!["p.D#param".into()];
        let execute = |e: &Experiment| {
            let mut polluted = false;
            let mut results = Vec::new();
            for t in &e.order {
                if t == "p.D#param" {
                    for k in 1..=3 {
                        let bad = k == 2 && polluted;
                        let outcome = if bad {
                            RunOutcome::Fail
                        } else {
                            RunOutcome::Pass
                        };
                        results.push((format!("p.D#param[{k}]"), outcome));
                    }
                } else {
                    polluted |= t == "p.P#polluter";
                    results.push((t.clone(), RunOutcome::Pass));
                }
            }
            results
        };
        let (history, summary) = detect_all(&config(Strategy::ReversePassing, 2), &suite, &execute);
        assert_eq!(summary.flaky.len(), 1, "{summary:?}");
        assert_eq!(summary.flaky[0].test, "p.D#param[2]");
        assert_eq!(summary.flaky[0].kind, FlakyKind::Victim);
        let fail = by_id(&history, summary.flaky[0].failing_experiment);
        assert_eq!(fail.targets, ["p.D#param[2]"]);
        assert_eq!(fail.order.last().unwrap(), "p.D#param");
        let alone: Vec<_> = history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Alone)
            .collect();
        assert_eq!(alone.len(), 10);
        assert!(alone
            .iter()
            .all(|r| r.order == ["p.D#param"] && r.targets == ["p.D#param[2]"]));
    }

    #[test]
    fn partial_history_reports_unclassified_od_tests() {
        let suite = victim_suite();
        let mut config = config(Strategy::ReversePassing, 4);
        let (full, _) = detect_all(&config, &suite, &victim_executor);
        let first_alone = full
            .iter()
            .position(|r| r.kind == ExperimentKind::Alone)
            .unwrap();
        let partial = detect_with(
            &mut config,
            &suite,
            Vec::new(),
            first_alone + 3,
            &victim_executor,
            &|_, _| {},
        );
        let summary = detect::summary(&config, &suite, &partial).unwrap();
        assert_eq!(summary.flaky[0].kind, FlakyKind::Unclassified);
        assert!(summary.flaky[0].alone.is_none());
        assert!(
            summary.flaky[0]
                .evidence
                .contains("alone runs not finished (3 of 10)"),
            "{}",
            summary.flaky[0].evidence
        );
        assert!(
            summary.notes.iter().any(|n| n.contains("not classified")),
            "{:?}",
            summary.notes
        );
        assert!(
            summary.notes.iter().any(|n| n.contains("not finished")),
            "{:?}",
            summary.notes
        );
        let progress = detect::next(&config, &suite, &partial).unwrap().progress;
        assert_eq!(progress.phase, detect::Phase::Alone);
        assert_eq!((progress.od_found, progress.rounds_done), (1, 20));
    }

    // ---- minimization: polluters, cleaners, state-setters ----

    fn minimizing(strategy: Strategy, seed: u64) -> DetectConfig {
        DetectConfig {
            minimize: true,
            ..config(strategy, seed)
        }
    }

    fn minimize_records<'h>(
        history: &'h [ExperimentRecord],
        test: &str,
    ) -> Vec<&'h ExperimentRecord> {
        history
            .iter()
            .filter(|r| r.kind.is_minimize() && r.targets[0] == test)
            .collect()
    }

    /// No minimization experiment runs an order that any earlier experiment ran.
    fn assert_no_order_run_twice(history: &[ExperimentRecord]) {
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

    #[test]
    fn victim_with_one_polluter_and_one_cleaner_finds_exactly_those() {
        let suite = victim_suite();
        for seed in 0..6 {
            let (history, summary) = detect_all(
                &minimizing(Strategy::ReversePassing, seed),
                &suite,
                &victim_executor,
            );
            assert_eq!(summary.flaky.len(), 1, "seed {seed}: {summary:?}");
            let v = &summary.flaky[0];
            assert_eq!(v.kind, FlakyKind::Victim);
            assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]]);
            assert_eq!(v.cleaners.len(), 1);
            assert_eq!(v.cleaners["p.P#polluter"], ["p.C#cleaner"]);
            assert!(v.state_setters.is_empty());
            assert!(
                v.minimize_complete,
                "seed {seed}: the search ran to the end"
            );
            let spent = minimize_records(&history, "p.V#v");
            assert_eq!(v.minimize_experiments as usize, spent.len());
            assert!(!spent.is_empty() && spent.len() <= 60);
            // Minimization comes last, after every alone run.
            let first = history.iter().position(|r| r.kind.is_minimize()).unwrap();
            assert!(history[first..].iter().all(|r| r.kind.is_minimize()));
            assert!(history[..first]
                .iter()
                .any(|r| r.kind == ExperimentKind::Alone));
            assert_no_order_run_twice(&history);
            // Cleaner runs are [p, c, v]: every other unit of the suite once, except v and p.
            let cleaner_runs: Vec<_> = spent
                .iter()
                .filter(|r| r.kind == ExperimentKind::Cleaner)
                .collect();
            // Every other unit but v and p is tried once; a triple that delta debugging already
            // ran is reused, not rerun.
            let triples: HashSet<&Vec<String>> = history
                .iter()
                .filter(|r| {
                    r.order.len() == 3 && r.order[0] == "p.P#polluter" && r.order[2] == "p.V#v"
                })
                .map(|r| &r.order)
                .collect();
            assert_eq!(triples.len(), 10 - 2);
            assert!(cleaner_runs.len() <= 8);
            for r in &cleaner_runs {
                assert_eq!(r.order.len(), 3);
                assert_eq!(
                    (r.order[0].as_str(), r.order[2].as_str()),
                    ("p.P#polluter", "p.V#v")
                );
                assert_eq!(r.targets, ["p.V#v", "p.P#polluter", r.order[1].as_str()]);
            }
            // Victim, polluter and cleaner each in their own class: special case 2 gives 1/3.
            let rate = v.flake_rate.as_ref().unwrap();
            assert_eq!(rate.method, odrust_engine::flakerate::Method::Formula);
            assert_eq!(rate.case.as_deref(), Some("special-case-2"));
            assert!((rate.all_orders - 1.0 / 3.0).abs() < 1e-12);
            assert!((rate.class_compatible - 1.0 / 3.0).abs() < 1e-12);
            assert!((rate.reverse_of_passing.unwrap() - 0.5).abs() < 1e-12);
            assert!(summary.notes.is_empty(), "{:?}", summary.notes);
            let next = detect::next(
                &minimizing(Strategy::ReversePassing, seed),
                &suite,
                &history,
            );
            assert_eq!(next.unwrap().progress.phase, detect::Phase::Done);
        }
    }

    #[test]
    fn minimize_phase_is_reported_in_progress() {
        let suite = victim_suite();
        let config = minimizing(Strategy::ReversePassing, 3);
        let (full, _) = detect_all(&config, &suite, &victim_executor);
        let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
        let step = detect::next(&config, &suite, &full[..first]).unwrap();
        assert_eq!(step.progress.phase, detect::Phase::Minimize);
        let json = serde_json::to_value(&step).unwrap();
        assert_eq!(json["progress"]["phase"], "minimize");
        assert_eq!(json["experiment"]["kind"], "polluter-search");
        assert_eq!(json["experiment"]["targets"], serde_json::json!(["p.V#v"]));
        assert_eq!(json["experiment"]["strategy"], serde_json::Value::Null);
    }

    #[test]
    fn victim_needing_two_polluters_together_gets_a_group() {
        let suite = named(&[
            ("p.X", &["x1", "x2"]),
            ("p.V", &["v"]),
            ("p.P", &["p"]),
            ("p.Q", &["q"]),
            ("p.Y", &["y1", "y2"]),
        ]);
        let execute = |e: &Experiment| {
            let (mut p, mut q) = (false, false);
            e.order
                .iter()
                .map(|t| {
                    p |= t == "p.P#p";
                    q |= t == "p.Q#q";
                    let outcome = if t == "p.V#v" && p && q {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let mut found = 0;
        for seed in 0..8 {
            let (history, summary) = detect_all(
                &minimizing(Strategy::ReversePassing, seed),
                &suite,
                &execute,
            );
            let Some(v) = summary.flaky.first() else {
                continue;
            };
            found += 1;
            assert_eq!(v.kind, FlakyKind::Victim);
            assert_eq!(v.polluters.len(), 1, "{v:?}");
            let mut group = v.polluters[0].clone();
            group.sort();
            assert_eq!(group, ["p.P#p", "p.Q#q"]);
            assert!(
                v.cleaners.is_empty(),
                "cleaners are searched for single polluters only"
            );
            assert!(history.iter().all(|r| r.kind != ExperimentKind::Cleaner));
            let rate = v.flake_rate.as_ref().unwrap();
            assert_eq!(rate.method, odrust_engine::flakerate::Method::Exact);
            // v after both p and q: 1/3 of the orders of three tests in three classes.
            assert!((rate.all_orders - 1.0 / 3.0).abs() < 1e-12);
            assert_no_order_run_twice(&history);
        }
        assert!(found >= 3, "{found}");
    }

    #[test]
    fn brittle_with_a_state_setter_finds_it() {
        let suite = named(&[
            ("p.S", &["setter", "s2"]),
            ("p.T", &["brittle"]),
            ("p.Z", &["z"]),
        ]);
        let execute = brittle_executor;
        for seed in 0..4 {
            let (history, summary) = detect_all(
                &minimizing(Strategy::ReversePassing, seed),
                &suite,
                &execute,
            );
            let b = &summary.flaky[0];
            assert_eq!(b.kind, FlakyKind::Brittle);
            assert_eq!(b.state_setters, [vec!["p.S#setter".to_string()]]);
            assert!(b.polluters.is_empty() && b.cleaners.is_empty());
            let spent = minimize_records(&history, "p.T#brittle");
            assert_eq!(b.minimize_experiments as usize, spent.len());
            assert!(spent.iter().all(|r| matches!(
                r.kind,
                ExperimentKind::SetterSearch | ExperimentKind::SetterPair
            )));
            let rate = b.flake_rate.as_ref().unwrap();
            assert_eq!(rate.case.as_deref(), Some("state-setters"));
            assert!((rate.all_orders - 0.5).abs() < 1e-12);
            assert_no_order_run_twice(&history);
        }
    }

    #[test]
    fn minimization_respects_its_budget_and_says_so() {
        let suite = victim_suite();
        let config = DetectConfig {
            minimize_budget: 3,
            ..minimizing(Strategy::ReversePassing, 2)
        };
        let (history, summary) = detect_all(&config, &suite, &victim_executor);
        let v = &summary.flaky[0];
        assert_eq!(minimize_records(&history, "p.V#v").len(), 3);
        assert_eq!(v.minimize_experiments, 3);
        assert!(!v.minimize_complete, "cut short by the budget");
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.contains("stopped at its budget of 3 experiments")),
            "{:?}",
            summary.notes
        );
    }

    #[test]
    fn minimize_only_and_stop_rounds_limit_minimization() {
        let suite = victim_suite();
        let only = DetectConfig {
            minimize_only: Some(vec!["p.X#x1".into()]),
            ..minimizing(Strategy::ReversePassing, 2)
        };
        let (history, summary) = detect_all(&only, &suite, &victim_executor);
        assert!(history.iter().all(|r| !r.kind.is_minimize()));
        assert!(summary.flaky[0].polluters.is_empty());
        assert!(summary.flaky[0].flake_rate.is_none());
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.contains("minimize_only names `p.X#x1`")),
            "{:?}",
            summary.notes
        );
        let stopped = DetectConfig {
            stop_rounds: true,
            ..minimizing(Strategy::ReversePassing, 2)
        };
        let (full, _) = detect_all(
            &minimizing(Strategy::ReversePassing, 2),
            &suite,
            &victim_executor,
        );
        let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
        let step = detect::next(&stopped, &suite, &full[..first + 2]).unwrap();
        assert!(
            step.experiment.is_none(),
            "stop_rounds starts no minimization experiment"
        );
        // The history with minimization experiments is still accepted.
        let summary = detect::summary(&stopped, &suite, &full[..first + 2]).unwrap();
        assert_eq!(summary.flaky[0].minimize_experiments, 2);
    }

    #[test]
    fn minimization_is_deterministic_and_resumes() {
        let suite = victim_suite();
        let mut config = minimizing(Strategy::ReversePassing, 9);
        let (full, summary) = detect_all(&config, &suite, &victim_executor);
        let (again, summary_again) = detect_all(&config, &suite, &victim_executor);
        assert_eq!(
            serde_json::to_string(&full).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&summary).unwrap(),
            serde_json::to_string(&summary_again).unwrap()
        );
        let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
        for k in first - 1..full.len() {
            let lines: Vec<String> = full[..k]
                .iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect();
            let partial: Vec<ExperimentRecord> = lines
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let resumed = detect_with(
                &mut config,
                &suite,
                partial,
                10_000,
                &victim_executor,
                &|_, _| {},
            );
            assert_eq!(resumed, full, "resumed after {k} experiments");
        }
        // A record that is not the planned minimization experiment is refused.
        let mut bad = full.clone();
        bad[first].order.reverse();
        let e = detect::summary(&config, &suite, &bad).unwrap_err();
        assert_eq!(e.code(), "bad-history");
    }

    // ---- tests that fail in every baseline run: their original order is the failing one ----

    /// `p.V#v` and `p.V#w` fail iff `p.P#polluter` ran before them; the original order runs it
    /// first, so both fail in every baseline run. `p.Y#broken` fails in every order.
    fn polluted_in_original_suite() -> Suite {
        named(&[
            ("p.P", &["polluter", "p2"]),
            ("p.X", &["x1", "x2"]),
            ("p.V", &["v", "w"]),
            ("p.Y", &["y", "broken"]),
        ])
    }

    fn polluted_in_original_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
        let mut polluted = false;
        e.order
            .iter()
            .map(|t| {
                polluted |= t == "p.P#polluter";
                let outcome = match t.as_str() {
                    "p.V#v" | "p.V#w" if polluted => RunOutcome::Fail,
                    "p.Y#broken" => RunOutcome::Error,
                    _ => RunOutcome::Pass,
                };
                (t.clone(), outcome)
            })
            .collect()
    }

    #[test]
    fn baseline_failing_victim_whose_polluter_runs_first_is_a_victim_with_that_polluter() {
        let suite = polluted_in_original_suite();
        let original = suite.original_order();
        for strategy in [
            Strategy::ReversePassing,
            Strategy::RandomClassMethod,
            Strategy::RandomClass,
            Strategy::ReverseClass,
        ] {
            for seed in 0..6 {
                let (history, summary) = detect_all(
                    &minimizing(strategy, seed),
                    &suite,
                    &polluted_in_original_executor,
                );
                let what = format!("{strategy} seed {seed}: {summary:?}");
                let failing: Vec<&str> = summary.failing.iter().map(|f| f.test.as_str()).collect();
                assert_eq!(failing, ["p.Y#broken"], "{what}");
                let flaky: Vec<&str> = summary.flaky.iter().map(|f| f.test.as_str()).collect();
                assert_eq!(flaky, ["p.V#v", "p.V#w"], "{what}");
                for v in &summary.flaky {
                    assert_eq!(v.kind, FlakyKind::Victim, "{what}");
                    assert_eq!(v.alone.unwrap().passed, 10);
                    assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]], "{what}");
                    assert_eq!(v.message, Some(format!("{} failed", v.test)));
                    // The order where it fails is the original one, cut after the last candidate.
                    let fail = by_id(&history, v.failing_experiment);
                    assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
                    assert_eq!(fail.strategy, Some(Strategy::Original));
                    assert_eq!(fail.order, original[..6], "cut after p.V#w");
                    // The order where it passes is the round's, rerun first, right after it.
                    let pass = by_id(&history, v.passing_experiment);
                    assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
                    assert_eq!(v.failing_experiment, v.passing_experiment + 1);
                    let round = by_id(&history, v.passing_experiment - 1);
                    assert_eq!(round.kind, ExperimentKind::Round);
                    assert_eq!(pass.round, round.round);
                    assert!(round.order.starts_with(&pass.order));
                    assert!(
                        pass.order.ends_with(&["p.V#v".into()])
                            || pass.order.ends_with(&["p.V#w".into()])
                    );
                    let evidence = format!(
                        "failed in every baseline run (experiments 1, 2, 3) but passed in round {} ",
                        round.round.unwrap()
                    );
                    assert!(v.evidence.starts_with(&evidence), "{}", v.evidence);
                    assert!(v.evidence.contains("passed alone 10/10"), "{}", v.evidence);
                }
                // Both passed in the same round and were confirmed together.
                assert_eq!(
                    summary.flaky[0].failing_experiment,
                    summary.flaky[1].failing_experiment
                );
                let mut targets = by_id(&history, summary.flaky[0].failing_experiment)
                    .targets
                    .clone();
                targets.sort();
                assert_eq!(targets, ["p.V#v", "p.V#w"]);
                // The broken test was never a candidate.
                assert!(history
                    .iter()
                    .filter(|r| !r.kind.is_minimize())
                    .all(|r| !r.targets.contains(&"p.Y#broken".to_string())));
                assert!(
                    summary.notes[0].contains("1 test failed in every baseline run"),
                    "{:?}",
                    summary.notes
                );
                assert_no_order_run_twice(&history);
            }
        }
    }

    #[test]
    fn baseline_failing_brittle_whose_setter_runs_after_it_is_a_brittle_with_that_setter() {
        // The original order runs the brittle before its state-setter.
        let suite = named(&[
            ("p.T", &["brittle", "t2"]),
            ("p.Z", &["z"]),
            ("p.S", &["setter", "s2"]),
        ]);
        let execute = brittle_executor;
        for strategy in [Strategy::ReversePassing, Strategy::RandomClassMethod] {
            for seed in 0..6 {
                let (history, summary) = detect_all(&minimizing(strategy, seed), &suite, &execute);
                let what = format!("{strategy} seed {seed}: {summary:?}");
                assert!(summary.failing.is_empty(), "{what}");
                assert_eq!(summary.flaky.len(), 1, "{what}");
                let b = &summary.flaky[0];
                assert_eq!(b.test, "p.T#brittle");
                assert_eq!(b.kind, FlakyKind::Brittle, "{what}");
                assert_eq!(b.alone.unwrap().passed, 0);
                assert_eq!(b.state_setters, [vec!["p.S#setter".to_string()]], "{what}");
                assert!(b.polluters.is_empty());
                let fail = by_id(&history, b.failing_experiment);
                assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
                assert_eq!(fail.order, ["p.T#brittle"]);
                let pass = by_id(&history, b.passing_experiment);
                assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
                assert_eq!(pass.order.last().unwrap(), "p.T#brittle");
                assert!(pass.order.contains(&"p.S#setter".to_string()));
                assert!(
                    b.evidence.contains("failed in every baseline run"),
                    "{}",
                    b.evidence
                );
                assert!(b.evidence.contains("failed alone 10/10"), "{}", b.evidence);
                let spent = minimize_records(&history, "p.T#brittle");
                assert!(spent.iter().all(|r| matches!(
                    r.kind,
                    ExperimentKind::SetterSearch | ExperimentKind::SetterPair
                )));
                assert_eq!(
                    b.flake_rate.as_ref().unwrap().case.as_deref(),
                    Some("state-setters")
                );
                assert!(summary.notes.is_empty(), "{:?}", summary.notes);
                assert_no_order_run_twice(&history);
            }
        }
    }

    #[test]
    fn test_failing_in_every_order_stays_failing_and_is_never_confirmed() {
        let suite = victim_suite();
        let execute = |e: &Experiment| {
            e.order
                .iter()
                .map(|t| {
                    let outcome = if t == "p.X#x2" {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        for strategy in [
            Strategy::ReversePassing,
            Strategy::Reverse,
            Strategy::RandomClass,
        ] {
            for seed in 0..4 {
                let (history, summary) = detect_all(&minimizing(strategy, seed), &suite, &execute);
                let failing: Vec<&str> = summary.failing.iter().map(|f| f.test.as_str()).collect();
                assert_eq!(failing, ["p.X#x2"]);
                assert!(summary.flaky.is_empty(), "{summary:?}");
                assert!(history
                    .iter()
                    .all(|r| matches!(r.kind, ExperimentKind::Baseline | ExperimentKind::Round)));
                assert_eq!(history.len(), 3 + 20);
            }
        }
    }

    #[test]
    fn baseline_failing_test_that_passes_once_by_chance_is_nod() {
        let suite = victim_suite();
        // p.Y#y1 fails in every experiment but the first round (experiment 4).
        let execute = |e: &Experiment| {
            e.order
                .iter()
                .map(|t| {
                    let outcome = if t == "p.Y#y1" && e.id != 4 {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let (history, summary) = detect_all(&config(Strategy::ReversePassing, 3), &suite, &execute);
        assert!(summary.failing.is_empty(), "{summary:?}");
        assert_eq!(summary.flaky.len(), 1);
        let f = &summary.flaky[0];
        assert_eq!((f.test.as_str(), f.kind), ("p.Y#y1", FlakyKind::Nod));
        assert_eq!((f.failing_experiment, f.passing_experiment), (5, 4));
        assert_eq!(by_id(&history, 5).kind, ExperimentKind::ConfirmPass);
        assert_eq!(by_id(&history, 6).kind, ExperimentKind::ConfirmFail);
        assert!(
            f.evidence
                .contains("but failed when that order was rerun up to it (experiment 5)"),
            "{}",
            f.evidence
        );
        // Found NOD: never a candidate again.
        assert_eq!(history.len(), 3 + 20 + 2);
    }

    #[test]
    fn a_round_with_both_kinds_of_candidates_confirms_both() {
        // p.B#b fails after p.A#a (which runs first in the original order); p.C#c fails after
        // p.D#d (which runs last).
        let suite = named(&[
            ("p.A", &["a"]),
            ("p.B", &["b"]),
            ("p.C", &["c"]),
            ("p.D", &["d"]),
        ]);
        let execute = |e: &Experiment| {
            let mut ran = HashSet::new();
            e.order
                .iter()
                .map(|t| {
                    ran.insert(t.as_str());
                    let outcome = match t.as_str() {
                        "p.B#b" if ran.contains("p.A#a") => RunOutcome::Fail,
                        "p.C#c" if ran.contains("p.D#d") => RunOutcome::Fail,
                        _ => RunOutcome::Pass,
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let mut both = 0;
        // Reversing the classes reveals both in round 1; random orders sometimes.
        let runs = (0..30).map(|seed| (Strategy::RandomClass, seed));
        for (strategy, seed) in runs.chain([(Strategy::ReverseClass, 0)]) {
            let (history, summary) = detect_all(&config(strategy, seed), &suite, &execute);
            let found: Vec<(&str, FlakyKind)> = summary
                .flaky
                .iter()
                .map(|f| (f.test.as_str(), f.kind))
                .collect();
            assert_eq!(
                found,
                [("p.B#b", FlakyKind::Victim), ("p.C#c", FlakyKind::Victim)],
                "seed {seed}: {summary:?}"
            );
            assert!(summary.failing.is_empty());
            let (b, c) = (&summary.flaky[0], &summary.flaky[1]);
            if by_id(&history, b.passing_experiment).round
                == by_id(&history, c.failing_experiment).round
            {
                // The failed test's pair first, then the passed failing test's.
                assert_eq!(c.failing_experiment + 1, c.passing_experiment);
                assert_eq!(c.passing_experiment + 1, b.passing_experiment);
                assert_eq!(b.passing_experiment + 1, b.failing_experiment);
                let progress = detect::next(
                    &config(strategy, seed),
                    &suite,
                    &history[..c.failing_experiment - 1],
                )
                .unwrap()
                .progress;
                assert_eq!(progress.candidates, 2);
                both += 1;
            }
        }
        assert!(both >= 4, "{both}");
    }

    #[test]
    fn baseline_failing_victims_are_deterministic_and_resume() {
        let suite = polluted_in_original_suite();
        let mut config = minimizing(Strategy::ReversePassing, 9);
        let (full, summary) = detect_all(&config, &suite, &polluted_in_original_executor);
        let (again, summary_again) = detect_all(&config, &suite, &polluted_in_original_executor);
        assert_eq!(
            serde_json::to_string(&full).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&summary).unwrap(),
            serde_json::to_string(&summary_again).unwrap()
        );
        assert_eq!(summary.flaky.len(), 2);
        for k in 0..full.len() {
            let lines: Vec<String> = full[..k]
                .iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect();
            let partial: Vec<ExperimentRecord> = lines
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            // A partial history is summarized without error.
            detect::summary(&config, &suite, &partial).unwrap();
            let resumed = detect_with(
                &mut config,
                &suite,
                partial,
                10_000,
                &polluted_in_original_executor,
                &|_, _| {},
            );
            assert_eq!(resumed, full, "resumed after {k} experiments");
        }
        // Between the two confirmations the candidates are pending, and still failing.
        let pass = summary.flaky[0].passing_experiment;
        let partial = detect::summary(&config, &suite, &full[..pass]).unwrap();
        assert!(partial.flaky.is_empty());
        assert_eq!(partial.failing.len(), 3);
        assert!(
            partial
                .notes
                .iter()
                .any(|n| n.contains("2 candidate(s) of round")),
            "{:?}",
            partial.notes
        );
        // A confirm-fail recorded where the confirm-pass of the round's order was planned is refused.
        let mut bad = full.clone();
        bad[pass - 1].kind = ExperimentKind::ConfirmFail;
        let e = detect::summary(&config, &suite, &bad).unwrap_err();
        assert_eq!(e.code(), "bad-history");
    }
}

// ---- detection through the protocol and the CLI ----

#[test]
fn detect_ops_through_protocol() {
    let config = json!({"strategy": "reverse-passing", "rounds": 2, "seed": 42,
                        "baseline_tries": 3, "alone_runs": 10, "stop_rounds": false});
    let step = ok(
        "detect_next",
        json!({"config": config, "suite": suite(), "history": []}),
    );
    assert_eq!(
        step["experiment"],
        json!({"id": 1, "kind": "baseline", "round": null, "strategy": "original",
               "order": ["com.acme.CartTest#a", "com.acme.CartTest#b", "com.acme.CartTest#c",
                         "com.acme.MathTest#adds", "com.acme.MathTest$WhenEmpty#isEmpty",
                         "com.acme.FixedTest#one", "com.acme.FixedTest#two"],
               "targets": []})
    );
    assert_eq!(
        step["progress"],
        json!({"phase": "baseline", "rounds_done": 0, "rounds_total": 2, "od_found": 0,
               "nod_found": 0, "candidates": 0})
    );
    let mut record = step["experiment"].clone();
    record["results"] = json!([
        {"test": "com.acme.CartTest#a", "outcome": "pass", "message": null},
        {"test": "com.acme.MathTest#adds[1]", "outcome": "pass", "message": null},
        {"test": "com.acme.FixedTest#two", "outcome": "not-run"}
    ]);
    record["honoured"] = json!(true);
    record["millis"] = json!(12);
    let step = ok(
        "detect_next",
        json!({"config": config, "suite": suite(), "history": [record.clone()]}),
    );
    assert_eq!(step["experiment"]["kind"], "round");
    assert_eq!(step["experiment"]["id"], 2);
    assert_eq!(step["experiment"]["round"], 1);
    assert_eq!(step["progress"]["phase"], "rounds");

    let summary = ok(
        "detect_summary",
        json!({"config": config, "suite": suite(), "history": [record]}),
    );
    assert_eq!(summary["seed"], 42);
    assert_eq!(summary["strategy"], "reverse-passing");
    assert_eq!(summary["tests_total"], 7);
    assert_eq!(summary["experiments"], 1);
    assert_eq!(summary["rounds_run"], 0);
    assert_eq!(summary["rounds_planned"], 2);
    assert_eq!(summary["failing"], json!([]));
    assert_eq!(summary["flaky"], json!([]));

    let (code, message) = err(
        "detect_next",
        json!({"config": {"strategy": "sideways", "rounds": 2, "seed": 1}, "suite": suite(), "history": []}),
    );
    assert_eq!(code, "bad-config");
    assert!(message.contains("random-class-method"), "{message}");
    let bad = json!({"id": 1, "kind": "round", "round": 1, "order": [], "results": []});
    let (code, _) = err(
        "detect_summary",
        json!({"config": config, "suite": suite(), "history": [bad]}),
    );
    assert_eq!(code, "bad-history");
    let (code, message) = err("detect_next", json!({"config": config, "suite": suite()}));
    assert_eq!(code, "bad-request");
    assert!(message.contains("history"), "{message}");
}

#[test]
fn render_report_op() {
    let rendered = ok(
        "render_report",
        json!({"report": {"schema_version": 1, "module": "com.acme:cart", "seed": 1,
                          "flaky": [{"test": "p.V#v", "kind": "victim", "evidence": "e <x>",
                                     "reproduce": "mvn odrust:run"}]}}),
    );
    let html = rendered["html"].as_str().unwrap();
    let xml = rendered["xml"].as_str().unwrap();
    assert!(html.contains("e &lt;x&gt;"), "{html}");
    assert!(xml.contains(r#"type="odrust.victim""#), "{xml}");
}

#[test]
fn cli_detect_plan() {
    let dir = TempDir::new("detect-plan");
    let suite_file = dir.file("suite.json", SUITE);
    let path = suite_file.to_str().unwrap();
    let args = [
        "detect-plan",
        "--suite",
        path,
        "--seed",
        "7",
        "--rounds",
        "4",
    ];
    let output = cli(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    let plan: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(plan["strategy"], "reverse-passing");
    let rounds = plan["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    assert_eq!(rounds[1]["strategy"], "reverse-passing");
    for round in rounds {
        assert_eq!(round["order"].as_array().unwrap().len(), 7);
    }
    assert_eq!(
        stdout(&cli(&args, None)),
        stdout(&output),
        "same seed, same plan"
    );
    let output = cli(
        &["detect-plan", "--suite", path, "--strategy", "reverse"],
        None,
    );
    let plan: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(plan["rounds"].as_array().unwrap().len(), 20);
    assert_eq!(plan["rounds"][0]["order"][0], "com.acme.FixedTest#one");
    let output = cli(
        &["detect-plan", "--suite", path, "--strategy", "nope"],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error[bad-config]"),
        "{}",
        stderr(&output)
    );
    let output = cli(&["detect-plan", "--seed", "x", "--suite", path], None);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn cli_flakerate() {
    let input = r#"{"victim": "p.V#v", "polluters": [["p.P#p"]], "cleaners": {"p.P#p": ["p.C#c"]},
                    "state_setters": [], "classes": {"p.V#v": "p.V", "p.P#p": "p.V", "p.C#c": "p.V"},
                    "tests": ["p.V#v", "p.P#p", "p.C#c", "p.X#x"], "seed": 1}"#;
    let output = cli(&["flakerate", "-"], Some(input));
    assert!(output.status.success(), "{}", stderr(&output));
    let rate: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(rate["method"], "formula");
    assert_eq!(rate["case"], "special-case-1");
    assert!((rate["all_orders"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((rate["class_compatible"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((rate["reverse_of_passing"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert_eq!(rate["ci95"], Value::Null);
    let dir = TempDir::new("flakerate");
    let file = dir.file(
        "in.json",
        r#"{"brittle": "p.B#b", "state_setters": [["p.S#s", "p.T#t"]]}"#,
    );
    let output = cli(&["flakerate", file.to_str().unwrap()], None);
    let rate: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(rate["method"], "exact");
    // Fails unless both s and t ran before b: 1 - 1/3.
    assert!((rate["all_orders"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    let output = cli(&["flakerate", "-"], Some(r#"{"polluters": []}"#));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error[bad-request]"),
        "{}",
        stderr(&output)
    );
    let output = ok("flake_rate", json!({"victim": "p.V#v"}));
    assert_eq!(output, Value::Null, "no polluter: no rate");
}

/// The scheduler tester: every systematic strategy over many suite shapes and seeds, checking
/// that each order is a permutation of a subset of the suite, class-compatible where promised,
/// reproducible, and that the claimed pairs are all covered.
mod schedules {
    use std::collections::{HashMap, HashSet};

    use odrust_engine::detect::{
        self, DetectConfig, Experiment, ExperimentRecord, FlakyKind, TestResult,
    };
    use odrust_engine::outcome::RunOutcome;
    use odrust_engine::schedule::{lower_bound, CostModel, Schedule};
    use odrust_engine::strategy::Strategy;
    use odrust_engine::suite::{ClassRecord, Framework, Suite};

    fn class(name: &str, tests: usize, reorderable: bool) -> ClassRecord {
        ClassRecord {
            class: name.to_string(),
            framework: Framework::Junit4,
            reorderable,
            tests: (0..tests).map(|i| format!("{name}#t{i}")).collect(),
            dynamic: vec![],
        }
    }

    fn suite_of(classes: Vec<ClassRecord>) -> Suite {
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes,
        }
    }

    /// A small seeded generator for uneven class sizes (xorshift).
    fn sizes(seed: u64, classes: usize, max: usize) -> Vec<usize> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..classes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                1 + (x % max as u64) as usize
            })
            .collect()
    }

    fn shapes() -> Vec<(String, Suite)> {
        let mut shapes = Vec::new();
        for n in 1..=60 {
            shapes.push((
                format!("one class of {n}"),
                suite_of(vec![class("p.One", n, true)]),
            ));
        }
        for n in 1..=25 {
            shapes.push((
                format!("{n} classes of one test"),
                suite_of((0..n).map(|i| class(&format!("p.S{i}"), 1, true)).collect()),
            ));
        }
        for seed in 0..12 {
            let s = sizes(seed, 2 + seed as usize % 9, 12);
            shapes.push((
                format!("uneven classes {s:?}"),
                suite_of(
                    s.iter()
                        .enumerate()
                        .map(|(i, &n)| class(&format!("p.U{i}"), n, true))
                        .collect(),
                ),
            ));
        }
        shapes.push((
            "one dominant class".into(),
            suite_of(vec![
                class("p.Big", 30, true),
                class("p.A", 2, true),
                class("p.B", 1, true),
            ]),
        ));
        shapes.push((
            "equal classes".into(),
            suite_of((0..6).map(|i| class(&format!("p.E{i}"), 5, true)).collect()),
        ));
        shapes.push((
            "a fixed-order class".into(),
            suite_of(vec![
                class("p.A", 4, true),
                class("p.Fixed", 5, false),
                class("p.B", 3, true),
            ]),
        ));
        shapes.push(("empty".into(), suite_of(vec![])));
        shapes
    }

    /// Checks every invariant of one schedule; returns the number of orders checked.
    fn check(schedule: &Schedule, suite: &Suite, what: &str) -> u64 {
        let class_of: HashMap<&str, usize> = suite
            .classes
            .iter()
            .enumerate()
            .flat_map(|(c, r)| r.tests.iter().map(move |t| (t.as_str(), c)))
            .collect();
        let position: HashMap<&str, usize> = suite
            .classes
            .iter()
            .flat_map(|r| r.tests.iter().enumerate().map(|(i, t)| (t.as_str(), i)))
            .collect();
        let mut coverage = schedule.coverage();
        let mut all_pairs: HashSet<(String, String)> = HashSet::new();
        let mut executions = 0;
        for r in 0..schedule.len() {
            let order = schedule.order(r);
            executions += order.len() as u64;
            assert!(!order.is_empty(), "{what}: order {r} is empty");
            let distinct: HashSet<&String> = order.iter().collect();
            assert_eq!(
                distinct.len(),
                order.len(),
                "{what}: order {r} repeats a test: {order:?}"
            );
            for t in &order {
                assert!(class_of.contains_key(t.as_str()), "{what}: unknown {t}");
            }
            if schedule.class_compatible() {
                let mut done = HashSet::new();
                let mut current = None;
                for t in &order {
                    let c = class_of[t.as_str()];
                    if current != Some(c) {
                        assert!(
                            done.insert(c),
                            "{what}: order {r} splits class {c}: {order:?}"
                        );
                        current = Some(c);
                    }
                }
                for w in order.windows(2) {
                    let (a, b) = (w[0].as_str(), w[1].as_str());
                    let c = class_of[a];
                    // pairs-all and k-bounded run every pair, also against a fixed order.
                    if c == class_of[b]
                        && !suite.classes[c].reorderable
                        && schedule.strategy() == Strategy::Tuscan
                    {
                        assert!(
                            position[a] < position[b],
                            "{what}: fixed class reordered: {order:?}"
                        );
                    }
                }
            }
            for w in order.windows(2) {
                all_pairs.insert((w[0].clone(), w[1].clone()));
            }
            coverage.add(&order);
        }
        assert_eq!(executions, schedule.executions(), "{what}: executions");
        assert_eq!(
            coverage.covered(),
            schedule.pairs_total(),
            "{what}: claimed pairs not all covered"
        );
        // Independently of `claims`: every ordered pair the framework can run consecutively.
        if schedule.strategy() != Strategy::KBounded
            || !schedule.is_empty() && schedule.order(0).len() > 1
        {
            for a in class_of.keys() {
                for b in class_of.keys() {
                    let same = class_of[a] == class_of[b];
                    let runnable = !same
                        || suite.classes[class_of[a]].reorderable
                        || position[b] == position[a] + 1
                        || schedule.strategy() != Strategy::Tuscan;
                    if a != b && runnable {
                        assert!(
                            all_pairs.contains(&(a.to_string(), b.to_string())),
                            "{what}: ({a}, {b}) never consecutive"
                        );
                    }
                }
            }
        }
        schedule.len()
    }

    #[test]
    fn every_systematic_schedule_covers_what_it_claims_over_many_seeds_and_shapes() {
        let mut checked = 0;
        for (shape, suite) in shapes() {
            let n = suite.ids().count();
            for seed in [0u64, 1, 7, 42, 1234] {
                let tuscan = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
                checked += check(&tuscan, &suite, &format!("{shape}, tuscan, seed {seed}"));
                let again = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
                assert!(
                    (0..tuscan.len()).all(|r| tuscan.order_indices(r) == again.order_indices(r)),
                    "{shape}, seed {seed}: tuscan not reproducible"
                );
                // Never fewer orders than the bound.
                let sizes: Vec<usize> = suite.classes.iter().map(|c| c.tests.len()).collect();
                if suite.classes.iter().all(|c| c.reorderable) {
                    assert!(tuscan.len() >= lower_bound(&sizes).orders, "{shape}");
                }
            }
            if n <= 30 {
                let pairs = Schedule::new(Strategy::PairsAll, &suite, 0, 2, None).unwrap();
                assert_eq!(pairs.len(), (n * n.saturating_sub(1)) as u64);
                checked += check(&pairs, &suite, &format!("{shape}, pairs-all"));
            }
            if n <= 12 {
                for k in 1..=3u32 {
                    let tuples = Schedule::new(Strategy::KBounded, &suite, 0, k, None).unwrap();
                    let expected: u64 = (0..k as u64)
                        .map(|i| (n as u64).saturating_sub(i))
                        .product();
                    assert_eq!(tuples.len(), expected, "{shape}, k = {k}");
                    checked += check(&tuples, &suite, &format!("{shape}, k-bounded {k}"));
                    let all: HashSet<Vec<String>> =
                        (0..tuples.len()).map(|r| tuples.order(r)).collect();
                    assert_eq!(
                        all.len() as u64,
                        tuples.len(),
                        "{shape}, k = {k}: a tuple twice"
                    );
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn tuscan_needs_n_orders_for_one_class_and_one_test_per_class_except_where_documented() {
        for n in [2usize, 3, 4, 5, 6, 7, 9, 11, 12, 13, 17, 33, 35, 60] {
            // A Tuscan square (n orders, the bound) except for 3 and 5, which have none: one
            // order more (see tuscan.rs).
            let odd_gap = n == 3 || n == 5;
            let orders = if odd_gap { n + 1 } else { n } as u64;
            let one = suite_of(vec![class("p.One", n, true)]);
            assert_eq!(
                Schedule::new(Strategy::Tuscan, &one, 3, 2, None)
                    .unwrap()
                    .len(),
                orders
            );
            let many = suite_of((0..n).map(|i| class(&format!("p.S{i}"), 1, true)).collect());
            let s = Schedule::new(Strategy::Tuscan, &many, 3, 2, None).unwrap();
            assert_eq!((s.len(), s.executions()), (orders, orders * n as u64));
        }
    }

    #[test]
    fn cost_puts_cheap_covering_orders_first_and_changes_nothing_else() {
        let suite = suite_of(vec![
            class("p.A", 6, true),
            class("p.B", 3, true),
            class("p.C", 2, true),
        ]);
        let mut cost = CostModel {
            cost0_ms: 1000,
            ..CostModel::default()
        };
        for id in suite.ids() {
            cost.test_ms.insert(id.to_string(), 1);
        }
        cost.test_ms.insert("p.A#t0".into(), 5000);
        let plain = Schedule::new(Strategy::Tuscan, &suite, 9, 2, None).unwrap();
        let priced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, Some(&cost)).unwrap();
        let set = |s: &Schedule| {
            let mut all: Vec<Vec<u32>> = (0..s.len()).map(|r| s.order_indices(r)).collect();
            all.sort();
            all
        };
        assert_eq!(set(&plain), set(&priced), "same orders, another sequence");
        let value = |order: &[String]| {
            let ms: u64 = order.iter().map(|t| cost.ms(t)).sum();
            (order.len() - 1) as f64 / (cost.cost0_ms + ms) as f64
        };
        let values: Vec<f64> = (0..priced.len()).map(|r| value(&priced.order(r))).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        // pairs-all pairs the cheapest tests first: the slow test comes last.
        let pairs = Schedule::new(Strategy::PairsAll, &suite, 0, 2, Some(&cost)).unwrap();
        let slow_first = (0..pairs.len())
            .position(|r| pairs.order(r).contains(&"p.A#t0".to_string()))
            .unwrap() as u64;
        assert_eq!(slow_first, 10 * 9);
    }

    #[test]
    fn cost_aware_ranks_the_schedule_by_the_baselines_timings_and_prints_its_prediction() {
        let suite = suite_of(vec![
            class("p.A", 6, true),
            class("p.B", 3, true),
            class("p.C", 2, true),
        ]);
        // Every test takes 1 ms except p.A#t0, 5 s; the baseline took 6.5 s of wall time.
        let ms = |t: &str| if t == "p.A#t0" { 5000 } else { 1 };
        let run = |config: &DetectConfig| {
            let mut history: Vec<ExperimentRecord> = Vec::new();
            let mut plans = Vec::new();
            while let Some(e) = {
                let step = detect::next(config, &suite, &history).unwrap();
                plans.extend(step.plan);
                step.experiment
            } {
                let mut rec = record(
                    &e,
                    e.order
                        .iter()
                        .map(|t| (t.clone(), RunOutcome::Pass))
                        .collect(),
                );
                for r in &mut rec.results {
                    r.time_ms = Some(ms(&r.test));
                }
                rec.millis = 6500;
                history.push(rec);
            }
            (history, plans)
        };
        let mut config = DetectConfig::new(Strategy::Tuscan, u32::MAX, 9);
        config.minimize = false;
        let (plain, plans) = run(&config);
        // The plan is printed once, before round 1, priced from the baseline either way.
        assert_eq!(plans.len(), 1);
        let expected_cost = CostModel {
            cost0_ms: 6500 - 5000 - 10,
            test_ms: suite.ids().map(|t| (t.to_string(), ms(t))).collect(),
        };
        let rounds = |h: &[ExperimentRecord]| -> Vec<Vec<String>> {
            h.iter()
                .filter(|r| r.kind == detect::ExperimentKind::Round)
                .map(|r| r.order.clone())
                .collect()
        };
        let unpriced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, None).unwrap();
        let all = |s: &Schedule| (0..s.len()).map(|r| s.order(r)).collect::<Vec<_>>();
        assert_eq!(
            rounds(&plain),
            all(&unpriced),
            "without costAware: construction order"
        );
        assert_eq!(plans[0].cost0_ms, Some(expected_cost.cost0_ms));
        let predicted: u64 = all(&unpriced)
            .iter()
            .map(|o| expected_cost.cost0_ms + o.iter().map(|t| ms(t)).sum::<u64>())
            .sum();
        assert_eq!(plans[0].predicted_ms, Some(predicted));
        config.cost_aware = true;
        let (aware, _) = run(&config);
        let priced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, Some(&expected_cost)).unwrap();
        assert_eq!(
            rounds(&aware),
            all(&priced),
            "costAware: the baseline's cost model"
        );
        assert_ne!(rounds(&aware), rounds(&plain));
    }

    fn record(e: &Experiment, results: Vec<(String, RunOutcome)>) -> ExperimentRecord {
        ExperimentRecord {
            id: e.id,
            kind: e.kind,
            round: e.round,
            strategy: e.strategy,
            order: e.order.clone(),
            targets: e.targets.clone(),
            results: results
                .into_iter()
                .map(|(test, outcome)| TestResult {
                    message: (outcome == RunOutcome::Fail).then(|| format!("{test} failed")),
                    test,
                    outcome,
                    time_ms: None,
                    reads: None,
                    writes: None,
                })
                .collect(),
            honoured: true,
            millis: 1,
            class_state: Vec::new(),
        }
    }

    /// Runs detection to the end with an executor where each victim fails iff its polluter ran
    /// anywhere before it in the same JVM.
    fn run(
        config: &DetectConfig,
        suite: &Suite,
        polluters: &[(&str, &str)],
    ) -> (Vec<ExperimentRecord>, detect::Summary) {
        run_recorded(config, suite, polluters, &[], &|_| (Vec::new(), Vec::new()))
    }

    #[test]
    fn tuscan_finds_every_single_polluter_victim_in_one_pass() {
        let suite = suite_of(vec![
            class("p.A", 5, true),
            class("p.B", 3, true),
            class("p.C", 4, true),
            class("p.D", 1, true),
        ]);
        // Victims whose polluter runs after them in the original order (and intra-class ones).
        let polluters = [
            ("p.A#t4", "p.A#t1"),
            ("p.C#t3", "p.B#t0"),
            ("p.D#t0", "p.A#t0"),
            ("p.C#t2", "p.C#t1"),
        ];
        for strategy in [Strategy::Tuscan, Strategy::PairsAll] {
            for seed in 0..6 {
                let mut config = DetectConfig::new(strategy, u32::MAX, seed);
                config.minimize = false;
                config.alone_runs = 2;
                let (history, summary) = run(&config, &suite, &polluters);
                let victims: Vec<&str> = summary
                    .flaky
                    .iter()
                    .filter(|f| f.kind == FlakyKind::Victim)
                    .map(|f| f.test.as_str())
                    .collect();
                assert_eq!(
                    victims,
                    ["p.A#t0", "p.A#t1", "p.B#t0", "p.C#t1"],
                    "{strategy} seed {seed}"
                );
                let schedule = Schedule::new(strategy, &suite, seed, 2, None).unwrap();
                assert_eq!(u64::from(summary.rounds_run), schedule.len());
                let pairs = summary.pairs.unwrap();
                assert_eq!(pairs.covered, pairs.total);
                assert!(
                    !summary.notes.iter().any(|n| n.contains("not yet covered")),
                    "{:?}",
                    summary.notes
                );
                // Deterministic: the same seed gives the same history.
                assert_eq!(history, run(&config, &suite, &polluters).0);
            }
        }
    }

    /// The static fields a test reads and writes.
    type Accesses = dyn Fn(&str) -> (Vec<String>, Vec<String>);

    /// Runs detection to the end with an executor where each victim fails iff its polluter ran
    /// before it, each brittle passes iff its setter ran before it, and every result carries the
    /// static fields its test reads and writes (as the jvm-agent records them).
    fn run_recorded(
        config: &DetectConfig,
        suite: &Suite,
        polluters: &[(&str, &str)],
        setters: &[(&str, &str)],
        access: &Accesses,
    ) -> (Vec<ExperimentRecord>, detect::Summary) {
        let mut history = Vec::new();
        while let Some(e) = detect::next(config, suite, &history).unwrap().experiment {
            let mut ran = HashSet::new();
            let results: Vec<(String, RunOutcome)> = e
                .order
                .iter()
                .map(|t| {
                    let fails = polluters.iter().any(|(p, v)| v == t && ran.contains(p))
                        || setters.iter().any(|(s, b)| b == t && !ran.contains(s));
                    ran.insert(t.as_str());
                    let outcome = if fails {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect();
            let mut rec = record(&e, results);
            for r in &mut rec.results {
                let (reads, writes) = access(&r.test);
                r.reads = Some(reads);
                r.writes = Some(writes);
                r.time_ms = Some(5);
            }
            rec.millis = 500;
            history.push(rec);
            assert!(history.len() < 20_000, "runaway");
        }
        let summary = detect::summary(config, suite, &history).unwrap();
        (history, summary)
    }

    #[test]
    fn dependence_aware_finds_what_tuscan_finds_with_fewer_executions() {
        use odrust_engine::detect::ExperimentKind;
        let suite = suite_of(vec![
            class("p.A", 5, true),
            class("p.B", 3, true),
            class("p.C", 4, true),
            class("p.D", 1, true),
        ]);
        let polluters = [
            ("p.A#t4", "p.A#t1"),
            ("p.C#t3", "p.B#t0"),
            ("p.D#t0", "p.A#t0"),
            ("p.C#t2", "p.C#t1"),
        ];
        // p.B#t2 fails unless p.A#t3 ran before it (it does in the original order).
        let setters = [("p.A#t3", "p.B#t2")];
        let access = |t: &str| -> (Vec<String>, Vec<String>) {
            let field = |f: &str| vec![f.to_string()];
            let (mut reads, mut writes) = match t {
                "p.A#t4" => (vec![], field("p.S#X")),
                "p.A#t1" => (field("p.S#X"), vec![]),
                "p.C#t3" => (vec![], field("p.S#Y")),
                "p.B#t0" => (field("p.S#Y"), vec![]),
                "p.D#t0" => (vec![], field("p.S#Z")),
                "p.A#t0" => (field("p.S#Z"), vec![]),
                "p.C#t2" => (vec![], field("p.S#W")),
                "p.C#t1" => (field("p.S#W"), vec![]),
                "p.A#t3" => (vec![], field("p.S#SET")),
                "p.B#t2" => (field("p.S#SET"), vec![]),
                _ => (vec![], vec![]),
            };
            // Every test bumps a counter, declared dependence-free.
            reads.push("p.Metrics#count".into());
            writes.push("p.Metrics#count".into());
            (reads, writes)
        };
        let found = |summary: &detect::Summary| -> Vec<(String, FlakyKind)> {
            summary
                .flaky
                .iter()
                .map(|f| (f.test.clone(), f.kind))
                .collect()
        };
        let executions = |history: &[ExperimentRecord]| -> usize {
            history
                .iter()
                .filter(|r| r.kind == ExperimentKind::Round)
                .map(|r| r.order.len())
                .sum()
        };
        for seed in 0..4 {
            let mut tuscan = DetectConfig::new(Strategy::Tuscan, u32::MAX, seed);
            tuscan.minimize = false;
            tuscan.alone_runs = 1;
            let mut aware = DetectConfig {
                strategy: Strategy::DependenceAware,
                dependence_free: vec!["p.Metrics#*".into()],
                ..tuscan.clone()
            };
            let (t_history, t_summary) =
                run_recorded(&tuscan, &suite, &polluters, &setters, &access);
            let (a_history, a_summary) =
                run_recorded(&aware, &suite, &polluters, &setters, &access);
            let expected = vec![
                ("p.A#t0".to_string(), FlakyKind::Victim),
                ("p.A#t1".to_string(), FlakyKind::Victim),
                ("p.B#t0".to_string(), FlakyKind::Victim),
                ("p.B#t2".to_string(), FlakyKind::Brittle),
                ("p.C#t1".to_string(), FlakyKind::Victim),
            ];
            assert_eq!(found(&t_summary), expected, "tuscan seed {seed}");
            assert_eq!(found(&a_summary), expected, "dependence-aware seed {seed}");
            let pairs = a_summary.pairs.unwrap();
            assert_eq!((pairs.covered, pairs.total), (5, 5), "seed {seed}");
            let plan = a_summary.plan.clone().unwrap();
            let tuscan_plan = plan.tuscan.clone().unwrap();
            assert_eq!(plan.executions as usize, executions(&a_history));
            assert_eq!(tuscan_plan.executions as usize, executions(&t_history));
            assert!(
                executions(&a_history) * 5 < executions(&t_history),
                "seed {seed}: {} vs {}",
                executions(&a_history),
                executions(&t_history)
            );
            // Predicted from the baseline: 500 ms, 13 tests of 5 ms.
            assert_eq!(plan.cost0_ms, Some(500 - 13 * 5));
            assert!(a_summary
                .notes
                .iter()
                .any(|n| n.starts_with("dependence-aware: ")));
            // Without the dependence-free counter every pair can interact: tuscan's pairs.
            aware.dependence_free.clear();
            let (_, all) = run_recorded(&aware, &suite, &polluters, &setters, &access);
            assert_eq!(
                all.pairs.unwrap().total,
                t_summary.pairs.unwrap().total,
                "seed {seed}"
            );
        }
    }

    #[test]
    fn a_run_cut_short_says_how_many_pairs_are_left_and_resumes_from_there() {
        let suite = suite_of(vec![class("p.A", 4, true), class("p.B", 3, true)]);
        let mut config = DetectConfig::new(Strategy::Tuscan, 3, 5);
        config.minimize = false;
        let (history, summary) = run(&config, &suite, &[]);
        let pairs = summary.pairs.unwrap();
        assert_eq!(summary.rounds_run, 3);
        assert!(pairs.covered < pairs.total);
        let note = format!("{} pairs not yet covered", pairs.total - pairs.covered);
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.contains(&note) && n.contains("-Dodrust.resume=true")),
            "{:?}",
            summary.notes
        );
        // Resuming with more rounds continues with round 4 of the same schedule.
        config.rounds = u32::MAX;
        let step = detect::next(&config, &suite, &history).unwrap();
        let e = step.experiment.unwrap();
        assert_eq!(e.round, Some(4));
        let schedule = Schedule::new(Strategy::Tuscan, &suite, 5, 2, None).unwrap();
        assert_eq!(e.order, schedule.order(3));
        assert_eq!(u64::from(step.progress.rounds_total), schedule.len());
        // Stopped by the time budget: the same note.
        let mut stopped = config.clone();
        stopped.stop_rounds = true;
        let summary = detect::summary(&stopped, &suite, &history).unwrap();
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.contains("pairs not yet covered")),
            "{:?}",
            summary.notes
        );
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.contains("stopped after 3 of")),
            "{:?}",
            summary.notes
        );
    }

    #[test]
    fn config_reads_k_and_cost() {
        let raw: detect::RawConfig = serde_json::from_value(serde_json::json!({
            "strategy": "k-bounded", "rounds": 10, "seed": 1, "k": 3,
            "cost": {"cost0_ms": 1500.4, "test_ms": {"p.A#t0": 12.6}}
        }))
        .unwrap();
        let config = DetectConfig::try_from(raw).unwrap();
        assert_eq!(config.k, 3);
        let cost = config.cost.unwrap();
        assert_eq!((cost.cost0_ms, cost.test_ms["p.A#t0"]), (1500, 13));
        let raw: detect::RawConfig =
            serde_json::from_value(serde_json::json!({"rounds": 1, "seed": 1, "k": 4})).unwrap();
        assert_eq!(
            DetectConfig::try_from(raw).unwrap_err().code(),
            "bad-config"
        );
        let raw: detect::RawConfig =
            serde_json::from_value(serde_json::json!({"rounds": 1, "seed": 1})).unwrap();
        let config = DetectConfig::try_from(raw).unwrap();
        assert_eq!((config.k, config.cost), (2, None));
    }
}
