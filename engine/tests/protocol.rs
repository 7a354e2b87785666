//! The engine's ops through `protocol::call` with JSON, as the plugin calls them.

use odrust_engine::detect;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::protocol::{call, ENGINE_VERSION};
use serde_json::{json, Value};

use crate::support::*;

#[test]
fn version_op() {
    assert_eq!(
        ok("version", json!({})),
        json!({"engine_version": ENGINE_VERSION, "abi": 2})
    );
}

#[test]
fn vocabulary_op_lists_the_engines_names_and_defaults() {
    let v = ok("vocabulary", json!({}));
    assert_eq!(v["strategies"].as_array().unwrap().len(), 11);
    assert_eq!(
        v["recording_strategies"],
        json!(["dependence-aware", "targeted"])
    );
    assert_eq!(v["detect_defaults"]["strategy"], "targeted");
    assert_eq!(
        v["systematic_strategies"],
        json!(["tuscan", "pairs-all", "k-bounded", "dependence-aware"])
    );
    assert_eq!(
        v["minimize_kinds"],
        json!([
            "polluter-search",
            "polluter-pair",
            "cleaner",
            "setter-search",
            "setter-pair"
        ])
    );
    assert_eq!(v["experiment_kinds"][0], "baseline");
    assert!(v["user_error_codes"]
        .as_array()
        .unwrap()
        .contains(&json!("bad-config")));
    assert!(!v["user_error_codes"]
        .as_array()
        .unwrap()
        .contains(&json!("panic")));
    assert_eq!(
        v["detect_defaults"],
        json!({"strategy": "targeted", "baseline_tries": 3, "alone_runs": 3,
               "minimize_budget_per_test": 60, "k": 2,
               "rounds": {"original": 20, "reverse": 20, "reverse-class": 20, "random-class": 20,
                          "random-class-method": 20, "reverse-passing": 20, "targeted": 20,
                          "tuscan": 2147483647, "pairs-all": 2147483647, "k-bounded": 2147483647,
                          "dependence-aware": 2147483647}})
    );
    // Every recording strategy says what it does without a recording.
    let recording = v["recording_strategies"].as_array().unwrap();
    assert_eq!(
        v["without_recording"].as_object().unwrap().len(),
        recording.len()
    );
    for s in recording {
        assert!(
            v["without_recording"][s.as_str().unwrap()].is_string(),
            "{s}"
        );
    }
    // Every name the engine lists is one it reads back.
    let config = |strategy: &Value| json!({"config": {"strategy": strategy, "rounds": 1, "seed": 1}, "suite": suite(), "history": []});
    for strategy in v["strategies"].as_array().unwrap() {
        if strategy != "dependence-aware" {
            ok("detect_next", config(strategy));
        }
    }
}

#[test]
fn detect_next_experiments_carry_the_segments_plan_order_gives() {
    // One crossing per experiment: what the plugin runs comes with the batch, cut exactly as a
    // second `plan_order` call would cut it: baselines, rounds of several strategies,
    // confirmations, alone runs and minimization, over reorderable and fixed classes.
    let suite = victim_suite();
    let suite_json = serde_json::to_value(&suite).unwrap();
    for strategy in [
        Strategy::ReversePassing,
        Strategy::RandomClassMethod,
        Strategy::Tuscan,
    ] {
        let mut config = minimizing(strategy, 3);
        config.rounds = 4;
        let mut history = Vec::new();
        let mut checked = 0;
        while let Some(e) = detect::next(&config, &suite, &history)
            .unwrap()
            .batch
            .first()
            .cloned()
        {
            let plan = ok(
                "plan_order",
                json!({"suite": suite_json, "order_text": e.order.join("\n"), "source": "x"}),
            );
            let carried = serde_json::to_value(&e).unwrap();
            assert_eq!(
                carried["segments"], plan["segments"],
                "{strategy:?}: {carried}"
            );
            assert_eq!(carried["order"], plan["order"], "{strategy:?}: {carried}");
            history.push(record(&e, victim_executor(&e)));
            checked += 1;
        }
        assert!(checked > 6, "{strategy:?}: only {checked} experiments");
    }
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
               "nod_found": 0, "candidates": 0, "alone_left": 0, "explain_spent": 0,
               "explain_budget": detect::DEFAULT_MINIMIZE_BUDGET})
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
    // the baseline ran two (one an invocation); the not-run one does not count
    assert_eq!(summary["results_per_run"], 2);
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
fn report_op_builds_report_json_and_renders_it() {
    // A real detection's summary: a victim with its polluter, explained.
    let suite = victim_suite();
    let (_, summary) = detect_all(
        &minimizing(Strategy::ReversePassing, 7),
        &suite,
        &victim_executor,
    );
    assert!(!summary.flaky.is_empty(), "{summary:?}");
    let mut request = json!({"build": {
        "summary": summary, "module": "com.acme:cart", "odrust_version": "0.1.0",
        "complete": true, "reproduce_goal": "odrust:reproduce",
        "orders": {"0": "target/odrust/orders"}}});
    let texts = ok("report", request.clone());
    let json = texts["json"].as_str().unwrap();
    let report: Value = serde_json::from_str(json).unwrap();
    // The plugin's facts first, then the summary's fields in its order, then the explanations.
    assert!(json.starts_with("{\n  \"schema_version\": 2,\n  \"module\": \"com.acme:cart\",\n  \"odrust_version\": \"0.1.0\",\n  \"complete\": true,\n  \"seed\": 7,"), "{json}");
    assert!(
        json.find("\"explanations\"").unwrap() > json.find("\"flaky\"").unwrap(),
        "{json}"
    );
    let victim = &report["flaky"][0];
    let failing = victim["failing_experiment"].as_u64().unwrap();
    assert_eq!(
        victim["failing_order"],
        json!(format!("target/odrust/orders/exp-{failing}.txt"))
    );
    assert_eq!(
        victim["reproduce"],
        json!(format!(
            "mvn odrust:reproduce -Dodrust.order=target/odrust/orders/exp-{failing}.txt"
        ))
    );
    assert!(victim.get("polluted_state").is_none(), "{victim}");
    assert_eq!(report["explanations"]["explained"], json!(1), "{report}");
    assert!(report.get("shards").is_none(), "{report}");
    assert!(texts["html"].as_str().unwrap().contains("<!doctype html>"));
    assert!(texts["xml"]
        .as_str()
        .unwrap()
        .contains(r#"type="odrust.victim""#));

    // Written again as it is, the file is the same text.
    let again = ok("report", json!({"report": report}));
    assert_eq!(again["json"], texts["json"]);
    // A shard's flaky tests point at that shard's order files.
    request["build"]["orders"] =
        json!({"0": "target/odrust/orders", "2": "../s2/target/odrust/orders"});
    request["build"]["summary"]["flaky"][0]["shard"] = json!(2);
    let sharded: Value =
        serde_json::from_str(ok("report", request)["json"].as_str().unwrap()).unwrap();
    assert_eq!(
        sharded["flaky"][0]["failing_order"],
        json!(format!("../s2/target/odrust/orders/exp-{failing}.txt"))
    );

    // Bad requests are refused, naming the problem.
    let (code, message) = err("report", json!({}));
    assert_eq!(code, "bad-request");
    assert!(
        message.contains("exactly one of `build` and `report`"),
        "{message}"
    );
    // One cause: the victim and its polluter.
    assert_eq!(report["causes"][0]["id"], json!(1), "{report}");
    assert_eq!(report["causes"][0]["tests"], json!([victim["test"]]));
    assert_eq!(report["causes"][0]["polluters"], victim["polluters"]);
    // A report of schema 1 (no causes) is read and written as schema 2, its causes added.
    let mut old = report.clone();
    old["schema_version"] = json!(1);
    old.as_object_mut().unwrap().remove("causes");
    let upgraded = ok("report", json!({"report": old}));
    assert_eq!(upgraded["json"], texts["json"]);
    let mut newer = report.clone();
    newer["schema_version"] = json!(3);
    let (code, message) = err("report", json!({"report": newer}));
    assert_eq!(code, "bad-request");
    assert!(message.contains("schema_version 3"), "{message}");
    let (code, _) = err(
        "report",
        json!({"build": {"summary": summary, "module": "m", "odrust_version": "v",
        "complete": true, "reproduce_goal": "g", "orders": {}, "colour": "red"}}),
    );
    assert_eq!(code, "bad-request");
}

#[test]
fn reset_methods_op_reads_class_dirs() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reset");
    let v = ok(
        "reset_methods",
        json!({
            "class_dirs": [fixtures.join("main"), fixtures.join("test")],
            "field": {"class": "com.acme.Prices", "name": "RATES"},
            "test_class": "com.acme.PricesTest",
            "polluter_class": "com.acme.other.OtherTest",
            "limit": 1
        }),
    );
    assert_eq!(
        v,
        json!({
            "candidates": [{
                "statement": "com.acme.Prices.reset();",
                "statements": ["com.acme.Prices.reset();"],
                "method": "com.acme.Prices.reset()V",
                "kind": "static-method",
                "why": "writes com.acme.Prices.RATES (PUTSTATIC)",
                "placements": ["setup", "polluter-teardown", "test"]
            }],
            "classes_read": 19,
            "field_found": true,
            "unreadable": [],
            "direct_restore_refused": null
        })
    );
    let (code, message) = err(
        "reset_methods",
        json!({
            "class_dirs": [fixtures.join("absent")],
            "field": {"class": "a.B", "name": "X"},
            "test_class": "a.BTest"
        }),
    );
    assert_eq!(code, "io");
    assert!(message.contains("absent"), "{message}");
}

#[test]
fn incremental_select_op_runs_full_then_selects_nothing_on_the_same_classes() {
    let module =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/incremental/module");
    let request = |state: Value, fingerprint: &str| {
        json!({
            "main_dirs": [module.join("main")],
            "test_dirs": [module.join("test")],
            "test_classes": ["com.acme.CalcTest", "com.acme.ReportTest"],
            "state": state,
            "build_fingerprint": fingerprint,
        })
    };
    let first = ok("incremental_select", request(Value::Null, "b1"));
    assert_eq!(first["full"], json!(true));
    assert_eq!(
        first["why_full"],
        json!("no saved incremental state (first run)")
    );
    assert_eq!(first["selected"].as_array().unwrap().len(), 2);
    // the same classes again: nothing changed, nothing selected
    let again = ok("incremental_select", request(first["state"].clone(), "b1"));
    assert_eq!(again["full"], json!(false));
    assert_eq!(again["changed"], json!([]));
    assert_eq!(again["selected"], json!([]));
    // another build: a full run, said so
    let build = ok("incremental_select", request(first["state"].clone(), "b2"));
    assert_eq!(build["full"], json!(true));
    assert!(build["why_full"]
        .as_str()
        .unwrap()
        .contains("the build changed"));
    let (code, message) = err(
        "incremental_select",
        json!({"main_dirs": [module.join("absent")], "test_dirs": [], "test_classes": [],
               "state": null, "build_fingerprint": "b"}),
    );
    assert_eq!(code, "io");
    assert!(message.contains("absent"), "{message}");
}

// ---- ID tests through the protocol ----

/// Runs an `id_next` experiment in a simulated module: `p.T#b` makes 3 counted calls and fails
/// under seed 1 when its second is shuffled; `p.T#a` makes none and passes.
fn run_id_experiment(e: &Value) -> Value {
    let seed = e["seed"].as_u64();
    let only: Vec<(u64, u64)> = e["only"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap()))
        .collect();
    let shuffled = |i: u64| {
        seed.is_some() && (only.is_empty() || only.iter().any(|(a, b)| (*a..=*b).contains(&i)))
    };
    let mut results = Vec::new();
    let mut calls = Vec::new();
    let mut count = 0;
    for t in e["order"].as_array().unwrap() {
        let mut fails = false;
        if t == "p.T#b" {
            for _ in 0..3 {
                count += 1;
                if only.is_empty() || only.iter().any(|(a, b)| (*a..=*b).contains(&count)) {
                    calls.push(json!({"index": count, "api": "HashMap$KeySet.iterator",
                        "at": {"class": "p.Names", "method": "all", "file": "Names.java", "line": 10 + count},
                        "alloc": {"type": "HashMap", "at": {"class": "p.Names", "method": "<init>", "file": "Names.java", "line": 3}},
                        "assertion": true}));
                }
            }
            fails = seed == Some(1) && shuffled(count - 1);
        }
        results.push(json!({"test": t, "outcome": if fails { "fail" } else { "pass" }}));
    }
    let mut record = e.clone();
    record["fingerprint"] = json!("f");
    record["results"] = json!(results);
    record["count"] = json!(count);
    record["calls"] = json!(calls);
    record
}

#[test]
fn id_ops_through_protocol() {
    let request = |history: &[Value]| {
        json!({"tests": ["p.T#a", "p.T#b"], "seeds": [1, 2], "fingerprint": "f",
               "history": history, "next_id": history.len() + 1, "verify_seeds": 2})
    };
    let step = ok("id_next", request(&[]));
    assert_eq!(
        step,
        json!({"step": "run", "experiment": {"id": 1, "kind": "clean", "test": null,
               "order": ["p.T#a", "p.T#b"], "seed": null, "only": []},
               "progress": {"phase1_done": 0, "phase1_total": 3, "candidate": 0, "budget": 30}})
    );
    let mut history = Vec::new();
    let outcome = loop {
        let step = ok("id_next", request(&history));
        if step["step"] == "done" {
            break step["outcome"].clone();
        }
        history.push(run_id_experiment(&step["experiment"]));
        assert!(history.len() < 50);
    };
    // clean, 2 shuffled, alone clean, alone under 1, [1,2] fails, [1,1] passes, [2,2] fails,
    // then every call as invocation 2 (it fails: another order fails it)
    assert_eq!(outcome["experiments"], 9);
    let consistent = history.last().unwrap();
    assert_eq!(
        (&consistent["kind"], &consistent["consistent_call"]),
        (&json!("consistent"), &json!(2))
    );
    assert!(
        history[..8]
            .iter()
            .all(|r| r.get("consistent_call").is_none()),
        "absent on every other kind"
    );
    let v = &outcome["tests"][0];
    assert_eq!(v["test"], "p.T#b");
    assert_eq!(v["status"], "id");
    assert_eq!(v["failing_seeds"], json!([1]));
    assert_eq!(v["rate"], "failed under 1 of 2 seeds");
    assert_eq!(v["pin"]["invocation"], 2);
    assert_eq!(v["needs"], "another-order");
    assert_eq!(v["pin"]["call"]["at"]["line"], 12);
    assert_eq!(
        v["reproduce"],
        json!({"test": "p.T#b", "seed": 1, "only": [[2, 2]]})
    );
    assert_eq!(v["repairs"][0]["strategy"], "ChangeContainsExactly");
    assert_eq!(v["repairs"][1]["strategy"], "HashToLinkedHash");
    assert_eq!(v["repairs"][1]["line"], 3);
    assert_eq!(v["verify_seeds"].as_array().unwrap().len(), 3);
    assert_eq!(v["experiments"], json!([4, 5, 6, 7, 8, 9]));

    let rendered = ok(
        "id_report",
        json!({"module": "com.acme:shop", "outcome": outcome,
               "reproduce_command": "mvn odrust:run-order -Dodrust.order={test} -Dodrust.id.seed={seed} -Dodrust.id.only={only}"}),
    );
    let xml = rendered["xml"].as_str().unwrap();
    assert!(xml.contains(r#"type="odrust.id""#), "{xml}");
    assert!(rendered["html"]
        .as_str()
        .unwrap()
        .contains("-Dodrust.id.only=2"));
    assert!(rendered["text"].as_str().unwrap().contains("[ID] p.T#b"));

    // A seed listed twice is the user's to fix.
    let (code, message) = err(
        "id_next",
        json!({"tests": ["p.T#a"], "seeds": [3, 3], "fingerprint": "f", "history": [], "next_id": 1}),
    );
    assert_eq!(code, "bad-config");
    assert!(message.contains("odrust.id.seeds"), "{message}");
    let (code, _) = err(
        "id_next",
        json!({"tests": ["p.T#a"], "seeds": [-1], "fingerprint": "f", "next_id": 1}),
    );
    assert_eq!(code, "bad-request");
}
