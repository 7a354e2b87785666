"""Where one odrust detect run's time went: its slowest tests, its explanation runs by size, and
its shared-JVM orders by what they left running (the figures of docs/benchmarks.md "Cut by cost"
and "Slow tests asked alone, and what a shared JVM keeps", docs/minimize-algorithm.md "Where a set is cut").

Usage: where_time_went.py <output directory>
       (the -Dodrust.outputDirectory of a detect run, e.g. dubbo-common/target/odrust)

- Slowest tests: each test's median `time_ms` over the baseline and the rounds; the fewest tests
  whose medians make up 80% of the sum.
- Explanation runs (polluter, cleaner and state-setter searches and pairs) by order length: the
  whole module (at least 90% of its tests), 20 tests or more, fewer than 20; count and `millis`.
- Shared-JVM orders: by the threads the agent found left running, or idle pool workers it kept
  (`exp-N/events-*.done`), with
  the median of their `exit_ms` (the time after the tests: the grace a leaked thread waits out)
  and `setup_ms` (a first order in a new JVM sets up more).
"""
import collections
import glob
import json
import os
import statistics
import sys

EXPLAIN = ('polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair')


def main(out):
    detect = os.path.join(out, 'detect')
    rows = [json.loads(line) for line in open(os.path.join(detect, 'experiments.jsonl'))]
    module = max((len(r.get('order') or []) for r in rows if r['kind'] == 'baseline'), default=0)

    times = collections.defaultdict(list)
    for r in rows:
        if r['kind'] in ('baseline', 'round'):
            for res in r.get('results') or []:
                if res.get('time_ms') is not None:
                    times[res['test']].append(res['time_ms'])
    medians = sorted((statistics.median(v) for v in times.values()), reverse=True)
    total = sum(medians)
    if total:
        acc, n = 0, 0
        for m in medians:
            if acc >= 0.8 * total:
                break
            acc, n = acc + m, n + 1
        print(f'tests: {len(medians)}, median times sum {total / 1000:.1f} s; '
              f'{n} tests take {acc / 1000:.1f} s of it (80%)')

    sizes = collections.Counter()
    secs = collections.Counter()
    for r in rows:
        if r['kind'] not in EXPLAIN:
            continue
        n = len(r.get('order') or [])
        size = 'whole module' if module and n >= 0.9 * module else '20 tests or more' if n >= 20 else 'fewer than 20'
        where = 'shared' if r.get('isolation') == 'classloader' else 'fresh'
        sizes[(size, where)] += 1
        secs[(size, where)] += r.get('millis', 0)
    print('explanation runs:')
    for key in sorted(sizes):
        print(f'  {key[0]:17} {key[1]:7} {sizes[key]:4} runs {secs[key] / 1000:7.1f} s')

    left = collections.defaultdict(list)
    for r in rows:
        if r.get('isolation') != 'classloader':
            continue
        done = glob.glob(os.path.join(detect, f"exp-{r['id']}", 'events-*.jsonl.done'))
        if not done:
            continue
        leaked, idle = [], []
        for d in done:
            record = json.load(open(d))
            leaked += record.get('leaked_threads') or []
            idle += record.get('idle_threads') or []
        key = ('threads of the tests' if leaked and set(leaked) != {'process reaper (daemon)'}
               else 'only the process reaper' if leaked
               else 'idle pool workers, kept' if idle
               else 'nothing')
        t = r.get('time') or {}
        if t.get('exit_ms') is None or t.get('setup_ms') is None:
            continue
        left[key].append((t['exit_ms'], t['setup_ms']))
    print('shared-JVM orders by what they left running:')
    for key, v in sorted(left.items()):
        print(f'  {key:24} {len(v):4} orders, exit_ms median {statistics.median(x[0] for x in v):6.0f}, '
              f'setup_ms median {statistics.median(x[1] for x in v):6.0f}')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
