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
