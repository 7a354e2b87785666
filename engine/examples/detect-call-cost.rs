//! What one `detect_next` call costs as the history grows, with and without a session
//! (`docs/benchmarks.md`, "Engine calls as the history grows").
//!
//! `cargo run --release --example detect-call-cost`
//!
//! A module of `tests` tests in classes of 10, `random-class-method` with enough rounds, every
//! test passing. For each history length n, the time of the call the plugin makes after
//! appending experiment n: without a session, the whole history in the request (what the plugin
//! sent before sessions); in a session, the one new record. Both through `protocol::call` with
//! JSON text, as over JNI (the plugin's own serialization of the request is not counted). Median
//! of `repeat` calls; the same seed, the same histories.

use std::time::Instant;

use odrust_engine::detect::session::{self, SessionCall};
use odrust_engine::detect::DetectConfig;
use odrust_engine::model::experiment::{ExperimentRecord, TestResult};
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};
use odrust_engine::protocol::call;
use serde_json::json;

fn main() {
    println!("| tests | experiments n | whole history (ms) | session (ms) | ratio |");
    println!("|---|---|---|---|---|");
    for (tests, sizes, repeat) in [
        (100, &[10usize, 1_000, 20_000][..], 3),
        (926, &[10, 1_000, 5_000][..], 3),
    ] {
        let suite = suite_of(tests);
        let max = *sizes.iter().max().unwrap();
        let config = DetectConfig::new(Strategy::RandomClassMethod, max as u32 + 10, 1);
        let raw = json!({"strategy": "random-class-method", "rounds": max + 10, "seed": 1});
        let history = history(&config, &suite, max + repeat);
        for &n in sizes {
            let whole = median(
                (0..repeat)
                    .map(|_| {
                        let request =
                            json!({"config": raw, "suite": suite, "history": &history[..n]})
                                .to_string();
                        let t = Instant::now();
                        call("detect_next", &request).unwrap();
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect(),
            );
            // The session holds the first n - 1 records; each timed call brings one more.
            let name = format!("bench-{tests}-{n}");
            session::next(
                &config,
                SessionCall {
                    id: &name,
                    from: 0,
                    suite: Some(suite.clone()),
                    records: &history[..n - 1],
                },
            )
            .unwrap();
            let kept = median(
                (0..repeat)
                    .map(|i| {
                        let at = n - 1 + i;
                        let request = json!({"config": raw, "history": &history[at..=at],
                                             "session": name, "history_from": at})
                        .to_string();
                        let t = Instant::now();
                        call("detect_next", &request).unwrap();
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect(),
            );
            session::end(&name);
            println!(
                "| {tests} | {n} | {whole:.2} | {kept:.3} | {:.0}x |",
                whole / kept
            );
        }
    }
}

fn suite_of(tests: usize) -> Suite {
    let classes = (0..tests.div_ceil(10))
        .map(|c| ClassRecord {
            class: format!("p.C{c}"),
            framework: Framework::Junit5,
            reorderable: true,
            tests: (0..10.min(tests - c * 10))
                .map(|t| format!("p.C{c}#t{t}"))
                .collect(),
            dynamic: vec![],
        })
        .collect();
    Suite {
        schema_version: 1,
        module: "g:a".into(),
        classes,
    }
}

/// `n` experiments of the plan, every test passing, planned through a session.
fn history(config: &DetectConfig, suite: &Suite, n: usize) -> Vec<ExperimentRecord> {
    let mut history: Vec<ExperimentRecord> = Vec::new();
    let mut from = 0;
    while history.len() < n {
        let step = session::next(
            config,
            SessionCall {
                id: "bench-history",
                from,
                suite: (from == 0).then(|| suite.clone()),
                records: &history[from..],
            },
        )
        .unwrap();
        from = history.len();
        let e = step.experiment.expect("the plan has enough rounds");
        let results = e
            .order
            .iter()
            .map(|t| TestResult {
                message: None,
                ..TestResult::new(t.clone(), RunOutcome::Pass)
            })
            .collect();
        history.push(ExperimentRecord {
            millis: 1,
            ..ExperimentRecord::of(&e, results)
        });
    }
    session::end("bench-history");
    history
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
