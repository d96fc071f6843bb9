#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time: FUZZTIME (default
# 10s) for the trace reader and the importers, FUZZTIME_OTHER (default 2s)
# for every other parser. Corpora under testdata/fuzz are replayed by
# `go test` anyway; this adds fresh inputs.
#
# A new finding fails the script (exit 1), in CI too (.ci/run), printed with
# its input (to add under testdata/fuzz with a fix). FUZZ_REPORT_ONLY=1 only
# reports, for local exploration.
#
# Each package's instrumented test binary is built once (`go test -c
# -fuzz=.`) and run per target with the flags `go test -fuzz` gives it,
# from the package's directory with the go command's fuzz cache: what it
# fuzzes, where a finding is written (testdata/fuzz/FuzzXxx) and the cache
# of interesting inputs are as with `go test -fuzz`, without a go command,
# a link and a package scan per target (docs/performance.md, "CI stage times").
# They are built with -trimpath, so that a clone at another path (CI's
# fresh clones) reuses the instrumented packages an earlier run compiled,
# and without DWARF and symbol table (-ldflags=-s -w), which nothing here
# reads: a finding's stack trace keeps its functions, files and lines.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
FUZZTIME_OTHER="${FUZZTIME_OTHER:-2s}"
fuzzcache="$(go env GOCACHE)/fuzz"
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
findings=0
while read -r pkg dir; do
  targets=$(grep -h -o '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  [ -n "$targets" ] || continue
  bin="$bins/$(echo "$pkg" | tr / _).test"
  if ! go test -c -fuzz=. -trimpath -ldflags="-s -w" -o "$bin" "$pkg"; then
    for t in $targets; do
      findings=$((findings + 1))
      echo "FUZZ FAILURE: $pkg $t: its test binary did not build (see the output above)"
    done
    continue
  fi
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
      if (cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^${t}\$" -test.fuzztime="$time" -test.fuzzminimizetime=2s \
        -test.fuzzcachedir="$fuzzcache/$pkg" -test.paniconexit0 -test.timeout=10m0s) 2>&1 | tee "$log"; then
        rm -f "$log"; break
      fi
      added=$(comm -13 <(echo "$before") <(ls "$corpus" 2>/dev/null | sort || true) | head -1)
      # A finding always writes its input under testdata/fuzz. Without one,
      # a run that ends in "context deadline exceeded" is the fuzzer's own
      # time limit hitting a slow input on a busy machine, not a failure of
      # the target: it is tried up to twice more (CI runs about 40 targets,
      # and this happened to one of them in most runs of 2026-12-03), and
      # fails CI if it happens a third time.
      if [ -z "$added" ] && grep -q 'context deadline exceeded' "$log" && [ "$attempt" -lt 3 ]; then
        echo "fuzz $pkg $t: the fuzzer's time limit cut a slow input (no input written); trying again (attempt $((attempt + 1)) of 3)"
        attempt=$((attempt + 1)); rm -f "$log"; continue
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
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)
if [ "$findings" -gt 0 ]; then
  inputs=inputs; [ "$findings" -eq 1 ] && inputs=input
  echo "fuzzing found $findings failing $inputs; see FUZZ FINDING lines above"
  if [ "${FUZZ_REPORT_ONLY:-0}" != "1" ]; then exit 1; fi
fi
