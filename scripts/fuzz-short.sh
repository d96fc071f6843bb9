#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time: FUZZTIME (default
# 10s) for the trace reader and the importers, FUZZTIME_OTHER (default 2s)
# for every other parser. Corpora under testdata/fuzz are replayed by
# `go test` anyway; this adds fresh inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
FUZZTIME_OTHER="${FUZZTIME_OTHER:-2s}"
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -h -o '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    time="$FUZZTIME_OTHER"
    case "$pkg" in
      */traces|*/traces/importers/*) time="$FUZZTIME" ;;
    esac
    echo "fuzz $pkg $t ($time)"
    go test -run='^$' -fuzz="^${t}\$" -fuzztime="$time" -fuzzminimizetime=2s "$pkg"
  done
done
