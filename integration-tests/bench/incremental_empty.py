#!/usr/bin/env python3
"""The cost of an `odrust:incremental` step where nothing changed, against `mvn test-compile`.

    integration-tests/bench/incremental_empty.py PROJECT_DIR [--runs 5] [--mvn mvn]
                                                 [--variant NAME=MVN ...] [--set odrust.x=y ...]

Each variant (default: one, `odrust` with --mvn) is a Maven command with the odrust plugin it
should use in its local repository (a wrapper script setting -Dmaven.repo.local, for example, to
compare two builds of odrust). First, untimed, each variant runs `odrust:incremental` once with a
state file of its own (target/odrust-bench/incremental-NAME/state.json): a full run that saves the
state. Then, interleaved (test-compile, each variant, test-compile, ...), --runs timed runs of
`mvn test-compile` and of each variant's `odrust:incremental` with nothing changed. Prints each
run, then the medians and each variant's ratio to test-compile.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

GOAL = "io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:incremental"


def timed(cmd, project, log):
    start = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.call(cmd, cwd=project, stdout=out, stderr=subprocess.STDOUT)
    wall = time.monotonic() - start
    if code != 0:
        sys.exit(f"{' '.join(cmd)} failed in {project}: see {log}")
    return wall


def main():
    p = argparse.ArgumentParser()
    p.add_argument("project")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--mvn", default="mvn")
    p.add_argument("--variant", action="append", default=[], help="NAME=MVN: another odrust build to time")
    p.add_argument("--set", action="append", default=[], help="another property, e.g. odrust.strategy=tuscan")
    a = p.parse_args()
    variants = [v.split("=", 1) for v in a.variant] or [["odrust", a.mvn]]
    bench = os.path.join(a.project, "target", "odrust-bench")
    os.makedirs(bench, exist_ok=True)

    def incremental(name, mvn):
        out = f"target/odrust-bench/incremental-{name}"
        return [mvn, "-B", GOAL, f"-Dodrust.outputDirectory={out}",
                f"-Dodrust.incremental.state={out}-state.json"] + [f"-D{s}" for s in a.set]

    for name, mvn in variants:
        wall = timed(incremental(name, mvn), a.project, os.path.join(bench, f"incremental-{name}-prime.log"))
        print(f"{name}: priming run (full) {wall:.1f} s", flush=True)
    times = {"test-compile": []}
    for name, _ in variants:
        times[name] = []
    for n in range(1, a.runs + 1):
        wall = timed([a.mvn, "-B", "test-compile"], a.project, os.path.join(bench, f"test-compile-{n}.log"))
        times["test-compile"].append(wall)
        print(f"run {n}\ttest-compile\t{wall:.2f} s", flush=True)
        for name, mvn in variants:
            log = os.path.join(bench, f"incremental-{name}-{n}.log")
            wall = timed(incremental(name, mvn), a.project, log)
            text = open(log, encoding="utf-8", errors="replace").read()
            said = "nothing changed" if "nothing changed since the saved state" in text else (
                "0 selected" if "0 of" in text and "test classes selected" in text else "SELECTED SOMETHING")
            times[name].append(wall)
            print(f"run {n}\t{name}\t{wall:.2f} s\t{said}", flush=True)
    base = statistics.median(times["test-compile"])
    print()
    print("| command | wall (median) | / test-compile |")
    print("|---|---|---|")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"| {name} | {m:.2f} s | {m / base:.2f}x |")


if __name__ == "__main__":
    main()
