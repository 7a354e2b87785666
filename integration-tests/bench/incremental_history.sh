#!/bin/bash
# odrust:incremental against full odrust:detect over a commit history, driven the way CI does
# (docs/incremental.md, "Measured again: driven as CI does").
#
#   integration-tests/bench/incremental_history.sh CHECKOUT OUT COMMIT... [-- MAVEN_ARGS...]
#
# CHECKOUT: a git clone of the project (its target/ is kept between commits, as a CI cache keeps
# the state); OUT: a new directory for logs, the saved state and each run's output; COMMIT...:
# oldest first. Per commit: `mvn install -DskipTests` (not timed against anything), then
# incremental (state in OUT/state.json) and a full detect, the one that goes first alternating
# per commit. MAVEN_ARGS go to every mvn command (e.g. -Dmaven.compiler.source=8 on JDK 17).
# Prints one line per commit: wall seconds and tests of each, and the test classes selected.
# MODULE=path/of/module (environment): one module of a multi-module build, as CI drives it:
# `mvn install -pl MODULE -am -DskipTests`, then each goal with `-pl MODULE`.
# Needs the plugin installed (mvn install in the odrust checkout) and `bc`, `python3`.
set -u
[ $# -ge 3 ] || { sed -n 2,15p "$0"; exit 2; }
checkout=$(realpath "$1"); out=$(realpath -m "$2"); shift 2
commits=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do commits+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
extra=("$@")
install=(); goal=()
if [ -n "${MODULE:-}" ]; then install=(-pl "$MODULE" -am); goal=(-pl "$MODULE"); fi
mkdir -p "$out/logs" || exit 1
P=io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT
timed() { # name, command...: runs it, prints its wall seconds
  local name=$1; shift
  local start=$(date +%s.%N)
  "$@" > "$out/logs/$name.log" 2>&1 || echo "  ($name failed: $out/logs/$name.log)" >&2
  echo "$(date +%s.%N) - $start" | bc
}
tests() { # the tests a run ran (its suite.json; 0 when none ran)
  python3 -c 'import json, sys
try:
    print(sum(len(c["tests"]) for c in json.load(open(sys.argv[1] + "/suite.json"))["classes"]))
except OSError:
    print(0)' "$1"
}
cd "$checkout" || exit 1
n=0
for sha in "${commits[@]}"; do
  n=$((n + 1))
  git -c advice.detachedHead=false checkout -q -f "$sha" > /dev/null 2>&1 || { echo "cannot check out $sha" >&2; exit 1; }
  timed "$n-install" mvn -B -ntp install -DskipTests "${install[@]}" "${extra[@]}" > /dev/null
  inc() { wi=$(timed "$n-incremental" mvn -B -ntp "${goal[@]}" $P:incremental -Dodrust.seed=1 \
      -Dodrust.incremental.state="$out/state.json" -Dodrust.outputDirectory="$out/inc-$n" "${extra[@]}"); }
  full() { wf=$(timed "$n-detect" mvn -B -ntp "${goal[@]}" $P:detect -Dodrust.seed=1 \
      -Dodrust.outputDirectory="$out/full-$n" "${extra[@]}"); }
  if [ $((n % 2)) -eq 1 ]; then inc; full; else full; inc; fi
  selected=$(grep -o 'odrust incremental: [0-9]* of [0-9]* test classes selected' "$out/logs/$n-incremental.log" \
      | sed 's/odrust incremental: //; s/ test classes selected//')
  if grep -q 'nothing changed since the saved state' "$out/logs/$n-incremental.log"; then selected="none (nothing changed)"; ti=0; else ti=$(tests "$out/inc-$n"); fi
  printf "%s %s: incremental %.1f s, %s tests, classes %s; detect %.1f s, %s tests\n" \
      "$n" "${sha:0:7}" "$wi" "$ti" "$selected" "$wf" "$(tests "$out/full-$n")"
done
