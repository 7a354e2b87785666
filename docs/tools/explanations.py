"""Explanation experiments of one or more odrust detect runs, side by side: how many, where they
ran (shared JVM or fresh), which were a claim's own run, and what they cost against the rounds.

Usage: explanations.py <output directory> [<output directory> ...]
       (each the -Dodrust.outputDirectory of a detect run, e.g. dubbo-common/target/odrust)

A claim's own run is a polluter or state-setter pair [p, t] or a cleaner run [p, c, t]: its order
is its targets after the first, then the first (the engine's `claim_shaped`). Times are the
experiments' own `millis`: the time odrust took to run each one (a fresh JVM's from its start to
its exit; in a shared JVM, the order's own time there), not the run's wall time.
"""
import collections
import json
import sys

EXPLAIN = ('polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair')
ROUNDS = ('round',)


def claim_shaped(e):
    examined = {'polluter-pair': 1, 'setter-pair': 1, 'cleaner': 2}.get(e['kind'])
    t, o = e.get('targets') or [], e.get('order') or []
    return examined is not None and len(t) == examined + 1 and len(o) == len(t) and o[:examined] == t[1:]


def summary(out):
    counts, millis = collections.Counter(), collections.Counter()
    rounds_ms = 0
    claim_fresh_orders, claim_shared_orders = set(), set()
    with open(out + '/detect/experiments.jsonl') as f:
        for line in f:
            e = json.loads(line)
            if e['kind'] in ROUNDS:
                rounds_ms += e.get('millis', 0)
                continue
            if e['kind'] not in EXPLAIN:
                continue
            where = 'shared' if e.get('isolation') == 'classloader' else 'fresh'
            shape = 'claim' if claim_shaped(e) else 'search'
            for key in ((), (where,), (e['kind'], where), (shape, where)):
                counts[key] += 1
                millis[key] += e.get('millis', 0)
            order = tuple(e['order'])
            if shape == 'claim':
                (claim_shared_orders if where == 'shared' else claim_fresh_orders).add(order)
    # a claim order that ran both shared and fresh (the planner runs an order again only to check
    # it fresh): the fresh run checked the shared one, or its test was explained again fresh
    return {
        'counts': counts,
        'millis': millis,
        'rounds_ms': rounds_ms,
        'checked': len(claim_shared_orders & claim_fresh_orders),
        'fresh_only': len(claim_fresh_orders - claim_shared_orders),
    }


def main(dirs):
    runs = [summary(d) for d in dirs]
    keys = sorted({k for r in runs for k in r['counts']}, key=lambda k: (len(k), k))
    print('| | ' + ' | '.join(dirs) + ' |')
    print('|---' * (len(dirs) + 1) + '|')

    def name(k):
        return 'all explanation experiments' if not k else ' '.join(k)

    for k in keys:
        print('| ' + name(k) + ' | ' + ' | '.join(
            '%d, %.0f s' % (r['counts'][k], r['millis'][k] / 1000) for r in runs) + ' |')
    print('| claim orders run shared and fresh | ' + ' | '.join(str(r['checked']) for r in runs) + ' |')
    print('| claim orders run fresh only | ' + ' | '.join(str(r['fresh_only']) for r in runs) + ' |')
    print('| rounds | ' + ' | '.join('%.0f s' % (r['rounds_ms'] / 1000) for r in runs) + ' |')
    print('| explanations / rounds | ' + ' | '.join(
        ('%.2fx' % (r['millis'][()] / r['rounds_ms'])) if r['rounds_ms'] else '-' for r in runs) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
