//! The greedy cover of a set of required pairs only (`dependence-aware`, DTDetector, ISSTA 2014).

use super::orders::Orders;
use super::units::{Bits, Units};
use crate::model::seed::mix64;

/// The greedy cover of the required pairs in `bits` (see [`covering`]).
pub(super) fn cover_required(units: &Units, mut bits: Bits, seed: u64) -> Orders {
    let n = units.len();
    let class_of = &units.class_of;
    let mut orders = Orders::new();
    let mut out_left: Vec<u32> = (0..n as u32).map(|a| bits.count_row(a)).collect();
    let mut in_left = vec![0u32; n];
    for a in 0..n as u32 {
        bits.scan(a, 0, n, |b| {
            in_left[b as usize] += 1;
            true
        });
    }
    let mut remaining: u64 = out_left.iter().map(|&c| u64::from(c)).sum();
    // Units that must start an order: uncovered successors, no uncovered predecessor.
    let mut sources: Vec<u32> = (0..n as u32)
        .rev()
        .filter(|&u| out_left[u as usize] > 0 && in_left[u as usize] == 0)
        .collect();
    let mut cursor = 0usize;
    let mut test_seen = vec![0u32; n];
    let mut class_seen = vec![0u32; units.sizes.len()];
    let mut stamp = 0u32;
    // How many uncovered successors of the last unit are looked at for one that may follow it.
    const LOOK: usize = 256;
    // Bridges in a row at most, and how many candidates one bridge looks at.
    const BRIDGES: usize = 1;
    const BRIDGE_LOOK: usize = 256;
    // Units that may still have uncovered successors (pruned as they run out).
    let mut active: Vec<u32> = (0..n as u32)
        .filter(|&u| out_left[u as usize] > 0)
        .collect();
    // A unit that may follow `x` in the order of `stamp` without covering a required pair:
    // not in the order yet, class-compatible (in `x`'s class only where that class may run it
    // next), with the most uncovered successors among up to `BRIDGE_LOOK` candidates.
    let bridge = |x: u32,
                  stamp: u32,
                  test_seen: &[u32],
                  class_seen: &[u32],
                  out_left: &[u32],
                  active: &mut Vec<u32>|
     -> Option<u32> {
        active.retain(|&u| out_left[u as usize] > 0);
        if active.is_empty() {
            return None;
        }
        let cx = class_of[x as usize];
        let start = (mix64(u64::from(stamp) ^ u64::from(x)) % active.len() as u64) as usize;
        let mut best: Option<u32> = None;
        for i in 0..active.len().min(BRIDGE_LOOK) {
            let y = active[(start + i) % active.len()];
            let cy = class_of[y as usize];
            let allowed = test_seen[y as usize] != stamp
                && if cy == cx {
                    units.reorderable[cx as usize] || units.fixed_next[x as usize] == y
                } else {
                    class_seen[cy as usize] != stamp
                };
            if allowed && best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                best = Some(y);
            }
        }
        best
    };
    while remaining > 0 {
        let mut x = loop {
            match sources.pop() {
                Some(u) if out_left[u as usize] > 0 => break u,
                Some(_) => continue,
                None => {
                    while out_left[cursor] == 0 {
                        cursor = (cursor + 1) % n;
                    }
                    break cursor as u32;
                }
            }
        };
        stamp += 1;
        let salt = mix64(seed ^ u64::from(stamp));
        orders.flat.push(x);
        test_seen[x as usize] = stamp;
        class_seen[class_of[x as usize] as usize] = stamp;
        let mut bridges = 0usize;
        loop {
            let cx = class_of[x as usize];
            let mut best: Option<u32> = None;
            let mut looked = 0;
            let mut consider = |y: u32| {
                let cy = class_of[y as usize];
                let allowed = test_seen[y as usize] != stamp
                    && (cy == cx || class_seen[cy as usize] != stamp);
                if allowed && best.is_none_or(|b| out_left[y as usize] > out_left[b as usize]) {
                    best = Some(y);
                }
                looked += 1;
                looked < LOOK
            };
            let rot = (mix64(salt ^ u64::from(x)) % n as u64) as usize;
            if !bits.scan(x, rot, n, &mut consider) {
                bits.scan(x, 0, rot, &mut consider);
            }
            let Some(y) = best else {
                // No uncovered required pair continues the order: rather than start a JVM for
                // the next one, run one more test that has uncovered pairs of its own (a bridge),
                // at most `BRIDGES` in a row; bridges left at the end are dropped.
                if bridges >= BRIDGES {
                    break;
                }
                let Some(y) = bridge(x, stamp, &test_seen, &class_seen, &out_left, &mut active)
                else {
                    break;
                };
                bridges += 1;
                orders.flat.push(y);
                test_seen[y as usize] = stamp;
                class_seen[class_of[y as usize] as usize] = stamp;
                x = y;
                continue;
            };
            bridges = 0;
            bits.clear(x, y);
            out_left[x as usize] -= 1;
            in_left[y as usize] -= 1;
            remaining -= 1;
            if in_left[y as usize] == 0 && out_left[y as usize] > 0 {
                sources.push(y);
            }
            orders.flat.push(y);
            test_seen[y as usize] = stamp;
            class_seen[class_of[y as usize] as usize] = stamp;
            x = y;
        }
        orders.flat.truncate(orders.flat.len() - bridges);
        orders.close();
    }
    orders
}
