package sim

import "testing"

// TestPointAtNamesTheSeriesPoint pins the words that follow a scenario's
// name wherever a run's results are named (report, plan, check): a sweep
// point by its parameter and value, a growth point by its factor, tool
// count and where the added servers came from, nothing for a plain run.
// Growth points had no words: their results read as a plain run's.
func TestPointAtNamesTheSeriesPoint(t *testing.T) {
	tests := []struct {
		name   string
		sweep  *SweepPoint
		growth *GrowthPoint
		want   string
	}{
		{"plain run", nil, nil, ""},
		{"sweep point", &SweepPoint{Param: "params.cache_warm_start", Value: 0.5}, nil, " at sweep point params.cache_warm_start=0.5"},
		{"generated growth", nil, &GrowthPoint{Factor: 2, Tools: 267}, " at growth point ×2 (267 tools, generated servers)"},
		{"growth from a directory", nil, &GrowthPoint{Factor: 1.5, Tools: 1, From: "catalogs"}, " at growth point ×1.5 (1 tool, servers from catalogs)"},
		{"today's catalog", nil, &GrowthPoint{Factor: 1, Tools: 133, From: "catalogs"}, " at growth point ×1 (133 tools, nothing added)"},
		// The factor replayed first, the one asked beside it
		// (TestGrowthOutputsNameTheReplayedFactor, internal/plan).
		{"replayed above the factor asked", nil, &GrowthPoint{Factor: 2, Replayed: 45.0 / 14, Tools: 45}, " at growth point ×3.214 (×2 asked; 45 tools, generated servers)"},
		{"replayed as asked", nil, &GrowthPoint{Factor: 2, Replayed: 2, Tools: 28}, " at growth point ×2 (28 tools, generated servers)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PointAt(tt.sweep, tt.growth); got != tt.want {
				t.Errorf("PointAt = %q, want %q", got, tt.want)
			}
			run := RunInfo{SweepPoint: tt.sweep, GrowthPoint: tt.growth}
			if got := run.PointAt(); got != tt.want {
				t.Errorf("RunInfo.PointAt = %q, want %q", got, tt.want)
			}
		})
	}
}
