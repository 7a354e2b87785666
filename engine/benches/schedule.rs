//! Time to build the systematic schedules (criterion): `cargo bench -p odrust-engine --bench
//! schedule [-- FILTER]`. The shapes are those of the table in docs/schedules.md
//! (`shapes::table`): one class, equal classes, one test per class, skewed classes. How close
//! the schedules are to the lower bound is measured by `examples/odrust-bench.rs`, not here.
//!
//! `tuscan` builds its orders up front (squares, the equal-size construction, bins or the
//! greedy), so it is measured for every shape; `pairs-all` and `k-bounded` compute their orders
//! on demand, so building them is measured once, for one 5,000-test shape.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use odrust_engine::model::strategy::Strategy;
use odrust_engine::schedule::Schedule;

mod shapes;

fn tuscan(c: &mut Criterion) {
    let mut group = c.benchmark_group("tuscan");
    // Builds take from microseconds to a quarter of a second: criterion's minimum of 10 samples
    // keeps a run of the whole group around a minute on a 2-core machine.
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (name, sizes) in shapes::table(false) {
        let suite = shapes::suite(&sizes);
        group.bench_with_input(BenchmarkId::from_parameter(&name), &suite, |b, suite| {
            b.iter(|| Schedule::new(Strategy::Tuscan, black_box(suite), 42, 2, None).unwrap())
        });
    }
    group.finish();
}

fn on_demand(c: &mut Criterion) {
    let mut group = c.benchmark_group("on-demand");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    let suite = shapes::suite(&[10; 500]);
    for strategy in [Strategy::PairsAll, Strategy::KBounded] {
        group.bench_with_input(
            BenchmarkId::new(strategy.name(), "500 classes x 10"),
            &suite,
            |b, suite| b.iter(|| Schedule::new(strategy, black_box(suite), 42, 2, None).unwrap()),
        );
    }
    group.finish();
}

criterion_group!(benches, tuscan, on_demand);
criterion_main!(benches);
