//! The schedulers' working sets: the suite's tests as indices grouped by class record, and one
//! bit per ordered pair.

use std::collections::HashSet;

use crate::model::suite::Suite;

/// The units of a suite as schedules number them: test ids deduplicated, in suite order; the
/// units of one class record are consecutive indices.
#[derive(Debug, Clone)]
pub(super) struct Units {
    pub(super) ids: Vec<String>,
    /// The class record of each unit.
    pub(super) class_of: Vec<u32>,
    /// For a unit of a fixed-order class, the unit after it there (`u32::MAX` otherwise).
    pub(super) fixed_next: Vec<u32>,
    /// Units per class record.
    pub(super) sizes: Vec<usize>,
    /// The first unit of each class record.
    pub(super) first: Vec<u32>,
    pub(super) reorderable: Vec<bool>,
}

impl Units {
    pub(super) fn of(suite: &Suite) -> Units {
        let mut units = Units {
            ids: Vec::new(),
            class_of: Vec::new(),
            fixed_next: Vec::new(),
            sizes: Vec::new(),
            first: Vec::new(),
            reorderable: Vec::new(),
        };
        let mut seen = HashSet::new();
        for (c, record) in suite.classes.iter().enumerate() {
            let start = units.ids.len();
            for id in &record.tests {
                if seen.insert(id.as_str()) {
                    units.ids.push(id.clone());
                    units.class_of.push(c as u32);
                    units.fixed_next.push(u32::MAX);
                }
            }
            let end = units.ids.len();
            if !record.reorderable {
                for u in start..end.saturating_sub(1) {
                    units.fixed_next[u] = u as u32 + 1;
                }
            }
            units.sizes.push(end - start);
            units.first.push(start as u32);
            units.reorderable.push(record.reorderable);
        }
        units
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The units of class `c`, as a range of indices.
    pub(super) fn range(&self, c: u32) -> (usize, usize) {
        let lo = self.first[c as usize] as usize;
        (lo, lo + self.sizes[c as usize])
    }

    /// Whether the framework can run `b` right after `a`: any two tests of different classes,
    /// of one reorderable class, or consecutive in a fixed order.
    pub(super) fn runnable(&self, a: u32, b: u32) -> bool {
        if a == b {
            return false;
        }
        let (ca, cb) = (self.class_of[a as usize], self.class_of[b as usize]);
        ca != cb || self.reorderable[ca as usize] || self.fixed_next[a as usize] == b
    }

    /// Number of ordered pairs the framework can run consecutively.
    pub(super) fn runnable_total(&self) -> u64 {
        let n = self.len() as u64;
        let mut total = n * n.saturating_sub(1);
        for (size, reorderable) in self.sizes.iter().zip(&self.reorderable) {
            let s = *size as u64;
            if !reorderable && s > 1 {
                total -= s * (s - 1) - (s - 1);
            }
        }
        total
    }
}

/// The units (test ids, deduplicated, in suite order) exactly as [`Schedule::new`] and
/// [`covering`] number them: unit index `i` of a schedule is `unit_ids(suite)[i]`.
pub fn unit_ids(suite: &Suite) -> Vec<String> {
    Units::of(suite).ids
}

/// How many ordered pairs of the suite's units the framework can run consecutively: the
/// class-compatible space of pairs.
pub fn runnable_pairs(suite: &Suite) -> u64 {
    Units::of(suite).runnable_total()
}

/// One bit per ordered pair of `n` units; each row padded to whole 64-bit words.
#[derive(Debug, Clone)]
pub(super) struct Bits {
    /// Words per row.
    pub(super) w: usize,
    pub(super) words: Vec<u64>,
}

impl Bits {
    pub(super) fn new(n: usize) -> Bits {
        let w = n.div_ceil(64);
        Bits {
            w,
            words: vec![0; n * w],
        }
    }

    pub(super) fn get(&self, a: u32, b: u32) -> bool {
        let b = b as usize;
        self.words[a as usize * self.w + b / 64] >> (b % 64) & 1 == 1
    }

    pub(super) fn set(&mut self, a: u32, b: u32) {
        let b = b as usize;
        self.words[a as usize * self.w + b / 64] |= 1u64 << (b % 64);
    }

    /// Clears the bit; whether it was set.
    pub(super) fn clear(&mut self, a: u32, b: u32) -> bool {
        let b = b as usize;
        let word = &mut self.words[a as usize * self.w + b / 64];
        let mask = 1u64 << (b % 64);
        let was = *word & mask != 0;
        *word &= !mask;
        was
    }

    /// Sets (`on`) or clears the bits `lo..hi` of row `a`.
    pub(super) fn fill(&mut self, a: u32, lo: usize, hi: usize, on: bool) {
        let w = self.w;
        fill_words(
            &mut self.words[a as usize * w..(a as usize + 1) * w],
            lo,
            hi,
            on,
        );
    }

    /// The words of row `a`.
    pub(super) fn row(&self, a: u32) -> &[u64] {
        &self.words[a as usize * self.w..(a as usize + 1) * self.w]
    }

    /// Calls `f` with every set bit `b` in `lo..hi` of row `a`, ascending, until it returns false.
    /// Whether it was stopped.
    pub(super) fn scan(
        &self,
        a: u32,
        lo: usize,
        hi: usize,
        mut f: impl FnMut(u32) -> bool,
    ) -> bool {
        let row = &self.words[a as usize * self.w..(a as usize + 1) * self.w];
        let mut i = lo;
        while i < hi {
            let end = ((i / 64 + 1) * 64).min(hi);
            let span = end - i;
            let mut word = row[i / 64] >> (i % 64);
            if span < 64 {
                word &= (1u64 << span) - 1;
            }
            while word != 0 {
                if !f((i + word.trailing_zeros() as usize) as u32) {
                    return true;
                }
                word &= word - 1;
            }
            i = end;
        }
        false
    }

    /// Set bits of row `a`.
    pub(super) fn count_row(&self, a: u32) -> u32 {
        self.words[a as usize * self.w..(a as usize + 1) * self.w]
            .iter()
            .map(|w| w.count_ones())
            .sum()
    }
}

/// The required pairs of a `dependence-aware` schedule: sorted successor lists when sparse (one
/// `u32` per pair), one bit per ordered pair when that is smaller.
#[derive(Debug, Clone)]
pub(super) enum PairSet {
    Sparse { offsets: Vec<usize>, succ: Vec<u32> },
    Dense { bits: Bits, len: u64 },
}

impl PairSet {
    /// The runnable pairs `(a, b)` with `required(a, b)`, asking `required` once per pair.
    pub(super) fn collect(units: &Units, required: &dyn Fn(u32, u32) -> bool) -> PairSet {
        let n = units.len();
        // A list costs 32 bits per pair, a bit set one bit per ordered pair.
        let limit = (n * n) / 32;
        let mut offsets = Vec::with_capacity(n + 1);
        let mut succ: Vec<u32> = Vec::new();
        let mut dense: Option<(Bits, u64)> = None;
        for a in 0..n as u32 {
            offsets.push(succ.len());
            for b in 0..n as u32 {
                if !units.runnable(a, b) || !required(a, b) {
                    continue;
                }
                match &mut dense {
                    Some((bits, len)) => {
                        bits.set(a, b);
                        *len += 1;
                    }
                    None => {
                        succ.push(b);
                        if succ.len() > limit {
                            let mut bits = Bits::new(n);
                            for x in 0..=a as usize {
                                let end = offsets.get(x + 1).copied().unwrap_or(succ.len());
                                for &y in &succ[offsets[x]..end] {
                                    bits.set(x as u32, y);
                                }
                            }
                            dense = Some((bits, succ.len() as u64));
                            succ = Vec::new();
                        }
                    }
                }
            }
        }
        offsets.push(succ.len());
        match dense {
            Some((bits, len)) => PairSet::Dense { bits, len },
            None => PairSet::Sparse { offsets, succ },
        }
    }

    pub(super) fn len(&self) -> u64 {
        match self {
            PairSet::Sparse { succ, .. } => succ.len() as u64,
            PairSet::Dense { len, .. } => *len,
        }
    }

    pub(super) fn contains(&self, a: u32, b: u32) -> bool {
        match self {
            PairSet::Sparse { offsets, succ } => succ[offsets[a as usize]..offsets[a as usize + 1]]
                .binary_search(&b)
                .is_ok(),
            PairSet::Dense { bits, .. } => bits.get(a, b),
        }
    }

    /// The pairs as a bit set over `n` units.
    pub(super) fn bits(&self, n: usize) -> Bits {
        match self {
            PairSet::Sparse { offsets, succ } => {
                let mut bits = Bits::new(n);
                for a in 0..n {
                    for &b in &succ[offsets[a]..offsets[a + 1]] {
                        bits.set(a as u32, b);
                    }
                }
                bits
            }
            PairSet::Dense { bits, .. } => bits.clone(),
        }
    }
}

/// Sets (`on`) or clears the bits `lo..hi` of `words`.
pub(super) fn fill_words(words: &mut [u64], lo: usize, hi: usize, on: bool) {
    let mut i = lo;
    while i < hi {
        let end = ((i / 64 + 1) * 64).min(hi);
        let span = end - i;
        let mask = if span == 64 {
            u64::MAX
        } else {
            ((1u64 << span) - 1) << (i % 64)
        };
        if on {
            words[i / 64] |= mask;
        } else {
            words[i / 64] &= !mask;
        }
        i = end;
    }
}

/// The first bit in `lo..hi` set in both `a` and `b`, looking only at the words of `a` whose bit
/// is set in `summary` (one bit per word: whether it is nonzero).
pub(super) fn first_and_sparse(
    a: &[u64],
    summary: &[u64],
    b: &[u64],
    lo: usize,
    hi: usize,
) -> Option<usize> {
    if lo >= hi {
        return None;
    }
    let (first, last) = (lo / 64, (hi - 1) / 64);
    let mut s = first / 64;
    let mut mask = summary[s] & (u64::MAX << (first % 64));
    loop {
        while mask != 0 {
            let w = s * 64 + mask.trailing_zeros() as usize;
            if w > last {
                return None;
            }
            let mut word = a[w] & b[w];
            if w == first {
                word &= u64::MAX << (lo % 64);
            }
            if w == last && !hi.is_multiple_of(64) {
                word &= (1u64 << (hi % 64)) - 1;
            }
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            mask &= mask - 1;
        }
        s += 1;
        if s * 64 > last {
            return None;
        }
        mask = summary[s];
    }
}

/// The first bit in `lo..hi` set in both `a` and `b`.
pub(super) fn first_and(a: &[u64], b: &[u64], lo: usize, hi: usize) -> Option<usize> {
    let mut i = lo;
    while i < hi {
        let w = i / 64;
        let end = ((w + 1) * 64).min(hi);
        let mut word = (a[w] & b[w]) >> (i % 64);
        if end - i < 64 {
            word &= (1u64 << (end - i)) - 1;
        }
        if word != 0 {
            return Some(i + word.trailing_zeros() as usize);
        }
        i = end;
    }
    None
}
