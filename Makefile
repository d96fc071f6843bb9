.PHONY: test check fuzz bench build

build:
	go build ./...

test:
	go test ./...

check:
	bash .ci/run

fuzz:
	bash scripts/fuzz-short.sh

# Regression benchmarks (docs/performance.md): BENCH selects benchmarks,
# COUNT the repetitions benchstat needs; compare runs with
# `benchstat old.txt bench.txt`.
BENCH ?= .
COUNT ?= 6
bench:
	go test -run '^$$' -bench '$(BENCH)' -benchmem -count $(COUNT) -timeout 120m . | tee bench.txt
