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
//!
//! The second table adds what the baseline's recording (`targeted`, `dependence-aware`) gives the
//! planner: the victim reads a static field its polluters and cleaners write, and so do `n`
//! other tests that neither pollute nor clean it; a third of the module writes a logger field
//! everyone reads. The hints are built by the real `DependenceMap` and tried as the planner does
//! (`detect::minimize`): up to 4 culprits of the prefix, then each verified polluter's
//! rewriters.
//!
//! The third table puts the victim's polluters in its own class (classes of 10 tests, the
//! victim last of the module, its failing prefix half the module then its class): the
//! experiments and test runs of the search for polluters when the planner knows the classes
//! (its class is run as one group first) against when it does not (group testing over the
//! prefix, then the rest, as before the class run). Cleaner searches are not counted (a
//! same-class polluter's cleaners come from its class only when classes are known).
//!
//! The fourth table gives the tests run times (most a few milliseconds, twelve of them, in three
//! classes, seconds: a module's time is often most in a few of its tests) and compares group
//! testing that cuts each set in the middle with cuts by cost (`odrust.costAware`): the time of
//! every run the explanation asks (its tests' times plus a fixed cost per run), and that the
//! explanation is the same.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use odrust_engine::explain::group::Cut;
use odrust_engine::explain::minimize::{explain, Explanation, Hints, Subject};
use odrust_engine::model::experiment::{Experiment, ExperimentKind, ExperimentRecord, TestResult};
use odrust_engine::model::kind::OdRole;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::seed::Xorshift;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};
use odrust_engine::schedule::dependence::DependenceMap;

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
        let (group, linear, explanation) = cost(m, p, c, (m * 7 + p * 3 + c) as u64, None);
        assert_eq!(explanation.culprits.len(), p, "every polluter found");
        println!(
            "| {m} | {p} | {c} | {group} | {linear} | {:.3} |",
            group as f64 / linear as f64
        );
    }
    println!();
    println!(
        "| tests m | polluters p | cleaners per polluter c | other writers n | group testing | with the recording | ratio |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (m, p, c, n) in [
        (100, 1, 1, 3),
        (400, 1, 1, 3),
        (400, 1, 10, 3),
        (800, 2, 10, 3),
        (800, 2, 10, 30),
        (800, 2, 10, 300),
        (1_000, 3, 2, 3),
        (3_000, 2, 2, 3),
    ] {
        let seed = (m * 7 + p * 3 + c) as u64;
        let (group, _, plain) = cost(m, p, c, seed, None);
        let (recorded, _, hinted) = cost(m, p, c, seed, Some(n));
        // The hints change the order of the questions only.
        assert_eq!(hinted, plain, "the same explanation");
        println!(
            "| {m} | {p} | {c} | {n} | {group} | {recorded} | {:.3} |",
            recorded as f64 / group as f64
        );
    }
    println!();
    println!(
        "| tests m | polluters p in its class | experiments, classes unknown | with its class first | tests run, classes unknown | with its class first |"
    );
    println!("|---|---|---|---|---|---|");
    for (m, p) in [(100, 1), (400, 1), (400, 2), (1_000, 1), (1_000, 3)] {
        let seed = (m * 7 + p * 3) as u64;
        let (plain_runs, plain_tests, plain) = class_cost(m, p, seed, false);
        let (runs, tests, by_class) = class_cost(m, p, seed, true);
        assert_eq!(by_class.culprits, plain.culprits, "the same polluters");
        assert_eq!(by_class.culprits.len(), p, "every polluter found");
        println!("| {m} | {p} | {plain_runs} | {runs} | {plain_tests} | {tests} |");
    }
    println!();
    println!(
        "| tests m | polluters p | cleaners per polluter c | experiments, cut in halves | cut by cost | time, cut in halves | cut by cost | ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (m, p, c) in [
        (400, 1, 1),
        (1_000, 1, 0),
        (1_000, 1, 1),
        (1_000, 2, 1),
        (1_000, 3, 2),
        (3_000, 2, 2),
    ] {
        let seed = (m * 7 + p * 3 + c) as u64;
        let times = slow_classes(m, seed);
        let ms = |u: &String| times[u];
        let by_cost = Cut::Cost {
            ms: &ms,
            run_ms: RUN_MS,
        };
        let time = |orders: &[Vec<String>]| -> u64 {
            orders
                .iter()
                .map(|o| RUN_MS + o.iter().map(|u| times[u]).sum::<u64>())
                .sum()
        };
        let (halves, _, plain, plain_orders) = drive(m, p, c, seed, None, Cut::Halves);
        let (runs, _, cut, cut_orders) = drive(m, p, c, seed, None, by_cost);
        assert_eq!(cut, plain, "the same explanation");
        let (before, after) = (time(&plain_orders), time(&cut_orders));
        println!(
            "| {m} | {p} | {c} | {halves} | {runs} | {:.0} s | {:.0} s | {:.2} |",
            before as f64 / 1000.0,
            after as f64 / 1000.0,
            after as f64 / before as f64
        );
    }
}

/// What a run costs beyond its tests in the fourth table, in milliseconds.
const RUN_MS: u64 = 500;

/// Run times of the tests of a module of `m` tests in classes of 10 (the names [`drive`]
/// gives): 1 to 10 ms each, but in three classes (placed by `seed`) four tests take 1 to 6 s,
/// so that about four fifths of the module's time is in 12 of its tests.
fn slow_classes(m: usize, seed: u64) -> HashMap<String, u64> {
    let mut x = Xorshift::new(seed ^ 0x5eed);
    let mut times: HashMap<String, u64> = (0..m)
        .map(|i| (format!("p.C{}#t{}", i / 10, i % 10), 1 + x.next_u64() % 10))
        .collect();
    for _ in 0..3 {
        let class = x.next_u64() % (m as u64 / 10);
        for t in 0..4 {
            times.insert(format!("p.C{class}#t{t}"), 1_000 + x.next_u64() % 5_000);
        }
    }
    times
}

/// The search for polluters of a victim (the module's last test) whose `p` polluters are in its
/// own class of 10 tests: (experiments, tests they ran, the explanation), with the classes known
/// to the planner (`by_class`) or not. No cleaners.
fn class_cost(m: usize, p: usize, seed: u64, by_class: bool) -> (usize, usize, Explanation) {
    let units: Vec<String> = (0..m)
        .map(|i| format!("p.C{}#t{}", i / 10, i % 10))
        .collect();
    let victim = units[m - 1].clone();
    let class_of = |t: &str| t.split('#').next().unwrap_or_default().to_string();
    let mut x = Xorshift::new(seed);
    let mut polluters: Vec<String> = Vec::new();
    while polluters.len() < p {
        let t = units[m - 10 + (x.next_u64() % 9) as usize].clone();
        if !polluters.contains(&t) {
            polluters.push(t);
        }
    }
    // The failing order: half the module, then the victim's class (JUnit runs it as a block).
    let prefix: Vec<String> = units[..m / 2]
        .iter()
        .chain(&units[m - 10..m - 1])
        .cloned()
        .collect();
    let fails = |order: &[String]| {
        let at = order.iter().position(|t| *t == victim)?;
        Some(!order[..at].iter().any(|t| polluters.contains(t)))
    };
    let ran: RefCell<HashMap<Vec<String>, Option<bool>>> = RefCell::new(HashMap::new());
    let mut culprit_runs: Vec<usize> = Vec::new();
    let subject = Subject {
        test: &victim,
        unit: &victim,
        role: OdRole::Victim,
        prefix: &prefix,
    };
    let explanation = loop {
        let (explanation, next) = explain(
            subject,
            &units,
            &Hints::default(),
            &|order| ran.borrow().get(order).copied(),
            &|a, b| by_class && class_of(a) == class_of(b),
            Cut::Halves,
        );
        let Some(query) = next else {
            break explanation;
        };
        if query.kind != ExperimentKind::Cleaner {
            culprit_runs.push(query.order.len());
        }
        let verdict = fails(&query.order);
        ran.borrow_mut().insert(query.order, verdict);
    };
    (culprit_runs.len(), culprit_runs.iter().sum(), explanation)
}

/// Experiments to explain one victim: (group testing, linear search), and the explanation; with
/// `writers` = `Some(n)`, group testing with the hints a recording gives when `n` other tests
/// write the victim's field.
fn cost(
    m: usize,
    p: usize,
    c: usize,
    seed: u64,
    writers: Option<usize>,
) -> (usize, usize, Explanation) {
    let (group, linear, explanation, _) = drive(m, p, c, seed, writers, Cut::Halves);
    (group, linear, explanation)
}

/// [`cost`] with group testing cutting sets as `cut` says; also every order run.
fn drive(
    m: usize,
    p: usize,
    c: usize,
    seed: u64,
    writers: Option<usize>,
    cut: Cut<'_, String>,
) -> (usize, usize, Explanation, Vec<Vec<String>>) {
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
    let recording = writers.map(|n| {
        let noise: Vec<String> = (0..n).map(|_| pick(&mut taken)).collect();
        Recording::of(&units, &victim, &polluters, &noise)
    });
    let mut orders: Vec<Vec<String>> = Vec::new();
    let explanation = loop {
        let hints = recording
            .as_ref()
            .map(|r| r.hints(&prefix, &ran.borrow()))
            .unwrap_or_default();
        let (explanation, next) = explain(
            subject,
            &units,
            &hints,
            &|order| ran.borrow().get(order).copied(),
            &|_, _| false,
            cut,
        );
        let Some(query) = next else {
            break explanation;
        };
        let verdict = fails(&query.order);
        orders.push(query.order.clone());
        ran.borrow_mut().insert(query.order, verdict);
    };
    let ddmin = 2 * (usize::BITS - (prefix.len() - 1).leading_zeros()) as usize;
    let linear = ddmin + prefix.len() + p * (m - 1 - p);
    let group = ran.borrow().len();
    (group, linear, explanation, orders)
}

/// The baseline's recording of a simulated module, and the hints the planner takes from it.
struct Recording {
    units: Vec<String>,
    victim: u32,
    map: DependenceMap,
}

impl Recording {
    /// The victim reads `S#F` and the logger; polluters, cleaners and `noise` write `F`; every
    /// third test writes the logger (a call on it, as the agent counts a mutable object's read).
    fn of(
        units: &[String],
        victim: &str,
        polluters: &[(String, Vec<String>)],
        noise: &[String],
    ) -> Recording {
        let writes_f = |t: &String| {
            noise.contains(t) || polluters.iter().any(|(p, cl)| p == t || cl.contains(t))
        };
        let results: Vec<TestResult> = units
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut writes: Vec<String> = Vec::new();
                if writes_f(t) {
                    writes.push("p.S#F".into());
                }
                if i % 3 == 0 {
                    writes.push("p.Log#L".into());
                }
                let reads = if t == victim {
                    vec!["p.S#F".into(), "p.Log#L".into()]
                } else {
                    vec!["p.Log#L".into()]
                };
                TestResult {
                    reads: Some(reads),
                    writes: Some(writes),
                    ..TestResult::new(t.clone(), RunOutcome::Pass)
                }
            })
            .collect();
        let baseline = Experiment {
            id: 1,
            kind: ExperimentKind::Baseline,
            round: None,
            strategy: None,
            order: units.to_vec(),
            targets: Vec::new(),
            shareable: false,
        };
        let record = ExperimentRecord::of(&baseline, results);
        let mut classes: Vec<ClassRecord> = Vec::new();
        for t in units {
            let class = t.split('#').next().unwrap_or_default();
            if classes.last().map(|c| c.class.as_str()) != Some(class) {
                classes.push(ClassRecord {
                    class: class.into(),
                    framework: Framework::Junit4,
                    reorderable: true,
                    tests: Vec::new(),
                    dynamic: Vec::new(),
                });
            }
            if let Some(c) = classes.last_mut() {
                c.tests.push(t.clone());
            }
        }
        let suite = Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes,
        };
        let map = DependenceMap::from_records(&suite, units, &[&record], &[]);
        let victim = units.iter().position(|u| u == victim).unwrap_or_default() as u32;
        Recording {
            units: units.to_vec(),
            victim,
            map,
        }
    }

    /// The hints `detect::minimize` gives the victim, chosen by the same functions: the
    /// writers of what it reads in the prefix, then, per polluter its pair verified, its
    /// rewriters.
    fn hints(&self, prefix: &[String], ran: &HashMap<Vec<String>, Option<bool>>) -> Hints {
        let index = |t: &String| self.units.iter().position(|u| u == t).map(|i| i as u32);
        let name = |u: u32| self.units[u as usize].clone();
        let victim = name(self.victim);
        let prefix: HashSet<u32> = prefix.iter().filter_map(index).collect();
        let mut hints = Hints {
            recorded_culprits: self
                .map
                .culprit_candidates(self.victim, &prefix)
                .into_iter()
                .map(name)
                .collect(),
            ..Hints::default()
        };
        for (order, verdict) in ran {
            if let ([p, v], Some(false)) = (order.as_slice(), verdict) {
                if *v == victim {
                    let Some(at) = index(p) else { continue };
                    let list = self.map.cleaner_candidates(at, self.victim);
                    hints
                        .recorded_cleaners
                        .insert(p.clone(), list.into_iter().map(name).collect());
                }
            }
        }
        hints
    }
}
