//! `odrust-engine`: the engine's ops on the command line, for debugging and scripting.
//!
//! The plugin never runs this binary; it loads the library over JNI. The CLI calls the same
//! [`odrust_engine::protocol::call`], so what it prints is exactly what the plugin gets.
//! Exit codes: 0 on success, 2 for an engine error (`error[<code>]: <message>` on stderr) or for
//! bad usage.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use odrust_engine::model::experiment::{ExperimentKind, ExperimentRecord, TestResult};
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite, SCHEMA_VERSION};
use odrust_engine::protocol::{self, ABI_VERSION, ENGINE_VERSION};
use odrust_engine::schedule::dependence;
use odrust_engine::schedule::rounds::rounds_if_passing;
use odrust_engine::schedule::{lower_bound, Schedule};
use odrust_engine::EngineError;

const USAGE: &str = "\
odrust-engine: the decision engine of odrust, on the command line

USAGE:
    odrust-engine version
    odrust-engine call <op> [request.json | -]
    odrust-engine plan-order --suite <suite.json> --order <order.txt>
    odrust-engine detect-plan --suite <suite.json> [--strategy S] [--seed N] [--rounds R]
    odrust-engine orders --suite <suite.json> --strategy S [--seed N] [--k K]
                         [--accesses <accesses.json>] [--dependence-free P1,P2]
    odrust-engine flakerate [input.json | -]
    odrust-engine --help

COMMANDS:
    version       print the engine version and ABI version
    call          run one engine op; the request is read from the file, or from stdin
                  with `-`, or is `{}` when omitted; prints the response JSON
    plan-order    resolve and segment an order file against a suite; prints the plan JSON
    detect-plan   print the orders the rounds of `odrust:detect` run when every round passes
                  (JSON); defaults: --strategy reverse-passing --seed 0 --rounds 20
    orders        the orders of a systematic strategy (tuscan, pairs-all, k-bounded) for a
                  suite, with their count, executions, pairs covered and the lower bound
                  (JSON); defaults: --seed 0 --k 2. The suite is the plugin's suite.json or
                  {\"classes\": {\"pkg.A\": [\"pkg.A#t1\", ...], ...}}. dependence-aware needs
                  --accesses: {\"<test id>\": {\"reads\": [fields], \"writes\": [fields]}}
                  (a test missing there counts as touching every field)
    flakerate     the flake rates of a victim (polluters, cleaners) or brittle (state_setters)
                  read from the file or stdin (JSON, see docs/flake-rate.md); prints the rates
                  and the method used

Ops: see docs/protocol.md, \"Engine calls\". Errors print `error[<code>]: <message>` on
stderr and exit with status 2.";

/// What went wrong in `main`.
enum Failure {
    Usage(String),
    Engine(EngineError),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure::Engine(e)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(message)) => {
            eprintln!("odrust-engine: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Engine(error)) => {
            eprintln!("error[{}]: {error}", error.code());
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, Failure> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => Err(Failure::Usage("no command given".into())),
        ["--help" | "-h" | "help", ..] => Ok(USAGE.to_string()),
        ["version"] => Ok(format!(
            "odrust-engine {ENGINE_VERSION} (abi {ABI_VERSION})"
        )),
        ["call", op] => Ok(protocol::call(op, "{}")?),
        ["call", op, source] => {
            let request = if *source == "-" {
                read_stdin()?
            } else {
                read_file(Path::new(source))?
            };
            Ok(protocol::call(op, &request)?)
        }
        ["call", ..] => Err(Failure::Usage(
            "`call` takes an op and at most one request file".into(),
        )),
        ["plan-order", rest @ ..] => plan_order(rest),
        ["detect-plan", rest @ ..] => detect_plan(rest),
        ["orders", rest @ ..] => orders(rest),
        ["flakerate", source] => {
            let request = if *source == "-" {
                read_stdin()?
            } else {
                read_file(Path::new(source))?
            };
            Ok(protocol::call("flake_rate", &request)?)
        }
        ["flakerate", ..] => Err(Failure::Usage(
            "`flakerate` takes one input file, or `-` for stdin".into(),
        )),
        [command, ..] => Err(Failure::Usage(format!("unknown command `{command}`"))),
    }
}

fn plan_order(args: &[&str]) -> Result<String, Failure> {
    let mut suite = None;
    let mut order = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let slot = match *flag {
            "--suite" => &mut suite,
            "--order" => &mut order,
            other => {
                return Err(Failure::Usage(format!(
                    "unknown option `{other}` for plan-order"
                )))
            }
        };
        let value = rest
            .next()
            .ok_or_else(|| Failure::Usage(format!("{flag} needs a file")))?;
        *slot = Some(PathBuf::from(value));
    }
    let (Some(suite), Some(order)) = (suite, order) else {
        return Err(Failure::Usage(
            "plan-order needs --suite <suite.json> and --order <order.txt>".into(),
        ));
    };
    let suite_json = read_file(&suite)?;
    let suite: serde_json::Value =
        serde_json::from_str(&suite_json).map_err(|e| EngineError::BadRequest {
            op: "plan_order".into(),
            reason: format!("{} is not JSON: {e}", suite.display()),
        })?;
    let request = serde_json::json!({
        "suite": suite,
        "order_text": read_file(&order)?,
        "source": order.display().to_string(),
    });
    Ok(protocol::call("plan_order", &request.to_string())?)
}

fn detect_plan(args: &[&str]) -> Result<String, Failure> {
    let mut suite = None;
    let mut strategy = Strategy::DEFAULT;
    let mut seed: u64 = 0;
    let mut rounds: u32 = 20;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = *rest
            .next()
            .ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
        let number = |what: &str| Failure::Usage(format!("{flag} needs {what}, not `{value}`"));
        match *flag {
            "--suite" => suite = Some(PathBuf::from(value)),
            "--strategy" => strategy = Strategy::parse(value)?,
            "--seed" => {
                seed = value
                    .parse()
                    .map_err(|_| number("a non-negative integer"))?
            }
            "--rounds" => {
                rounds = value
                    .parse()
                    .map_err(|_| number("a non-negative integer"))?
            }
            other => {
                return Err(Failure::Usage(format!(
                    "unknown option `{other}` for detect-plan"
                )))
            }
        }
    }
    let Some(suite) = suite else {
        return Err(Failure::Usage(
            "detect-plan needs --suite <suite.json>".into(),
        ));
    };
    if strategy == Strategy::DependenceAware {
        return Err(Failure::Usage(
            "dependence-aware plans its rounds from what the baseline recorded: use `orders --strategy dependence-aware --accesses <accesses.json>`".into(),
        ));
    }
    let suite: Suite =
        serde_json::from_str(&read_file(&suite)?).map_err(|e| EngineError::BadRequest {
            op: "detect-plan".into(),
            reason: format!("{} is not a suite: {e}", suite.display()),
        })?;
    let plan = serde_json::json!({
        "strategy": strategy,
        "seed": seed,
        "rounds": rounds_if_passing(strategy, &suite, seed, rounds),
    });
    Ok(plan.to_string())
}

/// Reads a suite: the plugin's `suite.json`, or `{"classes": {"pkg.A": ["pkg.A#t1", ...]}}`
/// (classes in key order, every class reorderable).
fn read_suite(path: &Path, op: &str) -> Result<Suite, Failure> {
    let text = read_file(path)?;
    let bad = |reason: String| EngineError::BadRequest {
        op: op.into(),
        reason: format!("{} is not a suite: {reason}", path.display()),
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if let Some(classes) = value.get("classes").and_then(serde_json::Value::as_object) {
        let mut records = Vec::new();
        for (class, tests) in classes {
            let tests: Vec<String> = serde_json::from_value(tests.clone())
                .map_err(|e| bad(format!("the tests of `{class}`: {e}")))?;
            records.push(ClassRecord {
                class: class.clone(),
                framework: Framework::Junit4,
                reorderable: true,
                tests,
                dynamic: Vec::new(),
            });
        }
        return Ok(Suite {
            schema_version: SCHEMA_VERSION,
            module: String::new(),
            classes: records,
        });
    }
    Ok(serde_json::from_value(value).map_err(|e| bad(e.to_string()))?)
}

fn orders(args: &[&str]) -> Result<String, Failure> {
    let mut suite = None;
    let mut strategy = None;
    let mut seed: u64 = 0;
    let mut k: u32 = 2;
    let mut accesses = None;
    let mut dependence_free: Vec<String> = Vec::new();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = *rest
            .next()
            .ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
        let number = || {
            Failure::Usage(format!(
                "{flag} needs a non-negative integer, not `{value}`"
            ))
        };
        match *flag {
            "--suite" => suite = Some(PathBuf::from(value)),
            "--strategy" => strategy = Some(Strategy::parse(value)?),
            "--seed" => seed = value.parse().map_err(|_| number())?,
            "--k" => k = value.parse().map_err(|_| number())?,
            "--accesses" => accesses = Some(PathBuf::from(value)),
            "--dependence-free" => {
                dependence_free = value
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect()
            }
            other => {
                return Err(Failure::Usage(format!(
                    "unknown option `{other}` for orders"
                )))
            }
        }
    }
    let (Some(suite), Some(strategy)) = (suite, strategy) else {
        return Err(Failure::Usage(
            "orders needs --suite <suite.json> and --strategy <tuscan|pairs-all|k-bounded|dependence-aware>"
                .into(),
        ));
    };
    if !(1..=3).contains(&k) {
        return Err(Failure::Engine(EngineError::BadConfig {
            setting: "k".into(),
            value: k.to_string(),
            reason: "k-bounded runs k = 1, 2 or 3 tests per order".into(),
        }));
    }
    let suite = read_suite(&suite, "orders")?;
    if strategy == Strategy::DependenceAware {
        let Some(accesses) = accesses else {
            return Err(Failure::Usage(
                "dependence-aware needs --accesses <file.json>: {\"<test id>\": {\"reads\": [fields], \"writes\": [fields]}}".into(),
            ));
        };
        return dependence_orders(&suite, &accesses, &dependence_free, seed);
    }
    let Some(schedule) = Schedule::new(strategy, &suite, seed, k, None) else {
        return Err(Failure::Engine(EngineError::BadConfig {
            setting: "strategy".into(),
            value: strategy.name().into(),
            reason: format!(
                "`orders` prints systematic schedules: {}",
                Strategy::SYSTEMATIC.map(Strategy::name).join(", ")
            ),
        }));
    };
    let all: Vec<Vec<String>> = (0..schedule.len()).map(|r| schedule.order(r)).collect();
    let mut coverage = schedule.coverage();
    for order in &all {
        coverage.add(order);
    }
    let plan = serde_json::json!({
        "strategy": strategy,
        "seed": seed,
        "k": if strategy == Strategy::KBounded { Some(k) } else { None },
        "tests": schedule.units().len(),
        "class_compatible": schedule.class_compatible(),
        "count": schedule.len(),
        "executions": schedule.executions(),
        "pairs": {"covered": coverage.covered(), "total": schedule.pairs_total()},
        "lower_bound": lower_bound(schedule.class_sizes()),
        "orders": all,
    });
    Ok(plan.to_string())
}

/// `orders --strategy dependence-aware`: the recorded accesses as one baseline record.
fn dependence_orders(
    suite: &Suite,
    accesses: &Path,
    dependence_free: &[String],
    seed: u64,
) -> Result<String, Failure> {
    #[derive(serde::Deserialize)]
    struct Access {
        #[serde(default)]
        reads: Vec<String>,
        #[serde(default)]
        writes: Vec<String>,
    }
    let text = read_file(accesses)?;
    let map: std::collections::BTreeMap<String, Access> =
        serde_json::from_str(&text).map_err(|e| {
            Failure::Usage(format!(
                "{}: not an accesses file ({e}); expected {{\"<test id>\": {{\"reads\": [...], \"writes\": [...]}}}}",
                accesses.display()
            ))
        })?;
    let record = ExperimentRecord {
        id: 1,
        kind: ExperimentKind::Baseline,
        round: None,
        strategy: None,
        order: Vec::new(),
        targets: Vec::new(),
        results: map
            .into_iter()
            .map(|(test, a)| TestResult {
                reads: Some(a.reads),
                writes: Some(a.writes),
                ..TestResult::new(test, RunOutcome::Pass)
            })
            .collect(),
        honoured: true,
        millis: 0,
        class_state: Vec::new(),
    };
    let plan = dependence::plan(suite, &[&record], dependence_free, seed, None, None);
    let schedule = &plan.schedule;
    let mut all: Vec<Vec<String>> = (0..schedule.len()).map(|r| schedule.order(r)).collect();
    let mut coverage = schedule.coverage();
    for order in &all {
        coverage.add(order);
    }
    all.extend(plan.extra.iter().cloned());
    let out = serde_json::json!({
        "strategy": Strategy::DependenceAware,
        "seed": seed,
        "tests": schedule.units().len(),
        "class_compatible": true,
        "count": all.len(),
        "executions": all.iter().map(Vec::len).sum::<usize>(),
        "pairs": {"covered": coverage.covered(), "total": schedule.pairs_total()},
        "uses_tuscan": plan.info.uses_tuscan,
        "unrecorded": plan.map.unrecorded(),
        "fields": plan.map.field_count(),
        "orders": all,
    });
    Ok(out.to_string())
}

fn read_file(path: &Path) -> Result<String, EngineError> {
    std::fs::read_to_string(path).map_err(|source| EngineError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn read_stdin() -> Result<String, EngineError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|source| EngineError::Io {
            path: PathBuf::from("<stdin>"),
            source,
        })?;
    Ok(text)
}
