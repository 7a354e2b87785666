//! Orders as the schedulers keep them: stored rows of test indices, or computed on demand from
//! a Latin construction.

use super::cost::CostModel;

/// Orders computed on demand for `k` classes of `m` tests each (`m >= 2`): for every row `R` of
/// a Tuscan square over the classes and every `(u, v)` in `Z_m²`, the order whose test at
/// position `p` is test `u + p·v mod m` of class `R[p]`. Consecutive positions hold
/// `(x, x + v)`, so over the `m²` choices of `(u, v)` every ordered pair of tests of two classes
/// consecutive in `R` is consecutive once: `rows · m²` orders of `k` tests cover every
/// inter-class pair.
///
/// The same over bins: a "class" of `tests` may be a bin of several classes, and an entry
/// [`HOLE`] (a bin with fewer than `m` tests) is left out of the orders, which joins its two
/// neighbours (tests of two other bins: the order stays class-compatible and every pair of the
/// full construction stays consecutive).
#[derive(Debug, Clone)]
pub(super) struct Latin {
    pub(super) k: usize,
    pub(super) m: usize,
    /// The rows of the square, `k` entries each (indices into the classes of `tests`).
    pub(super) rows: Vec<u32>,
    /// The units of each class, `m` per class (seeded order), or [`HOLE`].
    pub(super) tests: Vec<u32>,
    /// Entries of `tests` that are not [`HOLE`].
    pub(super) real: usize,
}

/// An empty place of a bin in [`Latin::tests`].
pub(super) const HOLE: u32 = u32::MAX;

impl Latin {
    pub(super) fn len(&self) -> usize {
        self.rows.len() / self.k * self.m * self.m
    }

    /// Each place of a bin holds each of its `m` entries in `m` orders of every row.
    pub(super) fn executions(&self) -> u64 {
        (self.rows.len() / self.k * self.m * self.real) as u64
    }

    pub(super) fn order(&self, j: usize, out: &mut Vec<u32>) {
        let (row, rest) = (j / (self.m * self.m), j % (self.m * self.m));
        let (mut x, v) = (rest / self.m, rest % self.m);
        for &class in &self.rows[row * self.k..(row + 1) * self.k] {
            let t = self.tests[class as usize * self.m + x];
            if t != HOLE {
                out.push(t);
            }
            x = (x + v) % self.m;
        }
    }
}

/// Explicit orders: first `rows` (kept as built, e.g. the rows of a Tuscan square, so they are
/// not copied), then `flat[starts[i]..starts[i + 1]]`; then the computed ones of `latin`.
#[derive(Debug, Clone, Default)]
pub(super) struct Orders {
    pub(super) rows: Vec<Vec<u32>>,
    pub(super) flat: Vec<u32>,
    pub(super) starts: Vec<usize>,
    pub(super) latin: Option<Latin>,
}

impl Orders {
    pub(super) fn new() -> Orders {
        Orders {
            rows: Vec::new(),
            flat: Vec::new(),
            starts: vec![0],
            latin: None,
        }
    }

    pub(super) fn explicit(&self) -> usize {
        self.rows.len() + self.starts.len() - 1
    }

    /// Explicit order `i`.
    pub(super) fn explicit_order(&self, i: usize) -> &[u32] {
        match i.checked_sub(self.rows.len()) {
            None => &self.rows[i],
            Some(j) => &self.flat[self.starts[j]..self.starts[j + 1]],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.explicit() + self.latin.as_ref().map_or(0, Latin::len)
    }

    pub(super) fn executions(&self) -> u64 {
        self.rows.iter().map(|r| r.len() as u64).sum::<u64>()
            + self.flat.len() as u64
            + self.latin.as_ref().map_or(0, Latin::executions)
    }

    /// Order `i` (in construction order), appended to `out`.
    pub(super) fn get(&self, i: usize, out: &mut Vec<u32>) {
        if i < self.explicit() {
            out.extend_from_slice(self.explicit_order(i));
        } else if let Some(latin) = &self.latin {
            latin.order(i - self.explicit(), out);
        }
    }

    /// Closes the order started at the end of the last one; an order of fewer than two tests
    /// covers nothing and is dropped.
    pub(super) fn close(&mut self) {
        let start = *self.starts.last().unwrap_or(&0);
        if self.flat.len() - start < 2 {
            self.flat.truncate(start);
        } else {
            self.starts.push(self.flat.len());
        }
    }

    /// The sequence in which the orders run: construction order, or with `cost` by decreasing
    /// pairs per predicted millisecond (`(len - 1) / (cost0 + Σ ms)`), ties in construction order.
    pub(super) fn sequence(&self, ids: &[String], cost: Option<&CostModel>) -> Vec<u32> {
        let mut sequence: Vec<u32> = (0..self.len() as u32).collect();
        if let Some(cost) = cost {
            let ms: Vec<u64> = ids.iter().map(|u| cost.ms(u)).collect();
            let mut order = Vec::new();
            let values: Vec<f64> = sequence
                .iter()
                .map(|&i| {
                    order.clear();
                    self.get(i as usize, &mut order);
                    let price = cost.cost0_ms + order.iter().map(|&u| ms[u as usize]).sum::<u64>();
                    (order.len().saturating_sub(1) as f64) / (price.max(1) as f64)
                })
                .collect();
            sequence.sort_by(|&a, &b| {
                values[b as usize]
                    .total_cmp(&values[a as usize])
                    .then(a.cmp(&b))
            });
        }
        sequence
    }
}
