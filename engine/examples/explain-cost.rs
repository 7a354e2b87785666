//! What explaining one victim costs, in experiments, with group testing and with the linear
//! search it replaced, on simulated modules (`docs/minimize-algorithm.md`, "Cost").
//!
//! `cargo run --release --example explain-cost`
//!
//! Each row: a module of `m` tests, one victim with `p` single polluters, each with `c` cleaners,
//! placed by a seeded generator; the victim's failing prefix is half the module (in the original
//! order), holding the first polluter. Group testing is driven to completion through
//! `explain::minimize::explain`, the function the planner calls; linear is what the previous
//! procedure ran: a pair `[t, v]` per test of the prefix (plus its delta debugging) and a triple
//! `[p, c, v]` per other test and single polluter. Counts are deterministic.

use std::cell::RefCell;
use std::collections::HashMap;

use odrust_engine::explain::minimize::{explain, Hints, Subject};
use odrust_engine::model::kind::OdRole;
use odrust_engine::model::seed::Xorshift;

fn main() {
    println!(
        "| tests m | polluters p | cleaners per polluter c | group testing | linear | ratio |"
    );
    println!("|---|---|---|---|---|---|");
    for (m, p, c) in [
        (100, 1, 0),
        (100, 1, 1),
        (400, 1, 1),
        (1_000, 1, 0),
        (1_000, 1, 1),
        (1_000, 2, 1),
        (1_000, 3, 2),
        (3_000, 1, 1),
        (3_000, 2, 2),
    ] {
        let (group, linear) = cost(m, p, c, (m * 7 + p * 3 + c) as u64);
        println!(
            "| {m} | {p} | {c} | {group} | {linear} | {:.3} |",
            group as f64 / linear as f64
        );
    }
}

/// Experiments to explain one victim: (group testing, linear search).
fn cost(m: usize, p: usize, c: usize, seed: u64) -> (usize, usize) {
    let units: Vec<String> = (0..m)
        .map(|i| format!("p.C{}#t{}", i / 10, i % 10))
        .collect();
    let victim = units[m - 1].clone();
    let mut x = Xorshift::new(seed);
    let mut pick = |taken: &mut Vec<String>| loop {
        let t = units[(x.next_u64() % (m as u64 - 1)) as usize].clone();
        if !taken.contains(&t) {
            taken.push(t.clone());
            return t;
        }
    };
    let mut taken = vec![victim.clone()];
    let mut polluters: Vec<(String, Vec<String>)> = Vec::new();
    for _ in 0..p {
        let polluter = pick(&mut taken);
        let cleaners = (0..c).map(|_| pick(&mut taken)).collect();
        polluters.push((polluter, cleaners));
    }
    // The failing order: half the module, ending with the first polluter, then the victim.
    let mut prefix: Vec<String> = units[..m - 1]
        .iter()
        .filter(|u| !polluters.iter().any(|(p, cl)| p == *u || cl.contains(u)))
        .take(m / 2)
        .cloned()
        .collect();
    prefix.push(polluters[0].0.clone());
    let fails = |order: &[String]| {
        let mut dirty: Option<&str> = None;
        for t in order {
            if *t == victim {
                return Some(dirty.is_none());
            }
            if let Some((q, _)) = polluters.iter().find(|(q, _)| q == t) {
                dirty = Some(q);
            } else if let Some(d) = dirty {
                if polluters.iter().any(|(q, cl)| q == d && cl.contains(t)) {
                    dirty = None;
                }
            }
        }
        None
    };
    let ran: RefCell<HashMap<Vec<String>, Option<bool>>> = RefCell::new(HashMap::new());
    let subject = Subject {
        test: &victim,
        unit: &victim,
        role: OdRole::Victim,
        prefix: &prefix,
    };
    loop {
        let (explanation, next) = explain(
            subject,
            &units,
            &Hints::default(),
            &|order| ran.borrow().get(order).copied(),
            &|_, _| false,
        );
        let Some(query) = next else {
            assert_eq!(explanation.culprits.len(), p, "every polluter found");
            break;
        };
        let verdict = fails(&query.order);
        ran.borrow_mut().insert(query.order, verdict);
    }
    let ddmin = 2 * (usize::BITS - (prefix.len() - 1).leading_zeros()) as usize;
    let linear = ddmin + prefix.len() + p * (m - 1 - p);
    let group = ran.borrow().len();
    (group, linear)
}
