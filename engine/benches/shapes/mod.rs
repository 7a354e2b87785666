//! Suite shapes for the schedule benchmarks: `benches/schedule.rs` (criterion, time) and
//! `examples/odrust-bench.rs` (orders and executions against the lower bound) measure the same
//! shapes. Included by both with `mod shapes;` / `#[path]`; not a bench target of its own
//! (`benches/shapes/mod.rs`, not `benches/shapes.rs`).

use odrust_engine::model::seed::Xorshift;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};

/// A suite of reorderable JUnit 4 classes `p.C0`, `p.C1`, ... with `sizes[c]` tests each.
pub fn suite(sizes: &[usize]) -> Suite {
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

/// Class sizes skewed like real modules: many small classes, a few large (1 to 40 tests, cubed
/// uniform; seeded xorshift).
pub fn skewed(classes: usize, seed: u64) -> Vec<usize> {
    let mut x = Xorshift::new(seed);
    (0..classes)
        .map(|_| {
            let u = (x.next_u64() % 1000) as f64 / 1000.0;
            1 + (u * u * u * 40.0) as usize
        })
        .collect()
}

/// The shapes of the table in docs/schedules.md, the four 5,000-test ones first: one class,
/// equal classes, one test per class, skewed classes (bins), then smaller ones (the greedy);
/// with `big_only` just the four 5,000-test ones (`odrust-bench big`).
pub fn table(big_only: bool) -> Vec<(String, Vec<usize>)> {
    let mut shapes = vec![
        ("1 class x 5000".to_string(), vec![5000]),
        ("500 classes x 10".to_string(), vec![10; 500]),
        ("5000 classes x 1".to_string(), vec![1; 5000]),
        ("480 skewed classes".to_string(), skewed(480, 13)),
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
        // Few classes of uneven sizes (modules of 2 to 8 test classes).
        ("2 classes 161+2".to_string(), vec![161, 2]),
        ("2 classes 100+63".to_string(), vec![100, 63]),
        ("3 classes 80+30+5".to_string(), vec![80, 30, 5]),
        ("4 classes 60+30+10+3".to_string(), vec![60, 30, 10, 3]),
        ("4 classes 40+20+20+2".to_string(), vec![40, 20, 20, 2]),
        ("3 classes 30+20+20".to_string(), vec![30, 20, 20]),
        (
            "5 classes 50+20+20+10+5".to_string(),
            vec![50, 20, 20, 10, 5],
        ),
        ("4 classes 30+10+10+10".to_string(), vec![30, 10, 10, 10]),
        (
            "6 classes 30+12+12+12+4+1".to_string(),
            vec![30, 12, 12, 12, 4, 1],
        ),
        (
            "7 classes 24+16+8+8+4+2+1".to_string(),
            vec![24, 16, 8, 8, 4, 2, 1],
        ),
        (
            "8 classes 60+25+20+15+10+5+3+1".to_string(),
            vec![60, 25, 20, 15, 10, 5, 3, 1],
        ),
        (
            "8 classes 12+8+5+3+2+1+1+1".to_string(),
            vec![12, 8, 5, 3, 2, 1, 1, 1],
        ),
    ];
    if big_only {
        shapes.truncate(4);
    }
    shapes
}
