//! Tuscan squares: `n` permutations of `0..n` in which every ordered pair `(i, j)` of distinct
//! numbers is consecutive in some row (a decomposition of the complete digraph on `n` vertices
//! into Hamiltonian paths).
//!
//! Row counts returned by [`square`]:
//!
//! | `n` | rows | construction |
//! |---|---|---|
//! | even | `n` | Walecki's zig-zag and its `n` cyclic shifts |
//! | odd, `n ≡ 3 (mod 4)`, `n >= 7` | `n` | the rainbow-path construction below, closed form |
//! | odd, `n ≡ 1 (mod 4)`, `n >= 13` | `n` | the same, another closed form |
//! | 9 | 9 | the same, with a path found by a search (a constant) |
//! | 3, 5 | `n + 1` | no Tuscan square exists (Wei et al.); 4 and 6 rows is the least possible |
//!
//! So every `n` except 3 and 5 gets `n` rows, the lower bound (Tuscan squares exist for every
//! `n` except 3 and 5; Tillson 1980 for odd `n >= 7`). For 3 and 5 the rows are the square of
//! order `n + 1` with `n` deleted from every row: deleting a number never separates two others
//! that were consecutive, so every ordered pair is still covered. The same fallback is used if
//! the run-time check below ever failed (it cannot: both closed forms are proved below, and the
//! tests check the paths for every odd `n` from 7 to 9,999).
//!
//! # The odd construction (own derivation, not Tillson's)
//!
//! Let `n = 2k + 1`, `N = 2k`, vertices `Z_N` plus `∞` (the number `N` in the rows). Walecki's
//! directed cycles `D_j = (∞, j, j+1, j-1, j+2, j-2, ..., j+k, ∞)`, `j ∈ Z_N`, decompose the
//! complete digraph on the `n` vertices (`D_{j+k}` is `D_j` reversed; each `D_j` uses each
//! difference `±1, ±2, ...` once). Every arc lies in exactly one cycle, its *label*:
//! `∞ → y` in `D_y`; `y → ∞` in `D_{y+k}`; `x → x+d` (`d` in `1..N`) in `D_{x+(d-1)/2}` for odd
//! `d` and in `D_{x+d/2+k}` for even `d`.
//!
//! If a Hamiltonian path `P` of the complete digraph has its `N` arcs in `N` distinct cycles (a
//! *rainbow* path), then `P` and the `N` paths `D_j` minus the arc of `P` labelled `j` are `n`
//! Hamiltonian paths covering every arc once: a Tuscan square. [`square`] checks that `P` is
//! Hamiltonian and rainbow (O(n)) before building the rows.
//!
//! Both closed forms below modify the translation `τ(x) = x + k - 2` on `Z_N` at a few points
//! `s` by `σ(s) = τ(ρ(s))` for a permutation `ρ` of those points, and put `∞` on the arc out of
//! `0`. That `σ` is one cycle is shown by following segments: cut each cycle of `τ` before the
//! arcs out of the moved points; `σ` runs along a segment from `τ(ρ(s))` to the next moved point
//! `nxt(ρ(s))` on `τ`'s cycle, so `σ` is one cycle iff `s ↦ nxt(ρ(s))` is one cycle on the moved
//! points. Both gadgets were found by a computer search over small modifications of a
//! translation and then proved by hand as follows.
//!
//! **Odd `k` (`n ≡ 3 (mod 4)`, `n >= 7`).** `P` starts at `∞` and follows `σ`: `σ(x) = x + k - 2`
//! except `σ(∞) = N - 2`, `σ(a) = a - 3` for `a = (k+1)/2`, `σ(k) = k - 2`, `σ(b) = b - 1` for
//! `b = (3k-1)/2`, and `0` ends the path. `σ` swaps the successors of `0, k` and of `a, b` in `τ`
//! (`ρ = (0 k)(a b)`) and puts `∞` on the arc out of `0`; the four changed arcs carry exactly the
//! labels `τ` gave `T = {0, a, k, b}` (`T + (k-3)/2`), so every label is used once. One cycle:
//! `τ` is one `N`-cycle (`gcd(k-2, 2k) = 1`) with `τ^i(0) = i(k-2)`, so `k` is at step `k`, and
//! since `a + b = 2k` and `i(k-2) ≡ -2i (mod k)`, `i ≡ x (mod 2)`, the steps of `a` and `b` add
//! up to `2k`: one lies in `(0, k)` and one in `(k, 2k)`. Calling them `p` and `q`, the cyclic
//! order is `0, p, k, q` and `s ↦ nxt(ρ(s))` is the 4-cycle `0 → q → k → p → 0`.
//!
//! **Even `k >= 6` (`n ≡ 1 (mod 4)`, `n >= 13`).** With `h = k/2`, `σ(0) = ∞`, `σ(∞) = k - 2`,
//! `σ(x) = x + k - 2` except
//!
//! - `k ≡ 0 (mod 4)`: `σ(h-1) = h-2`, `σ(3h-1) = h-1`, `σ(3h) = h-3`, `σ(3h+1) = 3h-3`;
//!   `ρ = (h-1 → 3h → 3h-1 → 3h+1 → h-1)`;
//! - `k ≡ 2 (mod 4)`: `σ(h) = h-3`, `σ(3h-1) = h-1`, `σ(3h) = 3h-2`, `σ(3h+1) = h-2`;
//!   `ρ = (h → 3h-1 → 3h+1 → 3h → h)`.
//!
//! Labels: `τ` labels `x → x + k - 2` (even difference) with `x + 3h - 1`. The arcs out of
//! `0, h-1, 3h-1, 3h, 3h+1` (resp. `0, h, ...`) that `σ` replaces had the labels
//! `3h-1, -2, k-2, k-1, k` (resp. `3h-1, -1, k-2, k-1, k`); the six new arcs (the four above,
//! `0 → ∞` with `k`, `∞ → k-2` with `k - 2`) have the same labels plus `3h - 2`. So the
//! Hamiltonian cycle `σ` (`N + 1` arcs) uses every label once except `3h - 2`, twice: on the new
//! arc out of `h - 1` (resp. `h`) and on the `τ` arc `2k-1 → k-3` (`2k - 1` is not moved for
//! `k >= 6`). `P` is `σ` cut before `2k-1 → k-3`: `k - 3, σ(k-3), ..., 2k - 1`. One cycle:
//! `τ` has `gcd(k-2, 2k)` cycles. For `k = 4m`, two (even and odd numbers, `4m` steps each);
//! `3h = 6m` is the only moved point on the even one (`nxt(6m) = 6m`), and on the odd one
//! `6m+1` is `2m - 1` steps after `6m-1` and `h-1 = 2m-1 = τ(6m+1)` the step after, so
//! `nxt: 6m-1 → 6m+1 → 2m-1 → 6m-1`, and `s ↦ nxt(ρ(s))` is
//! `2m-1 → 6m → 6m+1 → 6m-1 → 2m-1`. For `k = 4m+2`, four cycles (residues mod 4) and the moved
//! points `2m+1, 6m+2, 6m+3, 6m+4` lie one on each (`nxt` is the identity), so the map is `ρ`,
//! a 4-cycle. `n = 9` (`k = 4`) is too small (the points collide); its path is `PATH_9`, the
//! first path of a deterministic depth-first search (a test re-runs the search and compares).
//!
//! Every row holds each number at most once; the tests below check the coverage.

/// The rainbow path `∞, 0, ...` (without the leading `∞`) for `n = 9` (`k = 4`, too small for
/// [`even_k_path`]): the first path found by the depth-first search in the tests (`searched_path`,
/// successors tried in the order `x + 1, x + 2, ...`), which reproduces it.
const PATH_9: [usize; 8] = [0, 2, 3, 4, 6, 7, 1, 5];

/// Rows covering every ordered pair of `0..n` consecutively: `n` rows (a Tuscan square) for every
/// `n` except `n = 3` and `n = 5`, which have no Tuscan square and get `n + 1` rows. `n = 0` gives
/// no row, `n = 1` the row `[0]`. See the module documentation for the constructions.
pub fn square(n: usize) -> Vec<Vec<u32>> {
    match n {
        0 => Vec::new(),
        1 => vec![vec![0]],
        n if n % 2 == 0 => walecki(n),
        n => odd_square(n).unwrap_or_else(|| {
            walecki(n + 1)
                .into_iter()
                .map(|row| row.into_iter().filter(|&v| v as usize != n).collect())
                .collect()
        }),
    }
}

/// Even `n`: the zig-zag `0, n-1, 1, n-2, ...` shifted by `0..n` (mod `n`).
fn walecki(n: usize) -> Vec<Vec<u32>> {
    let m = n as u32;
    let base: Vec<u32> = (0..m)
        .map(|j| if j % 2 == 0 { j / 2 } else { m - 1 - j / 2 })
        .collect();
    (0..m)
        .map(|shift| {
            base.iter()
                .map(|&v| {
                    if v + shift >= m {
                        v + shift - m
                    } else {
                        v + shift
                    }
                })
                .collect()
        })
        .collect()
}

/// Odd `n >= 7`: the `n` rows from a rainbow path, or `None` where no path is available.
fn odd_square(n: usize) -> Option<Vec<Vec<u32>>> {
    if n < 7 {
        return None;
    }
    let k = (n - 1) / 2;
    let path = if k % 2 == 1 {
        gadget_path(k)
    } else if k == 4 {
        let mut path = vec![2 * k];
        path.extend(PATH_9);
        path
    } else {
        even_k_path(k)
    };
    let tails = rainbow_tails(k, &path)?;
    let big = 2 * k;
    // D_0 = (∞, z_0, ..., z_{N-1}); D_j adds `j` to every vertex but `∞`.
    let d0: Vec<u32> = std::iter::once(big as u32)
        .chain((0..big).map(|i| zigzag(k, i) as u32))
        .collect();
    let mut rows = Vec::with_capacity(n);
    for (j, &tail) in tails.iter().enumerate() {
        let (big, j) = (big as u32, j as u32);
        let shift = |&v: &u32| -> u32 {
            if v == big {
                big
            } else if v + j >= big {
                v + j - big
            } else {
                v + j
            }
        };
        // Cut D_j after `tail` (index 0 is `∞`).
        let cut = if tail as u32 == big {
            0
        } else {
            1 + zigzag_index(k, (tail + 2 * k - j as usize) % (2 * k))
        };
        let mut row = Vec::with_capacity(n);
        row.extend(d0[cut + 1..].iter().map(shift));
        row.extend(d0[..=cut].iter().map(shift));
        rows.push(row);
    }
    rows.push(path.iter().map(|&v| v as u32).collect());
    Some(rows)
}

/// `z_i` of the zig-zag `0, 1, -1, 2, -2, ..., k` on `Z_{2k}`.
fn zigzag(k: usize, i: usize) -> usize {
    let big = 2 * k;
    if i == 0 {
        0
    } else if i == big - 1 {
        k
    } else if i % 2 == 1 {
        i.div_ceil(2)
    } else {
        big - i / 2
    }
}

/// The `i` with `zigzag(k, i) == v`.
fn zigzag_index(k: usize, v: usize) -> usize {
    let big = 2 * k;
    if v == 0 {
        0
    } else if v < k {
        2 * v - 1
    } else if v == k {
        big - 1
    } else {
        2 * (big - v)
    }
}

/// The cycle `D_j` holding the arc `x → y` (`2k` stands for `∞`).
fn label(k: usize, x: usize, y: usize) -> usize {
    let big = 2 * k;
    if x == big {
        y
    } else if y == big {
        (x + k) % big
    } else {
        let d = (y + big - x) % big;
        if d % 2 == 1 {
            (x + (d - 1) / 2) % big
        } else {
            (x + d / 2 + k) % big
        }
    }
}

/// For a Hamiltonian rainbow path on `0..=2k`: the tail of the arc labelled `j`, for each `j`.
/// `None` unless `path` visits every vertex once and its arcs have distinct labels.
fn rainbow_tails(k: usize, path: &[usize]) -> Option<Vec<usize>> {
    let big = 2 * k;
    if path.len() != big + 1 {
        return None;
    }
    let mut seen = vec![false; big + 1];
    for &v in path {
        if v > big || std::mem::replace(&mut seen[v], true) {
            return None;
        }
    }
    let mut tails = vec![usize::MAX; big];
    for w in path.windows(2) {
        let l = label(k, w[0], w[1]);
        if tails[l] != usize::MAX {
            return None;
        }
        tails[l] = w[0];
    }
    Some(tails)
}

/// Odd `k >= 3`: `∞, σ(∞), σ²(∞), ...` up to `0` (see the module documentation).
fn gadget_path(k: usize) -> Vec<usize> {
    let big = 2 * k;
    let (a, b) = (k.div_ceil(2), (3 * k - 1) / 2);
    let sigma = |x: usize| -> usize {
        if x == big {
            big - 2
        } else if x == a {
            (a + big - 3) % big
        } else if x == k {
            k - 2
        } else if x == b {
            b - 1
        } else {
            (x + k - 2) % big
        }
    };
    let mut path = Vec::with_capacity(big + 1);
    let mut v = big;
    // At most `big + 1` steps even if σ had a shorter cycle; `rainbow_tails` rejects such a path.
    while path.len() <= big {
        path.push(v);
        if v == 0 {
            break;
        }
        v = sigma(v);
    }
    path
}

/// Even `k >= 6`: the Hamiltonian cycle `τ` (`x → x + k - 2`) with `∞` between `0` and `k - 2`
/// and the gadget of the module documentation, cut before the arc `2k - 1 → k - 3`: the path
/// `k - 3, σ(k - 3), ..., 2k - 1`.
fn even_k_path(k: usize) -> Vec<usize> {
    let big = 2 * k;
    let h = k / 2;
    let (p, q) = (3 * h - 1, 3 * h);
    // The four moved points and their new successors (besides `0 → ∞ → k - 2`).
    let gadget = if k.is_multiple_of(4) {
        [(h - 1, h - 2), (p, h - 1), (q, h - 3), (q + 1, q - 3)]
    } else {
        [(h, h - 3), (p, h - 1), (q, q - 2), (q + 1, h - 2)]
    };
    let sigma = |x: usize| -> usize {
        if x == big {
            k - 2
        } else if x == 0 {
            big
        } else if let Some(&(_, y)) = gadget.iter().find(|&&(g, _)| g == x) {
            y
        } else {
            (x + k - 2) % big
        }
    };
    let mut path = Vec::with_capacity(big + 1);
    let mut v = k - 3;
    // At most `big + 1` vertices even if σ had a shorter cycle; `rainbow_tails` rejects such a path.
    while path.len() <= big {
        path.push(v);
        if v == big - 1 {
            break;
        }
        v = sigma(v);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Depth-first search for a rainbow path `∞, 0, ...` (successors tried in the order `x + 1,
    /// x + 2, ...`), giving up after `max_nodes` nodes.
    fn searched_path(k: usize, max_nodes: usize) -> Option<Vec<usize>> {
        let big = 2 * k;
        let mut used = vec![false; big];
        let mut label_used = vec![false; big];
        let mut path = vec![big, 0];
        used[0] = true;
        label_used[label(k, big, 0)] = true;
        // next[d]: the next offset to try from path[d + 1].
        let mut next = vec![1usize];
        let mut nodes = 0;
        while let Some(offset) = next.last_mut() {
            if path.len() == big + 1 {
                return Some(path);
            }
            let x = path[path.len() - 1];
            let mut extended = false;
            while *offset < big {
                let y = (x + *offset) % big;
                *offset += 1;
                let l = label(k, x, y);
                if used[y] || label_used[l] {
                    continue;
                }
                nodes += 1;
                if nodes > max_nodes {
                    return None;
                }
                used[y] = true;
                label_used[l] = true;
                path.push(y);
                extended = true;
                break;
            }
            if extended {
                next.push(1);
            } else {
                next.pop();
                if path.len() > 2 {
                    let y = path.pop()?;
                    used[y] = false;
                    label_used[label(k, path[path.len() - 1], y)] = false;
                }
            }
        }
        None
    }

    /// Panics unless `rows` are orders of distinct numbers `< n` covering every ordered pair.
    fn check(n: usize, rows: &[Vec<u32>]) {
        let mut covered = vec![false; n * n];
        for row in rows {
            let mut seen = vec![false; n];
            for &v in row {
                assert!((v as usize) < n, "n = {n}: {v} out of range in {row:?}");
                assert!(!seen[v as usize], "n = {n}: {v} twice in {row:?}");
                seen[v as usize] = true;
            }
            for w in row.windows(2) {
                covered[w[0] as usize * n + w[1] as usize] = true;
            }
        }
        for i in 0..n {
            for j in 0..n {
                assert!(
                    i == j || covered[i * n + j],
                    "n = {n}: ({i}, {j}) not covered"
                );
            }
        }
    }

    /// The documented row count.
    fn expected_rows(n: usize) -> usize {
        if n == 3 || n == 5 {
            n + 1
        } else {
            n
        }
    }

    #[test]
    fn every_order_up_to_130_is_covered_with_n_rows_except_3_and_5() {
        for n in 0..=130 {
            let rows = square(n);
            check(n, &rows);
            assert_eq!(rows.len(), expected_rows(n), "n = {n}");
            assert!(rows.iter().all(|r| r.len() == n), "n = {n}: a short row");
        }
        for n in [7, 9, 13, 25, 29, 33, 129] {
            assert_eq!(square(n).len(), n);
        }
    }

    #[test]
    fn three_and_five_need_four_and_six_rows() {
        assert_eq!(square(3).len(), 4);
        assert_eq!(square(5).len(), 6);
    }

    #[test]
    fn large_orders_of_each_family_are_covered() {
        for n in [257, 258, 259, 261, 265, 513, 1025] {
            let rows = square(n);
            check(n, &rows);
            assert_eq!(rows.len(), expected_rows(n), "n = {n}");
        }
    }

    #[test]
    fn large_odd_orders_are_covered_with_the_documented_row_count() {
        for n in [1001, 1003, 2001, 2003, 5001, 5003] {
            let rows = square(n);
            assert_eq!(rows.len(), expected_rows(n), "n = {n}");
            check(n, &rows);
        }
    }

    #[test]
    fn gadget_path_is_hamiltonian_and_rainbow_for_every_odd_k_below_5000() {
        for k in (3..5000).step_by(2) {
            assert!(
                rainbow_tails(k, &gadget_path(k)).is_some(),
                "k = {k} (n = {})",
                2 * k + 1
            );
        }
    }

    #[test]
    fn even_k_path_is_hamiltonian_and_rainbow_for_every_even_k_from_6_below_5000() {
        for k in (6..5000).step_by(2) {
            let path = even_k_path(k);
            assert!(
                rainbow_tails(k, &path).is_some(),
                "k = {k} (n = {})",
                2 * k + 1
            );
            assert_eq!((path[0], path[2 * k]), (k - 3, 2 * k - 1), "k = {k}");
        }
    }

    #[test]
    fn the_search_reproduces_the_rainbow_path_for_n_9() {
        let path = searched_path(4, 1_000).expect("within the node bound");
        assert!(rainbow_tails(4, &path).is_some());
        assert_eq!(path[1..], PATH_9[..]);
    }

    #[test]
    fn zigzag_index_inverts_zigzag() {
        for k in 1..40 {
            for i in 0..2 * k {
                assert_eq!(zigzag_index(k, zigzag(k, i)), i, "k = {k}, i = {i}");
            }
        }
    }
}
