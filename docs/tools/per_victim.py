"""Per-victim explanation figures of one odrust run: experiments and JVM time per OD test.

Usage: per_victim.py <module>/target/odrust
"""
import json, sys, collections
d = sys.argv[1]
r = json.load(open(d + '/report.json'))
spent = collections.Counter(); ms = collections.Counter(); kinds = collections.defaultdict(collections.Counter)
for line in open(d + '/detect/experiments.jsonl'):
    e = json.loads(line)
    k = e['kind']
    if k in ('polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair') and e.get('targets'):
        t = e['targets'][0]
        spent[t] += 1; ms[t] += e.get('millis', 0); kinds[t][k] += 1
f = r['flaky']
print('experiments', r['experiments'], 'OD', len(f), 'complete', sum(x['minimize_complete'] for x in f))
rows = []
for x in f:
    t = x['test']
    cl = [len(c) for c in x['cleaners'].values()]
    fr = x['flake_rate'] or {}
    rows.append((t.split('.')[-1], len(x['polluters']), min(cl) if cl else 0, max(cl) if cl else 0, spent[t], round(ms[t] / 1000, 1), x['minimize_complete'], fr.get('all_orders'), fr.get('class_compatible'), fr.get('method'), 'INCOMPLETE' if fr.get('incomplete') else ''))
rows.sort(key=lambda r: r[0])
for row in rows:
    print('| ' + ' | '.join(str(c) for c in row) + ' |')
vals = sorted(r[4] for r in rows); secs = sorted(r[5] for r in rows)
print('exp per victim min/median/max', vals[0], vals[len(vals)//2], vals[-1], 'sum', sum(vals))
print('JVM s per victim min/median/max', secs[0], secs[len(secs)//2], secs[-1], 'sum', round(sum(secs),1))
