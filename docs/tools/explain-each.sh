#!/usr/bin/env bash
# Explains each test of a list with odrust:minimize, one invocation per test, in project dir $1.
# Usage: explain-each.sh <project dir> <file of test ids> <log> [extra Maven arguments...]
# (the plugin from $ODRUST_M2, default ~/.m2/repository).
dir=$1; list=$2; log=$3; shift 3
cd "$dir"
while read -r t; do
  [ -z "$t" ] && continue
  echo "=== $(date -u +%T) $t" >> "$log"
  mvn -B -o -Dmaven.repo.local=${ODRUST_M2:-$HOME/.m2/repository} io.github.odrust:odrust-maven-plugin:0.1.0-SNAPSHOT:minimize \
      "$@" -Dodrust.test="$t" -Dodrust.minimize.budget=40000 >> "$log" 2>&1
  echo "=== $(date -u +%T) rc=$? $t" >> "$log"
done < "$list"
echo "=== $(date -u +%T) ALL DONE" >> "$log"
