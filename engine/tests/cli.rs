//! The `odrust-engine` CLI binary: its commands, exit codes and messages.

use odrust_engine::protocol::ENGINE_VERSION;
use serde_json::{json, Value};

use crate::support::*;

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
        format!("odrust-engine {ENGINE_VERSION} (abi 2)")
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
    assert_eq!(v["abi"], 2);

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
        // clap's message, then the usage or where to find it.
        let err = stderr(&out);
        assert!(
            err.starts_with("error: ") || err.contains("Usage:"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--help"), "{args:?}: {err}");
    }
}

#[test]
fn cli_missing_required_flag_names_it() {
    for (args, flag) in [
        (
            &["plan-order", "--order", "x.txt"][..],
            "--suite <suite.json>",
        ),
        (
            &["plan-order", "--suite", "s.json"][..],
            "--order <order.txt>",
        ),
        (&["detect-plan"][..], "--suite <suite.json>"),
        (&["orders", "--suite", "s.json"][..], "--strategy <S>"),
    ] {
        let out = cli(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("required arguments were not provided") && err.contains(flag),
            "{args:?}: {err}"
        );
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn cli_unknown_subcommand_is_a_usage_error() {
    let out = cli(&["ordrs", "--suite", "s.json"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("unrecognized subcommand 'ordrs'"), "{err}");
    assert!(
        err.contains("'orders'"),
        "suggests the closest command: {err}"
    );
    assert!(err.contains("Usage:"), "{err}");
    assert!(!err.contains("error["), "not an engine error: {err}");
}

#[test]
fn cli_help_lists_every_command_and_the_defaults() {
    let out = cli(&["--help"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    for command in [
        "version",
        "call",
        "plan-order",
        "detect-plan",
        "orders",
        "flakerate",
        "calls",
    ] {
        assert!(
            help.lines()
                .any(|line| line.trim_start().starts_with(&format!("{command} "))),
            "`{command}` missing from --help:\n{help}"
        );
    }
    assert!(
        help.contains("--strategy targeted --seed 0 --rounds 20"),
        "{help}"
    );
    assert!(help.contains("--seed 0 --k 2"), "{help}");
    let out = cli(&["detect-plan", "--help"], None);
    assert!(out.status.success());
    let help = stdout(&out);
    for default in ["[default: targeted]", "[default: 0]", "[default: 20]"] {
        assert!(help.contains(default), "{default}: {help}");
    }
    let out = cli(&["orders", "--help"], None);
    let help = stdout(&out);
    assert!(help.contains("--accesses <accesses.json>"), "{help}");
    assert!(help.contains("[default: 2]"), "{help}");
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
    // The default, targeted, without a recording: reverse-passing's rounds.
    assert_eq!(plan["strategy"], "targeted");
    let rounds = plan["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    // Two random rounds, then their reverses.
    assert_eq!(rounds[1]["strategy"], "random-class-method");
    assert_eq!(rounds[2]["strategy"], "reverse-passing");
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
    // targeted with a recording: the writer right before its reader of another class first.
    let accesses = dir.file(
        "accesses.json",
        r#"{"com.acme.CartTest#b": {"writes": ["com.acme.Cart#ITEMS"]},
            "com.acme.FixedTest#one": {"reads": ["com.acme.Cart#ITEMS"]}}"#,
    );
    let args = [
        "detect-plan",
        "--suite",
        path,
        "--accesses",
        accesses.to_str().unwrap(),
        "--rounds",
        "6",
    ];
    let output = cli(&args, None);
    assert!(output.status.success(), "{}", stderr(&output));
    let plan: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(plan["targeted"]["pairs"], 1, "{plan}");
    assert_eq!(plan["targeted"]["orders"], 1, "{plan}");
    let rounds = plan["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 6);
    assert_eq!(rounds[0]["strategy"], "targeted");
    let first: Vec<&str> = rounds[0]["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let at = first
        .iter()
        .position(|t| *t == "com.acme.CartTest#b")
        .unwrap();
    assert_eq!(first[at + 1], "com.acme.FixedTest#one", "{first:?}");
    assert_eq!(rounds[1]["strategy"], "random-class-method");
    let output = cli(
        &[
            "detect-plan",
            "--suite",
            path,
            "--strategy",
            "tuscan",
            "--accesses",
            accesses.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--strategy targeted"),
        "{}",
        stderr(&output)
    );
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

#[test]
fn cli_calls_answers_a_line_each_and_keeps_a_session_across_them() {
    let config = json!({"strategy": "random-class-method", "rounds": 3, "seed": 5});
    let session = "cli-calls";
    let start = json!({"op": "detect_next",
        "request": {"config": config, "suite": suite(), "history": [], "session": session}});
    // The first answer is the baseline run; recorded, it goes back as history_from 0 ...
    let out = cli(&["calls", "-"], Some(&format!("{start}\n")));
    assert!(out.status.success(), "{}", stderr(&out));
    let first: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let mut baseline = first["experiment"].clone();
    baseline["results"] = json!([{"test": "com.acme.CartTest#a", "outcome": "pass"}]);
    let fed = json!({"op": "detect_next", "request": {"config": config, "history": [baseline],
        "session": session, "history_from": 0, "suite": suite()}});
    // ... and a later line goes on from 1 record without sending it again: the session lasts.
    let later = json!({"op": "detect_summary",
        "request": {"config": config, "history": [], "session": session, "history_from": 1}});
    let input = format!("{start}\n\n{fed}\n{later}\nnot json\n{{\"op\": \"nope\"}}\n");
    let out = cli(&["calls", "-"], Some(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        5,
        "one line per call, the blank one skipped: {lines:?}"
    );
    assert_eq!(lines[0]["experiment"]["id"], first["experiment"]["id"]);
    assert_eq!(lines[1]["experiment"]["kind"], "round");
    assert_eq!(lines[2]["experiments"], 1, "{}", lines[2]);
    assert_eq!(lines[3]["error"]["code"], "bad-request");
    assert!(
        lines[3]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 5: "),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4]["error"]["code"], "unknown-op");
    // In separate processes the session is gone.
    let out = cli(&["calls", "-"], Some(&format!("{later}\n")));
    let alone: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(alone["error"]["code"], "session-lost", "{alone}");
}
