//! Algorithm 1 of Wei et al., TACAS 2021 (section 5): the greedy inter-class cover that routes every order
//! through the classes with the most uncovered pairs.

use std::cmp::Reverse;

use super::orders::Orders;
use super::units::{fill_words, first_and, first_and_sparse, Bits, Units};
use crate::model::seed::mix64;

/// The greedy cover of the inter-class pairs the explicit `orders` so far missed.
///
/// Every order covers at most one pair into and one out of each class, so the classes with the
/// most inter-class pairs bound the number of orders: each order visits the classes by decreasing
/// `s (n - s)` (`s` tests; classes of equal size form a tier, entered at a seeded offset that
/// changes with every order, so that they take turns), taking from the last test a pair into the
/// first unvisited class it has an uncovered pair into, and the test there with the most uncovered
/// successors (of a few looked at). An order starts where an earlier one ended if that test has
/// more uncovered successors than predecessors (as in an Euler path decomposition), otherwise in
/// the last class of that ranking with uncovered successors, at its test with the most; it closes
/// when the last test has no uncovered pair into an unvisited class. Every step covers a new pair,
/// so executions stay `pairs + orders`.
///
/// The columns of the pair bits follow the ranking (class by class), so the first class of a
/// step is the first set bit of the last test's row, masked by the unvisited classes: a few word
/// operations. State: one bit per ordered pair, counts per test and class.
pub(super) fn cover_inter(units: &Units, orders: &mut Orders, seed: u64) {
    let n = units.len();
    let k = units.sizes.len();
    let class_of = &units.class_of;
    let sizes = &units.sizes;
    let weight = |c: u32| {
        let s = sizes[c as usize] as u64;
        s * (n as u64 - s)
    };
    let mut ranked: Vec<u32> = (0..k as u32).filter(|&c| sizes[c as usize] > 0).collect();
    ranked.sort_by_key(|&c| (Reverse(weight(c)), mix64(seed ^ u64::from(c)), c));
    // Column layout: `at[p]` is the unit at column `p`, `pos[u]` the column of unit `u`; the
    // classes in ranking order, each on `col[c]..col[c] + sizes[c]`.
    let mut at = Vec::with_capacity(n);
    let mut pos = vec![0u32; n];
    let mut col = vec![0u32; k];
    // Tiers: runs of classes of equal weight, `(first column, end column, classes)`.
    let mut tiers: Vec<(usize, usize, u32)> = Vec::new();
    let mut tier_of = vec![0u32; k];
    for (i, &c) in ranked.iter().enumerate() {
        if i == 0 || weight(ranked[i - 1]) != weight(c) {
            tiers.push((at.len(), at.len(), 0));
        }
        let tier = tiers.len() - 1;
        tier_of[c as usize] = tier as u32;
        col[c as usize] = at.len() as u32;
        let (lo, hi) = units.range(c);
        for (u, p) in pos.iter_mut().enumerate().take(hi).skip(lo) {
            *p = at.len() as u32;
            at.push(u as u32);
        }
        tiers[tier].1 = at.len();
        tiers[tier].2 += 1;
    }
    let cols = |c: u32| {
        let lo = col[c as usize] as usize;
        (lo, lo + sizes[c as usize])
    };
    let mut bits = Bits::new(n);
    let mut out_left = vec![0u32; n];
    let mut in_left = vec![0u32; n];
    for a in 0..n as u32 {
        let (lo, hi) = cols(class_of[a as usize]);
        bits.fill(a, 0, n, true);
        bits.fill(a, lo, hi, false);
        out_left[a as usize] = (n - (hi - lo)) as u32;
        in_left[a as usize] = out_left[a as usize];
    }
    for i in 0..orders.explicit() {
        for w in orders.explicit_order(i).windows(2) {
            if bits.clear(w[0], pos[w[1] as usize]) {
                out_left[w[0] as usize] -= 1;
                in_left[w[1] as usize] -= 1;
            }
        }
    }
    let mut out_c = vec![0u64; k];
    for u in 0..n {
        out_c[class_of[u] as usize] += u64::from(out_left[u]);
    }
    let mut remaining: u64 = out_c.iter().sum();
    // Per row, one bit per nonzero word of the row (the scans skip empty words without loading
    // them).
    let sw = bits.w.div_ceil(64);
    let mut nonzero = vec![0u64; n * sw];
    for a in 0..n as u32 {
        for (i, &word) in bits.row(a).iter().enumerate() {
            if word != 0 {
                nonzero[a as usize * sw + i / 64] |= 1u64 << (i % 64);
            }
        }
    }
    // Each executed step covers one pair; reserve for them and an order per biggest class pair.
    let bound = ranked.first().map_or(0, |&c| weight(c)) as usize;
    orders.flat.reserve(remaining as usize + bound + bound / 16);
    orders.starts.reserve(bound + bound / 16);
    // Per order: the unvisited columns (whole classes), unvisited classes per tier.
    let mut unvisited = vec![0u64; bits.w];
    let mut tier_left: Vec<u32> = vec![0; tiers.len()];
    let mut offset: Vec<usize> = vec![0; tiers.len()];
    // The last class in the ranking with uncovered successors (they only decrease).
    let mut tail = ranked.len();
    // Tests with more uncovered successors than predecessors (where orders ended): the next
    // orders start there, as in an Euler path decomposition.
    let mut surplus: Vec<u32> = Vec::new();
    let mut stamp = 0u64;
    // How many candidate tests of the chosen class are compared.
    const LOOK: usize = 8;
    while remaining > 0 {
        stamp += 1;
        let salt = mix64(seed ^ stamp);
        let mut x = loop {
            match surplus.pop() {
                Some(u) if out_left[u as usize] > in_left[u as usize] => break Some(u),
                Some(_) => continue,
                None => break None,
            }
        }
        .unwrap_or_else(|| {
            while out_c[ranked[tail - 1] as usize] == 0 {
                tail -= 1;
            }
            let (lo, hi) = units.range(ranked[tail - 1]);
            (lo..hi)
                .max_by_key(|&u| (out_left[u], Reverse(u)))
                .unwrap_or(lo) as u32
        });
        orders.flat.push(x);
        unvisited.fill(u64::MAX);
        for (left, tier) in tier_left.iter_mut().zip(&tiers) {
            *left = tier.2;
        }
        let mut first_tier = 0;
        for (o, &(lo, hi, _)) in offset.iter_mut().zip(&tiers) {
            *o = lo + (mix64(salt ^ lo as u64) % (hi - lo) as u64) as usize;
        }
        let visit = |c: u32, unvisited: &mut [u64], tier_left: &mut [u32]| {
            let (lo, hi) = cols(c);
            fill_words(unvisited, lo, hi, false);
            tier_left[tier_of[c as usize] as usize] -= 1;
        };
        visit(class_of[x as usize], &mut unvisited, &mut tier_left);
        loop {
            let row = bits.row(x);
            // The first unvisited class (in the ranking, a tier from its offset) with an
            // uncovered pair from `x`.
            let from = tiers.get(first_tier).map_or(n, |t| t.0);
            let summary = &nonzero[x as usize * sw..(x as usize + 1) * sw];
            let hit = first_and_sparse(row, summary, &unvisited, from, n).map(|p| {
                let t = tier_of[class_of[at[p] as usize] as usize] as usize;
                if offset[t] <= p {
                    p
                } else {
                    first_and(row, &unvisited, offset[t], tiers[t].1).unwrap_or(p)
                }
            });
            let Some(p) = hit else { break };
            let c = class_of[at[p] as usize];
            let (lo, hi) = cols(c);
            // A few candidates from a rotating offset; the one with the most successors left.
            let rot = lo + (mix64(salt ^ u64::from(x)) % (hi - lo) as u64) as usize;
            let mut best: Option<u32> = None;
            let mut looked = 0;
            let mut consider = |q: u32| {
                let y = at[q as usize];
                if best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                    best = Some(y);
                }
                looked += 1;
                looked < LOOK
            };
            if !bits.scan(x, rot, hi, &mut consider) {
                bits.scan(x, lo, rot, &mut consider);
            }
            let y = best.expect("a set bit in the class");
            let q = pos[y as usize] as usize;
            bits.clear(x, q as u32);
            if bits.row(x)[q / 64] == 0 {
                nonzero[x as usize * sw + q / 4096] &= !(1u64 << (q / 64 % 64));
            }
            out_left[x as usize] -= 1;
            in_left[y as usize] -= 1;
            out_c[class_of[x as usize] as usize] -= 1;
            remaining -= 1;
            orders.flat.push(y);
            visit(c, &mut unvisited, &mut tier_left);
            while first_tier < tiers.len() && tier_left[first_tier] == 0 {
                first_tier += 1;
            }
            x = y;
        }
        if out_left[x as usize] > in_left[x as usize] {
            surplus.push(x);
        }
        orders.close();
    }
}
