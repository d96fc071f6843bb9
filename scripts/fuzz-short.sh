#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time: FUZZTIME (default
# 10s) for the trace reader and the importers, FUZZTIME_OTHER (default 2s)
# for every other parser. Corpora under testdata/fuzz are replayed by
# `go test` anyway; this adds fresh inputs.
#
# A new finding fails the script (exit 1), in CI too (.ci/run), printed with
# its input (to add under testdata/fuzz with a fix). FUZZ_REPORT_ONLY=1 only
# reports, for local exploration.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
FUZZTIME_OTHER="${FUZZTIME_OTHER:-2s}"
findings=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -h -o '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    time="$FUZZTIME_OTHER"
    case "$pkg" in
      */traces|*/traces/importers/*) time="$FUZZTIME" ;;
    esac
    echo "fuzz $pkg $t ($time)"
    if ! go test -run='^$' -fuzz="^${t}\$" -fuzztime="$time" -fuzzminimizetime=2s "$pkg"; then
      findings=$((findings + 1))
      echo "FUZZ FINDING: $pkg $t (failing input under $dir/testdata/fuzz/$t):"
      newest=$(ls -t "$dir/testdata/fuzz/$t" 2>/dev/null | head -1 || true)
      [ -n "$newest" ] && head -c 4000 "$dir/testdata/fuzz/$t/$newest" && echo
    fi
  done
done
if [ "$findings" -gt 0 ]; then
  echo "fuzzing found $findings failing input(s); see FUZZ FINDING lines above"
  if [ "${FUZZ_REPORT_ONLY:-0}" != "1" ]; then exit 1; fi
fi
