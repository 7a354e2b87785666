//! Tuscan squares: `n` permutations of `0..n` in which every ordered pair `(i, j)` of distinct
//! numbers is consecutive in some row (a decomposition of the complete digraph on `n` vertices
//! into Hamiltonian paths).
//!
//! Constructions:
//!
//! - even `n`: Walecki's zig-zag `0, n-1, 1, n-2, ...` and its `n` cyclic shifts, a Tuscan square
//!   (`n` rows of length `n`, the fewest possible);
//! - odd `n`: the square of order `n + 1` with the number `n` deleted from every row. Deleting a
//!   number never separates two others that were consecutive, so every ordered pair of `0..n` is
//!   still consecutive in some row: `n + 1` rows, one more than the lower bound `n`. For `n = 3`
//!   and `n = 5`, which have no Tuscan square, that is the least possible (4 and 6, Wei et al.).
//!   Tillson's constructions reach `n` rows for odd `n >= 7`; they are not implemented here.
//!
//! Every row holds each number at most once; the tests below check the coverage.

/// Rows covering every ordered pair of `0..n` consecutively: `n` rows for even `n`, `n + 1`
/// for odd `n > 1`. `n = 0` gives no row, `n = 1` the row `[0]`.
pub fn square(n: usize) -> Vec<Vec<u32>> {
    match n {
        0 => Vec::new(),
        1 => vec![vec![0]],
        n if n % 2 == 0 => walecki(n),
        n => walecki(n + 1)
            .into_iter()
            .map(|row| row.into_iter().filter(|&v| v as usize != n).collect())
            .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn every_order_up_to_130_is_covered_with_n_rows_or_one_more_for_odd_n() {
        for n in 0..=130 {
            let rows = square(n);
            check(n, &rows);
            let expected = if n > 1 && n % 2 == 1 { n + 1 } else { n };
            assert_eq!(rows.len(), expected, "n = {n}");
            assert!(rows.iter().all(|r| r.len() == n), "n = {n}: a short row");
        }
    }

    #[test]
    fn three_and_five_need_four_and_six_rows() {
        assert_eq!(square(3).len(), 4);
        assert_eq!(square(5).len(), 6);
    }

    #[test]
    fn large_orders_of_each_family_are_covered() {
        for n in [257, 258, 259, 265, 513, 1025] {
            check(n, &square(n));
        }
    }
}
