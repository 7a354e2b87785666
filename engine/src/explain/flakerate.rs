//! Flake rates: the probability that an order-dependent test fails in a uniformly random order
//! (Wei et al., "Probabilistic and Systematic Coverage of Consecutive Test-Method Pairs for
//! Detecting Order-Dependent Flaky Tests", section 4), computed from what minimization found.
//!
//! The model (`docs/flake-rate.md`): a **victim** fails in an order when one of its polluters (or
//! every test of a polluter group) ran before it with none of that polluter's cleaners in
//! between; a **brittle** fails unless one of its state-setters (or a whole group) ran before
//! it. Only the *relevant* tests (the OD test, its polluters, cleaners, state-setters) matter, and
//! only their relative order; for class-compatible orders, also the order of their classes.
//!
//! Three numbers: `all_orders` (Ω_A, every permutation), `class_compatible` (Ω_C, classes kept
//! together: the orders JUnit runs and the rounds of `odrust:detect` sample) and
//! `reverse_of_passing` (the probability that the reverse of a passing class-compatible order
//! fails: what the `reverse-passing` strategy gains). Each comes from, in this order of
//! preference:
//! - a **formula** (seed paper's Special Cases 1 and 2 and their reverse-order analogues derived
//!   in `docs/flake-rate.md`; the brittle analogue for single state-setters);
//! - **exact** enumeration of the relative orders of the relevant tests, when there are at most
//!   [`EXACT_MAX_TESTS`];
//! - seeded Monte Carlo **sampling** of [`SAMPLES`] orders per rate, with Wilson 95% intervals.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::model::kind::OdRole;
use crate::model::testid::class_of;

/// Exact enumeration is used up to this many relevant tests (9! = 362,880 orders).
pub const EXACT_MAX_TESTS: usize = 9;

/// Orders sampled per rate when neither a formula nor enumeration applies.
pub const SAMPLES: u64 = 100_000;

/// How a [`FlakeRate`] was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// A closed form (see [`FlakeRate::case`]).
    Formula,
    /// Counting every relative order of the relevant tests.
    Exact,
    /// Seeded Monte Carlo sampling (see [`FlakeRate::ci95`]).
    Sampled,
}

/// Wilson 95% confidence intervals of sampled rates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ci95 {
    /// Interval of [`FlakeRate::all_orders`].
    pub all_orders: [f64; 2],
    /// Interval of [`FlakeRate::class_compatible`].
    pub class_compatible: [f64; 2],
    /// Interval of [`FlakeRate::reverse_of_passing`] (null when no sampled order passed).
    pub reverse_of_passing: Option<[f64; 2]>,
}

/// The flake rates of one OD test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakeRate {
    /// Probability that it fails in a uniformly random order of all tests (Ω_A).
    pub all_orders: f64,
    /// Probability that it fails in a uniformly random class-compatible order (Ω_C).
    pub class_compatible: f64,
    /// Probability that the reverse of a passing class-compatible order fails; null when no
    /// order passes.
    pub reverse_of_passing: Option<f64>,
    /// How the numbers were computed.
    pub method: Method,
    /// For `formula`: `special-case-1` (one class, all polluters share their cleaners),
    /// `special-case-2` (several classes, shared cleaners) or `state-setters` (a brittle with
    /// single state-setters); null otherwise.
    pub case: Option<String>,
    /// For `sampled`: the 95% intervals; null otherwise.
    pub ci95: Option<Ci95>,
    /// For `sampled`: orders sampled per rate; null otherwise.
    pub samples: Option<u64>,
    /// Set when not every polluter and cleaner (state-setter) is known: the rates above count
    /// only what was found. Absent when the explanation is complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<Incomplete>,
}

/// What a flake rate is computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OdModel {
    /// The OD test.
    pub test: String,
    /// Victim or brittle.
    pub role: OdRole,
    /// Polluters (victim) or state-setters (brittle): each a group of one or more tests.
    pub culprits: Vec<Vec<String>>,
    /// Victim only: the cleaners of each single polluter.
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// The class of each relevant test; a test not listed is in the class part of its id.
    pub classes: HashMap<String, String>,
}

/// Request of the `flake_rate` op and of `odrust-engine flakerate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlakeRateRequest {
    /// A victim (with `polluters` and `cleaners`)...
    #[serde(default)]
    pub victim: Option<String>,
    /// ...or a brittle (with `state_setters`).
    #[serde(default)]
    pub brittle: Option<String>,
    /// Polluter groups of the victim (a single polluter is a group of one).
    #[serde(default)]
    pub polluters: Vec<Vec<String>>,
    /// Cleaners per single polluter.
    #[serde(default)]
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// State-setter groups of the brittle.
    #[serde(default)]
    pub state_setters: Vec<Vec<String>>,
    /// Class of each test; the class part of the id when absent.
    #[serde(default)]
    pub classes: HashMap<String, String>,
    /// Every test of the module; when given, every id above must be one of them.
    #[serde(default)]
    pub tests: Vec<String>,
    /// Seed of the sampling.
    #[serde(default)]
    pub seed: u64,
}

/// Answers a [`FlakeRateRequest`]: the flake rate, or null when there is no polluter
/// (state-setter) to compute it from.
///
/// Errors: [`EngineError::BadRequest`] when neither or both of `victim` and `brittle` are given,
/// the OD test is among its own polluters, cleaners or state-setters, a cleaner list names a test
/// that is not a single polluter, a group is empty, or an id is not in `tests`.
pub fn answer(request: &FlakeRateRequest) -> Result<Option<FlakeRate>, EngineError> {
    let bad = |reason: String| EngineError::bad_request("flake_rate", reason);
    let (test, role, culprits) = match (&request.victim, &request.brittle) {
        (Some(v), None) => {
            if !request.state_setters.is_empty() {
                return Err(bad("a victim has polluters, not `state_setters`".into()));
            }
            (v, OdRole::Victim, &request.polluters)
        }
        (None, Some(b)) => {
            if !request.polluters.is_empty() || !request.cleaners.is_empty() {
                return Err(bad(
                    "a brittle has `state_setters`, not polluters or cleaners".into(),
                ));
            }
            (b, OdRole::Brittle, &request.state_setters)
        }
        _ => return Err(bad("give exactly one of `victim` and `brittle`".into())),
    };
    if culprits.iter().any(Vec::is_empty) {
        return Err(bad("a polluter or state-setter group is empty".into()));
    }
    for (polluter, cleaners) in &request.cleaners {
        if !culprits.iter().any(|g| g.len() == 1 && &g[0] == polluter) {
            return Err(bad(format!(
                "`cleaners` names `{polluter}`, which is not a single polluter"
            )));
        }
        if cleaners.contains(test) || cleaners.contains(polluter) {
            return Err(bad(format!(
                "the cleaners of `{polluter}` include the victim or the polluter itself"
            )));
        }
    }
    if culprits.iter().flatten().any(|t| t == test) {
        return Err(bad(format!("`{test}` is listed among its own polluters")));
    }
    if !request.tests.is_empty() {
        let all = culprits
            .iter()
            .flatten()
            .chain(request.cleaners.values().flatten())
            .chain(std::iter::once(test));
        for id in all {
            if !request.tests.contains(id) {
                return Err(bad(format!("`{id}` is not one of `tests`")));
            }
        }
    }
    let model = OdModel {
        test: test.clone(),
        role,
        culprits: culprits.clone(),
        cleaners: request.cleaners.clone(),
        classes: request.classes.clone(),
    };
    Ok(flake_rate(&model, request.seed))
}

/// The flake rates of `model`, or `None` when it has no polluter (state-setter). `seed` seeds
/// the sampling, when sampling is needed.
pub fn flake_rate(model: &OdModel, seed: u64) -> Option<FlakeRate> {
    if model.culprits.is_empty() {
        return None;
    }
    // The plugin asks for the same rates on every report it rewrites during a run (the engine
    // stays loaded): a sampled rate costs ~0.1 s, so each model's rate is computed once.
    let mut classes: Vec<(&String, &String)> = model.classes.iter().collect();
    classes.sort();
    let key = format!(
        "{seed}|{}|{:?}|{:?}|{:?}|{classes:?}",
        model.test, model.role, model.culprits, model.cleaners
    );
    static MEMO: OnceLock<Mutex<HashMap<String, FlakeRate>>> = OnceLock::new();
    let memo = MEMO.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(rate) = memo.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Some(rate);
    }
    let rate = compute(model, seed);
    if let Ok(mut m) = memo.lock() {
        if m.len() >= MEMO_MAX {
            m.clear();
        }
        m.insert(key, rate.clone());
    }
    Some(rate)
}

/// Rates remembered by [`flake_rate`] at most (then it starts over).
const MEMO_MAX: usize = 20_000;

/// [`flake_rate`] without the memo.
fn compute(model: &OdModel, seed: u64) -> FlakeRate {
    let relevant = Relevant::of(model);
    let rate = if let Some(rate) = relevant.formula() {
        rate
    } else if relevant.len() <= EXACT_MAX_TESTS {
        relevant.exact()
    } else {
        relevant.sampled(seed)
    };
    rate.tidy()
}

/// `x` to 12 decimals: floating-point noise (`0.9999999999999999`) out of reports, far below any
/// difference that matters for a probability.
fn tidy(x: f64) -> f64 {
    (x * 1e12).round() / 1e12
}

/// What an incomplete flake rate still says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Incomplete {
    /// Why it is incomplete.
    pub reason: String,
    /// Whether the rates are upper bounds of the real ones.
    pub upper_bound: bool,
    /// Lower bounds of the real rates, when one follows.
    pub lower_bound: Option<RateBound>,
}

/// A bound of the rates of one OD test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RateBound {
    /// Of [`FlakeRate::all_orders`].
    pub all_orders: f64,
    /// Of [`FlakeRate::class_compatible`].
    pub class_compatible: f64,
}

impl FlakeRate {
    /// This rate, marked incomplete: `upper_bound` when it bounds the real rate from above, and
    /// `lower` (a rate computed with every candidate not yet ruled out) as its lower bound.
    pub fn incomplete(
        mut self,
        reason: String,
        upper_bound: bool,
        lower: Option<&FlakeRate>,
    ) -> Self {
        self.incomplete = Some(Incomplete {
            reason,
            upper_bound,
            lower_bound: lower.map(|l| RateBound {
                all_orders: l.all_orders.min(self.all_orders),
                class_compatible: l.class_compatible.min(self.class_compatible),
            }),
        });
        self
    }

    fn tidy(mut self) -> Self {
        self.all_orders = tidy(self.all_orders);
        self.class_compatible = tidy(self.class_compatible);
        self.reverse_of_passing = self.reverse_of_passing.map(tidy);
        self
    }
}

/// A polluter (or state-setter) group and, for a victim's single polluter, its cleaners, as
/// indices into [`Relevant::classes`].
#[derive(Debug, Clone)]
struct Unit {
    members: Vec<usize>,
    cleaners: Vec<usize>,
}

/// The relevant tests, by index: 0 is the OD test.
#[derive(Debug, Clone)]
struct Relevant {
    role: OdRole,
    units: Vec<Unit>,
    /// Class index of each relevant test.
    classes: Vec<usize>,
    /// Class count.
    class_count: usize,
}

impl Relevant {
    fn of(model: &OdModel) -> Self {
        let mut ids: Vec<&str> = vec![model.test.as_str()];
        // Linear search: the relevant tests are few, and the order of first mention is kept.
        fn index<'m>(id: &'m str, ids: &mut Vec<&'m str>) -> usize {
            ids.iter().position(|x| *x == id).unwrap_or_else(|| {
                ids.push(id);
                ids.len() - 1
            })
        }
        let mut units = Vec::new();
        for group in &model.culprits {
            let members: Vec<usize> = group.iter().map(|t| index(t, &mut ids)).collect();
            let cleaners = match (model.role, group.as_slice()) {
                (OdRole::Victim, [single]) => model
                    .cleaners
                    .get(single)
                    .map(|cs| cs.iter().map(|c| index(c, &mut ids)).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            units.push(Unit { members, cleaners });
        }
        let mut class_names: Vec<&str> = Vec::new();
        let classes = ids
            .iter()
            .map(|id| {
                let class = model
                    .classes
                    .get(*id)
                    .map_or_else(|| class_of(id), String::as_str);
                match class_names.iter().position(|c| *c == class) {
                    Some(i) => i,
                    None => {
                        class_names.push(class);
                        class_names.len() - 1
                    }
                }
            })
            .collect();
        Relevant {
            role: model.role,
            units,
            classes,
            class_count: class_names.len(),
        }
    }

    fn len(&self) -> usize {
        self.classes.len()
    }

    /// Whether the OD test fails when relevant test `i` is at position `pos[i]`.
    fn fails(&self, pos: &[usize]) -> bool {
        let me = pos[0];
        match self.role {
            OdRole::Victim => self.units.iter().any(|u| {
                let last = u.members.iter().map(|m| pos[*m]).max().unwrap_or(0);
                last < me && !u.cleaners.iter().any(|c| last < pos[*c] && pos[*c] < me)
            }),
            OdRole::Brittle => !self
                .units
                .iter()
                .any(|u| u.members.iter().all(|m| pos[*m] < me)),
        }
    }

    /// (fails in `perm`, fails in its reverse); `perm[j]` is the relevant test at slot `j`.
    fn outcome(&self, perm: &[usize], pos: &mut [usize]) -> (bool, bool) {
        let n = perm.len();
        for (slot, t) in perm.iter().enumerate() {
            pos[*t] = slot;
        }
        let forward = self.fails(pos);
        for p in pos.iter_mut() {
            *p = n - 1 - *p;
        }
        (forward, self.fails(pos))
    }

    fn class_compatible(&self, perm: &[usize]) -> bool {
        let mut done = vec![false; self.class_count];
        let mut current = usize::MAX;
        for t in perm {
            let class = self.classes[*t];
            if class != current {
                if done[class] {
                    return false;
                }
                done[class] = true;
                current = class;
            }
        }
        true
    }

    /// The closed forms, when their assumptions hold.
    fn formula(&self) -> Option<FlakeRate> {
        if self.units.iter().any(|u| u.members.len() != 1) {
            return None;
        }
        let k = self.class_count as f64;
        let own = self.classes[0];
        let rate = |a: f64, c: f64, r: Option<f64>, case: &str| FlakeRate {
            all_orders: a,
            class_compatible: c,
            reverse_of_passing: r,
            method: Method::Formula,
            case: Some(case.to_string()),
            ci95: None,
            samples: None,
            incomplete: None,
        };
        match self.role {
            OdRole::Brittle => {
                let sigma = self.units.len() as f64;
                let sigma1 = self
                    .units
                    .iter()
                    .filter(|u| self.classes[u.members[0]] == own)
                    .count() as f64;
                let all = 1.0 / (sigma + 1.0);
                let compatible = 1.0 / ((sigma1 + 1.0) * k);
                // The reverse fails iff the brittle ran after every state-setter, which has the
                // same probability as failing; it passed, so the reverse fails with x / (1 - x).
                let reverse = compatible / (1.0 - compatible);
                Some(rate(all, compatible, Some(reverse), "state-setters"))
            }
            OdRole::Victim => {
                // A1: every polluter has the same cleaners, and no test is both.
                let mut shared: Vec<usize> = self.units[0].cleaners.clone();
                shared.sort_unstable();
                shared.dedup();
                for u in &self.units[1..] {
                    let mut c = u.cleaners.clone();
                    c.sort_unstable();
                    c.dedup();
                    if c != shared {
                        return None;
                    }
                }
                if self.units.iter().any(|u| shared.contains(&u.members[0])) {
                    return None;
                }
                let mut polluters = vec![0.0f64; self.class_count];
                let mut cleaners = vec![0.0f64; self.class_count];
                for u in &self.units {
                    polluters[self.classes[u.members[0]]] += 1.0;
                }
                for c in &shared {
                    cleaners[self.classes[*c]] += 1.0;
                }
                let pi: f64 = polluters.iter().sum();
                let gamma: f64 = cleaners.iter().sum();
                let all = pi / (pi + gamma + 1.0);
                let (pi1, gamma1) = (polluters[own], cleaners[own]);
                let m1 = pi1 + gamma1;
                // Sums over the other classes of the chance that a class ends (or starts) with a
                // polluter (P), with a cleaner (G), and both products (S).
                let (mut p, mut g, mut s) = (0.0, 0.0, 0.0);
                for class in (0..self.class_count).filter(|c| *c != own) {
                    let n = polluters[class] + cleaners[class];
                    p += polluters[class] / n;
                    g += cleaners[class] / n;
                    s += polluters[class] * cleaners[class] / (n * n);
                }
                let compatible = (pi1 + p / k) / (m1 + 1.0);
                // P(the order passes and its reverse fails): the test just before the victim
                // is a cleaner (or none) and the one just after is a polluter.
                let joint = if m1 >= 1.0 {
                    (gamma1 * pi1 + pi1 * (1.0 + g) / k + gamma1 * p / k) / (m1 * (m1 + 1.0))
                } else if k >= 2.0 {
                    (p * (1.0 + g) - s) / (k * (k - 1.0))
                } else {
                    0.0
                };
                let pass = 1.0 - compatible;
                let reverse = (pass > 0.0).then(|| joint / pass);
                let case = if self.class_count == 1 {
                    "special-case-1"
                } else {
                    "special-case-2"
                };
                Some(rate(all, compatible, reverse, case))
            }
        }
    }

    /// Counts over every relative order of the relevant tests.
    fn exact(&self) -> FlakeRate {
        let n = self.len();
        let mut perm: Vec<usize> = (0..n).collect();
        let mut pos = vec![0; n];
        let (mut all, mut all_fail) = (0u64, 0u64);
        let (mut compat, mut compat_fail, mut reverse_fail) = (0u64, 0u64, 0u64);
        let mut visit = |perm: &[usize]| {
            let (forward, backward) = self.outcome(perm, &mut pos);
            all += 1;
            all_fail += u64::from(forward);
            if self.class_compatible(perm) {
                compat += 1;
                compat_fail += u64::from(forward);
                reverse_fail += u64::from(!forward && backward);
            }
        };
        heap_permutations(&mut perm, &mut visit);
        let passing = compat - compat_fail;
        FlakeRate {
            all_orders: all_fail as f64 / all as f64,
            class_compatible: compat_fail as f64 / compat as f64,
            reverse_of_passing: (passing > 0).then(|| reverse_fail as f64 / passing as f64),
            method: Method::Exact,
            case: None,
            ci95: None,
            samples: None,
            incomplete: None,
        }
    }

    /// Monte Carlo estimates from [`SAMPLES`] orders of each kind.
    fn sampled(&self, seed: u64) -> FlakeRate {
        let n = self.len();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut perm: Vec<usize> = (0..n).collect();
        let mut pos = vec![0; n];
        let mut all_fail = 0u64;
        for _ in 0..SAMPLES {
            perm.shuffle(&mut rng);
            all_fail += u64::from(self.outcome(&perm, &mut pos).0);
        }
        let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); self.class_count];
        for (t, class) in self.classes.iter().enumerate() {
            by_class[*class].push(t);
        }
        let (mut compat_fail, mut passing, mut reverse_fail) = (0u64, 0u64, 0u64);
        for _ in 0..SAMPLES {
            by_class.shuffle(&mut rng);
            perm.clear();
            for tests in &mut by_class {
                tests.shuffle(&mut rng);
                perm.extend_from_slice(tests);
            }
            let (forward, backward) = self.outcome(&perm, &mut pos);
            compat_fail += u64::from(forward);
            if !forward {
                passing += 1;
                reverse_fail += u64::from(backward);
            }
        }
        let ratio = |k: u64, n: u64| k as f64 / n as f64;
        FlakeRate {
            all_orders: ratio(all_fail, SAMPLES),
            class_compatible: ratio(compat_fail, SAMPLES),
            reverse_of_passing: (passing > 0).then(|| ratio(reverse_fail, passing)),
            method: Method::Sampled,
            case: None,
            ci95: Some(Ci95 {
                all_orders: wilson(all_fail, SAMPLES),
                class_compatible: wilson(compat_fail, SAMPLES),
                reverse_of_passing: (passing > 0).then(|| wilson(reverse_fail, passing)),
            }),
            samples: Some(SAMPLES),
            incomplete: None,
        }
    }
}

/// Calls `visit` with every permutation of `items` (Heap's algorithm, iterative).
fn heap_permutations(items: &mut [usize], visit: &mut impl FnMut(&[usize])) {
    let n = items.len();
    let mut c = vec![0; n];
    visit(items);
    let mut i = 1;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                items.swap(0, i);
            } else {
                items.swap(c[i], i);
            }
            visit(items);
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}

/// The Wilson score 95% interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    // At k = 0 (k = n) the bound is exactly 0 (1); say so rather than round near it.
    let lo = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

#[cfg(test)]
#[path = "flakerate_tests.rs"]
mod tests;
