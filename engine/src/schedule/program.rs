//! The class-path linear program of a few classes (docs/schedules.md, "Lower bound" and "Class
//! paths"): how many orders the inter-class pairs need, and which sequences of classes they
//! should take. [`super::cost::lower_bound`] takes its bound, [`super::paths`] its paths.
//!
//! An order visits each class once, as one block, so its classes form a *path*: a sequence of
//! distinct classes, covering at most one pair of each ordered pair of classes `(i, j)`
//! consecutive in it. With `d_ij` pairs of `(i, j)` to cover and `x_P` orders along path `P`:
//!
//! ```text
//! minimise Σ_P x_P   subject to   Σ_{P ∋ (i, j)} x_P >= d_ij,   x >= 0.
//! ```
//!
//! Its dual, `maximise Σ d_ij w_ij` over `w >= 0` with every path weighing at most 1, gives
//! lower bounds: any such `w` does. Solved by column generation (a revised simplex over the
//! paths found so far; the next path is the heaviest one under the duals, a dynamic program over
//! subsets of classes), so only for a few classes ([`MAX_CLASSES`]). The paths start as the
//! one-pair paths (a feasible basis, the identity), so no first phase is needed; the right-hand
//! sides are perturbed by a little per row against degenerate ties.

/// The most classes the program is solved for (`2^k · k²` per pricing step).
pub(super) const MAX_CLASSES: usize = 8;

/// Pivots at most (8 classes take about 1,000; beyond the cap the solution is feasible but maybe
/// not optimal, and the bound from its duals still valid).
const MAX_PIVOTS: usize = 20_000;

const EPS: f64 = 1e-9;

/// The solution of the class-path program.
#[derive(Debug, Clone)]
pub(super) struct PathPlan {
    /// Paths (class indices `0..k`) and how many orders take each (a basic solution).
    pub(super) paths: Vec<(Vec<u8>, f64)>,
    /// Dual weights per ordered pair of classes (`i * k + j`), nonnegative, scaled so that
    /// every path weighs at most 1.
    pub(super) weights: Vec<f64>,
}

impl PathPlan {
    /// The lower bound the weights prove: `⌈Σ d_ij w_ij⌉` (less a rounding margin).
    pub(super) fn bound(&self, demand: &[u64]) -> u64 {
        let value: f64 = demand
            .iter()
            .zip(&self.weights)
            .map(|(&d, &w)| d as f64 * w)
            .sum();
        (value - 1e-6 * value.max(1.0)).ceil().max(0.0) as u64
    }
}

/// The heaviest path under `weight` (per ordered pair, `i * k + j`) and its weight.
pub(super) fn heaviest(k: usize, weight: &[f64]) -> (Vec<u8>, f64) {
    let full = 1usize << k;
    // best[mask * k + last]: the heaviest path over exactly the classes of `mask`, ending at
    // `last`; `from` the class before `last` (`u8::MAX` for a path of one class).
    let mut best = vec![f64::NEG_INFINITY; full * k];
    let mut from = vec![u8::MAX; full * k];
    for c in 0..k {
        best[(1 << c) * k + c] = 0.0;
    }
    // The classes each class has a pair of positive weight into.
    let adjacent: Vec<usize> = (0..k)
        .map(|a| {
            (0..k)
                .filter(|&b| weight[a * k + b] > 0.0)
                .fold(0, |m, b| m | 1 << b)
        })
        .collect();
    let mut top = (0.0, 1usize, 0usize);
    for mask in 1..full {
        for last in 0..k {
            let here = best[mask * k + last];
            if here == f64::NEG_INFINITY {
                continue;
            }
            if here > top.0 + EPS {
                top = (here, mask, last);
            }
            let mut nexts = adjacent[last] & !mask;
            while nexts != 0 {
                let next = nexts.trailing_zeros() as usize;
                nexts &= nexts - 1;
                let w = weight[last * k + next];
                let to = (mask | 1 << next) * k + next;
                if here + w > best[to] {
                    best[to] = here + w;
                    from[to] = last as u8;
                }
            }
        }
    }
    let (value, mut mask, mut last) = top;
    let mut path = vec![last as u8];
    while from[mask * k + last] != u8::MAX {
        let prev = from[mask * k + last] as usize;
        mask &= !(1 << last);
        last = prev;
        path.push(last as u8);
    }
    path.reverse();
    (path, value)
}

/// Solves the class-path program for `k` classes and `demand[i * k + j]` pairs of each ordered
/// pair of classes (the diagonal is ignored). Deterministic.
pub(super) fn solve(k: usize, demand: &[u64]) -> PathPlan {
    assert!(k <= MAX_CLASSES);
    // Rows: the ordered pairs with a demand. A tiny perturbation (distinct per row) keeps the
    // simplex off degenerate ties.
    let rows: Vec<usize> = (0..k * k)
        .filter(|&a| a / k != a % k && demand[a] > 0)
        .collect();
    let m = rows.len();
    let mut row_of = vec![usize::MAX; k * k];
    for (r, &a) in rows.iter().enumerate() {
        row_of[a] = r;
    }
    let rhs: Vec<f64> = rows
        .iter()
        .enumerate()
        .map(|(r, &a)| demand[a] as f64 + 1e-7 * (r + 1) as f64)
        .collect();
    // Columns: paths (`Some`) or the surplus of a row (`None` with the row).
    let mut paths: Vec<Vec<u8>> = rows
        .iter()
        .map(|&a| vec![(a / k) as u8, (a % k) as u8])
        .collect();
    // basis[r]: the column basic in row r: `(path index, true)` or `(row, false)` (a surplus).
    let mut basis: Vec<(usize, bool)> = (0..m).map(|r| (r, true)).collect();
    let mut inv = vec![0.0f64; m * m];
    for r in 0..m {
        inv[r * m + r] = 1.0;
    }
    let mut x = rhs.clone();
    let column = |path: &[u8], row_of: &[usize]| -> Vec<f64> {
        let mut col = vec![0.0; m];
        for w in path.windows(2) {
            let r = row_of[w[0] as usize * k + w[1] as usize];
            if r != usize::MAX {
                col[r] = 1.0;
            }
        }
        col
    };
    let mut dual = vec![0.0f64; m];
    let mut weight = vec![0.0f64; k * k];
    for _ in 0..MAX_PIVOTS {
        for (j, d) in dual.iter_mut().enumerate() {
            *d = (0..m).filter(|&r| basis[r].1).map(|r| inv[r * m + j]).sum();
        }
        weight.fill(0.0);
        for (r, &a) in rows.iter().enumerate() {
            weight[a] = dual[r];
        }
        // Entering: the heaviest path if it weighs more than 1, else a surplus with a negative
        // dual.
        let (path, value) = heaviest(k, &weight);
        let col = if value > 1.0 + EPS {
            let col = column(&path, &row_of);
            paths.push(path);
            (paths.len() - 1, true, col)
        } else if let Some(r) = (0..m)
            .filter(|&r| dual[r] < -EPS)
            .min_by(|&a, &b| dual[a].total_cmp(&dual[b]))
        {
            let mut col = vec![0.0; m];
            col[r] = -1.0;
            (r, false, col)
        } else {
            break;
        };
        let u: Vec<f64> = (0..m)
            .map(|r| (0..m).map(|j| inv[r * m + j] * col.2[j]).sum())
            .collect();
        let Some(leave) = (0..m)
            .filter(|&r| u[r] > EPS)
            .min_by(|&a, &b| (x[a] / u[a]).total_cmp(&(x[b] / u[b])).then(a.cmp(&b)))
        else {
            break;
        };
        let pivot = u[leave];
        for j in 0..m {
            inv[leave * m + j] /= pivot;
        }
        x[leave] /= pivot;
        for r in 0..m {
            if r != leave && u[r] != 0.0 {
                let f = u[r];
                for j in 0..m {
                    inv[r * m + j] -= f * inv[leave * m + j];
                }
                x[r] -= f * x[leave];
            }
        }
        basis[leave] = (col.0, col.1);
    }
    // Weights: the duals, clipped at 0 and scaled so that the heaviest path weighs at most 1.
    weight.fill(0.0);
    for (r, &a) in rows.iter().enumerate() {
        weight[a] = dual[r].max(0.0);
    }
    let (_, heaviest_value) = heaviest(k, &weight);
    if heaviest_value > 1.0 {
        weight.iter_mut().for_each(|w| *w /= heaviest_value);
    }
    let mut plan: Vec<(Vec<u8>, f64)> = basis
        .iter()
        .zip(&x)
        .filter(|&(&(_, is_path), &v)| is_path && v > 1e-6)
        .map(|(&(p, _), &v)| (paths[p].clone(), v))
        .collect();
    plan.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    PathPlan {
        paths: plan,
        weights: weight,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demand(sizes: &[u64]) -> Vec<u64> {
        let k = sizes.len();
        let mut d = vec![0; k * k];
        for i in 0..k {
            for j in 0..k {
                if i != j {
                    d[i * k + j] = sizes[i] * sizes[j];
                }
            }
        }
        d
    }

    #[test]
    fn class_path_program_of_some_shapes() {
        for (sizes, expected) in [
            (vec![161u64, 2], 644u64),
            (vec![100, 63], 12600),
            (vec![80, 30, 5], 4800),
            (vec![60, 30, 10, 3], 3600),
            (vec![40, 20, 20, 2], 2000),
            (vec![3, 3, 3], 27),
        ] {
            let d = demand(&sizes);
            let plan = solve(sizes.len(), &d);
            assert_eq!(plan.bound(&d), expected, "{sizes:?}");
            let total: f64 = plan.paths.iter().map(|p| p.1).sum();
            assert!((total - expected as f64).abs() < 1e-3, "{sizes:?}: {total}");
        }
    }
}
