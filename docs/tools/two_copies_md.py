"""Per-victim explanation figures of a run continued in two copies (docs/minimize-real-projects.md, visualee).

Usage: two_copies_md.py <copy A target/odrust> <copy B target/odrust> <lists of the tests copy B explained>..."""
import json, collections, sys
A, B, HALF_B = sys.argv[1].rstrip("/") + "/", sys.argv[2].rstrip("/") + "/", sys.argv[3:]
half_b=set(t for f in HALF_B for t in open(f).read().split())
def load(d):
    r=json.load(open(d+'report.json'))
    spent=collections.Counter(); ms=collections.Counter(); cl=collections.Counter()
    n=0
    for line in open(d+'detect/experiments.jsonl'):
        e=json.loads(line); n+=1
        if e['kind'] in ('polluter-search','polluter-pair','cleaner') and e.get('targets'):
            t=e['targets'][0]; spent[t]+=1; ms[t]+=e.get('millis',0); cl[t]+= e['kind']=='cleaner'
    return r, spent, ms, cl, n
ra, sa, ma, ca, na = load(A); rb, sb, mb, cb, nb = load(B)
fa={f['test']:f for f in ra['flaky']}; fb={f['test']:f for f in rb['flaky']}
rows=[]
for t in sorted(fa):
    inb = t in half_b
    f = fb[t] if inb else fa[t]
    s, m, c = (sb, mb, cb) if inb else (sa, ma, ca)
    cls=[len(x) for x in f['cleaners'].values()]
    fr=f['flake_rate'] or {}
    rows.append((t.split('visualee.')[-1], len(f['polluters']), (min(cls), max(cls)) if cls else (0,0), s[t], c[t], m[t]/1000, f['minimize_complete'], fr))
done=[r for r in rows if r[6]]
print(f'history: {na} experiments in the first copy, {nb} in the second; complete {len(done)} of {len(rows)}')
e=sorted(r[3] for r in done); s=sorted(r[5] for r in done); c=sorted(r[4] for r in done)
print(f'per complete victim: experiments {e[0]}/{e[len(e)//2]}/{e[-1]} (min/median/max), cleaner runs {c[0]}/{c[len(c)//2]}/{c[-1]}, JVM time {s[0]:.1f}/{s[len(s)//2]:.1f}/{s[-1]:.1f} s; sums {sum(e)} experiments, {sum(s)/60:.1f} min')
print()
print('| victim | polluters | cleaners per polluter | exp. | of which cleaner | JVM time | complete | flake rate all / class-compatible |')
print('|---|---|---|---|---|---|---|---|')
for r in rows:
    fr=r[7]
    rate = f"{fr.get('all_orders')} / {fr.get('class_compatible')} {fr.get('method')}" + (' INCOMPLETE' if fr.get('incomplete') else '') if fr else '—'
    print(f'| {r[0]} | {r[1]} | {r[2][0]}–{r[2][1]} | {r[3]} | {r[4]} | {r[5]:.1f} s | {"yes" if r[6] else "no"} | {rate} |')
