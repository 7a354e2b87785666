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
//! | odd, `n ≡ 1 (mod 4)`, `9 <= n <= 25` | `n` | the same, with a path found by a search (a table) |
//! | 3, 5 | `n + 1` | no Tuscan square exists (Wei et al.); 4 and 6 rows is the least possible |
//! | odd, `n ≡ 1 (mod 4)`, `n >= 29` | `n + 1` | the square of order `n + 1` with `n` deleted |
//!
//! `n` rows is the lower bound. Tuscan squares exist for every odd `n >= 7` (Tillson 1980); the
//! `n + 1` rows for `n ≡ 1 (mod 4)`, `n >= 29` are one above the bound because Tillson's
//! recursive construction for that class is not implemented. Deleting a number from every row of
//! a square of order `n + 1` never separates two others that were consecutive, so that fallback
//! still covers every ordered pair.
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
//! Hamiltonian and rainbow (O(n)) before building the rows, and falls back to `n + 1` rows if not
//! (which no tested `n` does).
//!
//! For odd `k` (`n ≡ 3 (mod 4)`), `P` starts at `∞` and follows `σ`: `σ(x) = x + k - 2` except
//! `σ(∞) = N - 2`, `σ(a) = a - 3` for `a = (k+1)/2`, `σ(k) = k - 2`, `σ(b) = b - 1` for
//! `b = (3k-1)/2`, and `0` ends the path. `σ` swaps the successors of `0, k` and of `a, b` in the
//! translation `x → x + k - 2` (one `N`-cycle because `gcd(k-2, 2k) = 1`) and puts `∞` on the
//! arc out of `0`; the four changed arcs carry exactly the labels the translation gave
//! `T = {0, a, k, b}` (`T + (k-3)/2`), so every label is used once. That the result is one cycle
//! through all `n` vertices is checked for every odd `k < 5,000` by a unit test (and at run time).
//! The gadget was found by a computer search over small modifications of a translation and then
//! verified by hand as above.
//!
//! For even `k` (`n ≡ 1 (mod 4)`) no such short modification was found (none changing at most 4
//! points of a translation for `n >= 17`, nor at most 6 points near multiples of `k/2` for the
//! sizes tried). For `n = 9, 13, 17, 21, 25` the path comes from [`SEARCHED_PATHS`], the first
//! path of a deterministic depth-first search (a test re-runs the search and compares); larger
//! `n ≡ 1 (mod 4)` keep `n + 1` rows.
//!
//! Every row holds each number at most once; the tests below check the coverage.

/// Rainbow paths `∞, 0, ...` (without the leading `∞`) for `n = 9, 13, 17, 21, 25`: the first
/// path found by the depth-first search in the tests (`searched_path`, successors tried in the
/// order `x + 1, x + 2, ...`), which reproduces this table. Larger `n ≡ 1 (mod 4)` need far more
/// search than is reasonable at run time (`n = 25`: 55,613 nodes; `n = 29`: none within 3 M).
const SEARCHED_PATHS: [&[u8]; 5] = [
    &[0, 2, 3, 4, 6, 7, 1, 5],
    &[0, 2, 3, 4, 10, 1, 8, 11, 9, 7, 5, 6],
    &[0, 2, 3, 4, 5, 6, 8, 13, 15, 11, 12, 1, 14, 10, 9, 7],
    &[
        0, 2, 3, 4, 5, 6, 7, 8, 10, 12, 13, 16, 19, 18, 14, 17, 1, 15, 11, 9,
    ],
    &[
        0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 18, 16, 23, 22, 20, 21, 1, 19, 17, 13, 11,
    ],
];

/// Largest `n ≡ 1 (mod 4)` with a path in [`SEARCHED_PATHS`].
const SEARCHED_MAX_N: usize = 25;

/// Rows covering every ordered pair of `0..n` consecutively: `n` rows for even `n` and for odd
/// `n >= 7` with `n ≡ 3 (mod 4)` or `n <= 25`; `n + 1` rows for `n = 3`, `n = 5` (no Tuscan square
/// exists) and odd `n >= 29` with `n ≡ 1 (mod 4)`. `n = 0` gives no row, `n = 1` the row `[0]`.
/// See the module documentation for the constructions.
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
    let base: Vec<usize> = (0..n)
        .map(|j| if j % 2 == 0 { j / 2 } else { n - 1 - j / 2 })
        .collect();
    (0..n)
        .map(|shift| base.iter().map(|&v| ((v + shift) % n) as u32).collect())
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
    } else if n <= SEARCHED_MAX_N {
        let mut path = vec![2 * k];
        path.extend(SEARCHED_PATHS[(n - 9) / 4].iter().map(|&v| usize::from(v)));
        path
    } else {
        return None;
    };
    let tails = rainbow_tails(k, &path)?;
    let big = 2 * k;
    let mut rows = Vec::with_capacity(n);
    for (j, &tail) in tails.iter().enumerate() {
        // D_j = (∞, j + z_0, ..., j + z_{N-1}); cut it after `tail`.
        let cycle_at = |i: usize| -> u32 {
            if i == 0 {
                big as u32
            } else {
                ((j + zigzag(k, i - 1)) % big) as u32
            }
        };
        let cut = if tail == big {
            0
        } else {
            1 + zigzag_index(k, (tail + big - j) % big)
        };
        let mut row = Vec::with_capacity(n);
        row.extend((cut + 1..=big).map(cycle_at));
        row.extend((0..=cut).map(cycle_at));
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
        let exact = n.is_multiple_of(2) || (n >= 7 && (n % 4 == 3 || n <= SEARCHED_MAX_N));
        if n <= 1 || exact {
            n
        } else {
            n + 1
        }
    }

    #[test]
    fn every_order_up_to_130_is_covered_with_n_rows_except_3_5_and_1_mod_4_from_29() {
        for n in 0..=130 {
            let rows = square(n);
            check(n, &rows);
            assert_eq!(rows.len(), expected_rows(n), "n = {n}");
            assert!(rows.iter().all(|r| r.len() == n), "n = {n}: a short row");
        }
        assert_eq!(square(7).len(), 7);
        assert_eq!(square(9).len(), 9);
        assert_eq!(square(25).len(), 25);
        assert_eq!(square(29).len(), 30);
    }

    #[test]
    fn three_and_five_need_four_and_six_rows() {
        assert_eq!(square(3).len(), 4);
        assert_eq!(square(5).len(), 6);
    }

    #[test]
    fn large_orders_of_each_family_are_covered() {
        for n in [257, 258, 259, 265, 513, 1025] {
            let rows = square(n);
            check(n, &rows);
            assert_eq!(rows.len(), expected_rows(n), "n = {n}");
        }
    }

    #[test]
    fn large_odd_orders_are_covered_with_the_documented_row_count() {
        for n in [1001, 1003, 2001, 2003, 5003] {
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
    fn the_search_reproduces_the_table_of_rainbow_paths_for_n_1_mod_4_up_to_25() {
        for n in (9..=SEARCHED_MAX_N).step_by(4) {
            let k = (n - 1) / 2;
            let path = searched_path(k, 60_000).expect("within the node bound");
            assert!(rainbow_tails(k, &path).is_some(), "n = {n}");
            let table: Vec<usize> = SEARCHED_PATHS[(n - 9) / 4]
                .iter()
                .map(|&v| usize::from(v))
                .collect();
            assert_eq!(path[1..], table[..], "n = {n}");
        }
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
