//! `odrust-engine`: the engine's ops on the command line, for debugging and scripting.
//!
//! The plugin never runs this binary; it loads the library over JNI. The CLI calls the same
//! [`odrust_engine::protocol::call`], so what it prints is exactly what the plugin gets.
//! Exit codes: 0 on success, 2 for an engine error (`error[<code>]: <message>` on stderr) or for
//! bad usage (clap's message and usage on stderr); a panic exits with Rust's 101.
//! Arguments are parsed by clap (derive); `--help` and `<command> --help` list the commands,
//! their flags and defaults.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use odrust_engine::model::experiment::{ExperimentKind, ExperimentRecord, TestResult};
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite, SCHEMA_VERSION};
use odrust_engine::protocol::{self, ABI_VERSION, ENGINE_VERSION};
use odrust_engine::schedule::dependence;
use odrust_engine::schedule::rounds::{rounds_if_passing, targeted_if_passing};
use odrust_engine::schedule::targeted;
use odrust_engine::schedule::{lower_bound, Schedule};
use odrust_engine::EngineError;

/// `odrust-engine`: the decision engine of odrust, on the command line.
#[derive(Debug, Parser)]
#[command(
    name = "odrust-engine",
    about = "odrust-engine: the decision engine of odrust, on the command line",
    after_help = "Ops: see docs/protocol.md, \"Engine calls\". Errors print `error[<code>]: <message>` on\n\
                  stderr and exit with status 2; bad usage exits with status 2 too.",
    // A flag given twice keeps its last value, as the hand-written parser did.
    args_override_self = true,
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// print the engine version and ABI version
    Version,
    /// run one engine op; the request is read from the file, or from stdin with `-`, or is `{}`
    /// when omitted; prints the response JSON
    ///
    /// Ops: see docs/protocol.md, "Engine calls".
    Call {
        /// the engine op (docs/protocol.md, "Engine calls")
        op: String,
        /// the request JSON: a file, or `-` for stdin [default: `{}`]
        #[arg(value_name = "request.json | -")]
        request: Option<String>,
    },
    /// run many engine ops in one process: one JSON line `{"op": ..., "request": {...}}` each,
    /// from the file or stdin (`-`); prints one line each, the response or `{"error": {"code",
    /// "message"}}`
    ///
    /// Detection sessions (docs/protocol.md, "Sessions") last for the whole input, so replaying a
    /// run's history point by point sends each record once.
    Calls {
        /// the calls, one JSON object a line: a file, or `-` for stdin
        #[arg(value_name = "calls.jsonl | -")]
        input: String,
    },
    /// resolve and segment an order file against a suite; prints the plan JSON
    PlanOrder {
        /// the suite (the plugin's target/odrust/suite.json)
        #[arg(long, value_name = "suite.json")]
        suite: PathBuf,
        /// the order: one test id per line
        #[arg(long, value_name = "order.txt")]
        order: PathBuf,
    },
    /// print the orders the rounds of `odrust:detect` run when every round passes (JSON);
    /// defaults: --strategy targeted --seed 0 --rounds 20
    ///
    /// For a systematic strategy, the first R orders of its schedule (k = 2, no cost model);
    /// dependence-aware is refused (its rounds come from a recording: use `orders --accesses`).
    /// targeted plans its first rounds from --accesses (the fields each test read and wrote);
    /// without it, no pair is targeted and its rounds are reverse-passing's.
    DetectPlan {
        /// the suite (the plugin's target/odrust/suite.json)
        #[arg(long, value_name = "suite.json")]
        suite: PathBuf,
        /// the detection strategy (docs/detect.md)
        #[arg(long, value_name = "S", default_value = Strategy::DEFAULT.name())]
        strategy: String,
        /// the seed of the random orders
        #[arg(long, value_name = "N", default_value_t = 0)]
        seed: u64,
        /// how many rounds
        #[arg(long, value_name = "R", default_value_t = 20)]
        rounds: u32,
        /// targeted only: the static fields each test reads and writes,
        /// {"<test id>": {"reads": [fields], "writes": [fields]}} (a test missing there has no
        /// recording and is left to the random rounds)
        #[arg(long, value_name = "accesses.json")]
        accesses: Option<PathBuf>,
    },
    /// the orders of a systematic strategy (tuscan, pairs-all, k-bounded, dependence-aware) for a
    /// suite, with their count, executions, pairs covered and the lower bound (JSON); defaults:
    /// --seed 0 --k 2
    ///
    /// The suite is the plugin's suite.json or {"classes": {"pkg.A": ["pkg.A#t1", ...], ...}}.
    /// dependence-aware needs --accesses: {"<test id>": {"reads": [fields], "writes": [fields]}}
    /// (a test missing there counts as touching every field).
    Orders {
        /// the suite: the plugin's suite.json, or {"classes": {"pkg.A": ["pkg.A#t1", ...]}}
        #[arg(long, value_name = "suite.json")]
        suite: PathBuf,
        /// tuscan, pairs-all, k-bounded or dependence-aware
        #[arg(long, value_name = "S")]
        strategy: String,
        /// the seed of the construction
        #[arg(long, value_name = "N", default_value_t = 0)]
        seed: u64,
        /// tests per order for k-bounded (1, 2 or 3)
        #[arg(long, value_name = "K", default_value_t = 2)]
        k: u32,
        /// dependence-aware only (and required there): the static fields each test reads and
        /// writes, {"<test id>": {"reads": [fields], "writes": [fields]}}
        #[arg(long, value_name = "accesses.json")]
        accesses: Option<PathBuf>,
        /// dependence-aware only: fields to ignore, comma-separated patterns (`p.Log#*,*#COUNT`)
        #[arg(long, value_name = "P1,P2")]
        dependence_free: Option<String>,
    },
    /// the flake rates of a victim (polluters, cleaners) or brittle (state_setters) read from the
    /// file or stdin (JSON, see docs/flake-rate.md); prints the rates and the method used
    Flakerate {
        /// the input JSON: a file, or `-` for stdin
        #[arg(value_name = "input.json | -")]
        input: String,
    },
}

/// What went wrong in `main`.
enum Failure {
    /// Bad usage found after parsing: printed and exited by clap (status 2).
    Usage(clap::Error),
    Engine(EngineError),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure::Engine(e)
    }
}

/// A usage error of `subcommand` found after parsing, formatted by clap like its own.
fn usage(subcommand: &str, kind: ErrorKind, message: impl std::fmt::Display) -> Failure {
    let mut command = Cli::command();
    command.build();
    let error = match command.find_subcommand_mut(subcommand) {
        Some(sub) => sub.error(kind, message),
        None => command.error(kind, message),
    };
    Failure::Usage(error)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(error)) => error.exit(),
        Err(Failure::Engine(error)) => {
            eprintln!("error[{}]: {error}", error.code());
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<String, Failure> {
    match command {
        Command::Version => Ok(format!(
            "odrust-engine {ENGINE_VERSION} (abi {ABI_VERSION})"
        )),
        Command::Call { op, request } => {
            let request = match request {
                None => "{}".to_string(),
                Some(source) => read_source(&source)?,
            };
            Ok(protocol::call(&op, &request)?)
        }
        Command::PlanOrder { suite, order } => plan_order(&suite, &order),
        Command::DetectPlan {
            suite,
            strategy,
            seed,
            rounds,
            accesses,
        } => detect_plan(
            &suite,
            Strategy::parse(&strategy)?,
            seed,
            rounds,
            accesses.as_deref(),
        ),
        Command::Orders {
            suite,
            strategy,
            seed,
            k,
            accesses,
            dependence_free,
        } => {
            let dependence_free: Vec<String> = dependence_free
                .iter()
                .flat_map(|list| list.split(','))
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect();
            orders(
                &suite,
                Strategy::parse(&strategy)?,
                seed,
                k,
                accesses.as_deref(),
                &dependence_free,
            )
        }
        Command::Flakerate { input } => Ok(protocol::call("flake_rate", &read_source(&input)?)?),
        Command::Calls { input } => calls(&read_source(&input)?),
    }
}

/// `calls`: each line's op, its response (compact, one line) or its error; blank lines skipped.
fn calls(input: &str) -> Result<String, Failure> {
    let mut out = Vec::new();
    for (n, line) in input.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let answer = one_call(line).unwrap_or_else(|e| {
            serde_json::json!({"error": {"code": e.code(), "message": format!("line {}: {e}", n + 1)}})
        });
        out.push(answer.to_string());
    }
    Ok(out.join("\n"))
}

fn one_call(line: &str) -> Result<serde_json::Value, EngineError> {
    let bad = |reason: String| EngineError::BadRequest {
        op: "calls".into(),
        reason,
    };
    let call: serde_json::Value =
        serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
    let op = call
        .get("op")
        .and_then(|o| o.as_str())
        .ok_or_else(|| bad("no \"op\" string".into()))?;
    let request = call
        .get("request")
        .cloned()
        .unwrap_or(serde_json::json!({}));
    let response = protocol::call(op, &request.to_string())?;
    serde_json::from_str(&response).map_err(|e| bad(format!("{op} answered what is not JSON: {e}")))
}

/// The text of a file, or of stdin for `-`.
fn read_source(source: &str) -> Result<String, EngineError> {
    if source == "-" {
        read_stdin()
    } else {
        read_file(Path::new(source))
    }
}

fn plan_order(suite: &Path, order: &Path) -> Result<String, Failure> {
    let suite_json = read_file(suite)?;
    let suite: serde_json::Value =
        serde_json::from_str(&suite_json).map_err(|e| EngineError::BadRequest {
            op: "plan_order".into(),
            reason: format!("{} is not JSON: {e}", suite.display()),
        })?;
    let request = serde_json::json!({
        "suite": suite,
        "order_text": read_file(order)?,
        "source": order.display().to_string(),
    });
    Ok(protocol::call("plan_order", &request.to_string())?)
}

fn detect_plan(
    suite: &Path,
    strategy: Strategy,
    seed: u64,
    rounds: u32,
    accesses: Option<&Path>,
) -> Result<String, Failure> {
    if strategy == Strategy::DependenceAware {
        return Err(usage(
            "detect-plan",
            ErrorKind::InvalidValue,
            "dependence-aware plans its rounds from what the baseline recorded: use `orders --strategy dependence-aware --accesses <accesses.json>`",
        ));
    }
    let suite: Suite =
        serde_json::from_str(&read_file(suite)?).map_err(|e| EngineError::BadRequest {
            op: "detect-plan".into(),
            reason: format!("{} is not a suite: {e}", suite.display()),
        })?;
    if let Some(accesses) = accesses {
        if strategy != Strategy::Targeted {
            return Err(usage(
                "detect-plan",
                ErrorKind::ArgumentConflict,
                "--accesses plans the targeted rounds: it goes with --strategy targeted",
            ));
        }
        let record = accesses_record(accesses, "detect-plan")?;
        let plan = targeted::plan(&suite, &[&record], &[], seed, targeted::max_orders(rounds));
        let out = serde_json::json!({
            "strategy": strategy,
            "seed": seed,
            "targeted": plan.info(),
            "rounds": targeted_if_passing(&plan.orders, &suite, seed, rounds),
        });
        return Ok(out.to_string());
    }
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

fn orders(
    suite: &Path,
    strategy: Strategy,
    seed: u64,
    k: u32,
    accesses: Option<&Path>,
    dependence_free: &[String],
) -> Result<String, Failure> {
    if !(1..=3).contains(&k) {
        return Err(Failure::Engine(EngineError::BadConfig {
            setting: "k".into(),
            value: k.to_string(),
            reason: "k-bounded runs k = 1, 2 or 3 tests per order".into(),
        }));
    }
    let suite = read_suite(suite, "orders")?;
    if strategy == Strategy::DependenceAware {
        let Some(accesses) = accesses else {
            return Err(usage(
                "orders",
                ErrorKind::MissingRequiredArgument,
                "dependence-aware needs --accesses <accesses.json>: {\"<test id>\": {\"reads\": [fields], \"writes\": [fields]}}",
            ));
        };
        return dependence_orders(&suite, accesses, dependence_free, seed);
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
    let record = accesses_record(accesses, "orders")?;
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

/// An accesses file (`{"<test id>": {"reads": [...], "writes": [...]}}`) as one recorded
/// baseline record.
fn accesses_record(accesses: &Path, op: &str) -> Result<ExperimentRecord, Failure> {
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
            usage(
                op,
                ErrorKind::InvalidValue,
                format!(
                    "{}: not an accesses file ({e}); expected {{\"<test id>\": {{\"reads\": [...], \"writes\": [...]}}}}",
                    accesses.display()
                ),
            )
        })?;
    Ok(ExperimentRecord {
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
        time: None,
        isolation: Default::default(),
        shareable: false,
    })
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
