#!/bin/sh
# Instructions per operation of a benchmark from two callgrind profiles of
# the same test binary, one run with -test.benchtime 1x and one with 3x:
# (3x - 1x) / 2, so the benchmark's setup cancels out. Split into the Go
# runtime's scheduler (goroutine threads spin and hand off under valgrind,
# which runs one thread at a time: this part varies from run to run), the
# garbage collector (varies with where its cycles fall), and the rest (the
# code measured, allocation included), which repeats within 0.3% between
# runs of the same binary. With -v, also the 30 functions of the rest
# that cost most per operation (docs/performance.md, "Decoding at the limit").
# Usage: scripts/callgrind-per-op.sh [-v] cg.1x cg.3x
verbose=0; [ "$1" = -v ] && { verbose=1; shift; }
{ callgrind_annotate --auto=no --threshold=100 "$1" | sed 's/^/A /'; callgrind_annotate --auto=no --threshold=100 "$2" | sed 's/^/B /'; } |
awk -v verbose=$verbose '
$2 ~ /^[0-9,]+$/ && $3 ~ /^\(/ && $0 !~ /PROGRAM TOTALS/ && $0 ~ /^[AB] +[0-9,]+ +\([^)]*\) +[^ ]+:[^ ]+( \[.*\])?$/ {
	n = $2; gsub(/,/, "", n)
	f = $0; sub(/^[AB] +[0-9,]+ +\([^)]*\) +/, "", f); sub(/ \[.*$/, "", f); sub(/^[^:]*:/, "", f); gsub(/'"'"'[0-9]+/, "", f)
	v[f] += ($1 == "B") ? n / 2 : -n / 2
}
END {
	sched = "^runtime\\.(lock2|unlock2|lock|unlock|findRunnable|casgstatus|goschedImpl|gosched_m|goschedIfBusy|wakep|schedule|execute|globrunq[a-z]*|runq[a-z]*|stealWork|procyield|osyield|futex[a-z]*|notesleep|notewakeup|mPark|stopm|startm|checkTimers|netpoll[a-zA-Z]*|nanotime[0-9a-z.]*|usleep|freeDeadSpanSPMCs|mcall|park_m|resetspinning|pidle[a-zA-Z]*|semasleep|semawakeup|gopark|goready|ready|handoffp|exitsyscall[a-zA-Z0-9]*|entersyscall[a-zA-Z]*|reentersyscall|systemstack|morestack|newstack|mstart[a-zA-Z0-9]*|sysmon|retake|injectglist|acquirep|releasep[a-zA-Z]*|wirep|gcstopm|bgsweep|sweepone|freeSomeWbufs|\\(\\*timers\\)\\..*|\\(\\*m\\)\\.clearAllpSnapshot|\\(\\*gcControllerState\\)\\..*|gogo.*|\\(\\*timeHistogram\\)\\..*)$|^gogo$|^(runtime\\.)?(futex|usleep|nanotime1|osyield|procyield)"
	gc = "^runtime\\.(gc[a-zA-Z]*|scan[a-zA-Z]*|tryDeferToSpanScan|greyobject|findObject|markBits.*|typePointers\\..*|wbBuf.*|bulkBarrier.*|sweep.*|\\(\\*mspan\\)\\..*|\\(\\*gcWork\\)\\..*|\\(\\*sweepLocked\\)\\..*|\\(\\*spanInlineMarkBits\\)\\..*|spanSetBlockPool.*|\\(\\*spanSet\\)\\..*|markroot.*|heapBits.*|pageIndexOf|spanOf.*|\\(\\*mheap\\)\\..*|\\(\\*mcentral\\)\\..*|\\(\\*pageAlloc\\)\\..*|bgscavenge|\\(\\*scavengerState\\)\\..*|memclrNoHeapPointers|deductAssistCredit)$|^gcWriteBarrier"
	for (f in v) {
		if (f ~ sched) s += v[f]; else if (f ~ gc) g += v[f]; else { w += v[f]; if (verbose) print v[f], f | "sort -rn | head -30" }
	}
	if (verbose) close("sort -rn | head -30")
	printf "per operation: total %.1fM  code %.1fM  gc %.1fM  scheduler %.1fM\n", (s + g + w) / 1e6, w / 1e6, g / 1e6, s / 1e6
}'
