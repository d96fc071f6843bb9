package report

import (
	"flag"
	"testing"
)

var benchSessions = flag.Int("bench-sessions", 10000, "sessions in BenchmarkBuild (try 100000 for the large case)")

// BenchmarkBuild builds results for 12 strategies × all metrics.
func BenchmarkBuild(b *testing.B) {
	o := syntheticOutcomes(12, *benchSessions, 1)
	info := syntheticInfo()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(o, info, BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
