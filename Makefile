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
# COUNT the rounds benchstat needs; compare runs with
# `benchstat old.txt bench.txt`. Rounds are interleaved (each round runs
# every selected benchmark once) so that a shared machine's slow spells
# fall on all benchmarks alike and their ratios stay fair.
BENCH ?= .
COUNT ?= 6
bench:
	go test -c -o bench.test .
	rm -f bench.txt
	for i in $$(seq $(COUNT)); do \
		echo "round $$i of $(COUNT)"; \
		./bench.test -test.run '^$$' -test.bench '$(BENCH)' -test.benchmem -test.count 1 -test.timeout 120m > bench.round || exit 1; \
		cat bench.round; cat bench.round >> bench.txt; \
	done
	rm -f bench.test bench.round
