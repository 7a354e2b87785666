#!/usr/bin/env python3
"""What confirming candidates costs, from one detect run.

    integration-tests/bench/confirm_cost.py target/odrust/detect/experiments.jsonl target/odrust/suite.json

Prints the run's test executions (results not `not-run`): in rounds, in the reruns of rounds'
orders, in the runs of the original order that confirm candidates (one per batch of rounds and kind
of candidate since issue 28); and what the original-order confirmations would have cost as odrust
ran them before, one per round with candidates, cut after that round's last candidate (its length
in units; for a history of the old planner it equals what ran).
"""
import json, sys
hist = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
suite = json.load(open(sys.argv[2]))
original = [t for c in suite["classes"] for t in c["tests"]]
pos = {t: i for i, t in enumerate(original)}
def ran(r): return sum(1 for x in r["results"] if x["outcome"] != "not-run")
total = sum(ran(r) for r in hist)
rounds = sum(ran(r) for r in hist if r["kind"] == "round")
orig_now = sum(ran(r) for r in hist if r["kind"] in ("confirm-fail", "confirm-pass") and r.get("strategy") == "original")
reruns = [r for r in hist if r["kind"] in ("confirm-fail", "confirm-pass") and r.get("strategy") != "original"]
def unit(t):
    return t if t in pos else t.split("[")[0]
orig_before = 0
for r in reruns:
    last = max(pos.get(unit(t), 0) for t in r["targets"])
    orig_before += last + 1
rerun_exec = sum(ran(r) for r in reruns)
print(f"experiments {len(hist)}, executions {total}: rounds {rounds}, round reruns {rerun_exec}, original-order confirmations {orig_now}")
print(f"before (one original-order confirmation per round): about {orig_before} executions there, {total - orig_now + orig_before} in all; "
      f"original-order confirmations {orig_before / (total - orig_now + orig_before):.0%} of them then, {orig_now / total:.0%} now")
