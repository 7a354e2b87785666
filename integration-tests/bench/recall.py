#!/usr/bin/env python3
"""Recall of `odrust:detect` against known order-dependent tests, over several seeds.

    integration-tests/bench/recall.py PROJECT_DIR --known CSV --project-url URL [--module PATH] [--pl MODULE]
                                      [--strategies reverse-passing,targeted] [--seeds 1,2,3,4,5] [--mvn mvn]
                                      [--set odrust.minimize=false ...] [--out-json FILE] [--table]

The known OD tests are the rows of an IDoFT-style CSV (columns "Project URL", "Module Path",
"Fully-Qualified Test Name (packageName.ClassName.methodName)", ...) for that project URL and module
path (`--module`, default the `--pl` module, else `.` for the root). For each strategy and seed it runs

    mvn -B -q [-pl MODULE] io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:detect -Dodrust.seed=S
        -Dodrust.strategy=STRAT -Dodrust.outputDirectory=target/odrust-recall/STRAT-seedS [-DPROP=VALUE ...]

in PROJECT_DIR (the output directory is relative to the module's directory; Maven's log goes next
to it as STRAT-seedS.log). A run whose report.json says `"complete": true` is reused, not rerun, so
the script can be stopped and started again; its wall time comes from STRAT-seedS.run.json.

A known test counts as found when some finding of a kind other than `nod` has that name once `#` is
replaced by `.` and a `[...]` or `(...)` suffix is cut off. Per run: known found, the missed ones,
recall, extra OD tests (not in the known list), experiments, test executions (results whose outcome
is not `not-run`, in detect/experiments.jsonl) in total, in `round` experiments and in
`confirm-fail`/`confirm-pass` experiments, rounds run and wall time. Then per strategy: recall
min/median/max and the medians of experiments, executions and wall time. Uses the plugin installed
in the local repository (0.1.0-SNAPSHOT).
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time

GOAL = "io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:detect"
TEST_COLUMN = "Fully-Qualified Test Name (packageName.ClassName.methodName)"


def same_url(a, b):
    norm = lambda u: u.strip().lower().rstrip("/").removesuffix(".git")
    return norm(a) == norm(b)


def known_tests(csv_path, url, module):
    module = module.strip().strip("/") or "."
    with open(csv_path, newline="") as f:
        return sorted({row[TEST_COLUMN].strip() for row in csv.DictReader(f)
                       if same_url(row["Project URL"], url) and (row["Module Path"].strip().strip("/") or ".") == module})


def plain_name(test_id):
    """pkg.Class#method[2] or pkg.Class#method(String) -> pkg.Class.method"""
    return re.sub(r"[\[(].*$", "", test_id).replace("#", ".")


def executions(records):
    return sum(1 for r in records for res in r.get("results", []) if res.get("outcome") != "not-run")


def run(project, module_dir, pl, mvn, strategy, seed, extra):
    out = f"target/odrust-recall/{strategy}-seed{seed}"
    out_dir = os.path.join(module_dir, out)
    report_path, meta_path = os.path.join(out_dir, "report.json"), out_dir + ".run.json"
    reused = os.path.exists(report_path) and json.load(open(report_path)).get("complete") is True
    if reused:
        wall = json.load(open(meta_path))["wall_s"] if os.path.exists(meta_path) else None
    else:
        cmd = [mvn, "-B", "-q"] + (["-pl", pl] if pl else []) + [
            GOAL, f"-Dodrust.seed={seed}", f"-Dodrust.strategy={strategy}", f"-Dodrust.outputDirectory={out}"
        ] + [f"-D{p}" for p in extra]
        os.makedirs(os.path.dirname(out_dir), exist_ok=True)
        start = time.monotonic()
        with open(out_dir + ".log", "w") as log:
            code = subprocess.call(cmd, cwd=project, stdout=log, stderr=subprocess.STDOUT)
        wall = time.monotonic() - start
        if code != 0 or not os.path.exists(report_path):
            return {"strategy": strategy, "seed": seed, "error": f"{' '.join(cmd)} exited {code}: see {out_dir}.log"}
        json.dump({"wall_s": wall, "command": cmd, "cwd": project}, open(meta_path, "w"), indent=1)
    report = json.load(open(report_path))
    history = [json.loads(line) for line in open(os.path.join(out_dir, "detect", "experiments.jsonl")) if line.strip()]
    od = sorted({f["test"] for f in report["flaky"] if f["kind"] != "nod"})
    return {"strategy": strategy, "seed": seed, "reused": reused, "output": out_dir,
            "od_found": od, "nod": sorted(f["test"] for f in report["flaky"] if f["kind"] == "nod"),
            "failing": sorted(f["test"] for f in report.get("failing", [])),
            "experiments": len(history), "rounds_run": report.get("rounds_run"),
            "executions": executions(history),
            "executions_rounds": executions(r for r in history if r["kind"] == "round"),
            "executions_confirm": executions(r for r in history if r["kind"] in ("confirm-fail", "confirm-pass")),
            "wall_s": wall}


def score(r, known):
    found_names = {plain_name(t) for t in r["od_found"]}
    found = [k for k in known if k in found_names]
    r["known_found"] = len(found)
    r["missed"] = [k for k in known if k not in found_names]
    r["recall"] = len(found) / len(known) if known else None
    r["extra"] = sorted(t for t in r["od_found"] if plain_name(t) not in known)


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def med_list(xs):
    return statistics.median(xs) if xs else None


def summary(rs):
    ok = [r for r in rs if "error" not in r]
    med = lambda key: statistics.median(r[key] for r in ok) if ok and all(r[key] is not None for r in ok) else None
    recalls = [r["recall"] for r in ok if r["recall"] is not None]
    return {"runs": len(rs), "failed_runs": len(rs) - len(ok),
            "recall_min": min(recalls, default=None), "recall_median": statistics.median(recalls) if recalls else None,
            "recall_max": max(recalls, default=None), "known_found": [r["known_found"] for r in ok],
            "extra_median": med_list([len(r["extra"]) for r in ok]), "experiments_median": med("experiments"),
            "executions_median": med("executions"), "executions_rounds_median": med("executions_rounds"),
            "executions_confirm_median": med("executions_confirm"), "wall_s_median": med("wall_s")}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("project")
    p.add_argument("--known", required=True, help="IDoFT-style CSV of known OD tests")
    p.add_argument("--project-url", required=True, help="the CSV's Project URL, e.g. https://github.com/o/n")
    p.add_argument("--module", help="the CSV's Module Path (default: --pl, else . for the root)")
    p.add_argument("--pl", help="Maven module to run in (mvn -pl)")
    p.add_argument("--strategies", default="reverse-passing")
    p.add_argument("--seeds", default="1,2,3,4,5")
    p.add_argument("--mvn", default="mvn")
    p.add_argument("--set", action="append", default=[], help="another property, e.g. odrust.minimize=false")
    p.add_argument("--out-json", help="write every run and the summaries here")
    p.add_argument("--table", action="store_true", help="also print a Markdown table row per strategy")
    a = p.parse_args()
    project = os.path.abspath(a.project)
    module_dir = os.path.join(project, a.pl) if a.pl else project
    module = a.module if a.module is not None else (a.pl or ".")
    known = known_tests(a.known, a.project_url, module)
    if not known:
        print(f"warning: no known OD tests for {a.project_url} module {module} in {a.known}", file=sys.stderr)
    strategies, seeds = a.strategies.split(","), [int(s) for s in a.seeds.split(",")]
    print(f"{a.project_url} module {module}: {len(known)} known OD tests", flush=True)
    runs = []
    for strategy in strategies:
        for seed in seeds:
            r = run(project, module_dir, a.pl, a.mvn, strategy, seed, a.set)
            runs.append(r)
            if "error" in r:
                print(f"{strategy}\tseed {seed}\tFAILED: {r['error']}", flush=True)
                continue
            score(r, known)
            print(f"{strategy}\tseed {seed}\tfound {r['known_found']}/{len(known)}\trecall {fmt(r['recall'])}\t"
                  f"extra {len(r['extra'])}\t{r['experiments']} experiments\t{r['executions']} executions "
                  f"({r['executions_rounds']} in rounds, {r['executions_confirm']} in confirmations)\t"
                  f"{r['rounds_run']} rounds\twall {fmt(r['wall_s'], '.1f')} s{' (reused)' if r['reused'] else ''}"
                  + (f"\tmissed: {' '.join(r['missed'])}" if r["missed"] else "")
                  + (f"\tNOD: {' '.join(r['nod'])}" if r["nod"] else ""), flush=True)
    summaries = {s: summary([r for r in runs if r["strategy"] == s]) for s in strategies}
    print()
    for s, m in summaries.items():
        print(f"{s}: recall min/median/max {fmt(m['recall_min'])}/{fmt(m['recall_median'])}/{fmt(m['recall_max'])}, "
              f"median {fmt(m['experiments_median'], 'g')} experiments, {fmt(m['executions_median'], 'g')} executions, "
              f"wall {fmt(m['wall_s_median'], '.1f')} s" + (f", {m['failed_runs']} runs FAILED" if m["failed_runs"] else ""))
    if a.table:
        name = os.path.basename(project) + (f" ({a.pl})" if a.pl else "")
        print()
        print("| project | strategy | seeds | known | found per seed | recall min/med/max | extra (median) | "
              "experiments (median) | executions: total / rounds / confirmations (median) | wall (median) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for s, m in summaries.items():
            print(f"| {name} | {s} | {a.seeds} | {len(known)} | {', '.join(map(str, m['known_found']))} | "
                  f"{fmt(m['recall_min'])} / {fmt(m['recall_median'])} / {fmt(m['recall_max'])} | {fmt(m['extra_median'], 'g')} | "
                  f"{fmt(m['experiments_median'], 'g')} | {fmt(m['executions_median'], 'g')} / "
                  f"{fmt(m['executions_rounds_median'], 'g')} / {fmt(m['executions_confirm_median'], 'g')} | "
                  f"{fmt(m['wall_s_median'], '.0f')} s |")
    if a.out_json:
        with open(a.out_json, "w") as f:
            json.dump({"project": project, "project_url": a.project_url, "module": module, "pl": a.pl,
                       "settings": a.set, "known": known, "runs": runs, "summary": summaries}, f, indent=1)
    sys.exit(1 if any("error" in r for r in runs) else 0)


if __name__ == "__main__":
    main()
