package report

import (
	"flag"
	"os"
	"testing"
)

var (
	sampleDir        = flag.String("sample-dir", "", "render a sample report into this directory")
	sampleStrategies = flag.Int("sample-strategies", 12, "strategies in the sample report")
	sampleSessions   = flag.Int("sample-sessions", 400, "sessions in the sample report")
)

// TestSampleReport renders a sample report (12 strategies by default) for
// people to look at; it runs only with -sample-dir.
func TestSampleReport(t *testing.T) {
	if *sampleDir == "" {
		t.Skip("use -sample-dir DIR to render a sample report")
	}
	o := syntheticOutcomes(*sampleStrategies, *sampleSessions, 3)
	info := syntheticInfo()
	info.Counts.SessionsReplayed = int64(*sampleSessions)
	p := syntheticPrices
	res, err := Build(o, info, BuildOptions{Prices: &p})
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(res, *sampleDir, RenderOptions{WriteResults: true}); err != nil {
		t.Fatal(err)
	}
	if err := Summary(os.Stdout, res); err != nil {
		t.Fatal(err)
	}
}
