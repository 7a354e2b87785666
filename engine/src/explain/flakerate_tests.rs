//! Tests of the flake-rate formulas against exact enumeration and sampling.

use super::*;
use rand::Rng;

fn model(
    role: OdRole,
    culprits: &[&[&str]],
    cleaners: &[(&str, &[&str])],
    classes: &[(&str, &str)],
) -> OdModel {
    OdModel {
        test: "v".into(),
        role,
        culprits: culprits
            .iter()
            .map(|g| g.iter().map(|t| t.to_string()).collect())
            .collect(),
        cleaners: cleaners
            .iter()
            .map(|(p, cs)| (p.to_string(), cs.iter().map(|c| c.to_string()).collect()))
            .collect(),
        classes: classes
            .iter()
            .map(|(t, c)| (t.to_string(), c.to_string()))
            .collect(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn special_case_1_is_pi_over_pi_plus_gamma_plus_1() {
    // Two polluters, three shared cleaners, one class.
    let cs: &[&str] = &["c1", "c2", "c3"];
    let m = model(
        OdRole::Victim,
        &[&["p1"], &["p2"]],
        &[("p1", cs), ("p2", cs)],
        &[
            ("v", "C"),
            ("p1", "C"),
            ("p2", "C"),
            ("c1", "C"),
            ("c2", "C"),
            ("c3", "C"),
        ],
    );
    let rate = flake_rate(&m, 0).unwrap();
    assert_eq!(rate.method, Method::Formula);
    assert_eq!(rate.case.as_deref(), Some("special-case-1"));
    assert!(close(rate.all_orders, 2.0 / 6.0));
    assert!(close(rate.class_compatible, 2.0 / 6.0));
    assert!(close(rate.reverse_of_passing.unwrap(), 2.0 / 5.0));
    let exact = Relevant::of(&m).exact();
    assert!(close(exact.all_orders, rate.all_orders));
    assert!(close(exact.reverse_of_passing.unwrap(), 2.0 / 5.0));
}

/// A random small victim or brittle: tests `t1..`, random classes among a few.
fn random_model(rng: &mut StdRng, shared_cleaners: bool, singles: bool) -> OdModel {
    let role = if rng.gen_bool(0.75) {
        OdRole::Victim
    } else {
        OdRole::Brittle
    };
    let n = rng.gen_range(2..=7usize);
    let ids: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let mut rest: Vec<String> = ids[1..].to_vec();
    rest.shuffle(rng);
    let culprit_count = rng.gen_range(1..=rest.len());
    let mut culprits: Vec<Vec<String>> = Vec::new();
    let mut taken = 0;
    while taken < culprit_count {
        let size = if singles { 1 } else { rng.gen_range(1..=2) };
        let size = size.min(culprit_count - taken);
        culprits.push(rest[taken..taken + size].to_vec());
        taken += size;
    }
    let others = &rest[culprit_count..];
    let mut cleaners = BTreeMap::new();
    if role == OdRole::Victim {
        let shared: Vec<String> = others
            .iter()
            .filter(|_| rng.gen_bool(0.7))
            .cloned()
            .collect();
        for g in culprits.iter().filter(|g| g.len() == 1) {
            let cs: Vec<String> = if shared_cleaners {
                shared.clone()
            } else {
                // Cleaners chosen per polluter, possibly other polluters.
                rest.iter()
                    .filter(|c| **c != g[0] && rng.gen_bool(0.4))
                    .cloned()
                    .collect()
            };
            if !cs.is_empty() || rng.gen_bool(0.5) {
                cleaners.insert(g[0].clone(), cs);
            }
        }
    }
    let class_count = rng.gen_range(1..=4);
    let classes = ids
        .iter()
        .map(|t| (t.clone(), format!("C{}", rng.gen_range(0..class_count))))
        .collect();
    let mut m = OdModel {
        test: ids[0].clone(),
        role,
        culprits,
        cleaners,
        classes,
    };
    if m.role == OdRole::Victim && shared_cleaners {
        // A1 needs the same list on every polluter, present or not.
        let shared = m.cleaners.values().next().cloned().unwrap_or_default();
        for g in &m.culprits {
            m.cleaners.insert(g[0].clone(), shared.clone());
        }
    }
    m
}

#[test]
fn closed_forms_agree_with_exact_enumeration_on_random_small_suites() {
    let mut rng = StdRng::seed_from_u64(2021);
    let mut cases = [0usize; 3];
    for case in 0..600 {
        let m = random_model(&mut rng, true, true);
        let relevant = Relevant::of(&m);
        let Some(formula) = relevant.formula() else {
            panic!("case {case}: the formula should apply to {m:?}");
        };
        match formula.case.as_deref() {
            Some("special-case-1") => cases[0] += 1,
            Some("special-case-2") => cases[1] += 1,
            _ => cases[2] += 1,
        }
        let exact = relevant.exact();
        assert!(
            close(formula.all_orders, exact.all_orders),
            "case {case}: {m:?}\n{formula:?}\n{exact:?}"
        );
        assert!(
            close(formula.class_compatible, exact.class_compatible),
            "case {case}: {m:?}\n{formula:?}\n{exact:?}"
        );
        match (formula.reverse_of_passing, exact.reverse_of_passing) {
            (Some(a), Some(b)) => assert!(close(a, b), "case {case}: {m:?} {a} {b}"),
            (a, b) => assert_eq!(a, b, "case {case}: {m:?}"),
        }
    }
    assert!(cases.iter().all(|c| *c > 50), "{cases:?}");
}

#[test]
fn groups_and_per_polluter_cleaners_are_counted_exactly() {
    // p1 and p2 only together; p3 alone with cleaner c (which p1+p2 does not care about).
    let m = model(
        OdRole::Victim,
        &[&["p1", "p2"], &["p3"]],
        &[("p3", &["c"])],
        &[],
    );
    let rate = flake_rate(&m, 0).unwrap();
    assert_eq!(rate.method, Method::Exact);
    // Count by hand over the 5! orders of v, p1, p2, p3, c.
    let mut fails = 0;
    let mut perm = vec![0, 1, 2, 3, 4];
    heap_permutations(&mut perm, &mut |p: &[usize]| {
        let at = |t: usize| p.iter().position(|x| *x == t).unwrap();
        let group = at(1) < at(0) && at(2) < at(0);
        let single = at(3) < at(0) && !(at(3) < at(4) && at(4) < at(0));
        fails += usize::from(group || single);
    });
    assert!(close(rate.all_orders, fails as f64 / 120.0));
}

#[test]
fn sampling_agrees_with_exact_counts_within_its_interval() {
    let mut rng = StdRng::seed_from_u64(99);
    let (mut inside, mut total) = (0, 0);
    for _ in 0..12 {
        let m = random_model(&mut rng, false, false);
        let relevant = Relevant::of(&m);
        let exact = relevant.exact();
        let sampled = relevant.sampled(rng.gen());
        let ci = sampled.ci95.clone().unwrap();
        let mut check = |value: f64, interval: [f64; 2], estimate: f64| {
            total += 1;
            assert!(interval[0] <= estimate && estimate <= interval[1]);
            assert!((value - estimate).abs() < 0.02, "{value} {estimate}");
            if interval[0] - 1e-12 <= value && value <= interval[1] + 1e-12 {
                inside += 1;
            }
        };
        check(exact.all_orders, ci.all_orders, sampled.all_orders);
        check(
            exact.class_compatible,
            ci.class_compatible,
            sampled.class_compatible,
        );
        if let (Some(e), Some(s), Some(i)) = (
            exact.reverse_of_passing,
            sampled.reverse_of_passing,
            ci.reverse_of_passing,
        ) {
            check(e, i, s);
        }
    }
    // 95% intervals: allow one miss in the lot.
    assert!(inside + 1 >= total, "{inside} of {total}");
}

#[test]
fn large_models_are_sampled_reproducibly() {
    let cleaners: Vec<String> = (0..12).map(|i| format!("p.C{}#c{i}", i % 3)).collect();
    let cs: Vec<&str> = cleaners.iter().map(String::as_str).collect();
    let mut m = model(
        OdRole::Victim,
        &[&["p.P#p"], &["p.Q#q", "p.R#r"]],
        &[("p.P#p", &cs)],
        &[],
    );
    m.test = "p.V#v".into();
    let a = flake_rate(&m, 5).unwrap();
    assert_eq!(a.method, Method::Sampled);
    assert_eq!(a.samples, Some(SAMPLES));
    assert_eq!(flake_rate(&m, 5).unwrap(), a);
    assert_ne!(flake_rate(&m, 6).unwrap(), a);
}

#[test]
fn brittle_formula() {
    let m = model(
        OdRole::Brittle,
        &[&["p.S#s"], &["p.T#t"]],
        &[],
        &[("v", "p.B")],
    );
    let rate = flake_rate(&m, 0).unwrap();
    assert_eq!(rate.case.as_deref(), Some("state-setters"));
    assert!(close(rate.all_orders, 1.0 / 3.0));
    // Three classes, the brittle alone in its own: it fails iff its class is first.
    assert!(close(rate.class_compatible, 1.0 / 3.0));
    assert!(close(rate.reverse_of_passing.unwrap(), 0.5));
}

#[test]
fn no_polluter_means_no_rate_and_requests_are_validated() {
    assert!(flake_rate(&model(OdRole::Victim, &[], &[], &[]), 0).is_none());
    let request: FlakeRateRequest = serde_json::from_value(serde_json::json!({
        "victim": "p.V#v", "polluters": [["p.P#p"]], "cleaners": {"p.X#x": ["p.C#c"]}
    }))
    .unwrap();
    let e = answer(&request).unwrap_err();
    assert!(e.to_string().contains("not a single polluter"), "{e}");
    let request: FlakeRateRequest = serde_json::from_value(serde_json::json!({
        "victim": "p.V#v", "polluters": [["p.P#p"]], "tests": ["p.V#v"]
    }))
    .unwrap();
    assert!(answer(&request).is_err());
    let request: FlakeRateRequest =
        serde_json::from_value(serde_json::json!({"polluters": []})).unwrap();
    assert!(answer(&request).is_err());
}

#[test]
fn wilson_interval_brackets_the_estimate() {
    let [lo, hi] = wilson(50, 100);
    assert!(lo < 0.5 && 0.5 < hi && (hi - lo - 0.19).abs() < 0.01);
    assert_eq!(wilson(0, 10)[0], 0.0);
    assert_eq!(wilson(10, 10)[1], 1.0);
}

#[test]
fn remembered_rates_belong_to_their_own_model() {
    // The same tests, once in one class and once in two: the class-compatible rates differ, and
    // asking again (from the memo) gives each its own.
    let one = model(
        OdRole::Victim,
        &[&["p"]],
        &[("p", &["c"])],
        &[("p", "A"), ("c", "A"), ("v", "A")],
    );
    let two = model(
        OdRole::Victim,
        &[&["p"]],
        &[("p", &["c"])],
        &[("p", "A"), ("c", "B"), ("v", "A")],
    );
    let first = (flake_rate(&one, 5).unwrap(), flake_rate(&two, 5).unwrap());
    assert!(
        !close(first.0.class_compatible, first.1.class_compatible),
        "{first:?}"
    );
    for _ in 0..3 {
        assert_eq!(flake_rate(&one, 5).unwrap(), first.0);
        assert_eq!(flake_rate(&two, 5).unwrap(), first.1);
    }
}
