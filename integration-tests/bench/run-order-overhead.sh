#!/usr/bin/env bash
# Overhead of `odrust:run-order` against plain Surefire, on one Maven module.
#
#   integration-tests/bench/run-order-overhead.sh PROJECT_DIR [EXTRA_MAVEN_ARGS...]
#   RUNS=10 integration-tests/bench/run-order-overhead.sh /tmp/bench/aismessages
#
# What is compared (whole Maven processes, wall time, offline):
#   surefire: mvn -B -q -o surefire:test
#             plain Surefire on the already compiled tests; no lifecycle phases run.
#             -Dmaven.test.failure.ignore=true so a failing test does not stop the benchmark.
#   odrust:   mvn -B -q -o io.github.odrust:odrust-maven-plugin:VERSION:run-order
#                 -Dodrust.order=target/odrust/orders/original.txt
#             the original order (written by one untimed `discover`) in a fresh JVM. Note that
#             run-order itself runs the lifecycle up to test-compile (up-to-date checks only, as
#             the tests are already compiled): that cost is part of what is measured.
#
# Steps: one untimed `mvn -B -q -o test-compile` (warm-up), one untimed `discover`, one untimed
# run of each kind (WARMUP=0 to skip), then RUNS (default 5) timed runs of each kind, interleaved
# (surefire, odrust, surefire, odrust, ...). Prints every run's wall time, the medians, and the
# overhead (median odrust - median surefire, and the ratio). Finally checks that both kinds ran
# the same number of tests (Surefire's XML reports against odrust's result.json).
#
# No timing assertions: the numbers depend on the machine. Run it on a quiet machine.
# Side effects in PROJECT_DIR: target/surefire-reports is deleted before every Surefire run (so
# the reports count only that run), target/odrust/ is written. `-o` needs every artifact in the
# local repository: run `mvn test` (online) once in the project first.
#
# Environment: RUNS (5), WARMUP (1), ODRUST_VERSION (0.1.0-SNAPSHOT), MVN (mvn).
set -euo pipefail

usage() { echo "usage: $0 PROJECT_DIR [EXTRA_MAVEN_ARGS...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
PROJECT=$(cd "$1" && pwd) || usage
shift
EXTRA=("$@")
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
MVN=${MVN:-mvn}
VERSION=${ODRUST_VERSION:-0.1.0-SNAPSHOT}
PLUGIN="io.github.odrust:odrust-maven-plugin:${VERSION}"
NAME=bench-original
ORDER=target/odrust/orders/original.txt
RESULT="target/odrust/run-order/${NAME}/result.json"
REPORTS=target/surefire-reports

[ -f "$PROJECT/pom.xml" ] || { echo "no pom.xml in $PROJECT" >&2; exit 2; }
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive integer" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the reports" >&2; exit 2; }
cd "$PROJECT"

LOG=$(mktemp -t odrust-bench.XXXXXX)
trap 'rm -f "$LOG"' EXIT

# mvn_run ARGS...: runs Maven quietly; on failure shows its output and stops.
mvn_run() {
  if ! "$MVN" -B -q -o "$@" ${EXTRA[@]+"${EXTRA[@]}"} >"$LOG" 2>&1; then
    echo "FAILED: $MVN -B -q -o $* ${EXTRA[*]-}" >&2
    tail -n 40 "$LOG" >&2
    exit 1
  fi
}

surefire_run() {
  rm -rf "$REPORTS"
  mvn_run surefire:test -Dmaven.test.failure.ignore=true
}
odrust_run() {
  mvn_run "$PLUGIN:run-order" -Dodrust.order="$ORDER" -Dodrust.name="$NAME"
}

# timed FUNCTION: runs it, prints the wall time in seconds
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  "$1"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

median() { # numbers on stdin
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f\n", v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "project:  $PROJECT"
echo "extra:    ${EXTRA[*]-(none)}"
echo "runs:     $RUNS of each kind, interleaved (warm-up runs: $WARMUP of each kind, untimed)"
echo "surefire: mvn -B -q -o surefire:test -Dmaven.test.failure.ignore=true"
echo "odrust:   mvn -B -q -o $PLUGIN:run-order -Dodrust.order=$ORDER"
echo "machine:  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -n 1)"

echo "warm-up:  test-compile"
mvn_run test-compile
echo "warm-up:  discover"
mvn_run "$PLUGIN:discover"
[ -f "$ORDER" ] || { echo "discover wrote no $ORDER" >&2; exit 1; }
for ((i = 0; i < WARMUP; i++)); do
  echo "warm-up:  surefire, odrust"
  surefire_run
  odrust_run
done

S_TIMES=()
O_TIMES=()
for ((i = 1; i <= RUNS; i++)); do
  s=$(timed surefire_run)
  S_TIMES+=("$s")
  printf 'run %2d  surefire %8.3f s\n' "$i" "$s"
  o=$(timed odrust_run)
  O_TIMES+=("$o")
  printf 'run %2d  odrust   %8.3f s\n' "$i" "$o"
done

S_MED=$(printf '%s\n' "${S_TIMES[@]}" | median)
O_MED=$(printf '%s\n' "${O_TIMES[@]}" | median)
echo "median   surefire $S_MED s, odrust $O_MED s"
awk -v s="$S_MED" -v o="$O_MED" 'BEGIN {
  printf "overhead odrust - surefire = %+.3f s, odrust / surefire = %.2f\n", o - s, (s > 0 ? o / s : 0) }'

# Same tests? Surefire's reports of its last run against odrust's result.json of its last run.
python3 - "$REPORTS" "$RESULT" <<'PY'
import glob, json, os, sys
import xml.etree.ElementTree as ET
reports, result = sys.argv[1], sys.argv[2]
s_total = s_fail = s_skip = 0
for f in glob.glob(os.path.join(reports, "TEST-*.xml")):
    for suite in ET.parse(f).getroot().iter("testsuite"):
        s_total += int(suite.get("tests", 0))
        s_fail += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        s_skip += int(suite.get("skipped", 0))
d = json.load(open(result))
res = d.get("results", [])
o_fail = sum(1 for r in res if r.get("outcome") not in ("pass", "skipped"))
o_skip = sum(1 for r in res if r.get("outcome") == "skipped")
print(f"tests    surefire {s_total} (failed {s_fail}, skipped {s_skip}) from {reports}")
print(f"tests    odrust   {len(res)} (failed {o_fail}, skipped {o_skip}), order honoured: {d.get('honoured')}, from {result}")
if s_total == len(res):
    print(f"same number of tests: yes ({s_total})")
else:
    print(f"same number of tests: NO (surefire {s_total}, odrust {len(res)}): the timings compare different work")
PY
