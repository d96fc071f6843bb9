package report

import (
	"fmt"
	"testing"

	"github.com/defersim/defersim/internal/stats"
)

// BenchmarkBootstrap measures the bootstrap alone (replicates of the default
// metrics, 1,000 resamples) on a builder shaped like a real run: 8
// strategies, 3,000 sessions (m = n) and 20,000 (m-out-of-n, m = 5,000).
// cpu-sec/op counts every core.
func BenchmarkBootstrap(b *testing.B) {
	for _, n := range []int{3000, 20000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			o := syntheticOutcomes(8, n, 1)
			boot, err := bootstrapMetrics(nil)
			if err != nil {
				b.Fatal(err)
			}
			rs := stats.NewResampling(n, DefaultBootstrap, DefaultMaxBootstrapSessions, 7)
			bl := &builder{o: o, boot: boot, rs: rs, n: n, workers: workers(0), scale: rs.Scale()}
			bl.exact()
			cpu0 := processCPU()
			b.ResetTimer()
			for b.Loop() {
				bl.bootstrap()
			}
			if cpu := processCPU(); cpu > 0 {
				b.ReportMetric((cpu-cpu0)/float64(b.N), "cpu-sec/op")
			}
		})
	}
}
