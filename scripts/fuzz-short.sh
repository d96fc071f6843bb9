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
    corpus="$dir/testdata/fuzz/$t"
    before=$(ls "$corpus" 2>/dev/null | sort || true)
    attempt=1
    while :; do
      log=$(mktemp)
      if go test -run='^$' -fuzz="^${t}\$" -fuzztime="$time" -fuzzminimizetime=2s "$pkg" 2>&1 | tee "$log"; then
        rm -f "$log"; break
      fi
      added=$(comm -13 <(echo "$before") <(ls "$corpus" 2>/dev/null | sort || true) | head -1)
      # A finding always writes its input under testdata/fuzz. Without one,
      # a run that ends in "context deadline exceeded" is the fuzzer's own
      # time limit hitting a slow input on a busy machine, not a failure of
      # the target: it is tried once more, and fails CI if it happens again.
      if [ -z "$added" ] && grep -q 'context deadline exceeded' "$log" && [ "$attempt" -eq 1 ]; then
        echo "fuzz $pkg $t: the fuzzer's time limit cut a slow input (no input written); trying once more"
        attempt=2; rm -f "$log"; continue
      fi
      rm -f "$log"
      findings=$((findings + 1))
      if [ -n "$added" ]; then
        echo "FUZZ FINDING: $pkg $t (failing input $corpus/$added):"
        head -c 4000 "$corpus/$added" && echo
      else
        echo "FUZZ FAILURE: $pkg $t failed without writing an input (see its output above)"
      fi
      break
    done
  done
done
if [ "$findings" -gt 0 ]; then
  echo "fuzzing found $findings failing input(s); see FUZZ FINDING lines above"
  if [ "${FUZZ_REPORT_ONLY:-0}" != "1" ]; then exit 1; fi
fi
