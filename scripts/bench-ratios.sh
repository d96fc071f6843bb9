#!/bin/sh
# Prints the ratios issues 9 and 20 set targets on, per round of a `make bench`
# file (rounds are interleaved, so each ratio compares two benchmarks run
# a few seconds apart) and their median: wall (sec/op) and CPU
# (cpu-sec/op). Usage: scripts/bench-ratios.sh [bench.txt]
f="${1:-bench.txt}"
awk '
function metric(unit,   i) { for (i = 3; i < NF; i++) if ($(i+1) == unit) return $i; return "" }
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	n[name]++; r = n[name]
	wall[name, r] = metric("ns/op") / 1e9; cpu[name, r] = metric("cpu-sec/op")
	evs[name, r] = metric("events/s") * wall[name, r] # events per operation
	if (r > rounds) rounds = r
}
function ratio(a, b, kind, label,   r, k, v, i, j, t) {
	k = 0
	for (r = 1; r <= rounds; r++) {
		if (kind == "wall") { x = wall[a, r]; y = wall[b, r] } else { x = cpu[a, r]; y = cpu[b, r] }
		if (kind == "cpu/event") { x = (evs[a, r] > 0) ? x / evs[a, r] : 0; y = (evs[b, r] > 0) ? y / evs[b, r] : 0 }
		if (x > 0 && y > 0) v[++k] = x / y
	}
	if (k == 0) return
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	med = (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	printf "%-52s %-9s median %6.2fx  (min %.2fx, max %.2fx, %d rounds)\n", label, kind, med, v[1], v[k], k
}
END {
	for (kind = 0; kind < 2; kind++) {
		K = kind ? "cpu" : "wall"
		ratio("DecodeOnly", "DecodeCeiling", K, "DecodeOnly / DecodeCeiling (target <= 1.25 in CPU)")
		ratio("Replay/strategies=8", "DecodeOnly", K, "Replay 8 strategies / DecodeOnly (target <= 2)")
		ratio("ReplayCold/strategies=8", "DecodeOnly", K, "a run from scratch, 8 strategies / DecodeOnly")
		ratio("Replay/strategies=32", "Replay/strategies=8", K, "Replay 32 / Replay 8 strategies (target <= 3)")
		ratio("Replay/strategies=1", "DecodeOnly", K, "Replay 1 strategy / DecodeOnly")
		ratio("Replay/strategies=8", "ReplayScaling/sessions=200", K, "2,000 / 200 sessions (target 10 +- 2)")
		ratio("ReplayTokenizer/tokenizer=o200k_base", "ReplayTokenizer/tokenizer=bytes/3.5", K, "o200k_base / bytes/3.5 tokenizer")
	}
	ratio("Replay/strategies=8", "ReplayScaling/sessions=200", "cpu/event", "2,000 / 200 sessions per event (linear: 1)")
	ratio("ReplayScaling/procs=1", "ReplayScaling/procs=2", "wall", "speed-up from 1 to 2 cores (target >= 1.7)")
}' "$f"
