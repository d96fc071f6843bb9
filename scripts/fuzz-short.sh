#!/usr/bin/env bash
# Runs every fuzz target in the module for FUZZTIME (default 10s) each.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -h -o '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    echo "fuzz $pkg $t ($FUZZTIME)"
    go test -run='^$' -fuzz="^${t}\$" -fuzztime="$FUZZTIME" "$pkg"
  done
done
