#!/usr/bin/env python3
"""How far `odrust:detect`'s "time left" is from the time that was left, during the explanations,
recomputed from finished runs by one or more engine builds, without running a test.

    integration-tests/bench/time_left_replay.py --engine A=path/to/odrust-engine [--engine B=...] DIR...

DIR is a detect output directory (target/odrust: suite.json and detect/). For each explanation
experiment of its history (every one: a jump can last a few experiments) the engine CLI's `detect_next` is
asked with the history up to it, as the plugin asks it; its `estimate.left_ms` is set against the
experiment time of the records after it (`time.jvm_ms + time.odrust_ms`). A ratio is
max(said / left, left / said), over the points where more than 2 s (`--min-left`) was left; the script prints
the largest and the median per build; `--points` also prints every point: the record's id, kind, the OD
test it explains and the order's length, the time left and what each build said. A history with shared-JVM records is replayed with
`shared_after_rounds: 2`, as the plugin configures `odrust.isolation=classloader`. With
`odrust.forks` above 1 the estimate divides explanations by the forks and this sum does not:
compare such runs between builds, not against 1.
Build an engine CLI with `cargo build --release --bin odrust-engine` (target/release/). A build
with the `calls` command answers every point in one process, in a detection session (each record
sent once: seconds); an older build is asked once per point with the history up to it (quadratic:
minutes on a run of 500 explanation experiments).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

EXPLAIN = {"polluter-search", "polluter-pair", "cleaner", "setter-search", "setter-pair"}


def said_s(engine, request, path):
    with open(path, "w") as f:
        json.dump(request, f)
    out = subprocess.run([engine, "call", "detect_next", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{engine}: {out.stderr.strip()}")
    return json.loads(out.stdout).get("estimate", {}).get("left_ms", 0) / 1000


def has_calls(engine):
    out = subprocess.run([engine, "calls", "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return out.returncode == 0


def said_all(engine, config, suite, history, points, path):
    """The time left said after each prefix history[:k], k in points, in one session."""
    with open(path, "w") as f:
        before = 0
        for k in points:
            request = {"config": config, "history": history[before:k], "session": "time-left-replay",
                       "history_from": before}
            if before == 0:
                request["suite"] = suite
            f.write(json.dumps({"op": "detect_next", "request": request}) + "\n")
            before = k
    out = subprocess.run([engine, "calls", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{engine}: {out.stderr.strip()}")
    said = []
    for line in out.stdout.splitlines():
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit(f"{engine}: {answer['error']}")
        said.append(answer.get("estimate", {}).get("left_ms", 0) / 1000)
    return said


def ms(record):
    t = record.get("time") or {}
    return t.get("jvm_ms", record.get("millis", 0)) + t.get("odrust_ms", 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="NAME=path of an odrust-engine CLI")
    ap.add_argument("--min-left", type=float, default=2.0,
                    help="only points with more than this many seconds left (default 2)")
    ap.add_argument("--points", action="store_true",
                    help="print each point: record id, kind, target, seconds left, each build's said")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    engines = dict(e.split("=", 1) for e in args.engine)
    path = os.path.join(tempfile.mkdtemp(), "request.json")
    for d in args.dirs:
        try:
            config = json.load(open(os.path.join(d, "detect", "run.json")))["config"]
            suite = json.load(open(os.path.join(d, "suite.json")))
            history = [json.loads(line) for line in open(os.path.join(d, "detect", "experiments.jsonl"))]
        except (OSError, KeyError, ValueError) as e:
            print(f"{d}: skipped ({e})")
            continue
        if config.get("minimize") is False:
            print(f"{d}: skipped (detect ran with odrust.minimize=false; its explanations came from"
                  " odrust:minimize, which the replay does not redo)")
            continue
        if any(r.get("isolation") == "classloader" for r in history):
            config["shared_after_rounds"] = 2
        points = [i + 1 for i, r in enumerate(history) if r["kind"] in EXPLAIN]
        total = [0]
        for r in history:
            total.append(total[-1] + ms(r))
        left = {k: (total[-1] - total[k]) / 1000 for k in points}
        points = [k for k in points if left[k] > args.min_left]
        if not points:
            print(f"{d}: no explanation experiment with more than {args.min_left} s left")
            continue
        ratios = {name: [] for name in engines}
        said_by = {}
        for name, engine in engines.items():
            if has_calls(engine):
                said = said_all(engine, config, suite, history, points, path)
            else:
                said = [said_s(engine, {"config": config, "suite": suite, "history": history[:k]}, path)
                        for k in points]
            said_by[name] = said
            for k, s in zip(points, said):
                ratios[name].append(max(s / left[k], left[k] / max(s, 0.01)))
        if not any(ratios.values()):
            continue
        if args.points:
            for i, k in enumerate(points):
                r = history[k - 1]
                targets = r.get("targets") or []
                target = (targets[0].rsplit(".", 1)[-1] if targets else "-") + f", {len(r.get('order') or [])} tests"
                cells = " ".join(f"{name} {said_by[name][i]:.2f} s" for name in engines)
                print(f"  #{r.get('id', k)} {r['kind']} {target}: {left[k]:.2f} s left, said {cells}")
        cells = [f"{name}: max {max(r):.2f} median {statistics.median(r):.2f}" for name, r in ratios.items()]
        print(f"{d}  ({len(next(iter(ratios.values())))} points)  " + " | ".join(cells))


if __name__ == "__main__":
    main()
