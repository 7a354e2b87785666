#!/bin/bash
# Recomputes the phase predictions of finished `odrust:detect` runs with the odrust build in a
# Maven repository (e.g. one a branch was installed into), without running a test: each evidence
# directory is copied and resumed (every experiment is in its history, so nothing runs), then each
# phase's actual/predicted is printed for the original and the copy (docs/benchmarks.md,
# "Estimates priced by the tests a JVM runs").
#
#   integration-tests/bench/replay_estimates.sh REPO MODULE_DIR EVIDENCE_DIR SEED [maven args...]
#
# MODULE_DIR is where the detect ran; EVIDENCE_DIR is relative to it (target/odrust-seed1); the
# Maven args are those of the run (-Djacoco.skip=true, -pl ..., the argLine, isolation).
set -euo pipefail
repo=$1 dir=$2 evidence=$3 seed=$4
shift 4
cd "$dir"
copy="$evidence-replayed"
rm -rf "$copy"
cp -a "$evidence" "$copy"
mvn -B -o -q -Dmaven.repo.local="$repo" test-compile \
  io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:detect -Dodrust.seed="$seed" \
  -Dodrust.outputDirectory="$copy" -Dodrust.resume=true "$@" > "$copy.log" 2>&1
python3 - "$evidence" "$copy" <<'PY'
import json, sys
for d in sys.argv[1:]:
    phases = json.load(open(d + "/report.json"))["phases"][1:]
    print(d, " | ".join(
        f"{p['phase']} {p['actual_ms'] / p['predicted_ms']:.2f} ({p['experiments']}/{p['predicted_experiments']})"
        for p in phases if p.get("predicted_ms")))
PY
