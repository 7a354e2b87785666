//! `odrust-bench`: systematic schedules over realistic suite shapes, against the lower bound
//! (`docs/schedules.md`). `odrust-bench` prints the table; `odrust-bench seeds` 60 skewed
//! suites of 3,000 to 9,000 tests; `odrust-bench big` builds only the
//! 5,000-test tuscan schedules (for `/usr/bin/time -v`); `odrust-bench NAME` only the shapes whose
//! name contains `NAME`. "engine ms" is the wall time of building the tuscan schedule, "cpu ms"
//! the CPU time of this thread meanwhile (Linux `/proc/thread-self/schedstat`; `-` elsewhere),
//! which a loaded machine does not inflate.

use std::time::Instant;

use odrust_engine::model::seed::Xorshift;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};
use odrust_engine::schedule::{lower_bound, Schedule};

/// CPU time of the calling thread in nanoseconds (Linux only).
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn suite(sizes: &[usize]) -> Suite {
    Suite {
        schema_version: 1,
        module: "bench".into(),
        classes: sizes
            .iter()
            .enumerate()
            .map(|(c, &n)| ClassRecord {
                class: format!("p.C{c}"),
                framework: Framework::Junit4,
                reorderable: true,
                tests: (0..n).map(|t| format!("p.C{c}#t{t}")).collect(),
                dynamic: Vec::new(),
            })
            .collect(),
    }
}

/// Class sizes skewed like real modules: many small classes, a few large (seeded, xorshift).
fn skewed(classes: usize, seed: u64) -> Vec<usize> {
    let mut x = Xorshift::new(seed);
    (0..classes)
        .map(|_| {
            let u = (x.next_u64() % 1000) as f64 / 1000.0;
            1 + (u * u * u * 40.0) as usize
        })
        .collect()
}

fn shapes(big_only: bool) -> Vec<(String, Vec<usize>)> {
    let mut shapes = vec![
        ("1 class x 5000".to_string(), vec![5000]),
        ("500 classes x 10".to_string(), vec![10; 500]),
        ("5000 classes x 1".to_string(), vec![1; 5000]),
        ("480 skewed classes".to_string(), skewed(480, 13)),
    ];
    if big_only {
        return shapes;
    }
    shapes.extend([
        ("1 class x 60".to_string(), vec![60]),
        ("1 class x 61".to_string(), vec![61]),
        ("20 classes x 10".to_string(), vec![10; 20]),
        ("50 skewed classes".to_string(), skewed(50, 7)),
        ("150 skewed classes".to_string(), skewed(150, 11)),
        ("1 big + 30 small".to_string(), {
            let mut s = vec![100];
            s.extend([3; 30]);
            s
        }),
    ]);
    shapes
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
    for (name, sizes) in shapes(big_only) {
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
