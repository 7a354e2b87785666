#!/usr/bin/env python3
"""How well `odrust:detect` predicts its own time: each phase's prediction at its start against
what it cost, and the time left it printed against the time that was left.

    integration-tests/bench/estimate_accuracy.py PROJECT_DIR [--seeds 1,2,3] [--mvn mvn] [--arg -Dx=y ...]

For each seed, one `odrust:detect -Dodrust.seed=S` with its earlier evidence removed first
(target/odrust), then from its report.json `phases` (predicted_ms against actual_ms, and
predicted_experiments against experiments) and from its log: the "~X left" of the progress line
after the baseline, after the last round, before the first alone run and before the first
explanation, against the experiment time the experiments after that line took (each one's
`time.jvm_ms + time.odrust_ms` in experiments.jsonl). A ratio is actual / predicted. Logs go to
target/odrust-bench/.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

GOAL = "io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:detect"
LINE = re.compile(r"exp (\d+)\s+(\S+).*?~([0-9.]+) (s|min|h) left")


def ms(value, unit):
    return float(value) * {"s": 1000, "min": 60_000, "h": 3_600_000}[unit]


def cost(record):
    t = record.get("time")
    return t["jvm_ms"] + t["odrust_ms"] if t else record["millis"]


def checkpoints(log, records):
    """(name, predicted ms left, actual ms left) at the lines that start a phase."""
    costs = {r["id"]: cost(r) for r in records}
    kinds = {r["id"]: r["kind"] for r in records}
    last_round = max((r["id"] for r in records if r["kind"] == "round"), default=None)
    points = []
    seen = set()
    for line in log:
        m = LINE.search(line)
        if not m:
            continue
        exp = int(m.group(1))
        nxt = kinds.get(exp + 1)
        name = None
        if kinds.get(exp) == "baseline" and nxt == "round":
            name = "after the baseline"
        elif exp == last_round:
            name = "after the last round"
        elif nxt == "alone" and kinds.get(exp) != "alone":
            name = "before the alone runs"
        elif nxt in ("polluter-search", "polluter-pair", "setter-search", "setter-pair") and kinds.get(exp) == "alone":
            name = "before the explanations"
        if name and name not in seen:
            seen.add(name)
            actual = sum(c for i, c in costs.items() if i > exp)
            points.append((name, ms(m.group(3), m.group(4)), actual))
    return points


def main():
    p = argparse.ArgumentParser()
    p.add_argument("project")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--mvn", default="mvn")
    p.add_argument("--arg", action="append", default=[])
    a = p.parse_args()
    project = os.path.abspath(a.project)
    logs = os.path.join(project, "target", "odrust-bench")
    os.makedirs(logs, exist_ok=True)
    for seed in a.seeds.split(","):
        shutil.rmtree(os.path.join(project, "target", "odrust"), ignore_errors=True)
        log = os.path.join(logs, f"detect-estimate-{seed}.log")
        cmd = [a.mvn, "-B", "-o", GOAL, f"-Dodrust.seed={seed}"] + a.arg
        start = time.monotonic()
        with open(log, "w") as out:
            code = subprocess.call(cmd, cwd=project, stdout=out, stderr=subprocess.STDOUT)
        wall = time.monotonic() - start
        if code != 0:
            print(f"seed {seed}: {' '.join(cmd)} exited {code} (a flaky test can fail the build: see {log})")
        detect = os.path.join(project, "target", "odrust", "detect")
        report_file = os.path.join(project, "target", "odrust", "report.json")
        if not os.path.exists(report_file):
            print(f"seed {seed}: no report.json: see {log}")
            continue
        report = json.load(open(report_file))
        records = [json.loads(l) for l in open(os.path.join(detect, "experiments.jsonl"))]
        od = sum(1 for f in report.get("flaky", []) if f.get("kind") in ("victim", "brittle"))
        print(f"seed {seed}: wall {wall:.1f} s, {len(records)} experiments, {od} OD tests")
        for phase in report.get("phases", []):
            pred = phase.get("predicted_ms")
            ratio = f"{phase['actual_ms'] / pred:.2f}" if pred else "-"
            print(
                f"  {phase['phase']:9} {phase['experiments']:4} experiments (predicted {phase.get('predicted_experiments', '-')}),"
                f" {phase['actual_ms'] / 1000:7.1f} s (predicted {pred / 1000 if pred else float('nan'):7.1f} s,"
                f" {phase.get('basis', '-')}), actual/predicted {ratio}"
            )
        for name, predicted, actual in checkpoints(open(log).read().splitlines(), records):
            ratio = f"{actual / predicted:.2f}" if predicted else "-"
            print(f"  left {name:25} printed {predicted / 1000:7.1f} s, took {actual / 1000:7.1f} s, actual/predicted {ratio}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
