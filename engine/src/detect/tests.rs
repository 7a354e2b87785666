//! Unit tests of the detection planner on small hand-made suites.

use super::units::{cut_after_last, unit_in};
use super::*;
use crate::model::experiment::{Experiment, ExperimentKind, ExperimentRecord, TestResult};
use crate::model::kind::FlakyKind;
use crate::model::outcome::RunOutcome;
use crate::model::strategy::Strategy;
use crate::model::suite::{ClassRecord, Framework, Suite};

/// A suite of JUnit 5 classes, each `(class, its test methods)`, in that order.
pub(super) fn suite_of(classes: &[(&str, &[&str])]) -> Suite {
    Suite {
        schema_version: 1,
        module: "g:a".into(),
        classes: classes
            .iter()
            .map(|(class, tests)| ClassRecord {
                class: (*class).into(),
                framework: Framework::Junit5,
                reorderable: true,
                tests: tests.iter().map(|t| format!("{class}#{t}")).collect(),
                dynamic: vec![],
            })
            .collect(),
    }
}

fn suite() -> Suite {
    suite_of(&[("p.A", &["a1", "a2"]), ("p.B", &["b1"])])
}

fn config() -> DetectConfig {
    DetectConfig {
        alone_runs: 2,
        minimize: false,
        ..DetectConfig::new(Strategy::ReversePassing, 2, 1)
    }
}

fn record(e: &Experiment, results: &[(&str, RunOutcome)]) -> ExperimentRecord {
    let results = results
        .iter()
        .map(|(t, o)| TestResult {
            message: (o.passed() == Some(false)).then(|| format!("{t} broke")),
            ..TestResult::new(*t, *o)
        })
        .collect();
    ExperimentRecord {
        millis: 1,
        ..ExperimentRecord::of(e, results)
    }
}

#[test]
fn raw_config_defaults_and_validation() {
    let raw: RawConfig = serde_json::from_str(r#"{"rounds":5,"seed":9}"#).unwrap();
    let config = DetectConfig::try_from(raw).unwrap();
    assert_eq!(config.strategy, Strategy::Targeted);
    assert_eq!((config.baseline_tries, config.alone_runs), (3, 3));
    assert_eq!(config.minimize_budget, None);
    assert!(!config.stop_rounds);
    let bad = |json: &str| {
        let raw: RawConfig = serde_json::from_str(json).unwrap();
        DetectConfig::try_from(raw).unwrap_err()
    };
    let e = bad(r#"{"rounds":5,"seed":-1}"#);
    assert_eq!(e.code(), "bad-config");
    assert!(e.to_string().contains("`seed` = `-1`"), "{e}");
    assert_eq!(bad(r#"{"rounds":5,"seed":1.5}"#).code(), "bad-config");
    assert_eq!(
        bad(r#"{"rounds":5,"seed":1,"alone_runs":0}"#).code(),
        "bad-config"
    );
    let e = bad(r#"{"rounds":5,"seed":1,"strategy":"shuffle"}"#);
    assert!(e.to_string().contains("reverse-passing"), "{e}");
}

#[test]
fn first_experiment_is_the_baseline_with_id_1() {
    let step = next(&config(), &suite(), &[]).unwrap();
    let e = step.experiment.unwrap();
    assert_eq!(e.id, 1);
    assert_eq!(e.kind, ExperimentKind::Baseline);
    assert_eq!(e.order, ["p.A#a1", "p.A#a2", "p.B#b1"]);
    assert_eq!(step.progress.phase, Phase::Baseline);
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["kind"], "baseline");
    assert_eq!(json["strategy"], "original");
    assert_eq!(json["round"], serde_json::Value::Null);
}

#[test]
fn a_passing_baseline_is_run_once_then_rounds_follow() {
    use RunOutcome::Pass;
    let first = next(&config(), &suite(), &[]).unwrap().experiment.unwrap();
    let history = vec![record(
        &first,
        &[("p.A#a1", Pass), ("p.A#a2", Pass), ("p.B#b1", Pass)],
    )];
    let step = next(&config(), &suite(), &history).unwrap();
    let e = step.experiment.unwrap();
    assert_eq!((e.id, e.kind, e.round), (2, ExperimentKind::Round, Some(1)));
    assert_eq!(e.strategy, Some(Strategy::RandomClassMethod));
}

#[test]
fn baseline_sorts_tests_into_failing_nod_and_reference() {
    use RunOutcome::{Error, Fail, NotRun, Pass, Skipped};
    let config = config();
    let suite = suite();
    let mut history = Vec::new();
    let runs: [&[(&str, RunOutcome)]; 3] = [
        &[("p.A#a1", Fail), ("p.A#a2", Pass), ("p.B#b1", Skipped)],
        &[("p.A#a1", Error), ("p.A#a2", Fail), ("p.B#b1", NotRun)],
        &[("p.A#a1", Fail), ("p.A#a2", Pass), ("p.B#b1", Skipped)],
    ];
    for results in runs {
        let e = next(&config, &suite, &history).unwrap().experiment.unwrap();
        assert_eq!(e.kind, ExperimentKind::Baseline);
        history.push(record(&e, results));
    }
    let s = summary(&config, &suite, &history).unwrap();
    assert_eq!(s.failing.len(), 1);
    assert_eq!(s.failing[0].test, "p.A#a1");
    assert_eq!(s.failing[0].message.as_deref(), Some("p.A#a1 broke"));
    assert_eq!(s.flaky.len(), 1);
    assert_eq!(s.flaky[0].test, "p.A#a2");
    assert_eq!(s.flaky[0].kind, FlakyKind::Nod);
    assert_eq!(
        (s.flaky[0].failing_experiment, s.flaky[0].passing_experiment),
        (2, 1)
    );
    assert!(
        s.notes[0].contains("1 test failed in every baseline run"),
        "{:?}",
        s.notes
    );
}

#[test]
fn a_record_that_is_not_the_plan_is_a_bad_history() {
    let first = next(&config(), &suite(), &[]).unwrap().experiment.unwrap();
    let mut bad = record(&first, &[]);
    bad.order.reverse();
    let e = next(&config(), &suite(), &[bad]).unwrap_err();
    assert_eq!(e.code(), "bad-history");
    assert!(e.to_string().contains("position 1"), "{e}");
    let mut bad = record(&first, &[]);
    bad.id = 5;
    let e = summary(&config(), &suite(), &[bad]).unwrap_err();
    assert!(e.to_string().contains("its id is 5"), "{e}");
}

#[test]
fn cut_after_last_understands_invocations() {
    let order: Vec<String> = ["a.A#x", "a.A#m", "a.B#y"].map(String::from).to_vec();
    assert_eq!(
        cut_after_last(&order, &["a.A#m[2]".into()]),
        ["a.A#x", "a.A#m"]
    );
    assert_eq!(cut_after_last(&order, &["a.A#x".into()]), ["a.A#x"]);
    assert_eq!(unit_in(&order, "a.A#m[2]"), "a.A#m");
    assert_eq!(unit_in(&order, "a.B#y"), "a.B#y");
}

#[test]
fn empty_suite_is_done_at_once() {
    let empty = Suite {
        schema_version: 1,
        module: "g:a".into(),
        classes: vec![],
    };
    let step = next(&config(), &empty, &[]).unwrap();
    assert!(step.experiment.is_none());
    assert_eq!(step.progress.phase, Phase::Done);
    let s = summary(&config(), &empty, &[]).unwrap();
    assert!(s.notes[0].contains("no tests"), "{:?}", s.notes);
}

/// Victims (`p.V#v` and `p.V#w` fail after `p.P#p`: related, one class) and a brittle (`p.B#b`
/// fails unless `p.S#s` ran before it): a victim and the brittle are unrelated (another role), so
/// their explanations may run at the same time; the two victims' may not.
fn two_causes() -> Suite {
    suite_of(&[
        ("p.S", &["s"]),
        ("p.B", &["b"]),
        ("p.V", &["v", "w"]),
        ("p.P", &["p"]),
        ("p.Q", &["q1", "q2"]),
    ])
}

fn run_two_causes(e: &Experiment) -> ExperimentRecord {
    let mut ran: Vec<&str> = Vec::new();
    let results = e
        .order
        .iter()
        .map(|t| {
            let pass = match t.as_str() {
                "p.V#v" | "p.V#w" => !ran.contains(&"p.P#p"),
                "p.B#b" => ran.contains(&"p.S#s"),
                _ => true,
            };
            ran.push(t);
            TestResult::new(
                t.clone(),
                if pass {
                    RunOutcome::Pass
                } else {
                    RunOutcome::Fail
                },
            )
        })
        .collect();
    ExperimentRecord {
        millis: 1,
        ..ExperimentRecord::of(e, results)
    }
}

#[test]
fn unrelated_od_tests_are_explained_in_batches_that_replay_as_they_ran() {
    let config = DetectConfig {
        alone_runs: 1,
        ..DetectConfig::new(Strategy::RandomClassMethod, 12, 5)
    };
    let suite = two_causes();
    let mut history: Vec<ExperimentRecord> = Vec::new();
    let mut batched = 0;
    loop {
        let step = next(&config, &suite, &history).unwrap();
        let Some(e) = step.experiment.clone() else {
            break;
        };
        let batch: Vec<Experiment> = step.batch.iter().map(|b| b.experiment.clone()).collect();
        if e.kind.is_minimize() && batch.len() > 1 {
            batched += 1;
            let subjects: Vec<&str> = batch.iter().map(|b| b.targets[0].as_str()).collect();
            assert!(subjects.contains(&"p.B#b"), "{subjects:?}");
            let victims = subjects.iter().filter(|t| t.starts_with("p.V#")).count();
            assert_eq!(victims, 1, "related victims ran together: {subjects:?}");
            // The rest of the batch is what comes next after its first record, with its ids.
            history.push(run_two_causes(&batch[0]));
            let rest = next(&config, &suite, &history).unwrap();
            let rest: Vec<Experiment> = rest.batch.iter().map(|b| b.experiment.clone()).collect();
            assert_eq!(rest, batch[1..], "a batch goes on as it was planned");
            for b in &batch[1..] {
                history.push(run_two_causes(b));
            }
            continue;
        }
        history.push(run_two_causes(&e));
    }
    assert!(
        batched > 0,
        "the victim's and the brittle's experiments never ran together"
    );
    let s = summary(&config, &suite, &history).unwrap();
    let found = |t: &str| s.flaky.iter().find(|f| f.test == t).unwrap();
    assert_eq!(found("p.V#v").polluters, vec![vec!["p.P#p".to_string()]]);
    assert_eq!(found("p.V#w").polluters, vec![vec!["p.P#p".to_string()]]);
    assert_eq!(
        found("p.B#b").state_setters,
        vec![vec!["p.S#s".to_string()]]
    );
    assert!(found("p.V#v").minimize_complete && found("p.B#b").minimize_complete);
}
