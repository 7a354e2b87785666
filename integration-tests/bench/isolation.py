#!/usr/bin/env python3
"""Whole `odrust:detect` runs with -Dodrust.isolation=jvm and =classloader, side by side.

    integration-tests/bench/isolation.py PROJECT_DIR [--runs 3] [--strategies reverse-passing,tuscan]
                                         [--mvn mvn] [--seed 1] [--set odrust.minimize=false ...]
                                         [--variant NAME:ISOLATION:MVN ...]

With --variant, each variant names its isolation and the Maven command that runs it (a script that
points Maven at another local repository compares two builds of odrust side by side). Runs are
interleaved (jvm, classloader, jvm, ...) so that a noisy machine affects both alike. For
each run: the wall time of the Maven invocation, the rounds, the rounds' own time (the sum of the
round experiments' `millis` in detect/experiments.jsonl), orders per minute over the rounds, how
many rounds ran in shared JVMs, the explanation experiments (how many, how many shared, their own
time), and the flaky tests found (test, kind, polluters, cleaners and state-setters). Prints one
line per run, then per strategy and isolation the medians and the ratio classloader / jvm. Uses the
plugin installed in the local repository (0.1.0-SNAPSHOT).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def run(project, mvn, strategy, isolation, seed, out, extra):
    cmd = [mvn, "-B", "-q", "io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:detect",
           f"-Dodrust.seed={seed}", f"-Dodrust.strategy={strategy}", f"-Dodrust.isolation={isolation}",
           f"-Dodrust.outputDirectory={out}"] + [f"-D{p}" for p in extra]
    os.makedirs(os.path.join(project, os.path.dirname(out)), exist_ok=True)
    start = time.monotonic()
    with open(os.path.join(project, out + ".log"), "w") as log:
        code = subprocess.call(cmd, cwd=project, stdout=log, stderr=subprocess.STDOUT)
    wall = time.monotonic() - start
    if code != 0:
        sys.exit(f"{' '.join(cmd)} failed in {project}: see {out}.log")
    history = [json.loads(line) for line in open(os.path.join(project, out, "detect", "experiments.jsonl")) if line.strip()]
    rounds = [r for r in history if r["kind"] == "round"]
    round_s = sum(r["millis"] for r in rounds) / 1000
    explaining = [r for r in history if r["kind"] in EXPLAINING]
    alone = [r for r in history if r["kind"] == "alone"]
    report = json.load(open(os.path.join(project, out, "report.json")))
    flaky = sorted(f"{f['test']}:{f['kind']}:{f.get('polluters')}:{sorted((f.get('cleaners') or {}).items())}:"
                   f"{f.get('state_setters')}" for f in report["flaky"])
    return {"wall": wall, "rounds": len(rounds), "round_s": round_s,
            "per_min": len(rounds) / round_s * 60 if round_s else 0.0,
            "shared": sum(1 for r in rounds if r.get("isolation") == "classloader"),
            "explaining": len(explaining), "explain_s": sum(r["millis"] for r in explaining) / 1000,
            "explain_shared": sum(1 for r in explaining if r.get("isolation") == "classloader"),
            "alone": len(alone), "alone_s": sum(r["millis"] for r in alone) / 1000,
            "alone_shared": sum(1 for r in alone if r.get("isolation") == "classloader"),
            "experiments": len(history), "flaky": flaky}


EXPLAINING = {"polluter-search", "polluter-pair", "cleaner", "setter-search", "setter-pair"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("project")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--strategies", default="reverse-passing,tuscan")
    p.add_argument("--mvn", default="mvn")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", action="append", default=[], help="another property, e.g. odrust.minimize=false")
    p.add_argument("--variant", action="append", default=[],
                   help="NAME:ISOLATION:MVN, e.g. before:classloader:/path/to/mvn-with-old-plugin (repeatable; "
                        "default: jvm:jvm:MVN and classloader:classloader:MVN); the first is the base of the ratios")
    a = p.parse_args()
    variants = [tuple(v.split(":", 2)) for v in a.variant] or [("jvm", "jvm", a.mvn), ("classloader", "classloader", a.mvn)]
    results = {}
    for strategy in a.strategies.split(","):
        for n in range(1, a.runs + 1):
            for name, isolation, mvn in variants:
                r = run(a.project, mvn, strategy, isolation, a.seed, f"target/odrust-bench/{strategy}-{name}-{n}", a.set)
                results.setdefault((strategy, name), []).append(r)
                print(f"{strategy}\t{name}\trun {n}\twall {r['wall']:.1f} s\t{r['rounds']} rounds "
                      f"({r['shared']} shared) in {r['round_s']:.1f} s\t{r['per_min']:.0f} orders/min\t"
                      f"{r['explaining']} explanation runs ({r['explain_shared']} shared) in {r['explain_s']:.1f} s\t"
                      f"{r['alone']} alone runs ({r['alone_shared']} shared) in {r['alone_s']:.1f} s\t"
                      f"{r['experiments']} experiments\t{' '.join(r['flaky']) or 'nothing found'}", flush=True)
    print()
    print("| strategy | variant | wall (median) | rounds | rounds' time (median) | orders/min (median) | explanation runs | their time (median) | alone runs | their time (median) | same findings in every run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    med = statistics.median
    for strategy in a.strategies.split(","):
        base = results[(strategy, variants[0][0])]
        for name, _, _ in variants:
            rs = results[(strategy, name)]
            same = all(r["flaky"] == base[0]["flaky"] for r in rs)
            print(f"| {strategy} | {name} | {med(r['wall'] for r in rs):.1f} s | {rs[0]['rounds']} | "
                  f"{med(r['round_s'] for r in rs):.1f} s | {med(r['per_min'] for r in rs):.0f} | "
                  f"{rs[0]['explaining']} ({rs[0]['explain_shared']} shared) | {med(r['explain_s'] for r in rs):.1f} s | "
                  f"{rs[0]['alone']} ({rs[0]['alone_shared']} shared) | {med(r['alone_s'] for r in rs):.1f} s | "
                  f"{'yes' if same else 'NO'} |")
        for name, _, _ in variants[1:]:
            cl = results[(strategy, name)]
            ratio = med(r["per_min"] for r in cl) / med(r["per_min"] for r in base)
            wall = med(r["wall"] for r in base) / med(r["wall"] for r in cl)
            explain_cl = med(r["explain_s"] for r in cl)
            explain = f"{med(r['explain_s'] for r in base) / explain_cl:.2f}x" if explain_cl else ""
            alone_cl = med(r["alone_s"] for r in cl)
            alone = f"{med(r['alone_s'] for r in base) / alone_cl:.2f}x" if alone_cl else ""
            print(f"| {strategy} | {name} / {variants[0][0]} | {wall:.2f}x faster | | | {ratio:.2f}x | | {explain} | | {alone} | |")


if __name__ == "__main__":
    main()
