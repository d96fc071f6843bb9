.PHONY: test check fuzz bench build

build:
	go build ./...

test:
	go test ./...

check:
	bash .ci/run

fuzz:
	bash scripts/fuzz-short.sh

bench:
	go test -run '^$$' -bench . -benchmem -count 10 . | tee bench.txt
