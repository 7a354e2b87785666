#!/usr/bin/env python3
"""The cost of `odrust:audit` against `mvn test`, and what it found.

    integration-tests/bench/audit_cost.py PROJECT_DIR [--runs 3] [--mvn mvn] [--arg -Dx=y ...]

Interleaved (test, audit, test, audit, ...), --runs timed runs of `mvn -B -o test` and of
`odrust:audit` with its earlier evidence removed first (target/odrust/audit and audit.previous-*,
so each audit runs every experiment). --arg is passed to both (e.g. -Djacoco.skip=true). Prints
each run, the medians and the ratio; then, from the last audit's report.json, its experiments'
times and what it found (counts by kind and rank). Logs go to target/odrust-bench/.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

GOAL = "io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:audit"


def timed(cmd, project, log, may_fail=False):
    start = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.call(cmd, cwd=project, stdout=out, stderr=subprocess.STDOUT)
    wall = time.monotonic() - start
    if code != 0 and not may_fail:
        sys.exit(f"{' '.join(cmd)} failed in {project}: see {log}")
    return wall


def main():
    p = argparse.ArgumentParser()
    p.add_argument("project")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--mvn", default="mvn")
    p.add_argument("--arg", action="append", default=[])
    a = p.parse_args()
    project = os.path.abspath(a.project)
    logs = os.path.join(project, "target", "odrust-bench")
    os.makedirs(logs, exist_ok=True)
    tests, audits = [], []
    for i in range(a.runs):
        # a module whose original order fails (a known polluter) still times its tests
        t = timed([a.mvn, "-B", "-o", "test"] + a.arg, project, f"{logs}/test-{i}.log", may_fail=True)
        for d in [os.path.join(project, "target/odrust/audit")] + glob.glob(
            os.path.join(project, "target/odrust/audit.previous-*")
        ):
            shutil.rmtree(d, ignore_errors=True)
        u = timed([a.mvn, "-B", "-o", GOAL] + a.arg, project, f"{logs}/audit-{i}.log")
        tests.append(t)
        audits.append(u)
        print(f"run {i + 1}: mvn test {t:.1f} s, odrust:audit {u:.1f} s")
    mt, mu = statistics.median(tests), statistics.median(audits)
    print(f"median: mvn test {mt:.1f} s, odrust:audit {mu:.1f} s, ratio {mu / mt:.2f}")
    report = json.load(open(os.path.join(project, "target/odrust/audit/report.json")))
    o = report["outcome"]
    ranks = {}
    for lp in o["latent_polluters"]:
        ranks[lp["rank"]] = ranks.get(lp["rank"], 0) + 1
    print(
        f"{report['tests']} tests, {o['jvms']} JVMs: {len(o['non_idempotent'])} non-idempotent, "
        f"{len(o['latent_polluters'])} latent polluters {ranks}, {len(o['left_behind'])} left behind, "
        f"{len(o['not_confirmed'])} not confirmed, {len(o['failing'])} failing, {len(o['notes'])} notes"
    )
    with open(os.path.join(project, "target/odrust/audit/experiments.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            print(f"  experiment {r['id']} {r['kind']}: {r.get('time_ms', 0) / 1000:.1f} s")


if __name__ == "__main__":
    main()
