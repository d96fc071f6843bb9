.PHONY: test check fuzz bench build tools

build:
	go build ./...

# -timeout=30m as .ci/run sets it: cmd/defersim's tests come close to go
# test's default 10-minute limit on a loaded machine; it is a hang guard,
# not a speed check.
test:
	go test -timeout=30m ./...

check:
	bash .ci/run

# Developer tools into $(go env GOPATH)/bin: benchstat compares benchmark
# runs (make bench), staticcheck is the linter CI runs. Versions are pinned
# like .ci/run's.
tools:
	go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
	go install honnef.co/go/tools/cmd/staticcheck@v0.8.2

fuzz:
	bash scripts/fuzz-short.sh

# Regression benchmarks (docs/performance.md): BENCH selects benchmarks,
# COUNT the rounds benchstat needs; compare runs with
# `benchstat old.txt bench.txt`. Rounds are interleaved (each round runs
# every selected benchmark once) so that a shared machine's slow spells
# fall on all benchmarks alike and their ratios stay fair. It ends with
# the medians of the ratios issues 9 and 20 set targets on
# (scripts/bench-ratios.sh). BENCHTIME is the same fixed number of
# operations for every benchmark, so that a ratio compares like with like:
# with Go's default (1s) the 32-strategy replay ran one operation and the
# 8-strategy one three (docs/performance.md, "How to measure").
BENCH ?= .
COUNT ?= 6
BENCHTIME ?= 3x
bench:
	go test -c -o bench.test .
	rm -f bench.txt
	for i in $$(seq $(COUNT)); do \
		echo "round $$i of $(COUNT)"; \
		./bench.test -test.run '^$$' -test.bench '$(BENCH)' -test.benchtime $(BENCHTIME) -test.benchmem -test.count 1 -test.timeout 120m > bench.round || exit 1; \
		cat bench.round; cat bench.round >> bench.txt; \
	done
	rm -f bench.test bench.round
	sh scripts/bench-ratios.sh bench.txt
