//! `odrust-bench`: the *quality* of the systematic schedules over realistic suite shapes (orders
//! and executions against the lower bound, `docs/schedules.md`), which the criterion benchmark
//! (`benches/schedule.rs`, time only) does not measure. Run it with
//! `cargo run --release --example odrust-bench [-- seeds|big|NAME]`: no argument prints the
//! table; `seeds` 60 skewed suites of 3,000 to 9,000 tests; `big` builds only the 5,000-test
//! tuscan schedules (for `/usr/bin/time -v target/release/examples/odrust-bench big`); `NAME`
//! only the shapes whose name contains `NAME`. "engine ms" is the wall time of building the
//! tuscan schedule, "cpu ms" the CPU time of this thread meanwhile (Linux
//! `/proc/thread-self/schedstat`; `-` elsewhere), which a loaded machine does not inflate.

use std::time::Instant;

use odrust_engine::model::strategy::Strategy;
use odrust_engine::schedule::{lower_bound, Schedule};

#[path = "../benches/shapes/mod.rs"]
mod shapes;
use shapes::{skewed, suite};

/// CPU time of the calling thread in nanoseconds (Linux only).
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `odrust-bench seeds`: 60 skewed suites of 3,000 to 9,000 tests (300, 480 and 800 classes, 20
/// size seeds each), to see how the construction holds up beyond the one shape of the table.
fn seeds() {
    println!("| classes | size seed | tests | orders x bound | executions x bound | cpu ms |");
    println!("|---|---|---|---|---|---|");
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    for (classes, seed) in [300usize, 480, 800]
        .into_iter()
        .flat_map(|c| (1..=20u64).map(move |s| (c, 2 * s + 1)))
    {
        let sizes = skewed(classes, seed);
        let suite = suite(&sizes);
        let cpu = cpu_ns();
        let schedule = Schedule::new(Strategy::Tuscan, &suite, 42, 2, None).unwrap();
        let cpu = match (cpu, cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 / 1e6,
            _ => f64::NAN,
        };
        let bound = lower_bound(&sizes);
        let orders = schedule.len() as f64 / bound.orders as f64;
        let executions = schedule.executions() as f64 / bound.executions as f64;
        worst = (
            worst.0.max(orders),
            worst.1.max(executions),
            worst.2.max(cpu),
        );
        let n: usize = sizes.iter().sum();
        println!("| {classes} | {seed} | {n} | {orders:.4} | {executions:.4} | {cpu:.0} |");
    }
    println!(
        "| worst | | | {:.4} | {:.4} | {:.0} |",
        worst.0, worst.1, worst.2
    );
}

fn main() {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("seeds") {
        return seeds();
    }
    let big_only = arg.as_deref() == Some("big");
    let only = arg.filter(|a| a != "big");
    println!("| suite | tests | tuscan orders | bound | x bound | tuscan executions | bound | x bound | pairs-all orders | pairs-all executions | engine ms | cpu ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, sizes) in shapes::table(big_only) {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let suite = suite(&sizes);
        let (start, cpu) = (Instant::now(), cpu_ns());
        let schedule = Schedule::new(Strategy::Tuscan, &suite, 42, 2, None).unwrap();
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let cpu = match (cpu, cpu_ns()) {
            (Some(a), Some(b)) => format!("{:.0}", (b - a) as f64 / 1e6),
            _ => "-".to_string(),
        };
        let pairs = Schedule::new(Strategy::PairsAll, &suite, 42, 2, None).unwrap();
        let bound = lower_bound(&sizes);
        let n: usize = sizes.iter().sum();
        println!(
            "| {name} | {n} | {} | {} | {:.3} | {} | {} | {:.3} | {} | {} | {ms:.0} | {cpu} |",
            schedule.len(),
            bound.orders,
            schedule.len() as f64 / bound.orders as f64,
            schedule.executions(),
            bound.executions,
            schedule.executions() as f64 / bound.executions as f64,
            pairs.len(),
            pairs.executions(),
        );
    }
}
